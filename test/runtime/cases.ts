// The runtime cases: what every runtime (Node, a bare EdgeVM, Deno, Bun, workerd, headless
// Chromium) must do, through its own global `fetch`, against the local agent server
// (test/server/agent-server.ts).
//
// Web-standard only: no Node APIs, no vitest, no runtime imports. This file is bundled into
// a browser page, an EdgeVM script and a Cloudflare Worker, and imported by Deno and Bun;
// the library under test is passed in as `lib`.

import type * as Lib from "../../src/index.ts";
import type { AgUiEvent, RunAgentInput } from "../../src/index.ts";

/** The input every case POSTs. */
export const RUN_INPUT: RunAgentInput = {
  threadId: "thread-1",
  runId: "run-1",
  messages: [],
  tools: [],
  context: [],
  state: {},
  forwardedProps: {},
};

/**
 * A realistic valid run (21 events): a step, a text message with multi-byte deltas and a
 * tool call inside it, the tool's result, a second message, and RUN_FINISHED.
 */
export function validRun(): AgUiEvent[] {
  const { threadId, runId } = RUN_INPUT;
  return [
    { type: "RUN_STARTED", threadId, runId },
    { type: "STEP_STARTED", stepName: "plan" },
    { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Café au lait " },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "in 東京: " },
    { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "weather", parentMessageId: "m1" },
    { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '{"city":' },
    { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '"東京"}' },
    { type: "TOOL_CALL_END", toolCallId: "c1" },
    {
      type: "TOOL_CALL_RESULT",
      toolCallId: "c1",
      messageId: "tool-1",
      content: '{"sky":"☀️","tempC":21}',
      role: "tool",
    },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "sunny, 21 °C " },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "🚀" },
    { type: "TEXT_MESSAGE_END", messageId: "m1" },
    { type: "STEP_FINISHED", stepName: "plan" },
    { type: "STATE_SNAPSHOT", snapshot: { city: "東京", done: true } },
    { type: "TEXT_MESSAGE_START", messageId: "m2", role: "assistant" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "m2", delta: "Anything else? " },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "m2", delta: "👋🏽 ñ" },
    { type: "TEXT_MESSAGE_END", messageId: "m2" },
    { type: "CUSTOM", name: "note", value: { emoji: "🚀" } },
    { type: "RUN_FINISHED", threadId, runId, result: { answer: "sunny" } },
  ];
}

/**
 * A longer valid run of exactly `n` events (n ≥ 2; rounded up to fit whole messages):
 * RUN_STARTED, messages `m-0`, `m-1`, … of start/content/end, RUN_FINISHED.
 */
export function longValidRun(n: number): AgUiEvent[] {
  const { threadId, runId } = RUN_INPUT;
  const events: AgUiEvent[] = [{ type: "RUN_STARTED", threadId, runId }];
  for (let i = 0; events.length + 1 < n; i++) {
    const messageId = `m-${i}`;
    events.push({ type: "TEXT_MESSAGE_START", messageId, role: "assistant" });
    // Fill the remaining budget with content, at least one delta per message.
    const room = Math.max(1, Math.min(8, n - events.length - 2));
    for (let j = 0; j < room; j++) {
      events.push({ type: "TEXT_MESSAGE_CONTENT", messageId, delta: `part ${j} é東🚀 ` });
    }
    events.push({ type: "TEXT_MESSAGE_END", messageId });
  }
  events.push({ type: "RUN_FINISHED", threadId, runId });
  return events;
}

/** How many valid events {@link violationRun} starts with: `m1` has ended by then. */
export const VIOLATION_PREFIX = 13;

/**
 * The first {@link VIOLATION_PREFIX} events of {@link validRun}, then a
 * TEXT_MESSAGE_CONTENT for `m1`, which already ended: `TEXT_MESSAGE_NOT_OPEN` at index
 * VIOLATION_PREFIX. The run goes on after it, so a verifier must stop there by itself.
 */
export function violationRun(): unknown[] {
  const run = validRun();
  return [
    ...run.slice(0, VIOLATION_PREFIX),
    { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "too late" },
    ...run.slice(VIOLATION_PREFIX),
  ];
}

