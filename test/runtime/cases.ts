// The runtime cases: what every runtime (Node, a bare EdgeVM, Deno, Bun, workerd, headless
// Chromium) must do, through its own global `fetch`, against the local agent server
// (test/server/agent-server.ts).
//
// Web-standard only: no Node APIs, no vitest, no runtime imports. This file is bundled into
// a browser page, an EdgeVM script and a Cloudflare Worker, and imported by Deno and Bun;
// the library under test is passed in as `lib`.

import type * as ConformLib from "../../src/conform/index.ts";
import type * as Lib from "../../src/index.ts";
import type { AgUiEvent, RunAgentInput } from "../../src/index.ts";
import type * as ProtoLib from "../../src/proto/index.ts";
import type * as SchemaLib from "../../src/schema/index.ts";

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

/** Where {@link schemaMismatchRun} has its one event that `agUiSchema` rejects. */
export const SCHEMA_MISMATCH_INDEX = 15;

/**
 * {@link validRun} with `role: "robot"` on the TEXT_MESSAGE_START of `m2` (index
 * {@link SCHEMA_MISMATCH_INDEX}): in order by every rule, so only a schema check rejects it
 * (`SCHEMA_MISMATCH`, field `role`).
 */
export function schemaMismatchRun(): unknown[] {
  return validRun().map((event, i) =>
    i === SCHEMA_MISMATCH_INDEX ? { ...event, role: "robot" } : event,
  );
}

/**
 * The parts of the library the runtime cases use: the main entry's, `agUiSchema` from the
 * `ag-ui-verify/schema` subpath, `conformingEvents` from `ag-ui-verify/conform`, and
 * `protobuf` from `ag-ui-verify/proto`.
 */
export interface RuntimeLib {
  runAgent: typeof Lib.runAgent;
  verifiedEvents: typeof Lib.verifiedEvents;
  verifyResponse: typeof Lib.verifyResponse;
  verifyingFetch: typeof Lib.verifyingFetch;
  VerifyError: typeof Lib.VerifyError;
  HttpError: typeof Lib.HttpError;
  isVerifyError: typeof Lib.isVerifyError;
  agUiSchema: typeof SchemaLib.agUiSchema;
  conformingEvents: typeof ConformLib.conformingEvents;
  protobuf: typeof ProtoLib.protobuf;
}

/** One runtime case: `run` resolves, or throws an Error saying what went wrong. */
export interface RuntimeCase {
  name: string;
  run: () => Promise<void>;
}

/** `verifyingFetch` with the protobuf transport, typed as the global `fetch`. */
function verifyingFetchOf(lib: RuntimeLib, protobuf: RuntimeLib["protobuf"]): typeof fetch {
  return lib.verifyingFetch({ protobuf }) as typeof fetch;
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

/** `value` with every object's keys sorted: protobuf decodes fields in the wire's order. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sortedKeys(Reflect.get(value, key));
  return out;
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return show(error);
}

/**
 * The events of an LF-framed SSE text (what `verifyingFetch` writes, its `lineEnds` being
 * "lf"): the `data:` lines of each block that has any, other lines skipped. Written apart
 * from the library, so that its output is checked by something other than itself.
 */
function decodeSse(text: string): unknown[] {
  const events: unknown[] = [];
  for (const block of text.split("\n\n")) {
    const data = block
      .split("\n")
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(line.startsWith("data: ") ? 6 : 5));
    if (data.length > 0) events.push(JSON.parse(data.join("\n")));
  }
  return events;
}

/**
 * Checks that `error` is a VerifyError, by `isVerifyError` and by `instanceof`, and has
 * `want`'s fields.
 */
function checkVerifyError(
  lib: RuntimeLib,
  error: unknown,
  want: Partial<Pick<Lib.VerifyError, "code" | "index" | "field" | "eventType">>,
): void {
  assert(lib.isVerifyError(error), `expected a VerifyError, got ${describe(error)}`);
  assert(
    error instanceof lib.VerifyError,
    `isVerifyError holds but instanceof VerifyError does not: ${describe(error)}`,
  );
  for (const [key, value] of Object.entries(want)) {
    equal(Reflect.get(error, key), value, `VerifyError ${key}`);
  }
}

