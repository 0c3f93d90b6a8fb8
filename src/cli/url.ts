/**
 * `--url`: run an agent (POST a RunAgentInput) and check its events as they arrive.
 * @module
 */

import { readFile } from "node:fs/promises";
import process from "node:process";
import { text as streamText } from "node:stream/consumers";
import { isVerifyError, type VerifyError } from "../errors.ts";
import type { RunAgentInput } from "../events/index.ts";
import { HttpError, runAgent } from "../http/client.ts";
import { plural, type Result } from "../report/render.ts";
import { Tally } from "../report/tally.ts";
import { agUiSchema } from "../schema/index.ts";
import type { Options } from "./args.ts";
import { ioMessage, messageOf, UsageError } from "./problems.ts";

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
 * Runs the agent at `url` and checks its events as they arrive. Gives up (a
 * {@link UsageError}) after `--timeout` without a byte, and says so when the connection
 * breaks before the stream ends.
 */
export async function checkUrl(url: string, options: Options): Promise<Result> {
  const input = await readInput(options.input);
  const tally = new Tally(true);
  const seconds = options.timeoutMs / 1000;
  const idle = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const heard = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const after = tally.events === 0 ? "" : ` after ${plural(tally.events, "event")}`;
      idle.abort(
        new UsageError(`no byte from ${url} for ${seconds} s${after} (--timeout ${seconds})`),
      );
    }, options.timeoutMs);
  };
  let bytes = 0;
  // Counts the body's bytes on their way to the library's decoder, and restarts the clock.
  const counting = async (request: Request): Promise<Response> => {
    const response = await fetch(request);
    heard();
    // Bodies of other statuses are runAgent's to read (errors) or have none.
    if (
      response.body === null ||
      !response.ok ||
      response.status === 204 ||
      response.status === 205
    ) {
      return response;
    }
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          bytes += chunk.byteLength;
          heard();
          controller.enqueue(chunk);
        },
      }),
    );
    const { status, statusText, headers } = response;
    return new Response(body, { status, statusText, headers });
  };
  const start = performance.now();
  heard();
  try {
    let events: Awaited<ReturnType<typeof runAgent>>;
    try {
      events = await runAgent(url, input, {
        fetch: counting,
        signal: idle.signal,
        headers: [...options.headers],
        allowSequentialRuns: options.allowSequentialRuns,
        maxBufferSize: options.maxBufferSize,
        maxIds: options.maxIds,
        schema: options.strict ? agUiSchema : undefined,
      });
    } catch (error) {
      if (idle.signal.aborted) throw idle.signal.reason;
      if (error instanceof HttpError) throw new UsageError(error.message.replace(/\s+/g, " "));
      throw new UsageError(`cannot reach ${url}: ${causeOf(error)}`);
    }
    let error: VerifyError | undefined;
    try {
      for await (const event of events) tally.add(event);
    } catch (thrown) {
      if (!isVerifyError(thrown)) {
        if (idle.signal.aborted) throw idle.signal.reason;
        const run = tally.runs[tally.runs.length - 1];
        const when =
          run !== undefined && run.outcome === undefined ? "mid-run" : "before the stream ended";
        throw new UsageError(
          `the connection to ${url} broke ${when}, after ${plural(tally.events, "event")}: ${causeOf(thrown)}`,
        );
      }
      error = thrown;
    }
    return {
      input: url,
      format: "url",
      tally,
      bytes,
      durationMs: performance.now() - start,
      error,
    };
  } finally {
    clearTimeout(timer);
  }
}
