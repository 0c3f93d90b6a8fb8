/**
 * The client: POST a run to an agent and read its events, verified by default.
 * @module
 */

import { isBranded } from "../_util/brand.ts";
import { type AgUiEvent, isAgUiEvent, type RunAgentInput } from "../events/index.ts";
import { isEventStreamType, protobufFor } from "../sse/content-type.ts";
import { ChunkExpanderStream } from "../streams/chunk-expander.ts";
import type { SourceOptions } from "../streams/source.ts";
import { decodedStream, verifiedEvents } from "../streams/verified-events.ts";
import { type EventOf, shapeError, type VerifierOptions } from "../verify/verifier.ts";

/** Options of {@link runAgent}. */
export interface RunAgentOptions extends VerifierOptions, SourceOptions {
  /**
   * Check the events against the protocol's rules and the `schema`, if any (default true).
   * See {@link runAgent}.
   */
  verify?: boolean | undefined;
  /** The `fetch` to use; by default the global one, looked up at call time. */
  fetch?: ((request: Request) => Promise<Response>) | undefined;
  /** Aborting cancels the request, or the event stream once it is open, with the reason. */
  signal?: AbortSignal | undefined;
  /**
   * Extra request headers; a `content-type` or `accept` here replaces the default one.
   * Spelled out rather than `HeadersInit`, which only the DOM lib declares.
   */
  headers?: Headers | Record<string, string> | [string, string][] | undefined;
  /**
   * Expand `*_CHUNK` events into the start, content and end events they stand for (SPEC
   * §15), after verifying the raw stream. Default false.
   */
  expandChunks?: boolean | undefined;
}

/** A stream of events that can also be read with `for await`, in every runtime. */
export type EventStream<T = AgUiEvent> = ReadableStream<T> & AsyncIterable<T>;

const BODY_START = 1024;

/**
 * A cross-realm brand, as for `VerifyError`: `Symbol.for` keys are shared by every realm,
 * so the guard also recognises errors made by another copy of this library.
 */
const BRAND = Symbol.for("ag-ui-verify.HttpError");

/**
 * The agent answered with something other than an event stream: a non-2xx status, or a
 * 2xx response whose content type is not `text/event-stream`.
 *
 * @example
 * ```ts
 * import { HttpError, type RunAgentInput, runAgent } from "ag-ui-verify";
 * const input: RunAgentInput = {
 *   threadId: "t1", runId: "r1", messages: [], tools: [], context: [], state: {}, forwardedProps: {},
 * };
 * try {
 *   await runAgent("https://agent.example/run", input);
 * } catch (e) {
 *   if (e instanceof HttpError) console.log(e.status); // e.g. 401
 * }
 * ```
 */
export class HttpError extends Error {
  /** Always `"HttpError"`. */
  override readonly name = "HttpError";
  /** The request's method. */
  readonly method: string;
  /** The request's URL. */
  readonly url: string;
  /** The response's status. */
  readonly status: number;
  /** The response's status text (often empty over HTTP/2). */
  readonly statusText: string;
  /** The response's headers. */
  readonly headers: Headers;
  /** The first 1024 characters of the response body, when it could be read. */
  readonly body: string;
  /** The response itself. Its body has been read (the start of it, into `body`). */
  readonly response: Response;

  /** Made by {@link runAgent}; `body` is the start of the response body. */
  constructor(message: string, request: Request, response: Response, body: string) {
    super(message);
    this.method = request.method;
    this.url = request.url;
    this.status = response.status;
    this.statusText = response.statusText;
    this.headers = response.headers;
    this.body = body;
    this.response = response;
  }

  /** @internal */
  get [BRAND](): true {
    return true;
  }
}

/**
 * True when `value` is an {@link HttpError}, including one made in another realm or by
 * another copy of this library, where `instanceof` fails.
 *
 * @example
 * ```ts
 * import { isHttpError } from "ag-ui-verify";
 * isHttpError(new Error("x")); // false
 * ```
 */
export function isHttpError(value: unknown): value is HttpError {
  return isBranded(value, HttpError, BRAND);
}

