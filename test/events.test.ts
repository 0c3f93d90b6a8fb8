import { describe, expect, it } from "vitest";
import {
  type AgUiEvent,
  type AgUiEventType,
  activityDelta,
  activitySnapshot,
  custom,
  EVENT_TYPES,
  type KnownAgUiEvent,
  type Message,
  messagesSnapshot,
  raw,
  reasoningEncryptedValue,
  reasoningEnd,
  reasoningMessageChunk,
  reasoningMessageContent,
  reasoningMessageEnd,
  reasoningMessageStart,
  reasoningStart,
  runError,
  runFinished,
  runStarted,
  stateDelta,
  stateSnapshot,
  stepFinished,
  stepStarted,
  subagentError,
  subagentFinished,
  subagentStarted,
  textMessageChunk,
  textMessageContent,
  textMessageEnd,
  textMessageStart,
  toolCallArgs,
  toolCallChunk,
  toolCallEnd,
  toolCallResult,
  toolCallStart,
  VerifyError,
  verifyAll,
} from "../src/index.ts";

const ids = { threadId: "t1", runId: "r1" };

/** A realistic run, built only from the factories. */
function realisticRun(): KnownAgUiEvent[] {
  const history: Message[] = [
    { id: "sys", role: "system", content: "You are helpful." },
    { id: "u0", role: "user", content: [{ type: "text", text: "Earlier question" }] },
    {
      id: "a0",
      role: "assistant",
      content: "Let me check.",
      toolCalls: [{ id: "c0", type: "function", function: { name: "lookup", arguments: "{}" } }],
    },
    { id: "t0", role: "tool", toolCallId: "c0", content: "42" },
    { id: "u1", role: "user", content: "What's the weather in Oslo, and is it news?" },
  ];
  return [
    runStarted({
      ...ids,
      input: {
        ...ids,
        state: { city: null },
        messages: history,
        tools: [{ name: "get_weather", description: "Weather by city", parameters: {} }],
        context: [{ description: "locale", value: "en-GB" }],
        forwardedProps: {},
      },
    }),
    // RAW and CUSTOM belong inside the run (SPEC v4 rule 1: "In `BEFORE_RUN`, an event whose
    // type is not `RUN_STARTED` or `RUN_ERROR` is rejected ... This includes `RAW`, `CUSTOM`").
    raw({ provider: "example", kind: "connected" }, { source: "example-llm" }),
    custom("client-hello", { version: 1 }),
    stateSnapshot({ city: null, steps: [] }),
    stepStarted("plan"),
    reasoningStart("r1"),
    reasoningMessageStart("r1"),
    reasoningMessageContent("r1", "The user wants weather, then news."),
    reasoningMessageEnd("r1"),
    reasoningEncryptedValue("message", "r1", "opaque-blob"),
    reasoningEnd("r1"),
    stepFinished("plan"),
    stateDelta([{ op: "replace", path: "/city", value: "Oslo" }]),
    // Chat with a tool call opened inside the message that narrates it.
    textMessageStart("m1"),
    textMessageContent("m1", "Checking the weather"),
    toolCallStart("c1", "get_weather", { parentMessageId: "m1" }),
    toolCallArgs("c1", '{"city":'),
    toolCallArgs("c1", '"Oslo"}'),
    textMessageContent("m1", "…"),
    toolCallEnd("c1"),
    textMessageEnd("m1"),
    toolCallResult("c1", "t1", "12°C, cloudy"),
    reasoningEncryptedValue("tool-call", "c1", "opaque-call-blob"),
    // A subagent, spawned by a tool call, with a nested subagent of its own.
    toolCallStart("c2", "research_news", { parentMessageId: "m1" }),
    toolCallEnd("c2"),
    subagentStarted("s1", "researcher", {
      description: "Finds news",
      parentToolCallId: "c2",
      parentMessageId: "m1",
    }),
    stepStarted("plan", { subagentRunId: "s1" }),
    textMessageStart("m2", { subagentRunId: "s1" }),
    activitySnapshot("a1", "progress", { done: 0 }, { subagentRunId: "s1" }),
    subagentStarted("s2", "fetcher", { parentSubagentRunId: "s1" }),
    toolCallStart("c3", "fetch", { subagentRunId: "s2" }),
    toolCallArgs("c3", '{"q":"Oslo"}', { subagentRunId: "s2" }),
    toolCallEnd("c3", { subagentRunId: "s2" }),
    toolCallResult("c3", "t3", [{ type: "text", text: "3 headlines" }], { subagentRunId: "s2" }),
    subagentFinished("s2", { result: { headlines: 3 } }),
    activityDelta("a1", "progress", [{ op: "replace", path: "/done", value: 1 }], {
      subagentRunId: "s1",
    }),
    subagentStarted("s3", "critic", { parentSubagentRunId: "s1" }),
    subagentError("s3", "critic timed out", { code: "TIMEOUT" }),
    textMessageContent("m2", "Nothing unusual in the news.", { subagentRunId: "s1" }),
    textMessageEnd("m2", { subagentRunId: "s1" }),
    stepFinished("plan", { subagentRunId: "s1" }),
    subagentFinished("s1", { outcome: { type: "suspended", interruptIds: [] } }),
    toolCallResult("c2", "t2", "Nothing unusual."),
    // Chunks pass through; the snapshot replays the conversation with attribution.
    textMessageChunk({ messageId: "m3", delta: "Done." }),
    toolCallChunk({ toolCallId: "c9", toolCallName: "noop", delta: "{}" }),
    reasoningMessageChunk({ messageId: "r9", delta: "…" }),
    messagesSnapshot([
      ...history,
      {
        id: "m1",
        role: "assistant",
        content: "Checking the weather…",
        toolCalls: [
          { id: "c1", type: "function", function: { name: "get_weather", arguments: "{}" } },
          { id: "c2", type: "function", function: { name: "research_news", arguments: "{}" } },
        ],
      },
      { id: "t1", role: "tool", toolCallId: "c1", content: "12°C, cloudy" },
      { id: "m2", role: "assistant", subagentRunId: "s1", content: "Nothing unusual." },
      { id: "r1", role: "reasoning", content: "The user wants weather, then news." },
      { id: "a1", role: "activity", subagentRunId: "s1", activityType: "progress", content: {} },
      { id: "t2", role: "tool", toolCallId: "c2", content: "Nothing unusual." },
    ]),
    runFinished({ ...ids, result: { ok: true }, outcome: { type: "success" } }),
  ];
}

