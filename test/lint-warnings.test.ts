// The warnings of SPEC §18.2 through `lint()`: each one where it belongs and not where it
// does not, its message, its bounds, and for each a run of the real @ag-ui/client 1.0.0
// showing the loss the warning names (the tool gets {}, the state stays stale, the run
// errors...). The client parts use web-standard APIs only (fetch's Response, rxjs), so the
// file runs in the edge project too. CLIENT_REJECTS is checked against verifyEvents itself
// in test/lint-client-differential.test.ts.

import {
  AbstractAgent,
  type AgentSubscriber,
  type BaseEvent,
  HttpAgent,
  type Message,
  type RunAgentInput,
} from "@ag-ui/client";
import fc from "fast-check";
import { from, type Observable } from "rxjs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { verifyAll } from "../src/index.ts";
import { type Finding, type LintOptions, lint, WARNING_CODES } from "../src/lint/index.ts";
import { JsonText } from "../src/lint/json-text.ts";
import { ignoredLine } from "../src/lint/warnings.ts";

type Ev = { type: string } & Record<string, unknown>;

const RS: Ev = { type: "RUN_STARTED", threadId: "t1", runId: "r1" };
const RF: Ev = { type: "RUN_FINISHED", threadId: "t1", runId: "r1" };
/** A second run on the thread, with its own id (a reused one is RUN_ID_REUSED). */
const RS2: Ev = { ...RS, runId: "r2" };
const RF2: Ev = { ...RF, runId: "r2" };

/**
 * The producer duties of SPEC §18.5 this file does not test (test/lint-duties.test.ts does):
 * the streams here leave calls unanswered, reuse ids and so on without meaning to.
 */
const DUTIES: ReadonlySet<string> = new Set(
  WARNING_CODES.slice(WARNING_CODES.indexOf("THREAD_ID_MISMATCH")),
);

/** The warnings `lint` gives (those of §18.2, and TOOL_CALL_RESULT_BEFORE_END). */
function warnings(events: readonly unknown[], options?: LintOptions) {
  const report = lint(events, options);
  expect(report.errors, "the stream must be valid").toBe(0);
  return report.findings.filter((f) => f.severity === "warning" && !DUTIES.has(f.code));
}

function codes(found: readonly Finding[]): Array<[string, number]> {
  return found.map((f) => [f.code, f.index]);
}

// ---------------------------------------------------------------------------------------
// The real client