/** A body's text with its BOM, if any, kept (`Response.text()` drops it). */
async function textOf(response: Response): Promise<string> {
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(await response.arrayBuffer());
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
        checkVerifyError(lib, error, { code: "TEXT_MESSAGE_NOT_OPEN", index: VIOLATION_PREFIX });
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
      name: "schema-checked run",
      async run() {
        const schema = { schema: lib.agUiSchema };
        const valid = await drain(
          await lib.runAgent(`${base}/run/valid?chunk=7`, RUN_INPUT, schema),
        );
        assert(
          !valid.failed,
          `the valid run errored with agUiSchema after ${valid.events.length} events: ` +
            describe(valid.error),
        );
        sameEvents(valid.events, validRun(), "valid run with agUiSchema");

        // Without the schema, the run with the robot is accepted whole: the rules allow it.
        const url = `${base}/run/schema-mismatch`;
        const unchecked = await drain(await lib.runAgent(url, RUN_INPUT));
        assert(
          !unchecked.failed,
          `the schema-mismatch run errored without a schema: ${describe(unchecked.error)}`,
        );
        sameEvents(unchecked.events, schemaMismatchRun(), "schema-mismatch run without a schema");

        const { events, error, failed } = await drain(await lib.runAgent(url, RUN_INPUT, schema));
        assert(failed, `agUiSchema let the robot through: no error after ${events.length} events`);
        sameEvents(
          events,
          validRun().slice(0, SCHEMA_MISMATCH_INDEX),
          "events before the schema mismatch",
        );
        checkVerifyError(lib, error, {
          code: "SCHEMA_MISMATCH",
          index: SCHEMA_MISMATCH_INDEX,
          field: "role",
          eventType: "TEXT_MESSAGE_START",
        });
      },
    },
    {
      name: "protobuf (ag-ui-verify/proto)",
      run: async () => {
        const read = async (stream: ReadableStream<unknown>) => {
          const events: unknown[] = [];
          const reader = stream.getReader();
          try {
            for (let r = await reader.read(); !r.done; r = await reader.read())
              events.push(r.value);
          } catch (error) {
            return { events, error, failed: true };
          }
          return { events, error: undefined, failed: false };
        };
        const post = (path: string, f: typeof fetch = fetch) =>
          f(`${base}${path}`, { method: "POST", body: "{}" });
        const protobuf = lib.protobuf;
        // The same run as SSE gives, frames split across network chunks.
        const valid = await read(
          lib.verifiedEvents(await post("/proto/valid?chunk=7"), { protobuf }),
        );
        assert(!valid.failed, `the protobuf run errored: ${describe(valid.error)}`);
        sameEvents(
          valid.events.map(sortedKeys),
          validRun().map(sortedKeys),
          "the protobuf run through verifiedEvents",
        );
        // A body cut inside a frame is a truncated run, after every whole frame.
        const cut = await read(
          lib.verifiedEvents(await post("/proto/cut?events=4&bytes=5"), { protobuf }),
        );
        assert(cut.failed, "the cut protobuf run did not error");
        checkVerifyError(lib, cut.error, { code: "PROTO_TRUNCATED", index: 4 });
        equal(cut.events.length, 4, "events before the cut frame");
        // The proxy re-serves it frame for frame and appends a marked RUN_ERROR frame.
        const proxied = verifyingFetchOf(lib, protobuf);
        const marked = await read(
          lib.verifiedEvents(await post("/proto/cut?events=4", proxied), { protobuf }),
        );
        assert(!marked.failed, `the proxied run errored: ${describe(marked.error)}`);
        equal(marked.events.length, 5, "events through the protobuf proxy");
        equal(
          (marked.events[4] as { code?: unknown }).code,
          "AG_UI_VERIFY_STREAM_ENDED_BEFORE_RUN_CLOSED",
          "the appended RUN_ERROR's code",
        );
      },
    },
    {
      name: "the 1.1 pipeline (ag-ui-verify/conform)",
      run: async () => {
        const read = async (path: string) => {
          const warnings: ConformLib.ConformWarning[] = [];
          const response = await fetch(`${base}${path}`, { method: "POST", body: "{}" });
          const stream = lib.conformingEvents(response.body, {
            onWarning: (w) => warnings.push(w),
          });
          const events: unknown[] = [];
          const reader = stream.getReader();
          try {
            for (let r = await reader.read(); !r.done; r = await reader.read())
              events.push(r.value);
          } catch (error) {
            return { events, warnings, error, failed: true };
          }
          return { events, warnings, error: undefined, failed: false };
        };
        // A conforming run comes out whole and quiet, in small network chunks too.
        const valid = await read("/run/valid?chunk=7");
        assert(!valid.failed, `the valid run errored: ${describe(valid.error)}`);
        sameEvents(valid.events, validRun(), "the valid run through conformingEvents");
        equal(valid.warnings.length, 0, "warnings on the valid run");
        // The unknown role "robot" is unrecognised material: stripped, with one warning.
        const robot = await read("/run/schema-mismatch");
        assert(!robot.failed, `the robot run errored: ${describe(robot.error)}`);
        const { role: _role, ...withoutRole } = schemaMismatchRun()[
          SCHEMA_MISMATCH_INDEX
        ] as Record<string, unknown>;
        sameEvents(
          robot.events,
          validRun().map((e, i) => (i === SCHEMA_MISMATCH_INDEX ? withoutRole : e)),
          "the robot run through conformingEvents",
        );
        equal(robot.warnings.length, 1, "warnings on the robot run");
        equal(robot.warnings[0]?.code, "UNKNOWN_MEMBER_STRIPPED", "the warning's code");
        equal(robot.warnings[0]?.path, "/role", "the warning's path");
        equal(robot.warnings[0]?.index, SCHEMA_MISMATCH_INDEX, "the warning's index");
        // A violation still fails the stream, after every event before it.
        const broken = await read("/run/violation");
        assert(broken.failed, "the violation run did not error");
        checkVerifyError(lib, broken.error, {
          code: "TEXT_MESSAGE_NOT_OPEN",
          index: VIOLATION_PREFIX,
        });
        equal(broken.events.length, VIOLATION_PREFIX, "events before the violation");
      },
    },
    {
      name: "verifyingFetch",
      async run() {
        // The engine's own fetch, looked up by verifyingFetch at each call.
        const verified = lib.verifyingFetch();
        const post: RequestInit = {
          method: "POST",
          headers: { "content-type": "application/json", accept: "text/event-stream" },
          body: JSON.stringify(RUN_INPUT),
        };

        // A valid run with heartbeat comments, `id:`, `event:` and `retry:` lines: the same
        // bytes as the agent sent, which a re-encoding would not give, and its headers.
        const valid = `${base}/run/rich?chunk=7`;
        const sent = await textOf(await fetch(valid, post));
        const response = await verified(valid, post);
        equal(response.status, 200, "status of the verified valid run");
        equal(response.headers.get("content-type"), "text/event-stream", "its content type");
        equal(response.headers.get("x-request-id"), "req-42", "its x-request-id");
        assert(
          sent.startsWith("\ufeff") && sent.includes(": ping\nid: 1\n"),
          `the agent's text has no BOM or no heartbeat: ${show(sent)}`,
        );
        const text = await textOf(response);
        equal(text, sent, "the verified valid run's text");
        sameEvents(decodeSse(text), validRun(), "the verified valid run's events");

        // A run cut off mid-run ends with a RUN_ERROR message after the agent's own bytes.
        const cut = `${base}/run/cut?events=4`;
        const cutSent = await textOf(await fetch(cut, post));
        const cutText = await textOf(await verified(cut, post));
        assert(
          cutText.startsWith(cutSent) && cutText.length > cutSent.length,
          `the cut run should be the agent's bytes and then more: ${show(cutText)}`,
        );
        const events = decodeSse(cutText);
        sameEvents(events.slice(0, -1), validRun().slice(0, 4), "the cut run's events");
        const last = events.at(-1) as
          | { type?: unknown; code?: unknown; message?: unknown }
          | undefined;
        equal(last?.type, "RUN_ERROR", "the cut run's last event type");
        // Marked as the verifier's, not the agent's (SPEC §16).
        equal(
          last?.code,
          "AG_UI_VERIFY_STREAM_ENDED_BEFORE_RUN_CLOSED",
          "the cut run's RUN_ERROR code",
        );
        assert(
          typeof last?.message === "string" &&
            last.message.startsWith("ag-ui-verify rejected the stream: "),
          `the cut run's RUN_ERROR message is not marked: ${show(last?.message)}`,
        );

        // Not an event stream, or not 2xx: the very Response the wrapped fetch returned.
        const returned: Response[] = [];
        const recording = lib.verifyingFetch({
          fetch: async (input, init) => {
            const r = await fetch(input, init);
            returned.push(r);
            return r;
          },
        });
        for (const path of ["/content-type/text%2Fhtml", "/status/502"]) {
          const r = await recording(`${base}${path}`, post);
          assert(r === returned.at(-1), `${path}: verifyingFetch did not return fetch's Response`);
          await r.body?.cancel();
        }
        equal(returned.length, 2, "calls of the wrapped fetch");
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
