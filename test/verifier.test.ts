import { runInNewContext } from "node:vm";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import {
  isVerifyError,
  ruleOf,
  SseDecodeFailure,
  VERIFY_ERROR_CODES,
  Verifier,
  type VerifierOptions,
  VerifyError,
  validateRunOutcome,
  verifyAll,
} from "../src/index.ts";
import { spec } from "./support/spec-cases.ts";

function caught(f: () => void): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("expected a throw");
}

const RS = { type: "RUN_STARTED" };
const RF = { type: "RUN_FINISHED" };
const RE = { type: "RUN_ERROR" };
/** A run that reports success, then fails late (SPEC rule 2). */
const RF_LATE_ERROR = [RS, RF, RE];

/** What `f` throws, as code and index; "accepted" when it throws nothing. */
function verdict(f: () => void): unknown {
  try {
    f();
  } catch (e) {
    return isVerifyError(e) ? { code: e.code, index: e.index } : { thrown: String(e) };
  }
  return "accepted";
}

describe("Verifier", () => {
  it("poisons itself: later calls throw the same instance without reading their argument", () => {
    const v = new Verifier();
    v.verify(RS);
    const first = caught(() => v.verify({ type: "TEXT_MESSAGE_END", messageId: "m1" }));
    expect(first).toBeInstanceOf(VerifyError);
    expect(v.error).toBe(first);
    const untouchable = new Proxy(
      {},
      {
        get() {
          throw new Error("read");
        },
      },
    );
    expect(caught(() => v.verify(untouchable))).toBe(first);
    expect(caught(() => v.verify(RF))).toBe(first);
    expect(caught(() => v.end())).toBe(first);
  });

  it("poisons itself at end of input too", () => {
    const v = new Verifier();
    const first = caught(() => v.end());
    expect(v.error).toBe(first);
    expect(caught(() => v.verify(RS))).toBe(first);
    expect(caught(() => v.end())).toBe(first);
  });

  it("end() is idempotent when it succeeds, and verify() afterwards is a plain Error", () => {
    const v = new Verifier();
    v.verify(RS);
    v.verify(RF);
    v.end();
    v.end();
    const e = caught(() => v.verify({ type: "RAW" }));
    expect(e).toBeInstanceOf(Error);
    expect(isVerifyError(e)).toBe(false);
    expect(v.error).toBeUndefined();
    v.end();
  });

  it("counts the index over every value, across runs", () => {
    const v = new Verifier();
    const values = [
      { type: "X" },
      RS,
      { type: "RAW" },
      RF,
      RE,
      { type: "Y" },
      RS,
      { type: "CUSTOM" },
    ];
    for (const e of values) v.verify(e);
    const e = caught(() => v.end());
    expect(e).toMatchObject({ code: "STREAM_ENDED_BEFORE_RUN_CLOSED", index: 8, rule: 2 });
  });

  it("accepts any number of runs, with no option (SPEC §9.6)", () => {
    // §9.6: "a stream MAY carry several runs in sequence ... There is no limit on the number
    // of runs."
    const runs = Array.from({ length: 1000 }, (_, i) => [RS, i % 3 === 0 ? RE : RF]).flat();
    verifyAll(runs);
    verifyAll([RE, ...runs, ...RF_LATE_ERROR]);
  });

  it("ignores allowSequentialRuns, passed at run time (SPEC §2: gone from the types)", () => {
    // §2: "`allowSequentialRuns` (versions 1–3) is gone from the types: several runs are always
    // accepted (§9.6). At run time the property is ignored".
    const streams: unknown[][] = [
      [RS, RF, RS, RF],
      [RS, RE, RS, RF, RE],
      [RS, RF, { type: "RAW" }, RS, RF],
      [RS, RE, RE],
      [{ type: "CUSTOM" }, RS, RF],
      [RS, RF, { type: "FUTURE" }, RS],
    ];
    for (const events of streams) {
      const without = verdict(() => verifyAll(events));
      for (const allowSequentialRuns of [true, false, undefined, null, 1, "yes"]) {
        const legacy = { allowSequentialRuns } as unknown as VerifierOptions;
        expect(verdict(() => verifyAll(events, legacy))).toEqual(without);
      }
    }
    expect(verdict(() => verifyAll(streams[2] ?? []))).toEqual({
      code: "EVENT_AFTER_RUN_CLOSED",
      index: 2,
    });
  });

  it('takes protocol "1.1" (the default) or "draft"; anything else is a TypeError', () => {
    const draftOnly = [
      { type: "RUN_STARTED", threadId: "t1", runId: "r1" },
      { type: "RUN_FINISHED", threadId: "t1", runId: "r2" },
    ];
    verifyAll(draftOnly);
    verifyAll(draftOnly, { protocol: "1.1" });
    expect(verdict(() => verifyAll(draftOnly, { protocol: "draft" }))).toEqual({
      code: "RUN_ID_MISMATCH",
      index: 1,
    });
    for (const protocol of ["1.0", "Draft", "draft\n", "", 1.1, false, {}, Symbol("draft")]) {
      const options = { protocol } as unknown as VerifierOptions;
      const e = caught(() => new Verifier(options));
      expect(e).toBeInstanceOf(TypeError);
      expect(isVerifyError(e)).toBe(false);
      expect(String((e as Error).message)).toMatch(/protocol/);
    }
  });

  it("does not keep the events it checks beyond an error", () => {
    const event = { type: "TEXT_MESSAGE_CONTENT", messageId: "m1" };
    const e = caught(() => verifyAll([RS, event]));
    expect(e).toMatchObject({ event, eventType: "TEXT_MESSAGE_CONTENT", field: undefined });
  });
});