describe("a realistic run built from the factories", () => {
  it("passes verifyAll", () => {
    const run = realisticRun();
    expect(() => verifyAll(run)).not.toThrow();
    // Every event type but RUN_ERROR and the interrupt outcome appears in it.
    const seen = new Set(run.map((e) => e.type));
    expect(EVENT_TYPES.filter((t) => !seen.has(t))).toEqual(["RUN_ERROR"]);
  });

  it("is still checked: a wrong tag on a continuation is rejected", () => {
    const run = realisticRun();
    const at = run.findIndex((e) => e.type === "TOOL_CALL_ARGS" && e.toolCallId === "c3");
    run.splice(at, 1, toolCallArgs("c3", "{}", { subagentRunId: "s1" }));
    let error: unknown;
    try {
      verifyAll(run);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(VerifyError);
    expect(error).toMatchObject({ code: "OWNER_MISMATCH", index: at });
  });

  it("accepts an interrupted run and a failed run", () => {
    expect(() =>
      verifyAll([
        runStarted(ids),
        toolCallStart("c1", "delete_all"),
        toolCallEnd("c1"),
        runFinished({
          ...ids,
          outcome: {
            type: "interrupt",
            interrupts: [{ id: "i1", reason: "confirmation", toolCallId: "c1" }],
          },
        }),
      ]),
    ).not.toThrow();
    expect(() =>
      verifyAll([
        runStarted(ids),
        subagentStarted("s1", "worker"),
        runError("upstream failed", { code: "UPSTREAM" }),
      ]),
    ).not.toThrow();
  });

  it("replays in one stream: the same run twice, each verified from scratch (SPEC §9.6)", () => {
    // SPEC §9.6: "`RUN_STARTED` after `RUN_FINISHED` or `RUN_ERROR` opens a new run and clears
    // all per-run state". The second copy re-opens every id and re-starts every subagent.
    const twice = [...realisticRun(), ...realisticRun()];
    expect(() => verifyAll(twice)).not.toThrow();
    // The second copy is still checked, with the index counting on across runs.
    const second = realisticRun();
    const at = second.findIndex((e) => e.type === "TOOL_CALL_ARGS" && e.toolCallId === "c3");
    second.splice(at, 1, toolCallArgs("c3", "{}", { subagentRunId: "s1" }));
    const first = realisticRun();
    expect(caught(() => verifyAll([...first, ...second]))).toMatchObject({
      code: "OWNER_MISMATCH",
      index: first.length + at,
    });
  });

  it("accepts a run that failed before it began, and one late failure (SPEC rule 1, rule 2)", () => {
    // 1.1: "A stream MUST begin with `RUN_STARTED` or `RUN_ERROR`".
    expect(() => verifyAll([runError("no capacity", { code: "BUSY" })])).not.toThrow();
    // SPEC rule 2: after RUN_FINISHED, "`RUN_ERROR` (a failure that surfaced after the run
    // reported success ...)" is accepted, once.
    const late = [runStarted(ids), runFinished(ids), runError("flush failed")];
    expect(() => verifyAll(late)).not.toThrow();
    expect(caught(() => verifyAll([...late, runError("again")]))).toMatchObject({
      code: "EVENT_AFTER_RUN_CLOSED",
      index: 3,
    });
  });

  it("rejects RAW and CUSTOM before the run (SPEC v4 rule 1)", () => {
    for (const first of [raw("hello"), custom("hello", {})]) {
      expect(caught(() => verifyAll([first, runStarted(ids), runFinished(ids)]))).toMatchObject({
        code: "EVENT_BEFORE_RUN_STARTED",
        index: 0,
        rule: 1,
      });
    }
  });
});

function caught(f: () => void): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("expected a throw");
}