/** Reads the start of a body for an error message, then lets the connection go. */
async function bodyStart(response: Response): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const utf8 = new TextDecoder();
  let text = "";
  try {
    while (text.length < BODY_START) {
      const chunk = await reader.read();
      if (chunk.done) return text + utf8.decode();
      text += utf8.decode(chunk.value, { stream: true });
    }
    await reader.cancel();
  } catch {
    // The start read so far is all the message needs.
  }
  return text.slice(0, BODY_START);
}

/**
 * Runs an agent: POSTs `input` (a RunAgentInput) as JSON with `Accept: text/event-stream`
 * and returns the response's events as a stream, verified against the protocol's rules.
 * `content-type` and `accept` are set only when the caller's headers (`headers`, or the
 * Request's) do not set them.
 *
 * - A non-2xx response throws an {@link HttpError}, as does a 2xx response that is not
 *   `text/event-stream`; a response without a body gives a stream that errors with
 *   `STREAM_ENDED_BEFORE_RUN_STARTED`.
 * - With `verify: false` neither the rules nor a `schema` are checked, but the SSE is still
 *   decoded and the stream still errors (with a `VerifyError`, rule 0) on data that is not
 *   JSON or not an event object.
 * - With a `schema` (and verification on), the stream is typed by the schema's output
 *   (`agUiSchema` gives `KnownAgUiEvent`s).
 * - The returned stream is async-iterable even where `ReadableStream` is not (Safari).
 *
 * @example
 * ```ts
 * import { runAgent } from "ag-ui-verify";
 * const events = await runAgent("https://agent.example/run", {
 *   threadId: "t1", runId: "r1", messages: [], tools: [], context: [], state: {}, forwardedProps: {},
 * });
 * for await (const event of events) console.log(event.type);
 * ```
 */
export function runAgent<
  O extends RunAgentOptions & {
    readonly verify?: true | undefined;
  },
>(
  urlOrRequest: string | URL | Request,
  input: RunAgentInput,
  options?: O,
): Promise<EventStream<EventOf<O>>>;
/**
 * Without verification, or with options whose type does not say: {@link AgUiEvent}s. (With
 * chunks expanded the stream keeps the schema's typing: a start, content or end event made
 * from a chunk the schema accepted has the fields its type names.)
 */
export function runAgent(
  urlOrRequest: string | URL | Request,
  input: RunAgentInput,
  options: RunAgentOptions,
): Promise<EventStream>;
export async function runAgent(
  urlOrRequest: string | URL | Request,
  input: RunAgentInput,
  options: RunAgentOptions = {},
): Promise<EventStream<unknown>> {
  return requestEvents(urlOrRequest, input, options, (response) => {
    const events =
      options.verify === false
        ? decodedEvents(response, options)
        : verifiedEvents(response, options);
    return options.expandChunks === true
      ? events.pipeThrough(new ChunkExpanderStream({ maxIds: options.maxIds }))
      : events;
  });
}

/** What {@link requestEvents} needs of the options: the request's. @internal */
export type RequestOptions = Pick<RunAgentOptions, "fetch" | "signal" | "headers" | "protobuf">;

/**
 * {@link runAgent}'s request and response handling, with the pipeline that reads the body
 * given: `runAgent`'s, or the 1.1 pipeline's (`ag-ui-verify/conform`).
 * @internal
 */