/** An agent of @ag-ui/client 1.0.0 whose run is the given events, through its full pipeline. */
class Replay extends AbstractAgent {
  readonly #events: readonly Ev[];
  constructor(events: readonly Ev[], initialState?: unknown) {
    super({ threadId: "t1", initialState });
    this.#events = events;
  }
  run(_input: RunAgentInput): Observable<BaseEvent> {
    return from(this.#events as BaseEvent[]);
  }
}

/** Runs the events through `runAgent` (runId "r1"); what the agent holds afterwards. */
async function replay(events: readonly Ev[], subscriber?: AgentSubscriber, initialState?: unknown) {
  const agent = new Replay(events, initialState);
  await agent.runAgent({ runId: "r1" }, subscriber);
  return { messages: agent.messages as Message[], state: agent.state as unknown };
}

beforeEach(() => {
  // The client logs what it drops; the tests read it from the spies instead.
  vi.spyOn(console, "warn").mockImplementation(() => {});
  vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

const start = (id: string, more: Record<string, unknown> = {}): Ev => ({
  type: "TOOL_CALL_START",
  toolCallId: id,
  toolCallName: "weather",
  ...more,
});
const args = (id: string, delta: unknown): Ev => ({
  type: "TOOL_CALL_ARGS",
  toolCallId: id,
  delta,
});
const end = (id: string): Ev => ({ type: "TOOL_CALL_END", toolCallId: id });

// ---------------------------------------------------------------------------------------

const result = (callId: string, messageId = "t1"): Ev => ({
  type: "TOOL_CALL_RESULT",
  toolCallId: callId,
  messageId,
  content: "sunny",
});

describe("TOOL_CALL_ARGS_NOT_JSON", () => {
  const broken = [RS, start("c1"), args("c1", '{"city":'), args("c1", "Paris}"), end("c1"), RF];

  it("is given at TOOL_CALL_END when the joined deltas are not JSON text", () => {
    const found = warnings(broken);
    expect(codes(found)).toEqual([["TOOL_CALL_ARGS_NOT_JSON", 4]]);
    expect(found[0]?.message).toBe(
      'TOOL_CALL_END at index 4: the arguments of tool call "c1", its TOOL_CALL_ARGS deltas joined (14 characters), are not JSON text: it breaks off at position 8, near "Paris}"; @ag-ui/client 1.0.0 cannot parse them and hands the tool {} instead. [TOOL_CALL_ARGS_NOT_JSON, warning]',
    );
    const cut = warnings([RS, start("c1"), args("c1", '{"city":"Paris"'), end("c1"), RF]);
    expect(cut[0]?.message).toContain("are not JSON text: it ends before its value does;");
    const blank = warnings([RS, start("c1"), args("c1", " \n"), end("c1"), RF]);
    expect(blank[0]?.message).toContain("are not JSON text: it holds no value;");
  });

  it("is not given for JSON text, split anywhere, nor for no arguments at all", () => {
    expect(
      warnings([
        RS,
        start("c1"),
        args("c1", ' {"city": "Pa'),
        args("c1", ""),
        args("c1", 'ris"} '),
        end("c1"),
        start("c2"),
        end("c2"),
        start("c3"),
        args("c3", "42"),
        end("c3"),
        RF,
      ]),
    ).toEqual([]);
  });

  it("checks each call's own deltas, also when calls interleave and an id is re-opened", () => {
    const found = warnings([
      RS,
      start("a"),
      start("b"),
      args("a", "{"),
      args("b", "[1,"),
      args("a", "}"),
      args("b", "2"),
      end("a"),
      end("b"),
      start("a"),
      args("a", "{}"),
      end("a"),
      RF,
    ]);
    expect(codes(found)).toEqual([["TOOL_CALL_ARGS_NOT_JSON", 8]]);
    expect(found[0]?.message).toContain('tool call "b"');
  });

  it("joins a delta that is no string as the client does, with its string form", () => {
    expect(codes(warnings([RS, start("c1"), args("c1", 5), end("c1"), RF]))).toEqual([]);
    expect(
      codes(warnings([RS, start("c1"), { ...args("c1", 0), delta: undefined }, end("c1"), RF])),
    ).toEqual([["TOOL_CALL_ARGS_NOT_JSON", 3]]);
  });

  it("does not check arguments beyond maxBufferSize, and forgets a call when it ends", () => {
    const big = [RS, start("c1"), args("c1", "x".repeat(50)), end("c1"), RF];
    expect(codes(warnings(big, { maxBufferSize: 49 }))).toEqual([]);
    expect(codes(warnings(big, { maxBufferSize: 50 }))).toEqual([["TOOL_CALL_ARGS_NOT_JSON", 3]]);
    // 40 characters at a time, ended each time: never more than 49 held.
    const many = [RS];
    for (let i = 0; i < 5; i++)
      many.push(start(`c${i}`), args(`c${i}`, "y".repeat(40)), end(`c${i}`));
    many.push(RF);
    expect(warnings(many, { maxBufferSize: 49 })).toHaveLength(5);
  });

  it("bounds the quoted ids and the text it quotes", () => {
    const id = "i".repeat(150);
    const found = warnings([RS, start(id), args(id, `{${"z".repeat(5_000)}`), end(id), RF]);
    const message = found[0]?.message ?? "";
    expect(message).toContain(`tool call "${"i".repeat(100)}"…,`);
    expect(message).toContain(
      '5,001 characters), are not JSON text: it breaks off at position 1, near "{zzzzzzzzzzzzzzzzzzzz";',
    );
    expect(message.length).toBeLessThan(500);
  });

  it("@ag-ui/client 1.0.0 hands the tool {} for them", async () => {
    let toolCallArgs: unknown;
    const { messages } = await replay(broken, {
      onToolCallEndEvent: (p) => {
        toolCallArgs = p.toolCallArgs;
      },
    });
    expect(toolCallArgs).toEqual({});
    const assistant = messages.find((m) => m.role === "assistant");
    expect(assistant?.role === "assistant" && assistant.toolCalls?.[0]?.function.arguments).toBe(
      '{"city":Paris}',
    );
  });
});

describe("JsonText: JSON text read piece by piece, as JSON.parse decides it", () => {
  /** Whether `pieces`, read one by one, are JSON text; and JSON.parse's verdict on them joined. */
  function both(pieces: readonly string[]): [boolean, boolean] {
    const json = new JsonText();
    for (const p of pieces) json.feed(p);
    let parses = true;
    try {
      JSON.parse(pieces.join(""));
    } catch {
      parses = false;
    }
    return [json.end(), parses];
  }

  /** `text` cut at the given places. */
  function split(text: string, cuts: readonly number[]): string[] {
    const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
    const out: string[] = [];
    let from = 0;
    for (const c of at) {
      out.push(text.slice(from, c));
      from = c;
    }
    out.push(text.slice(from));
    return out;
  }

  const cuts = fc.array(fc.nat(), { maxLength: 6 });

  it("accepts every JSON text, split anywhere", () => {
    fc.assert(
      fc.property(fc.json(), fc.constantFrom("", " ", "\n\t", "\r "), cuts, (text, pad, at) => {
        expect(both(split(pad + text + pad, at))).toEqual([true, true]);
      }),
      { seed: 18_2, numRuns: 3_000 },
    );
  });

  it("agrees with JSON.parse on near misses and on strings of JSON's characters", () => {
    const alphabet = fc.constantFrom(
      ...'{}[],:"\\/ \t\n\r0123456789.-+eEtrufalsn\u0000\u001f\u2028\ud800éxbfu'.split(""),
      "true",
      "false",
      "null",
      "\\u00e9",
      "\\n",
      '"\\a"',
      '"\\x41"',
      '"\\u12"',
      '"\\U0041"',
      '"\\/\\b\\f\\r\\t"',
      "1e+5",
      "-0.5",
      "\ufeff",
    );
    const soup = fc.array(alphabet, { maxLength: 24 }).map((xs) => xs.join(""));
    const nearMiss = fc.tuple(fc.json(), fc.nat(), fc.nat(), alphabet).map(([text, a, b, c]) => {
      const i = a % (text.length + 1);
      return b % 3 === 0
        ? text.slice(0, i) + text.slice(i + 1)
        : b % 3 === 1
          ? text.slice(0, i) + c + text.slice(i)
          : text.slice(0, i) + c + text.slice(i + 1);
    });
    fc.assert(
      fc.property(fc.oneof(soup, nearMiss), cuts, (text, at) => {
        const [mine, parse] = both(split(text, at));
        expect([text, mine]).toEqual([text, parse]);
      }),
      { seed: 18_3, numRuns: 20_000 },
    );
  });

  it("keeps the nesting however deep, in pieces", () => {
    const nest = (depth: number, k: number) => {
      let open = "";
      let close = "";
      for (let i = 0; i < depth; i++) {
        const array = (i * k) % 3 !== 0;
        open += array ? "[" : '{"k":';
        close = (array ? "]" : "}") + close;
      }
      return `${open}1${close}`;
    };
    for (const depth of [30, 31, 32, 33, 95, 5_000]) {
      for (const k of [1, 2, 7]) {
        const good = nest(depth, k);
        // The same with one closer swapped, at a level deep in the spill-over part.
        const at = good.length - 1 - Math.min(depth - 1, 40);
        const bad = good.slice(0, at) + (good[at] === "]" ? "}" : "]") + good.slice(at + 1);
        for (const text of [good, bad]) {
          const pieces = split(text, [7, 61, 62, 500, text.length - 3]);
          expect([depth, k, text === good, ...both(pieces)]).toEqual([
            depth,
            k,
            text === good,
            text === good,
            text === good,
          ]);
        }
      }
    }
  });

  it("names the first character no JSON text can have there", () => {
    const at = (pieces: string[]) => {
      const json = new JsonText();
      for (const p of pieces) json.feed(p);
      return json.failedAt;
    };
    expect(at(['{"a":', "1,", "}"])).toBe(7);
    expect(at(["[01]"])).toBe(2);
    expect(at(["tru", "x"])).toBe(3);
    expect(at(['"a', "\u0001"])).toBe(2);
    expect(at(["[1] ", "2"])).toBe(4);
    expect(at(["[1, 2"])).toBe(-1);
  });
});

describe("TOOL_CALL_RESULT_UNKNOWN_CALL", () => {
  it("is given for a result whose call the input never started or listed", () => {
    const found = warnings([RS, result("c9"), RF]);
    expect(codes(found)).toEqual([["TOOL_CALL_RESULT_UNKNOWN_CALL", 1]]);
    expect(found[0]).toMatchObject({ field: "toolCallId", count: 1 });
    expect(found[0]?.message).toBe(
      'TOOL_CALL_RESULT at index 1: tool call "c9" was never started in this input, and no assistant message of an echoed input or an earlier MESSAGES_SNAPSHOT lists it; @ag-ui/client 1.0.0 appends a tool message that answers no call. [TOOL_CALL_RESULT_UNKNOWN_CALL, warning]',
    );
  });

  it("is not given for a call started, echoed or listed by an assistant message before it", () => {
    const listed = (id: string, role = "assistant") => ({
      id: `m-${id}`,
      role,
      toolCalls: [{ id, type: "function", function: { name: "f", arguments: "{}" } }],
    });
    expect(
      warnings([
        { ...RS, input: { messages: [listed("c1")] } },
        start("c2"),
        end("c2"),
        { type: "MESSAGES_SNAPSHOT", messages: [listed("c3")] },
        { type: "TOOL_CALL_CHUNK", toolCallId: "c4", toolCallName: "f" },
        result("c1"),
        result("c2"),
        result("c3"),
        result("c4"),
        result("c2", "t2"),
        RF,
      ]),
    ).toEqual([]);
  });

  it("counts only assistant messages, only what came before, and calls of earlier runs", () => {
    const user = { id: "u", role: "user", toolCalls: [{ id: "c1" }] };
    expect(
      codes(
        warnings([
          { ...RS, input: { messages: [user] } },
          result("c1"),
          result("c2"),
          start("c2"),
          end("c2"),
          RF,
        ]),
      ),
    ).toEqual([
      ["TOOL_CALL_RESULT_UNKNOWN_CALL", 1],
      ["TOOL_CALL_RESULT_UNKNOWN_CALL", 2],
    ]);
    const twoRuns = [RS, start("c1"), end("c1"), RF, RS2, result("c1"), RF2];
    expect(warnings(twoRuns)).toEqual([]);
  });

  it("stops when it cannot hold every call id (maxIds across runs)", () => {
    const events = [RS, start("a"), end("a"), start("b"), end("b"), RF];
    events.push(RS2, start("c"), end("c"), result("zz"), RF2);
    expect(codes(warnings(events, { maxIds: 3 }))).toEqual([["TOOL_CALL_RESULT_UNKNOWN_CALL", 9]]);
    // Each run holds 2 ids, but "c" no longer fits beside "a" and "b": nothing is claimed.
    expect(warnings(events, { maxIds: 2 })).toEqual([]);
  });

  it("@ag-ui/client 1.0.0 appends a tool message that answers no call", async () => {
    const { messages } = await replay([RS, result("c9"), RF]);
    const tool = messages.find((m) => m.role === "tool");
    expect(tool).toMatchObject({ id: "t1", toolCallId: "c9", content: "sunny" });
    const calls = messages.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []) : []));
    expect(calls.map((c) => c.id)).not.toContain("c9");
  });
});

