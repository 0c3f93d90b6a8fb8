/**
 * Reading a test's stream input (SPEC §19): events, text, a body or an Observable, each
 * through the linter as it arrives, with the error of an input that breaks kept apart from
 * the report of what came before it.
 * @module
 */

import { Linter } from "../lint/linter.ts";
import type { LintOptions, LintReport } from "../lint/types.ts";
import { InputReader, type ReaderOptions } from "../report/input-reader.ts";
import { protobufFor } from "../sse/content-type.ts";
import { isResponse } from "../streams/source.ts";

/**
 * What the test helpers read: events (an array or any iterable, an async iterable or a
 * `ReadableStream` of events, an Observable such as `AbstractAgent.run()` returns), or text
 * (a string, bytes, a `Response`, an async iterable or `ReadableStream` whose first value is
 * bytes or a string, such as a Node stream of a file: SSE, or JSON Lines when the first
 * character that is not whitespace is `{` or `[`). A string is text, never an iterable of
 * characters.
 */
export type StreamInput =
  | Iterable<unknown>
  | AsyncIterable<unknown>
  | ReadableStream<unknown>
  | Response
  | string
  | Uint8Array
  | {
      subscribe(observer: {
        next(value: unknown): void;
        error(error: unknown): void;
        complete(): void;
      }): unknown;
    };

/** What reading gave: the report, and the input's own error when it broke before its end. */
export interface Outcome {
  readonly report: LintReport;
  /** Text that was one JSON array of events, read as that list (as the command does). */
  readonly array?: boolean;
  /** Present when the input errored; the report then holds the findings up to there. */
  readonly broke?: { readonly error: unknown };
}

/**
 * Lints `input` to its end. What the linter itself throws (a caller's schema, bad options)
 * rejects the promise; an error of the input (its iterator, body or Observable) does not:
 * it comes back in `broke`, with the report of what was read before it.
 */
export async function readInput(input: StreamInput, options: LintOptions): Promise<Outcome> {
  if (typeof input === "string") return text(options, (push) => push(utf8.encode(input)));
  if (input instanceof Uint8Array) return text(options, (push) => push(input));
  if (isResponse(input)) {
    const body = input.body;
    // With { protobuf }, a response of its media type is read as frames (SPEC §21.3).
    const frames = protobufFor(input.headers.get("content-type"), options.protobuf);
    const read: ReaderOptions = frames !== undefined ? { ...options, format: "proto" } : options;
    return body === null ? text(read, () => {}) : readPulled(pullStream(body), read);
  }
  // Told apart by their methods, not their classes: a stream or an Observable of another
  // realm or library is as good.
  if (has<ReadableStream<unknown>>(input, "getReader")) {
    return readPulled(pullStream(input), options);
  }
  if (has<Observable>(input, "subscribe")) {
    return events(options, (push) => observe(input, push));
  }
  if (has<AsyncIterable<unknown>>(input, Symbol.asyncIterator)) {
    return readPulled(pullIterable(input), options);
  }
  if (has<Iterable<unknown>>(input, Symbol.iterator)) {
    return events(options, (push) => {
      for (const event of input) push(event);
    });
  }
  throw notAnInput(input);
}

/** `value` is an object with a method `key`, so taken to be a `T`. */
const has = <T>(value: unknown, key: PropertyKey): value is T =>
  isObject(value) && typeof value[key] === "function";

const notAnInput = (value: unknown): TypeError =>
  new TypeError(
    `not a stream input: ${describeValue(value)} (expected events, an async iterable, a ReadableStream, a Response, SSE or JSON Lines text or bytes, or an Observable)`,
  );

type Observable = Extract<StreamInput, { subscribe: unknown }>;

/**
 * Runs `read`, which hands each value to `push`. A throw from `push` is the linter's and
 * passes through; any other throw (or rejection) is the input's, and ends the reading.
 */
async function feed(
  read: (push: (value: unknown) => void) => void | Promise<void>,
  push: (value: unknown) => void,
): Promise<{ readonly error: unknown } | undefined> {
  let pushing = false;
  try {
    await read((value) => {
      pushing = true;
      push(value);
      pushing = false;
    });
    return undefined;
  } catch (error) {
    if (pushing) throw error;
    return { error };
  }
}

/** Events, through a {@link Linter}. */
async function events(
  options: LintOptions,
  read: (push: (event: unknown) => void) => void | Promise<void>,
): Promise<Outcome> {
  const linter = new Linter(options);
  const broke = await feed(read, (event) => linter.push(event));
  return outcome(linter.end(), broke);
}