describe("the open-id cache", () => {
  // Ids whose last characters share a cache slot ("0" and "4") and ids in other slots.
  const text = (type: string, messageId: string) => ({ type: `TEXT_MESSAGE_${type}`, messageId });
  const tool = (type: string, toolCallId: string) => ({ type: `TOOL_CALL_${type}`, toolCallId });
  const span = (type: "START" | "END", messageId: string) => ({
    type: `REASONING_${type}`,
    messageId,
  });

  it("forgets an id when it closes, whatever else shares its slot", () => {
    const open = [RS, text("START", "a0"), text("START", "b4"), text("CONTENT", "a0")];
    for (const [events, code, index] of [
      [[...open, text("END", "a0"), text("CONTENT", "a0")], "TEXT_MESSAGE_NOT_OPEN", 5],
      [
        [...open, text("CONTENT", "b4"), text("END", "b4"), text("CONTENT", "b4")],
        "TEXT_MESSAGE_NOT_OPEN",
        6,
      ],
      [
        [
          RS,
          tool("START", "x1"),
          tool("START", "y2"),
          tool("END", "x1"),
          tool("ARGS", "y2"),
          tool("ARGS", "x1"),
        ],
        "TOOL_CALL_NOT_OPEN",
        5,
      ],
      [
        [RS, span("START", "a0"), span("START", "b4"), span("END", "a0"), span("END", "a0")],
        "REASONING_SPAN_NOT_OPEN",
        4,
      ],
      [
        [RS, span("START", "a0"), span("START", "b4"), span("END", "b4"), span("START", "a0")],
        "REASONING_SPAN_ALREADY_OPEN",
        4,
      ],
    ] as const) {
      expect(caught(() => verifyAll(events))).toMatchObject({ code, index });
    }
    verifyAll([
      ...open,
      text("CONTENT", "b4"),
      text("END", "a0"),
      text("CONTENT", "b4"),
      text("END", "b4"),
      RF,
    ]);
    verifyAll([
      RS,
      span("START", "a0"),
      span("START", "b4"),
      span("END", "b4"),
      span("END", "a0"),
      RF,
    ]);
  });

  it("starts afresh with each run, spans too", () => {
    const events = [RS, span("START", "a0"), RE, RS, span("END", "a0")];
    expect(caught(() => verifyAll(events))).toMatchObject({
      code: "REASONING_SPAN_NOT_OPEN",
      index: 4,
    });
  });

  it("starts afresh with each run", () => {
    const events = [
      RS,
      text("START", "m1"),
      text("CONTENT", "m1"),
      { type: "RUN_ERROR" },
      RS,
      text("CONTENT", "m1"),
    ];
    expect(caught(() => verifyAll(events))).toMatchObject({
      code: "TEXT_MESSAGE_NOT_OPEN",
      index: 5,
    });
  });
});