describe("STATE_DELTA_NOT_APPLIED", () => {
  const snapshot = (value: unknown): Ev => ({ type: "STATE_SNAPSHOT", snapshot: value });
  const delta = (...ops: unknown[]): Ev => ({ type: "STATE_DELTA", delta: ops });

  it("is given for a delta that does not apply to the last snapshot", () => {
    const found = warnings([
      RS,
      snapshot({ count: 1 }),
      delta({ op: "replace", path: "/total", value: 2 }),
      RF,
    ]);
    expect(codes(found)).toEqual([["STATE_DELTA_NOT_APPLIED", 2]]);
    expect(found[0]?.field).toBe("delta");
    expect(found[0]?.message).toBe(
      'STATE_DELTA at index 2: the delta does not apply to the current state (operation 0, "replace" at "/total": Cannot perform the operation at a path that does not exist); @ag-ui/client 1.0.0 logs a warning and keeps the state it had, so the UI\'s state silently stays stale. [STATE_DELTA_NOT_APPLIED, warning]',
    );
  });

  it("follows the state through deltas that apply, and leaves it as it was after one that fails", () => {
    const found = warnings([
      RS,
      snapshot({ count: 1, log: [] }),
      delta({ op: "add", path: "/log/-", value: "a" }, { op: "replace", path: "/count", value: 2 }),
      delta({ op: "test", path: "/log/0", value: "a" }, { op: "add", path: "/log/1", value: "b" }),
      // The first operation applies, the second does not: the whole delta is lost.
      delta({ op: "add", path: "/x", value: 1 }, { op: "remove", path: "/log/5" }),
      delta({ op: "test", path: "/count", value: 2 }, { op: "test", path: "/x", value: 1 }),
      delta({ op: "test", path: "/log", value: ["a", "b"] }),
      delta(
        { op: "move", from: "/log/0", path: "/first" },
        { op: "copy", from: "/first", path: "/again" },
      ),
      delta({ op: "test", path: "", value: { count: 2, log: ["b"], first: "a", again: "a" } }),
      RF,
    ]);
    // One finding for the state (two events): the delta at 5 fails because 4 was lost.
    expect(codes(found)).toEqual([["STATE_DELTA_NOT_APPLIED", 4]]);
    expect(found[0]).toMatchObject({ count: 2, lastIndex: 5 });
  });

  it("starts from the state the RUN_STARTED input echoes, and checks nothing while it is unknown", () => {
    const bad = delta({ op: "remove", path: "/nope" });
    expect(warnings([RS, bad, RF])).toEqual([]);
    expect(warnings([{ ...RS, input: { state: null } }, bad, RF])).toEqual([]);
    expect(codes(warnings([{ ...RS, input: { state: { a: 1 } } }, bad, RF]))).toEqual([
      ["STATE_DELTA_NOT_APPLIED", 1],
    ]);
    expect(
      warnings([
        { ...RS, input: { state: { nope: 1 } } },
        bad,
        delta({ op: "add", path: "/nope", value: 2 }),
        RF,
      ]),
    ).toEqual([]);
  });

  it("decides as fast-json-patch does: a delta that is no array, an op it does not know, a bad index", () => {
    const s = snapshot({ list: [1], n: null });
    const cases: Array<[Ev, boolean]> = [
      [{ type: "STATE_DELTA" }, false],
      [{ type: "STATE_DELTA", delta: {} }, false],
      [delta({ op: "jump", path: "/n" }), false],
      [delta({ op: "add", path: "/list/2", value: 1 }), false],
      [delta({ op: "add", path: "/list/1", value: 1 }), true],
      [delta({ op: "add", path: "/list/01", value: 1 }), true],
      [delta({ op: "replace", path: "/list/x", value: 1 }), false],
      [delta({ op: "add", path: "/n/x", value: 1 }), false],
      [delta({ op: "add", path: "/__proto__/x", value: 1 }), false],
      [delta({ op: "add", path: "", value: 7 }), true],
      [delta(null), false],
      [delta({ op: "add", path: "/a" }), false],
    ];
    for (const [d, applies] of cases) {
      expect([JSON.stringify(d), warnings([RS, s, d, RF]).length]).toEqual([
        JSON.stringify(d),
        applies ? 0 : 1,
      ]);
    }
  });

  it("never writes to the events it reads", () => {
    const events = [
      RS,
      snapshot({ a: { b: [1, 2] } }),
      delta(
        { op: "add", path: "/a/b/-", value: { c: 1 } },
        { op: "replace", path: "/a/b/0", value: 0 },
      ),
      delta(
        { op: "add", path: "/a/b/2/c", value: 2 },
        { op: "_get", path: "/a" },
        { op: "remove", path: "/a/zz" },
      ),
      delta({ op: "move", from: "/a/b", path: "/b" }),
      RF,
    ];
    const before = JSON.stringify(events);
    warnings(events);
    expect(JSON.stringify(events)).toBe(before);
  });

  it("@ag-ui/client 1.0.0 keeps the old state", async () => {
    const events = [
      RS,
      snapshot({ count: 1 }),
      delta({ op: "replace", path: "/total", value: 2 }),
      RF,
    ];
    const { state } = await replay(events);
    expect(state).toEqual({ count: 1 });
    expect(console.warn).toHaveBeenCalledWith(
      expect.stringContaining("Failed to apply state patch"),
    );
  });

  it("@ag-ui/client 1.0.0 applies none of a delta whose last operation fails", async () => {
    const events = [
      RS,
      snapshot({ count: 1 }),
      delta({ op: "replace", path: "/count", value: 2 }, { op: "remove", path: "/gone" }),
      RF,
    ];
    expect(codes(warnings(events))).toEqual([["STATE_DELTA_NOT_APPLIED", 2]]);
    expect((await replay(events)).state).toEqual({ count: 1 });
  });
});