/**
 * Text, through the command's {@link InputReader}: lines, byte offsets and the input's
 * format and size, or, for one JSON array of events, those events.
 */
async function text(
  options: LintOptions,
  read: (push: (chunk: Uint8Array) => void) => void | Promise<void>,
): Promise<Outcome> {
  const reader = new InputReader(options);
  const broke = await feed(read, (chunk) => reader.push(chunk as Uint8Array));
  const { report, array } = reader.finish();
  return outcome(report, broke, array);
}

const outcome = (
  report: LintReport,
  broke: { readonly error: unknown } | undefined,
  array = false,
): Outcome => ({
  report,
  ...(array ? { array } : {}),
  ...(broke === undefined ? {} : { broke }),
});

/** Values pulled one by one, and how to stop the source before its end. */
interface Pull {
  next(): Promise<{ readonly done?: boolean | undefined; readonly value?: unknown }>;
  stop(): void;
}

const pullStream = (stream: ReadableStream<unknown>): Pull => {
  const reader = stream.getReader();
  return {
    next: () => reader.read(),
    // Cancelling an errored stream only rejects, which is ignored.
    stop: () => void reader.cancel().catch(() => {}),
  };
};

const pullIterable = (iterable: AsyncIterable<unknown>): Pull => {
  const iterator = iterable[Symbol.asyncIterator]();
  return {
    next: () => iterator.next(),
    stop: () => void iterator.return?.()?.catch(() => {}),
  };
};

/**
 * A `ReadableStream` or an async iterable: text when its first value is bytes or a string
 * (so must every value be then: a Node stream of a file, a body), events otherwise. One
 * that ends at once is empty text, as a `Response` without a body.
 */
async function readPulled(source: Pull, options: LintOptions): Promise<Outcome> {
  let first: Awaited<ReturnType<Pull["next"]>>;
  try {
    first = await source.next();
  } catch (error) {
    return outcome((await text(options, () => {})).report, { error });
  }
  const isText = first.done === true || isChunk(first.value);
  const rest = async (push: (value: unknown) => void) => {
    for (let r = first; r.done !== true; r = await source.next()) push(r.value);
  };
  let result: Outcome | undefined;
  try {
    result = isText
      ? await text(options, (push) => rest((chunk) => push(asBytes(chunk))))
      : await events(options, rest);
    return result;
  } finally {
    // Stopped before its end, by the linter or by a value that is not text.
    if (result === undefined || result.broke !== undefined) source.stop();
  }
}

const isChunk = (value: unknown): value is Uint8Array | string =>
  value instanceof Uint8Array || typeof value === "string";

/** A chunk of a text stream, as bytes; anything else breaks the input. */
function asBytes(chunk: unknown): Uint8Array {
  if (isChunk(chunk)) return typeof chunk === "string" ? utf8.encode(chunk) : chunk;
  throw new TypeError(
    `a text stream (its first chunk was bytes or a string) has a chunk that is neither: ${describeValue(chunk)}`,
  );
}

/**
 * Subscribes, settles when the Observable completes or errors, and unsubscribes then (by
 * the subscription's `unsubscribe`, or the function `subscribe` returned); values after
 * that are ignored. A throw from `push` (the linter's) unsubscribes too, and rejects.
 */
function observe(source: Observable, push: (value: unknown) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let subscribed = false;
    let subscription: unknown;
    const settle = (error?: { readonly error: unknown }) => {
      if (settled) return;
      settled = true;
      // An Observable that completes inside subscribe() has returned nothing yet: it is
      // unsubscribed as soon as it returns.
      if (subscribed) unsubscribe(subscription);
      if (error === undefined) resolve();
      else reject(error.error);
    };
    subscription = source.subscribe({
      next(value) {
        if (settled) return;
        try {
          push(value);
        } catch (error) {
          settle({ error });
        }
      },
      error(error) {
        settle({ error });
      },
      complete() {
        settle();
      },
    });
    subscribed = true;
    if (settled) unsubscribe(subscription);
  });
}

function unsubscribe(subscription: unknown): void {
  if (typeof subscription === "function") subscription();
  else if (has<{ unsubscribe(): void }>(subscription, "unsubscribe")) subscription.unsubscribe();
}

const isObject = (value: unknown): value is Record<PropertyKey, unknown> =>
  (typeof value === "object" && value !== null) || typeof value === "function";

/** A value's kind, for a message (never its content: it may be anything). */
function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

const utf8 = new TextEncoder();