export async function requestEvents<T>(
  urlOrRequest: string | URL | Request,
  input: RunAgentInput,
  options: RequestOptions,
  pipeline: (response: Response) => ReadableStream<T>,
): Promise<EventStream<T>> {
  const headers = new Headers(urlOrRequest instanceof Request ? urlOrRequest.headers : undefined);
  for (const [name, value] of new Headers(options.headers)) headers.set(name, value);
  // The caller's own content-type and accept win.
  if (!headers.has("content-type")) headers.set("content-type", "application/json");
  const protobuf = options.protobuf;
  if (!headers.has("accept")) {
    headers.set(
      "accept",
      protobuf === undefined ? "text/event-stream" : `${protobuf.mediaType}, text/event-stream`,
    );
  }
  const init: RequestInit = { method: "POST", headers, body: JSON.stringify(input) };
  if (options.signal !== undefined) init.signal = options.signal;
  const request = new Request(urlOrRequest, init);
  // The global is looked up now, not at import, so a fetch installed later is used; neither
  // is called as a method, which a runtime's own fetch would reject ("Illegal invocation").
  const custom = options.fetch;
  const response = await (custom ? custom(request) : fetch(request));

  const describe = `${request.method} ${request.url}`;
  if (!response.ok) {
    const body = await bodyStart(response);
    const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
    throw new HttpError(
      `${describe} failed with ${status}${body ? `: ${body.slice(0, 200)}` : ""}`,
      request,
      response,
      body,
    );
  }
  const type = response.headers.get("content-type");
  const events = isEventStreamType(type) || protobufFor(type, protobuf) !== undefined;
  if (response.body !== null && !events) {
    const body = await bodyStart(response);
    throw new HttpError(
      `${describe} answered ${response.status} with content-type ${JSON.stringify(type ?? "(none)")}, expected "text/event-stream"`,
      request,
      response,
      body,
    );
  }

  return withAsyncIterator(cancelOnAbort(pipeline(response), options.signal));
}

/** Decoded but unverified events: only rule 0's shape checks, so the stream's type holds. */
function decodedEvents(response: Response, options: SourceOptions): ReadableStream<AgUiEvent> {
  let index = 0;
  return decodedStream<AgUiEvent>(
    response,
    "runAgent",
    options,
    (value, enqueue) => {
      const error = shapeError(value, index++);
      if (error !== undefined) throw error;
      if (isAgUiEvent(value)) enqueue(value);
    },
    () => {},
  );
}

/** Cancels `stream` with the signal's reason when the signal aborts. */
function cancelOnAbort<T>(
  stream: ReadableStream<T>,
  signal: AbortSignal | undefined,
): ReadableStream<T> {
  if (signal === undefined) return stream;
  const reader = stream.getReader();
  const abort = () => reader.cancel(signal.reason).catch(() => {});
  signal.addEventListener("abort", abort, { once: true });
  return new ReadableStream<T>(
    {
      async pull(controller) {
        let result: ReadableStreamReadResult<T>;
        try {
          result = await reader.read();
        } catch (error) {
          if (signal.aborted) throw signal.reason;
          signal.removeEventListener("abort", abort);
          throw error;
        }
        // An abort cancels the source, which then reads as done: report the abort instead.
        if (signal.aborted) throw signal.reason;
        if (result.done) {
          signal.removeEventListener("abort", abort);
          controller.close();
        } else controller.enqueue(result.value);
      },
      cancel(reason) {
        signal.removeEventListener("abort", abort);
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

function isAsyncIterable<T>(
  stream: ReadableStream<T>,
): stream is ReadableStream<T> & AsyncIterable<T> {
  return typeof Reflect.get(stream, Symbol.asyncIterator) === "function";
}

/** Gives a stream `[Symbol.asyncIterator]` where the runtime's ReadableStream lacks it. */
function withAsyncIterator<T>(stream: ReadableStream<T>): ReadableStream<T> & AsyncIterable<T> {
  if (!isAsyncIterable(stream)) {
    const iterate = (): AsyncIterableIterator<T> => {
      const reader = stream.getReader();
      let finished = false;
      const finish = () => {
        finished = true;
        reader.releaseLock();
      };
      const iterator: AsyncIterableIterator<T> = {
        async next() {
          let result: ReadableStreamReadResult<T>;
          try {
            result = await reader.read();
          } catch (error) {
            finish();
            throw error;
          }
          if (!result.done) return { done: false, value: result.value };
          finish();
          return { done: true, value: undefined };
        },
        async return(value?: unknown) {
          if (!finished) {
            const cancelled = reader.cancel();
            finish();
            await cancelled;
          }
          return { done: true, value };
        },
        [Symbol.asyncIterator]() {
          return iterator;
        },
      };
      return iterator;
    };
    Object.defineProperty(stream, Symbol.asyncIterator, { value: iterate, configurable: true });
  }
  if (isAsyncIterable(stream)) return stream;
  throw new TypeError("the event stream could not be made async-iterable");
}