describe("ACTIVITY_DELTA_NOT_APPLIED", () => {
  const snapshot = (id: string, content: unknown, more: Record<string, unknown> = {}): Ev => ({
    type: "ACTIVITY_SNAPSHOT",
    messageId: id,
    activityType: "plan",
    content,
    ...more,
  });
  const delta = (id: string, ...patch: unknown[]): Ev => ({
    type: "ACTIVITY_DELTA",
    messageId: id,
    activityType: "plan",
    patch,
  });

  it("is given for a patch that does not apply to the activity's content", () => {
    const found = warnings([
      RS,
      snapshot("a1", { steps: [] }),
      delta("a1", { op: "remove", path: "/steps/0" }),
      RF,
    ]);
    expect(codes(found)).toEqual([["ACTIVITY_DELTA_NOT_APPLIED", 2]]);
    expect(found[0]?.message).toBe(
      'ACTIVITY_DELTA at index 2: the patch does not apply to the content of activity "a1" (operation 0, "remove" at "/steps/0": Cannot perform the operation at a path that does not exist); @ag-ui/client 1.0.0 logs a warning and keeps the activity\'s old content. [ACTIVITY_DELTA_NOT_APPLIED, warning]',
    );
  });

  it("keeps each activity's content, follows its patches and replacing snapshots", () => {
    const found = warnings([
      RS,
      snapshot("a1", { done: 0 }),
      snapshot("a2", { steps: ["x"] }),
      delta("a1", { op: "replace", path: "/done", value: 1 }),
      delta("a2", { op: "remove", path: "/steps/0" }),
      delta("a2", { op: "remove", path: "/steps/0" }), // step 0 is gone now
      snapshot("a2", { steps: ["y"] }, { replace: false }), // not replacing: content stays
      delta("a2", { op: "test", path: "/steps", value: [] }),
      snapshot("a2", { steps: ["y"] }),
      delta("a2", { op: "test", path: "/steps/0", value: "y" }),
      delta("a1", { op: "test", path: "/done", value: 1 }),
      RF,
    ]);
    expect(codes(found)).toEqual([["ACTIVITY_DELTA_NOT_APPLIED", 5]]);
    expect(found[0]?.message).toContain('activity "a2"');
  });

  it("checks nothing for an activity whose content it does not know", () => {
    const bad = { op: "remove", path: "/nope" };
    expect(warnings([RS, delta("a1", bad), RF])).toEqual([]);
    // A non-replacing first snapshot: the client may hold the activity already.
    expect(warnings([RS, snapshot("a1", {}, { replace: false }), delta("a1", bad), RF])).toEqual(
      [],
    );
    // A snapshot of the messages that carries activities replaces or drops it.
    expect(
      warnings([
        RS,
        snapshot("a1", {}),
        {
          type: "MESSAGES_SNAPSHOT",
          messages: [{ id: "a2", role: "activity", activityType: "p", content: {} }],
        },
        delta("a1", bad),
        RF,
      ]),
    ).toEqual([]);
    // An absent patch or content is what the client reads as no operation, or {}.
    expect(
      warnings([RS, snapshot("a1", undefined), { ...delta("a1"), patch: undefined }, RF]),
    ).toEqual([]);
  });

  it("takes an activity's content from a snapshot of the messages that lists it", () => {
    const found = warnings([
      RS,
      snapshot("a1", { n: 1 }),
      {
        type: "MESSAGES_SNAPSHOT",
        messages: [{ id: "a1", role: "activity", activityType: "p", content: { m: 1 } }],
      },
      delta("a1", { op: "test", path: "/m", value: 1 }),
      delta("a1", { op: "test", path: "/n", value: 1 }),
      RF,
    ]);
    expect(codes(found)).toEqual([["ACTIVITY_DELTA_NOT_APPLIED", 4]]);
  });

  it("@ag-ui/client 1.0.0 keeps the activity's old content", async () => {
    const events = [
      RS,
      snapshot("a1", { steps: [] }),
      delta("a1", { op: "remove", path: "/steps/0" }),
      RF,
    ];
    const { messages } = await replay(events);
    expect(messages.find((m) => m.id === "a1")).toMatchObject({
      role: "activity",
      content: { steps: [] },
    });
    expect(console.warn).toHaveBeenCalledWith(
      expect.stringContaining("Failed to apply activity patch"),
    );
  });
});