describe("decode failures", () => {
  it.each(["INVALID_JSON", "SSE_BUFFER_OVERFLOW"] as const)("%s becomes a rule 0 error", (code) => {
    const cause = new SyntaxError("Unexpected token");
    const failure = new SseDecodeFailure(code, "[DONE]", cause);
    for (const before of [[], [RS], [RS, RF]]) {
      const e = caught(() => verifyAll([...before, failure]));
      expect(e).toMatchObject({ code, rule: 0, index: before.length, event: failure });
      expect(e).toHaveProperty("eventType", undefined);
      expect(String((e as Error).message)).toMatch(/^SSE message at index \d+: /);
    }
  });
});

describe("messages (SPEC §10.3)", () => {
  const cases: [string, unknown[], RegExp][] = [
    [
      "owner mismatch",
      [
        RS,
        { type: "TEXT_MESSAGE_START", messageId: "m1", subagentRunId: "s1" },
        { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", subagentRunId: "s2" },
      ],
      /^TEXT_MESSAGE_CONTENT at index 2: .*"m1".*subagent "s1".*subagent "s2".* \[OWNER_MISMATCH, rule 9\]$/,
    ],
    [
      "the parent and the empty subagent",
      [
        RS,
        { type: "TEXT_MESSAGE_START", messageId: "m1" },
        { type: "TEXT_MESSAGE_END", messageId: "m1", subagentRunId: "" },
      ],
      /the parent agent.*subagent "".*\[OWNER_MISMATCH, rule 9\]$/,
    ],
    [
      "end of input lists what is open",
      [RS, { type: "TOOL_CALL_START", toolCallId: "c1" }],
      /^end of input at index 2: .*tool call "c1" of the parent agent.*RUN_FINISHED or RUN_ERROR.* \[STREAM_ENDED_BEFORE_RUN_CLOSED, rule 2\]$/,
    ],
    [
      "empty input",
      [],
      /^end of input at index 0: .* \[STREAM_ENDED_BEFORE_RUN_STARTED, rule 1\]$/,
    ],
    [
      "a field path",
      [
        RS,
        { type: "MESSAGES_SNAPSHOT", messages: [{ id: "a", role: "assistant", toolCalls: [{}] }] },
      ],
      /^MESSAGES_SNAPSHOT at index 1: .*messages\[0\]\.toolCalls\[0\]\.id.* \[FIELD_MISSING, rule 0\]$/,
    ],
    [
      "rule 7 lists every open entity with its owner",
      [
        RS,
        { type: "TEXT_MESSAGE_START", messageId: "m1", subagentRunId: "s1" },
        { type: "REASONING_MESSAGE_START", messageId: "r1" },
        { type: "STEP_STARTED", stepName: "plan", subagentRunId: "" },
        RF,
      ],
      /text message "m1" of subagent "s1".*reasoning message "r1" of the parent agent.*step "plan" of subagent "".*\[OPEN_AT_RUN_FINISHED, rule 7\]$/,
    ],
    [
      "rule 11 names the holders",
      [
        RS,
        { type: "STEP_STARTED", stepName: "tools", subagentRunId: "s1" },
        { type: "STEP_FINISHED", stepName: "tools" },
      ],
      /subagent "s1".*the parent agent.*\[STEP_OWNER_MISMATCH, rule 11\]$/,
    ],
    [
      "rule 13 lists the active subagents",
      [RS, { type: "SUBAGENT_STARTED", subagentRunId: "s1" }, RF],
      /subagent "s1".*\[SUBAGENT_OPEN_AT_RUN_FINISHED, rule 13\]$/,
    ],
    [
      "a value that is not an object",
      [RS, 7],
      /^event at index 1: .*\[EVENT_NOT_OBJECT, rule 0\]$/,
    ],
  ];
  it.each(cases)("%s", (_name, events, pattern) => {
    const e = caught(() => verifyAll(events));
    expect(e).toBeInstanceOf(VerifyError);
    expect((e as Error).message).toMatch(pattern);
  });
});

/** The text of SPEC.md from the heading `start` to the next heading of its level or above. */
function specSection(start: string): string {
  const from = spec.indexOf(`\n${start}\n`);
  if (from < 0) throw new Error(`no section ${start} in SPEC.md`);
  const level = start.split(" ")[0] ?? "";
  const rest = spec.slice(from + start.length + 2);
  const next = rest.search(new RegExp(`^#{1,${level.length}} `, "m"));
  return next < 0 ? rest : rest.slice(0, next);
}

/** The rows of SPEC §10.2's table, read from spec/SPEC.md: [code, rule], in its order. */
const TABLE_CODES: readonly (readonly [string, number])[] = [
  ...specSection("### 10.2 Codes").matchAll(/^\| `([A-Z_]+)` \| (\d+) \|/gm),
].map((m) => [m[1] ?? "", Number(m[2])] as const);

/** Codes named in backticks in a section of SPEC.md. */
const namedIn = (start: string): string[] =>
  [...specSection(start).matchAll(/`([A-Z][A-Z_]+[A-Z])`/g)].map((m) => m[1] ?? "");

describe("codes", () => {
  it("has the codes of SPEC §10.2, in its order, each with its rule; SCHEMA_MISMATCH with rule 0's", () => {
    expect(TABLE_CODES.length).toBeGreaterThanOrEqual(36);
    // §14: "a rule 0 `VerifyError` with the new code **`SCHEMA_MISMATCH`**"
    const lastRule0 = TABLE_CODES.map(([, rule]) => rule).lastIndexOf(0);
    const expected = [
      ...TABLE_CODES.slice(0, lastRule0 + 1),
      ["SCHEMA_MISMATCH", 0] as const,
      ...TABLE_CODES.slice(lastRule0 + 1),
    ];
    const known = new Set(expected.map(([code]) => code));
    const ours = VERIFY_ERROR_CODES.filter((code) => known.has(code));
    expect(ours.map((code) => [code, ruleOf(code)])).toEqual(expected);
    // Any further code is one that §20.2 or §21.2 adds (SPEC §2: VerifyErrorCode has "every code
    // of §10.2, with §14's, §17's, §20.2's and §21.2's").
    const later = new Set([...namedIn("### 20.2 Codes"), ...namedIn("### 21.2 Codes")]);
    expect(VERIFY_ERROR_CODES.filter((code) => !known.has(code) && !later.has(code))).toEqual([]);
  });

  it("has no rule 5 code any more (SPEC v4 §7 rule 5, §10.2)", () => {
    // §10.2: "Version 4 removes `TOOL_CALL_RESULT_BEFORE_END` (now a lint warning code, §18.5)"
    expect(VERIFY_ERROR_CODES).not.toContain("TOOL_CALL_RESULT_BEFORE_END");
    expect(VERIFY_ERROR_CODES.filter((code) => ruleOf(code) === 5)).toEqual([]);
    for (const code of [
      "REASONING_SPAN_ALREADY_OPEN",
      "REASONING_SPAN_NOT_OPEN",
      "INTERRUPT_ID_DUPLICATE",
      "RUN_ID_MISMATCH",
      "THREAD_ID_MISMATCH",
    ]) {
      expect(VERIFY_ERROR_CODES).toContain(code);
    }
  });

  it("VerifyError has the name, rule and fields programs read", () => {
    const e = caught(() => verifyAll([RS, { type: "STEP_FINISHED", stepName: "x" }]));
    expect(e).toBeInstanceOf(Error);
    expect(e).toMatchObject({ name: "VerifyError", code: "STEP_NOT_STARTED", rule: 6, index: 1 });
  });
});

describe("validateRunOutcome (rule 8 on its own)", () => {
  it("accepts valid and absent outcomes", () => {
    validateRunOutcome(undefined);
    validateRunOutcome({ type: "success" });
    validateRunOutcome({ type: "cancelled" });
    validateRunOutcome({ type: "some-future-outcome", interrupts: [] });
    validateRunOutcome({ type: "interrupt", interrupts: [{ id: "i1", reason: "confirm" }] });
  });

  it.each([
    [{ type: "interrupt" }, "INTERRUPT_OUTCOME_EMPTY", undefined],
    [{ type: "interrupt", interrupts: [] }, "INTERRUPT_OUTCOME_EMPTY", undefined],
    [{ type: "interrupt", interrupts: "i1" }, "FIELD_WRONG_TYPE", "outcome.interrupts"],
    [{ type: "interrupt", interrupts: [{}, null] }, "FIELD_NULL", "outcome.interrupts[1]"],
    [{}, "FIELD_MISSING", "outcome.type"],
    ["success", "FIELD_WRONG_TYPE", "outcome"],
    [null, "FIELD_NULL", "outcome"],
  ])("%j → %s", (outcome, code, field) => {
    const e = caught(() => validateRunOutcome(outcome));
    expect(e).toBeInstanceOf(VerifyError);
    expect(e).toMatchObject({ code, field, event: outcome, eventType: "RUN_FINISHED" });
  });
});

describe("isVerifyError across realms", () => {
  it("recognises an error made by a copy of the library in another realm", async () => {
    const bundle = await build({
      entryPoints: [new URL("../src/index.ts", import.meta.url).pathname],
      bundle: true,
      write: false,
      format: "iife",
      globalName: "lib",
      platform: "neutral",
    });
    const code = `${bundle.outputFiles[0]?.text ?? ""}
      let error;
      try { lib.verifyAll([]); } catch (e) { error = e; }
      error;`;
    const globals = { TransformStream, ReadableStream, TextDecoder, TextEncoder };
    const foreign: unknown = runInNewContext(code, globals);
    expect(foreign instanceof VerifyError).toBe(false);
    expect(isVerifyError(foreign)).toBe(true);
  });
});

// Issue 28: an owner registry past 2,048 ids is spread over 16 maps (src/verify/state.ts).
// What it records before, at and after that point reads back the same, and ids are counted
// against maxIds once, whichever map holds them.
describe("owner registries past 2,048 ids", () => {
  const N = 5_000;
  /** N parent-owned text messages (ids ending in every character the ids use), each closed. */
  const messages = () => {
    const events: object[] = [RS];
    for (let i = 0; i < N; i++) {
      const messageId = `m${i}`;
      events.push({ type: "TEXT_MESSAGE_START", messageId, role: "assistant" });
      events.push({ type: "TEXT_MESSAGE_END", messageId });
    }
    return events;
  };

  it.each([0, 7, 2_047, 2_048, 2_049, 4_999])("still knows the owner of message m%i", (i) => {
    const reopen = { type: "TEXT_MESSAGE_START", messageId: `m${i}`, role: "assistant" };
    // The parent re-opens its own message: accepted.
    expect(() =>
      verifyAll([...messages(), reopen, { ...reopen, type: "TEXT_MESSAGE_END" }, RF]),
    ).not.toThrow();
    // A subagent re-opens it: rule 9.
    const e = caught(() => verifyAll([...messages(), { ...reopen, subagentRunId: "x" }]));
    expect(isVerifyError(e) && e.code).toBe("OWNER_MISMATCH");
    expect(isVerifyError(e) && e.message).toContain(
      `text message "m${i}" is owned by the parent agent`,
    );
    // A subagent's tool call under it: rule 10, found through the registry too.
    const call = {
      type: "TOOL_CALL_START",
      toolCallId: "c",
      toolCallName: "f",
      parentMessageId: `m${i}`,
      subagentRunId: "x",
    };
    const f = caught(() => verifyAll([...messages(), call]));
    expect(isVerifyError(f) && f.code).toBe("TOOL_CALL_PARENT_OWNER_MISMATCH");
  });

  it("counts each id against maxIds once, before and after the split", () => {
    const events = messages();
    // Exactly N ids: fits; re-opening recorded ids adds none.
    const again = [0, 2_048, 4_999].flatMap((i) => [
      { type: "TEXT_MESSAGE_START", messageId: `m${i}`, role: "assistant" },
      { type: "TEXT_MESSAGE_END", messageId: `m${i}` },
    ]);
    expect(() => verifyAll([...events, ...again, RF], { maxIds: N })).not.toThrow();
    // One more id does not fit.
    const extra = { type: "TEXT_MESSAGE_START", messageId: "new", role: "assistant" };
    const e = caught(() => verifyAll([...events, ...again, extra], { maxIds: N }));
    expect(isVerifyError(e) && [e.code, e.index]).toEqual([
      "ID_LIMIT_EXCEEDED",
      1 + 2 * N + again.length,
    ]);
  });
});