/** The parts of the library the runtime cases use. */
export interface RuntimeLib {
  runAgent: typeof Lib.runAgent;
  verifiedEvents: typeof Lib.verifiedEvents;
  verifyResponse: typeof Lib.verifyResponse;
  VerifyError: typeof Lib.VerifyError;
  HttpError: typeof Lib.HttpError;
  isVerifyError: typeof Lib.isVerifyError;
}

/** One runtime case: `run` resolves, or throws an Error saying what went wrong. */
export interface RuntimeCase {
  name: string;
  run: () => Promise<void>;
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

function equal(actual: unknown, expected: unknown, what: string): void {
  if (actual !== expected) {
    throw new Error(`${what}: expected ${show(expected)}, got ${show(actual)}`);
  }
}

function show(value: unknown): string {
  try {
    const text = typeof value === "string" ? JSON.stringify(value) : String(value);
    return text.length > 300 ? `${text.slice(0, 300)}…` : text;
  } catch {
    return Object.prototype.toString.call(value);
  }
}

function sameEvents(actual: unknown[], expected: unknown[], what: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a === e) return;
  let i = 0;
  while (i < Math.min(actual.length, expected.length)) {
    if (JSON.stringify(actual[i]) !== JSON.stringify(expected[i])) break;
    i++;
  }
  throw new Error(
    `${what}: got ${actual.length} events, expected ${expected.length}; first difference at ` +
      `index ${i}: got ${show(JSON.stringify(actual[i]))}, expected ${show(JSON.stringify(expected[i]))}`,
  );
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return show(error);
}

/** Reads every event with `for await`; returns them with the error that ended the stream, if any. */
async function drain(
  stream: AsyncIterable<AgUiEvent>,
): Promise<{ events: AgUiEvent[]; error: unknown; failed: boolean }> {
  const events: AgUiEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
  } catch (error) {
    return { events, error, failed: true };
  }
  return { events, error: undefined, failed: false };
}

/** The cases every runtime runs, against the agent server at `base` (no trailing slash). */
export function runtimeCases(lib: RuntimeLib, base: string): RuntimeCase[] {
  return [
    {
      name: "valid run",
      async run() {
        const stream = await lib.runAgent(`${base}/run/valid`, RUN_INPUT);
        const { events, error, failed } = await drain(stream);
        assert(!failed, `the valid run errored after ${events.length} events: ${describe(error)}`);
        sameEvents(events, validRun(), "valid run");
      },
    },
    {
      name: "violation",
      async run() {
        const stream = await lib.runAgent(`${base}/run/violation`, RUN_INPUT);
        const { events, error, failed } = await drain(stream);
        assert(failed, `the violation run ended without an error after ${events.length} events`);
        sameEvents(events, validRun().slice(0, VIOLATION_PREFIX), "events before the violation");
        assert(lib.isVerifyError(error), `expected a VerifyError, got ${describe(error)}`);
        assert(
          error instanceof lib.VerifyError,
          `isVerifyError holds but instanceof VerifyError does not: ${describe(error)}`,
        );
        equal(error.code, "TEXT_MESSAGE_NOT_OPEN", "VerifyError code");
        equal(error.index, VIOLATION_PREFIX, "VerifyError index");
      },
    },
    {
      name: "CRLF framing",
      async run() {
        const stream = await lib.runAgent(`${base}/run/valid?crlf=1&chunk=7`, RUN_INPUT);
        const { events, error, failed } = await drain(stream);
        assert(!failed, `the CRLF run errored after ${events.length} events: ${describe(error)}`);
        sameEvents(events, validRun(), "CRLF run");
      },
    },
    {
      name: "HTTP error",
      async run() {
        let caught: unknown;
        let resolved = false;
        try {
          await lib.runAgent(`${base}/status/502`, RUN_INPUT);
          resolved = true;
        } catch (error) {
          caught = error;
        }
        assert(!resolved, "runAgent resolved for a 502 response");
        assert(caught instanceof lib.HttpError, `expected an HttpError, got ${describe(caught)}`);
        equal(caught.status, 502, "HttpError status");
        assert(
          caught.message.startsWith("POST "),
          `HttpError message should start with "POST ": ${show(caught.message)}`,
        );
        assert(
          caught.message.includes("502"),
          `HttpError message should name the status: ${show(caught.message)}`,
        );
      },
    },
  ];
}