describe("TOOL_CALL_RESULT_BEFORE_END (SPEC §18.5: the seed's rule 5, which 1.1 does not make)", () => {
  it("is given for a result whose call is still open, and only then", () => {
    // SPEC rule 5: "1.1 lets a result arrive in the same run as its call and asks no consumer
    // to reject a result for an open call": a warning, never an error.
    const found = warnings([RS, start("c1"), result("c1"), end("c1"), result("c1"), RF]);
    expect(codes(found)).toEqual([["TOOL_CALL_RESULT_BEFORE_END", 2]]);
    expect(found[0]).toMatchObject({ field: "toolCallId", eventType: "TOOL_CALL_RESULT" });
    expect(found[0]?.message).toBe(
      'TOOL_CALL_RESULT at index 2: tool call "c1" is still open: its TOOL_CALL_END has not come. The seed\'s rule 5 asks a call to end before its result (1.1 is silent on the order), and a UI may show the result beside arguments that are still streaming. [TOOL_CALL_RESULT_BEFORE_END, warning]',
    );
    expect(warnings([RS, start("c1"), end("c1"), result("c1"), RF])).toEqual([]);
  });

  it("merges by call, and forgets the open calls of a run that ended", () => {
    const found = warnings([RS, start("c1"), result("c1"), result("c1"), end("c1"), RF]);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ index: 2, lastIndex: 3, count: 2 });
    // The run failed with c1 open; in the next run c1 is a call of an earlier run, not open.
    expect(
      warnings([RS, start("c1"), { type: "RUN_ERROR", message: "x" }, RS2, result("c1"), RF2]),
    ).toEqual([]);
  });

  it("can be made an error (--severity), which never changes what the verifier decides", () => {
    const stream = [RS, start("c1"), result("c1"), end("c1"), RF];
    const report = lint(stream, { severity: { TOOL_CALL_RESULT_BEFORE_END: "error" } });
    expect(report.valid).toBe(false);
    expect(report.findings[0]).toMatchObject({
      code: "TOOL_CALL_RESULT_BEFORE_END",
      severity: "error",
    });
    expect(() => verifyAll(stream)).not.toThrow();
  });

  it("@ag-ui/client 1.0.0 accepts the order and keeps the result", async () => {
    const { messages } = await replay([RS, start("c1"), result("c1"), end("c1"), RF]);
    expect(messages.find((m) => m.role === "tool")).toMatchObject({ toolCallId: "c1" });
  });
});