describe("factories", () => {
  // [produced, expected] — toStrictEqual also rejects undefined-valued keys.
  const cases: ReadonlyArray<readonly [KnownAgUiEvent, Record<string, unknown>]> = [
    [runStarted(ids), { type: "RUN_STARTED", ...ids }],
    [runStarted({ ...ids, parentRunId: "r0" }), { type: "RUN_STARTED", ...ids, parentRunId: "r0" }],
    [runFinished(ids), { type: "RUN_FINISHED", ...ids }],
    [
      runFinished({ ...ids, outcome: { type: "cancelled" } }),
      { type: "RUN_FINISHED", ...ids, outcome: { type: "cancelled" } },
    ],
    [runError("boom"), { type: "RUN_ERROR", message: "boom" }],
    [runError("boom", { code: "E1" }), { type: "RUN_ERROR", message: "boom", code: "E1" }],
    [stepStarted("plan"), { type: "STEP_STARTED", stepName: "plan" }],
    [
      stepFinished("plan", { subagentRunId: "s1" }),
      { type: "STEP_FINISHED", stepName: "plan", subagentRunId: "s1" },
    ],
    [textMessageStart("m1"), { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" }],
    [
      textMessageStart("m1", { role: "user", name: "Ada" }),
      { type: "TEXT_MESSAGE_START", messageId: "m1", role: "user", name: "Ada" },
    ],
    [
      textMessageContent("m1", "hi"),
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "hi" },
    ],
    [textMessageEnd("m1"), { type: "TEXT_MESSAGE_END", messageId: "m1" }],
    [textMessageChunk(), { type: "TEXT_MESSAGE_CHUNK" }],
    [
      textMessageChunk({ messageId: "m1", delta: "x" }),
      { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", delta: "x" },
    ],
    [
      toolCallStart("c1", "search"),
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "search" },
    ],
    [
      toolCallStart("c1", "search", { parentMessageId: "m1", subagentRunId: "s1" }),
      {
        type: "TOOL_CALL_START",
        toolCallId: "c1",
        toolCallName: "search",
        parentMessageId: "m1",
        subagentRunId: "s1",
      },
    ],
    [toolCallArgs("c1", "{}"), { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: "{}" }],
    [toolCallEnd("c1"), { type: "TOOL_CALL_END", toolCallId: "c1" }],
    [toolCallChunk(), { type: "TOOL_CALL_CHUNK" }],
    [
      toolCallResult("c1", "t1", "ok"),
      { type: "TOOL_CALL_RESULT", toolCallId: "c1", messageId: "t1", content: "ok" },
    ],
    [
      toolCallResult("c1", "t1", "ok", { role: "tool" }),
      { type: "TOOL_CALL_RESULT", toolCallId: "c1", messageId: "t1", content: "ok", role: "tool" },
    ],
    [reasoningStart("r1"), { type: "REASONING_START", messageId: "r1" }],
    [
      reasoningMessageStart("r1"),
      { type: "REASONING_MESSAGE_START", messageId: "r1", role: "reasoning" },
    ],
    [
      reasoningMessageContent("r1", "hm"),
      { type: "REASONING_MESSAGE_CONTENT", messageId: "r1", delta: "hm" },
    ],
    [reasoningMessageEnd("r1"), { type: "REASONING_MESSAGE_END", messageId: "r1" }],
    [reasoningMessageChunk(), { type: "REASONING_MESSAGE_CHUNK" }],
    [reasoningEnd("r1"), { type: "REASONING_END", messageId: "r1" }],
    [
      reasoningEncryptedValue("tool-call", "c1", "xyz"),
      {
        type: "REASONING_ENCRYPTED_VALUE",
        subtype: "tool-call",
        entityId: "c1",
        encryptedValue: "xyz",
      },
    ],
    [
      activitySnapshot("a1", "plan", { n: 1 }),
      { type: "ACTIVITY_SNAPSHOT", messageId: "a1", activityType: "plan", content: { n: 1 } },
    ],
    [
      activitySnapshot("a1", "plan", {}, { replace: false }),
      {
        type: "ACTIVITY_SNAPSHOT",
        messageId: "a1",
        activityType: "plan",
        content: {},
        replace: false,
      },
    ],
    [
      activityDelta("a1", "plan", [{ op: "remove", path: "/n" }]),
      {
        type: "ACTIVITY_DELTA",
        messageId: "a1",
        activityType: "plan",
        patch: [{ op: "remove", path: "/n" }],
      },
    ],
    [stateSnapshot(null), { type: "STATE_SNAPSHOT", snapshot: null }],
    [
      stateDelta([{ op: "add", path: "/a", value: 1 }]),
      { type: "STATE_DELTA", delta: [{ op: "add", path: "/a", value: 1 }] },
    ],
    [messagesSnapshot([]), { type: "MESSAGES_SNAPSHOT", messages: [] }],
    [raw({ x: 1 }), { type: "RAW", event: { x: 1 } }],
    [raw("line", { source: "llm" }), { type: "RAW", event: "line", source: "llm" }],
    [custom("ping", 1), { type: "CUSTOM", name: "ping", value: 1 }],
    [
      subagentStarted("s1", "worker"),
      { type: "SUBAGENT_STARTED", subagentRunId: "s1", name: "worker" },
    ],
    [
      subagentStarted("s2", "worker", { parentSubagentRunId: "s1" }),
      { type: "SUBAGENT_STARTED", subagentRunId: "s2", name: "worker", parentSubagentRunId: "s1" },
    ],
    [subagentFinished("s1"), { type: "SUBAGENT_FINISHED", subagentRunId: "s1" }],
    [
      subagentError("s1", "failed"),
      { type: "SUBAGENT_ERROR", subagentRunId: "s1", message: "failed" },
    ],
  ];

  it.each(cases.map(([event, expected]) => [expected.type, event, expected]))(
    "%s",
    (_type, event, expected) => {
      expect(event).toStrictEqual(expected);
      // No key with an undefined value, and `type` comes first.
      expect(Object.values(event)).not.toContain(undefined);
      expect(Object.keys(event)[0]).toBe("type");
    },
  );

  it("cover all 31 event types", () => {
    expect(new Set(cases.map(([e]) => e.type))).toEqual(new Set(EVENT_TYPES));
  });

  it("omit every optional key that was not given", () => {
    expect(Object.keys(textMessageContent("m1", "x"))).toEqual(["type", "messageId", "delta"]);
    expect(Object.keys(toolCallStart("c1", "f", {}))).toEqual([
      "type",
      "toolCallId",
      "toolCallName",
    ]);
    expect(Object.keys(subagentFinished("s1"))).toEqual(["type", "subagentRunId"]);
    expect(Object.keys(runFinished(ids))).toEqual(["type", "threadId", "runId"]);
    expect("subagentRunId" in stepStarted("plan")).toBe(false);
  });

  it("tag any event with subagentRunId, including the empty string", () => {
    expect(textMessageEnd("m1", { subagentRunId: "" }).subagentRunId).toBe("");
    expect(raw(null, { subagentRunId: "s1" }).subagentRunId).toBe("s1");
  });

  it("do not share or mutate the extra object", () => {
    const extra = { subagentRunId: "s1" };
    const event = textMessageEnd("m1", extra);
    expect(event).not.toBe(extra);
    expect(extra).toStrictEqual({ subagentRunId: "s1" });
  });
});

describe("EVENT_TYPES", () => {
  it("has 31 distinct entries, frozen", () => {
    expect(EVENT_TYPES).toHaveLength(31);
    expect(new Set(EVENT_TYPES).size).toBe(31);
    expect(Object.isFrozen(EVENT_TYPES)).toBe(true);
    expect(EVENT_TYPES.some((t) => t.startsWith("THINKING_"))).toBe(false);
  });
});

describe("types", () => {
  // Compiled by tsc (`npx tsc --noEmit`); the runtime assertions keep the functions honest.

  /** Reads `delta` only where the switch has narrowed to TEXT_MESSAGE_CONTENT. */
  function textDelta(e: KnownAgUiEvent): string | undefined {
    switch (e.type) {
      case "TEXT_MESSAGE_CONTENT":
        return e.delta;
      case "TOOL_CALL_START":
        return e.toolCallName;
      default:
        // @ts-expect-error — `delta` is not on every member of the union.
        return e.delta;
    }
  }

  /** An exhaustive switch: adding an event type without a case is a compile error. */
  function entityId(e: KnownAgUiEvent): string | undefined {
    switch (e.type) {
      case "TEXT_MESSAGE_START":
      case "TEXT_MESSAGE_CONTENT":
      case "TEXT_MESSAGE_END":
      case "TOOL_CALL_RESULT":
      case "REASONING_START":
      case "REASONING_MESSAGE_START":
      case "REASONING_MESSAGE_CONTENT":
      case "REASONING_MESSAGE_END":
      case "REASONING_END":
      case "ACTIVITY_SNAPSHOT":
      case "ACTIVITY_DELTA":
        return e.messageId;
      case "TOOL_CALL_START":
      case "TOOL_CALL_ARGS":
      case "TOOL_CALL_END":
        return e.toolCallId;
      case "TEXT_MESSAGE_CHUNK":
      case "REASONING_MESSAGE_CHUNK":
        return e.messageId;
      case "TOOL_CALL_CHUNK":
        return e.toolCallId;
      case "REASONING_ENCRYPTED_VALUE":
        return e.entityId;
      case "STEP_STARTED":
      case "STEP_FINISHED":
        return e.stepName;
      case "SUBAGENT_STARTED":
      case "SUBAGENT_FINISHED":
      case "SUBAGENT_ERROR":
        return e.subagentRunId;
      case "RUN_STARTED":
      case "RUN_FINISHED":
        return e.runId;
      case "RUN_ERROR":
      case "STATE_SNAPSHOT":
      case "STATE_DELTA":
      case "MESSAGES_SNAPSHOT":
      case "RAW":
      case "CUSTOM":
        return undefined;
      default: {
        const unreachable: never = e;
        return unreachable;
      }
    }
  }

  it("narrow on `type`", () => {
    expect(textDelta(textMessageContent("m1", "hi"))).toBe("hi");
    expect(textDelta(toolCallStart("c1", "search"))).toBe("search");
    expect(textDelta(toolCallArgs("c1", "{}"))).toBe("{}");
    expect(entityId(reasoningEncryptedValue("message", "r1", "v"))).toBe("r1");
    expect(entityId(subagentError("s1", "x"))).toBe("s1");
  });

  it("are assignable to AgUiEvent", () => {
    const known: KnownAgUiEvent[] = realisticRun();
    const generic: AgUiEvent[] = known;
    const one: AgUiEvent = subagentStarted("s1", "worker");
    const type: AgUiEventType = "RUN_STARTED";
    expect(generic).toHaveLength(known.length);
    expect(EVENT_TYPES).toContain(one.type);
    expect(EVENT_TYPES).toContain(type);
  });

  it("reject what the protocol forbids", () => {
    // @ts-expect-error — SUBAGENT_* events require their subagentRunId.
    const missing: KnownAgUiEvent = { type: "SUBAGENT_ERROR", message: "x" };
    // @ts-expect-error — exactOptionalPropertyTypes: omit a key rather than set it undefined.
    const undef = textMessageEnd("m1", { subagentRunId: undefined });
    // @ts-expect-error — the positional fields are not repeated in `extra`.
    const dup = textMessageContent("m1", "x", { delta: "y" });
    expect([missing, undef, dup]).toHaveLength(3);
  });
});

describe("documented examples", () => {
  it("module example", () => {
    const events = [
      runStarted({ threadId: "t1", runId: "r1" }),
      textMessageStart("m1"),
      textMessageContent("m1", "Hello"),
      textMessageEnd("m1"),
      runFinished({ threadId: "t1", runId: "r1" }),
    ];
    expect(() => verifyAll(events)).not.toThrow();
  });

  it("factory examples", () => {
    expect(runStarted({ threadId: "t1", runId: "r1" })).toStrictEqual({
      type: "RUN_STARTED",
      threadId: "t1",
      runId: "r1",
    });
    expect(textMessageStart("m1", { subagentRunId: "s1" })).toStrictEqual({
      type: "TEXT_MESSAGE_START",
      messageId: "m1",
      role: "assistant",
      subagentRunId: "s1",
    });
    expect(toolCallStart("c1", "get_weather", { parentMessageId: "m1" })).toStrictEqual({
      type: "TOOL_CALL_START",
      toolCallId: "c1",
      toolCallName: "get_weather",
      parentMessageId: "m1",
    });
    expect(subagentStarted("s2", "researcher", { parentSubagentRunId: "s1" })).toStrictEqual({
      type: "SUBAGENT_STARTED",
      subagentRunId: "s2",
      name: "researcher",
      parentSubagentRunId: "s1",
    });
    const interrupted = runFinished({
      threadId: "t1",
      runId: "r1",
      outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "confirmation" }] },
    });
    expect(() =>
      verifyAll([runStarted({ threadId: "t1", runId: "r1" }), interrupted]),
    ).not.toThrow();
    const snapshot = messagesSnapshot([
      { id: "u1", role: "user", content: "Weather in Oslo?" },
      {
        id: "m1",
        role: "assistant",
        subagentRunId: "s1",
        toolCalls: [
          { id: "c1", type: "function", function: { name: "get_weather", arguments: "{}" } },
        ],
      },
    ]);
    expect(snapshot.messages).toHaveLength(2);
  });
});
