/**
 * `--url`: run an agent (POST a RunAgentInput) and lint its events as they arrive.
 * @module
 */

import { readFile } from "node:fs/promises";
import process from "node:process";
import { text as streamText } from "node:stream/consumers";
import type { RunAgentInput } from "../events/index.ts";
import { HttpError, runAgent } from "../http/client.ts";
import { isEventStreamType } from "../http/fetch.ts";
import { protobuf } from "../proto/index.ts";
import { plural } from "../report/render.ts";
import { protobufFor } from "../sse/content-type.ts";
import { lintOptions, type Options } from "./args.ts";
import { ioMessage, messageOf, UsageError } from "./problems.ts";
import { inputReader, type Read } from "./read.ts";

async function readInput(path: string | undefined): Promise<RunAgentInput> {
  if (path === undefined) {
    return {
      threadId: `thread-${crypto.randomUUID()}`,
      runId: `run-${crypto.randomUUID()}`,
      messages: [],
      tools: [],
      context: [],
      state: {},
      forwardedProps: {},
    };
  }
  let text: string;
  try {
    text = path === "-" ? await streamText(process.stdin) : await readFile(path, "utf8");
  } catch (error) {
    throw new UsageError(ioMessage(error, `--input ${JSON.stringify(path)}`));
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--input ${JSON.stringify(path)} is not JSON: ${messageOf(error)}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError(
      `--input ${JSON.stringify(path)} must hold a JSON object (a RunAgentInput)`,
    );
  }
  return value as RunAgentInput;
}

/** The innermost message of a network error (`fetch failed` says little by itself). */
function causeOf(error: unknown): string {
  let current = error;
  for (
    let depth = 0;
    depth < 5 && current instanceof Error && current.cause !== undefined;
    depth++
  ) {
    current = current.cause;
  }
  return messageOf(current).replace(/\s+/g, " ");
}

/**
 * Runs the agent at `url` and lints its events as they arrive. Gives up (a
 * {@link UsageError}) after `--timeout` without a byte, and says so when the connection
 * breaks before the stream ends. `runAgent` makes the request and judges the response (an
 * HTTP error, a body that is no event stream); the body itself goes to the linter, which
 * reads on after an error where the verifier would stop.
 */
export async function lintUrl(url: string, options: Options): Promise<Read> {
  const input = await readInput(options.input);
  /** The body's format, from the response's content type: SSE unless it is protobuf. */
  let format: "sse" | "proto" = "sse";
  const seconds = options.timeoutMs / 1000;
  const idle = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let events = 0;
  const heard = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const after = events === 0 ? "" : ` after ${plural(events, "event")}`;
      idle.abort(
        new UsageError(`no byte from ${url} for ${seconds} s${after} (--timeout ${seconds})`),
      );
    }, options.timeoutMs);
  };
  let body: ReadableStream<Uint8Array> | undefined;
  // The body is kept for the linter; runAgent gets the response without it, once it has
  // judged the status and the content type.
  const keep = async (request: Request): Promise<Response> => {
    const response = await fetch(request);
    heard();
    const type = response.headers.get("content-type");
    const proto = protobufFor(type, protobuf) !== undefined;
    if (response.body === null || !response.ok || !(proto || isEventStreamType(type))) {
      return response;
    }
    if (proto) format = "proto";
    body = response.body;
    const { status, statusText, headers } = response;
    return new Response(null, { status, statusText, headers });
  };
  heard();
  try {
    try {
      await runAgent(url, input, {
        fetch: keep,
        signal: idle.signal,
        // SSE is asked for (a protobuf answer is read too): --header 'accept: …' changes it.
        headers: options.headers.some(([name]) => name.toLowerCase() === "accept")
          ? [...options.headers]
          : [["accept", "text/event-stream"], ...options.headers],
        verify: false,
        protobuf,
      });
    } catch (error) {
      if (idle.signal.aborted) throw idle.signal.reason;
      if (error instanceof HttpError) throw new UsageError(error.message.replace(/\s+/g, " "));
      throw new UsageError(`cannot reach ${url}: ${causeOf(error)}`);
    }
    const reader = inputReader({ ...lintOptions(options), format });
    const source = body?.getReader();
    const abort = () => void source?.cancel(idle.signal.reason).catch(() => {});
    idle.signal.addEventListener("abort", abort, { once: true });
    try {
      for (;;) {
        const { done, value } = source === undefined ? { done: true } : await source.read();
        if (done === true || value === undefined) break;
        heard();
        reader.push(value);
        events = reader.events;
      }
    } catch (thrown) {
      if (idle.signal.aborted) throw idle.signal.reason;
      throw new UsageError(
        `the connection to ${url} broke after ${plural(events, "event")}: ${causeOf(thrown)}`,
      );
    }
    const { report, events: kept } = reader.finish();
    return { name: url, report, live: true, ...(kept === undefined ? {} : { events: kept }) };
  } finally {
    clearTimeout(timer);
  }
}