describe("RUN_ID_MISMATCH", () => {
  it("is given for a RUN_FINISHED whose runId differs from its RUN_STARTED's", () => {
    const found = warnings([RS, { ...RF, runId: "r2" }]);
    expect(codes(found)).toEqual([["RUN_ID_MISMATCH", 1]]);
    expect(found[0]).toMatchObject({ field: "runId" });
    // 1.1, basic/run-input: "each run's two boundary events MUST agree on their runId".
    expect(found[0]?.message).toBe(
      'RUN_FINISHED at index 1: runId "r2" differs from "r1" of the run\'s RUN_STARTED; 1.1 says "each run\'s two boundary events MUST agree on their runId" (basic/run-input), and a client that matches runs by id files this result under another run. [RUN_ID_MISMATCH, warning]',
    );
  });

  it("covers the run id alone (SPEC §18.5: a threadId that differs is THREAD_ID_MISMATCH's)", () => {
    expect(warnings([RS, { ...RF, threadId: "t2" }]).map((f) => f.code)).not.toContain(
      "RUN_ID_MISMATCH",
    );
    const both = warnings([RS, { ...RF, threadId: "t2", runId: "r2" }]);
    expect(both.filter((f) => f.code === "RUN_ID_MISMATCH").map((f) => f.field)).toEqual(["runId"]);
  });

  it("compares only ids that are strings on both, per run", () => {
    expect(warnings([RS, { type: "RUN_FINISHED" }])).toEqual([]);
    expect(warnings([{ type: "RUN_STARTED" }, RF])).toEqual([]);
    expect(warnings([RS, { ...RF, runId: 7 }])).toEqual([]);
    // Several runs need no option (SPEC §9.6); each RUN_FINISHED is held to its own run.
    const runs = [RS, RF, { ...RS, runId: "r2" }, { ...RF, runId: "r2" }];
    expect(warnings(runs)).toEqual([]);
    expect(codes(warnings([...runs, { ...RS, runId: "r3" }, RF]))).toEqual([
      ["RUN_ID_MISMATCH", 5],
    ]);
    // A run that failed and a new one: the new RUN_STARTED's id is the one compared.
    const failed = [RS, { type: "RUN_ERROR", message: "x" }, { ...RS, runId: "r2" }, RF];
    expect(codes(warnings(failed))).toEqual([["RUN_ID_MISMATCH", 3]]);
  });

  it("@ag-ui/client 1.0.0 reports the finish of a run the application did not start, without a word", async () => {
    let finished: unknown;
    await replay([RS, { ...RF, runId: "r2" }], {
      onRunFinishedEvent: ({ event }) => {
        finished = event.runId;
      },
    });
    // The application ran "r1"; the client hands it the result of "r2" as that run's end.
    expect(finished).toBe("r2");
    expect(console.warn).not.toHaveBeenCalled();
    expect(console.error).not.toHaveBeenCalled();
  });
});

describe("CLIENT_REJECTS (SPEC §18.2: what HttpAgent's pipeline rejects, the §13 rows)", () => {
  const custom: Ev = { type: "CUSTOM", name: "trace", value: 1 };
  const future = (tag?: string): Ev => ({
    type: "REASONING_ENCRYPTED_VALUE",
    subtype: "future",
    entityId: "x",
    encryptedValue: "e",
    ...(tag === undefined ? {} : { subagentRunId: tag }),
  });

  it("is given once, where the client's pipeline first errors (row 8: an unknown subtype)", () => {
    const found = warnings([RS, future(), future(), RF]);
    expect(codes(found)).toEqual([["CLIENT_REJECTS", 1]]);
    expect(found[0]?.message).toBe(
      'REASONING_ENCRYPTED_VALUE at index 1: subtype "future" is neither "message" nor "tool-call", and the schema of @ag-ui/client 1.0.0 refuses any other; @ag-ui/client 1.0.0\'s HttpAgent errors the run at this event. [CLIENT_REJECTS, warning]',
    );
  });

  it("row 13: one owner per reasoning id, for spans and messages alike", () => {
    const stream = [
      RS,
      { type: "REASONING_START", messageId: "r", subagentRunId: "s1" },
      { type: "REASONING_MESSAGE_START", messageId: "r", subagentRunId: "s2" },
      { type: "REASONING_MESSAGE_END", messageId: "r" },
      { type: "REASONING_END", messageId: "r" },
      RF,
    ];
    const found = warnings(stream);
    expect(codes(found)).toEqual([["CLIENT_REJECTS", 2]]);
    expect(found[0]?.message).toContain(
      'the client holds reasoning id "r" as owned by subagent "s1"',
    );
  });

  it("row 4 and row 11: the fields these rules do not read, as the client's schema reads them", () => {
    const subagent = warnings([
      RS,
      { type: "SUBAGENT_STARTED", subagentRunId: "s1" },
      { type: "SUBAGENT_FINISHED", subagentRunId: "s1" },
      RF,
    ]);
    expect(subagent[0]).toMatchObject({ index: 1, field: "name" });
    expect(subagent[0]?.message).toContain("requires a string name on SUBAGENT_STARTED");
    const started = { type: "SUBAGENT_STARTED", subagentRunId: "s1", name: "n" };
    const finish = (outcome: unknown): Ev[] => [
      RS,
      started,
      { type: "SUBAGENT_FINISHED", subagentRunId: "s1", outcome },
      RF,
    ];
    expect(codes(warnings(finish("paused")))).toEqual([["CLIENT_REJECTS", 2]]);
    expect(codes(warnings(finish({ type: "suspended", interruptIds: [null] })))).toEqual([
      ["CLIENT_REJECTS", 2],
    ]);
    // An outcome of a type the client does not know is an unknown union member: dropped.
    expect(warnings(finish({ type: "bogus" }))).toEqual([]);
    const interrupt = {
      ...RF,
      outcome: { type: "interrupt", interrupts: [{ id: "i1", subagentRunId: null }] },
    };
    expect(warnings([RS, interrupt])[0]).toMatchObject({
      code: "CLIENT_REJECTS",
      field: "outcome.interrupts[0].subagentRunId",
    });
  });

  it("is not given for what the client's enforcement stage drops or strips (rows 1, 9, 10, 12, 15)", () => {
    expect(
      warnings([
        { type: "SOME_FUTURE_EVENT" },
        { ...RS, subagentRunId: null },
        custom,
        { type: "SOME_FUTURE_EVENT", subagentRunId: null },
        {
          type: "MESSAGES_SNAPSHOT",
          messages: [{ id: "u1", role: "user", subagentRunId: "s1", toolCalls: [{ id: "c1" }] }],
        },
        { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "f", subagentRunId: "s2" },
        { type: "TOOL_CALL_END", toolCallId: "c1" },
        { type: "REASONING_START", messageId: "r1" },
        { type: "REASONING_END", messageId: "r1" },
        { type: "SUBAGENT_STARTED", subagentRunId: "s1", name: "helper" },
        { type: "SUBAGENT_ERROR", subagentRunId: "s1", message: "failed", outcome: "x" },
        RF,
        { type: "SOME_FUTURE_EVENT" },
      ]),
    ).toEqual([]);
  });

  it("a replayed message of a role the client does not know is dropped, and its owner with it", () => {
    const stream = [
      RS,
      {
        type: "MESSAGES_SNAPSHOT",
        messages: [
          { id: "m1", role: "assistant", subagentRunId: "s2" },
          { id: "m1", role: "some-future-role", subagentRunId: "s1" },
        ],
      },
      { type: "TEXT_MESSAGE_START", messageId: "m1", subagentRunId: "s1" },
      { type: "TEXT_MESSAGE_END", messageId: "m1" },
      RF,
    ];
    // These rules: the last occurrence in a snapshot wins (SPEC §8.5), so s1 owns m1.
    expect(codes(warnings(stream))).toEqual([["CLIENT_REJECTS", 2]]);
  });

  it("@ag-ui/client 1.0.0's HttpAgent errors the run", async () => {
    const stream = [RS, future(), RF];
    expect(() => verifyAll(stream)).not.toThrow();
    expect(codes(warnings(stream))).toEqual([["CLIENT_REJECTS", 1]]);
    const body = stream.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("");
    const agent = new HttpAgent({
      url: "https://agent.example/run",
      fetch: async () => new Response(body, { headers: { "content-type": "text/event-stream" } }),
    });
    await expect(agent.runAgent({ runId: "r1" })).rejects.toThrow(/subtype/);
  });

  it("@ag-ui/client 1.0.0 errors the run where two reasoning openers disagree", async () => {
    const stream = [
      RS,
      { type: "REASONING_START", messageId: "r", subagentRunId: "s1" },
      { type: "REASONING_MESSAGE_START", messageId: "r", role: "reasoning", subagentRunId: "s2" },
      RF,
    ];
    await expect(replay(stream)).rejects.toThrow(/does not match the reasoning message 'r'/);
  });
});

describe("hostile values in the fields only the warnings read (SPEC §17.4)", () => {
  const throwing = (event: Record<string, unknown>, key: string) =>
    Object.defineProperty({ ...event }, key, {
      enumerable: true,
      get() {
        throw new Error("no");
      },
    });

  it("never throws, and stops following the client rather than guess", () => {
    const revoked = Proxy.revocable([], {});
    revoked.revoke();
    const events = [
      RS,
      { type: "STATE_SNAPSHOT", snapshot: { a: 1 } },
      throwing({ type: "STATE_DELTA" }, "delta"),
      { type: "STATE_DELTA", delta: [throwing({ op: "add", path: "/b" }, "value")] },
      { type: "STATE_DELTA", delta: revoked.proxy },
      start("c1"),
      throwing(args("c1", ""), "delta"),
      end("c1"),
      throwing({ type: "SUBAGENT_STARTED", subagentRunId: "s1", name: "n" }, "description"),
      { type: "SUBAGENT_FINISHED", subagentRunId: "s1" },
      // The client would reject it, but is no longer followed.
      { type: "REASONING_ENCRYPTED_VALUE", subtype: "future", entityId: "x" },
      { ...RF, runId: 7n },
    ];
    const report = lint(events);
    expect(report.errors).toBe(0);
    expect(report.findings.map((f) => f.code)).not.toContain("CLIENT_REJECTS");
  });
});

describe("SSE_LINE_IGNORED's text", () => {
  it("quotes the line, bounded, and merges by its field name", () => {
    const w = ignoredLine(`{"type":"RUN_STARTED"${" ".repeat(200)}}`);
    expect(w.code).toBe("SSE_LINE_IGNORED");
    expect(w.text).toMatch(/^the line "\{\\"type\\":\\"RUN_STARTED\\"\s+"… has none of the fields/);
    expect(w.text).toContain('expected "data: " before the JSON');
    expect(ignoredLine("foo: bar").subject).toBe("foo:");
    expect(ignoredLine(undefined).text).toMatch(/^a line has none/);
  });
});
