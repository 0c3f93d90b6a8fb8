// The producer duties of AG-UI 1.1 at a run's boundaries (SPEC §18.5), through `lint()`:
// for each code, streams that break the duty in different ways and near misses that keep
// it, all valid under SPEC v4 (the verifier accepts every one); the message of one
// finding each, quoting the 1.1 sentence; the override to error; and the draft's codes as
// errors with protocol "draft".

import { describe, expect, it } from "vitest";
import { verifyAll } from "../src/index.ts";
import { type LintOptions, lint, lintStream } from "../src/lint/index.ts";
import { type Ev, first, found, RE, RF, RS } from "./support/lint-duties.ts";

describe("THREAD_ID_MISMATCH (basic/run-input: every run carries the input's threadId)", () => {
  it("is given for a later RUN_STARTED, and a RUN_FINISHED, on another thread", () => {
    expect(
      found("THREAD_ID_MISMATCH", [
        RS(),
        RF(),
        RS({ threadId: "t2", runId: "r2" }),
        RF({ runId: "r2" }),
      ]),
    ).toEqual([[2, "threadId"]]);
    expect(found("THREAD_ID_MISMATCH", [RS(), RF({ threadId: "t9" })])).toEqual([[1, "threadId"]]);
    expect(first("THREAD_ID_MISMATCH", [RS(), RF({ threadId: "t9" })])?.message).toBe(
      'RUN_FINISHED at index 1: threadId "t9" is not the stream\'s thread "t1"; 1.1 says every run on the stream carries the input\'s threadId on RUN_STARTED and RUN_FINISHED (basic/run-input), and a client files this run under another thread. [THREAD_ID_MISMATCH, warning]',
    );
  });

  it("is not given for runs on one thread, nor where the first run names none", () => {
    expect(
      found("THREAD_ID_MISMATCH", [RS(), RF(), RS({ runId: "r2" }), RF({ runId: "r2" })]),
    ).toEqual([]);
    // A RUN_ERROR carries no thread to compare (it has no id fields in the 1.1 schema).
    expect(
      found("THREAD_ID_MISMATCH", [RS(), RE(), RS({ runId: "r2" }), RF({ runId: "r2" })]),
    ).toEqual([]);
  });

  it("is the verifier's error with protocol draft, at the same event", () => {
    const stream = [
      RS(),
      RF(),
      RS({ threadId: "t2", runId: "r2" }),
      RF({ threadId: "t2", runId: "r2" }),
    ];
    const report = lint(stream, { protocol: "draft" });
    expect(report.findings[0]).toMatchObject({
      code: "THREAD_ID_MISMATCH",
      severity: "error",
      rule: 2,
      index: 2,
    });
  });
});

describe('RUN_ID_REUSED (basic/index: a runId "MUST NOT be reused for another run on the same thread")', () => {
  it("is given for a second run with an earlier run's id, at once or later", () => {
    expect(found("RUN_ID_REUSED", [RS(), RF(), RS(), RF()])).toEqual([[2, "runId"]]);
    const later = [RS(), RE(), RS({ runId: "r2" }), RF({ runId: "r2" }), RS(), RF()];
    expect(found("RUN_ID_REUSED", later)).toEqual([[4, "runId"]]);
    expect(first("RUN_ID_REUSED", [RS(), RF(), RS(), RF()])?.message).toBe(
      'RUN_STARTED at index 2: runId "r1" was already used by an earlier run on thread "t1"; 1.1 says a runId "MUST NOT be reused for another run on the same thread" (basic/index), and a client that keys runs by id merges the two. [RUN_ID_REUSED, warning]',
    );
  });

  it("is not given for new ids, nor for one id on two threads", () => {
    expect(found("RUN_ID_REUSED", [RS(), RF(), RS({ runId: "r2" }), RF({ runId: "r2" })])).toEqual(
      [],
    );
    const twoThreads = [RS(), RF(), RS({ threadId: "t2" }), RF({ threadId: "t2" })];
    expect(found("RUN_ID_REUSED", twoThreads)).toEqual([]);
  });

  it("remembers no more run ids than maxIds allows (SPEC §17), and then checks no more", () => {
    // maxIds 2: r1 and the thread t1 fill it; r2 is not remembered, so its reuse is not seen.
    const stream = [
      RS(),
      RF(),
      RS({ runId: "r2" }),
      RF({ runId: "r2" }),
      RS(),
      RF(),
      RS({ runId: "r2" }),
      RF({ runId: "r2" }),
    ];
    expect(found("RUN_ID_REUSED", stream, { maxIds: 2 })).toEqual([[4, "runId"]]);
    expect(found("RUN_ID_REUSED", stream)).toEqual([
      [4, "runId"],
      [6, "runId"],
    ]);
  });
});

describe('INTERRUPT_ID_DUPLICATE (interrupt-resume: "Each interrupt\'s id MUST be unique within the run")', () => {
  const outcome = (...ids: unknown[]) => ({
    outcome: { type: "interrupt", interrupts: ids.map((id) => ({ id, reason: "r" })) },
  });

  it("is given for an id repeated in the outcome, next to each other or apart", () => {
    expect(found("INTERRUPT_ID_DUPLICATE", [RS(), RF(outcome("i1", "i1"))])).toEqual([
      [1, "outcome.interrupts[1].id"],
    ]);
    expect(found("INTERRUPT_ID_DUPLICATE", [RS(), RF(outcome("a", "b", "c", "b"))])).toEqual([
      [1, "outcome.interrupts[3].id"],
    ]);
    expect(first("INTERRUPT_ID_DUPLICATE", [RS(), RF(outcome("i1", "i1"))])?.message).toBe(
      'RUN_FINISHED at index 1: interrupt id "i1" appears twice in the outcome; 1.1 says "Each interrupt\'s id MUST be unique within the run" (basic/patterns/interrupt-resume), and a client that resumes by id answers only one of them. [INTERRUPT_ID_DUPLICATE, warning]',
    );
  });

  it("is not given for distinct ids, nor for the same id in two runs' outcomes", () => {
    expect(found("INTERRUPT_ID_DUPLICATE", [RS(), RF(outcome("i1", "i2"))])).toEqual([]);
    const twoRuns = [
      RS(),
      RF(outcome("i1")),
      RS({ runId: "r2" }),
      RF({ runId: "r2", ...outcome("i1") }),
    ];
    expect(found("INTERRUPT_ID_DUPLICATE", twoRuns)).toEqual([]);
  });

  it("is the verifier's rule 8 error with protocol draft", () => {
    const report = lint([RS(), RF(outcome("i1", "i1"))], { protocol: "draft" });
    expect(report.findings[0]).toMatchObject({
      code: "INTERRUPT_ID_DUPLICATE",
      severity: "error",
      rule: 8,
      index: 1,
    });
  });
});

describe('UNKNOWN_RUN_OUTCOME (lifecycle: "A producer MUST NOT send an outcome value the schema does not describe")', () => {
  it("is given for an outcome type 1.1 does not describe, a misspelt one too", () => {
    expect(found("UNKNOWN_RUN_OUTCOME", [RS(), RF({ outcome: { type: "timeout" } })])).toEqual([
      [1, "outcome.type"],
    ]);
    expect(found("UNKNOWN_RUN_OUTCOME", [RS(), RF({ outcome: { type: "Success" } })])).toEqual([
      [1, "outcome.type"],
    ]);
    expect(
      first("UNKNOWN_RUN_OUTCOME", [RS(), RF({ outcome: { type: "timeout" } })])?.message,
    ).toContain(
      'outcome type "timeout" is none the 1.1 schema describes (success, interrupt, cancelled)',
    );
  });

  it("is not given for the three outcomes, nor for an absent one", () => {
    for (const type of ["success", "cancelled"]) {
      expect(found("UNKNOWN_RUN_OUTCOME", [RS(), RF({ outcome: { type } })])).toEqual([]);
    }
    const interrupt = { type: "interrupt", interrupts: [{ id: "i1", reason: "r" }] };
    expect(found("UNKNOWN_RUN_OUTCOME", [RS(), RF({ outcome: interrupt })])).toEqual([]);
    expect(found("UNKNOWN_RUN_OUTCOME", [RS(), RF()])).toEqual([]);
  });
});

describe('CANCELLED_RUN_HAS_RESULT (lifecycle: "A cancelled run has no return value")', () => {
  const cancelled = { outcome: { type: "cancelled" } };

  it("is given for a cancelled run with a result, whatever its value", () => {
    expect(
      found("CANCELLED_RUN_HAS_RESULT", [RS(), RF({ ...cancelled, result: { answer: "half" } })]),
    ).toEqual([[1, "result"]]);
    expect(found("CANCELLED_RUN_HAS_RESULT", [RS(), RF({ ...cancelled, result: null })])).toEqual([
      [1, "result"],
    ]);
    expect(
      first("CANCELLED_RUN_HAS_RESULT", [RS(), RF({ ...cancelled, result: 1 })])?.message,
    ).toContain(
      '"A cancelled run has no return value: result SHOULD be absent" (events/lifecycle)',
    );
  });

  it("is not given for a cancelled run without one, nor a successful run with one", () => {
    expect(
      found("CANCELLED_RUN_HAS_RESULT", [RS(), RF({ ...cancelled, usage: [{ inputTokens: 1 }] })]),
    ).toEqual([]);
    expect(
      found("CANCELLED_RUN_HAS_RESULT", [RS(), RF({ outcome: { type: "success" }, result: 1 })]),
    ).toEqual([]);
  });
});

describe('USAGE_TOTAL_MISMATCH (lifecycle: "totalTokens is inputTokens plus outputTokens")', () => {
  it("is given for a total that is not the sum, on RUN_FINISHED or RUN_ERROR, per entry", () => {
    const usage = [
      { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      { inputTokens: 100, outputTokens: 20, totalTokens: 150 },
    ];
    expect(found("USAGE_TOTAL_MISMATCH", [RS(), RF({ usage })])).toEqual([
      [1, "usage[1].totalTokens"],
    ]);
    expect(
      found("USAGE_TOTAL_MISMATCH", [
        RS(),
        RE({ usage: [{ inputTokens: 1, outputTokens: 1, totalTokens: 1 }] }),
      ]),
    ).toEqual([[1, "usage[0].totalTokens"]]);
    expect(first("USAGE_TOTAL_MISMATCH", [RS(), RF({ usage })])?.message).toBe(
      'RUN_FINISHED at index 1: totalTokens 150 is not inputTokens 100 plus outputTokens 20; 1.1 says "totalTokens is inputTokens plus outputTokens" (events/lifecycle), and a dashboard that sums totals counts this run wrong. [USAGE_TOTAL_MISMATCH, warning]',
    );
  });

  it("is not given for the sum, nor when an addend is absent", () => {
    expect(
      found("USAGE_TOTAL_MISMATCH", [
        RS(),
        RF({ usage: [{ inputTokens: 7, outputTokens: 3, totalTokens: 10 }] }),
      ]),
    ).toEqual([]);
    // An absent count is unreported, not zero.
    expect(
      found("USAGE_TOTAL_MISMATCH", [RS(), RF({ usage: [{ inputTokens: 7, totalTokens: 10 }] })]),
    ).toEqual([]);
  });
});

describe('USAGE_PART_EXCEEDS_TOTAL (lifecycle: parts "are parts of those totals, never additions to them")', () => {
  it("is given for a cache or reasoning count above its total, and for two cache counts that overlap", () => {
    const cached = [RS(), RF({ usage: [{ inputTokens: 100, cachedInputTokens: 400 }] })];
    expect(found("USAGE_PART_EXCEEDS_TOTAL", cached)).toEqual([[1, "usage[0].cachedInputTokens"]]);
    const reasoning = [RS(), RE({ usage: [{ outputTokens: 10, reasoningTokens: 11 }] })];
    expect(found("USAGE_PART_EXCEEDS_TOTAL", reasoning)).toEqual([[1, "usage[0].reasoningTokens"]]);
    // "The two cache counts are disjoint": each fits, together they do not.
    const both = [
      RS(),
      RF({ usage: [{ inputTokens: 100, cachedInputTokens: 60, cacheWriteInputTokens: 50 }] }),
    ];
    expect(found("USAGE_PART_EXCEEDS_TOTAL", both)).toEqual([
      [1, "usage[0].cacheWriteInputTokens"],
    ]);
    expect(first("USAGE_PART_EXCEEDS_TOTAL", cached)?.message).toContain(
      "cachedInputTokens 400 exceeds inputTokens 100; 1.1 says",
    );
  });

  it("is not given for parts within their totals, nor for a part without its total", () => {
    const within = {
      inputTokens: 100,
      cachedInputTokens: 60,
      cacheWriteInputTokens: 40,
      outputTokens: 10,
      reasoningTokens: 10,
    };
    expect(found("USAGE_PART_EXCEEDS_TOTAL", [RS(), RF({ usage: [within] })])).toEqual([]);
    expect(
      found("USAGE_PART_EXCEEDS_TOTAL", [RS(), RF({ usage: [{ cachedInputTokens: 400 }] })]),
    ).toEqual([]);
  });
});

describe('PROTOCOL_VERSION_MISSING (versioning: "An implementation of this version MUST send its declaration")', () => {
  const on: LintOptions = { severity: { PROTOCOL_VERSION_MISSING: "warning" } };

  it("is off by default (SPEC §18.5: most producers in use predate the field)", () => {
    expect(found("PROTOCOL_VERSION_MISSING", [RS(), RF()])).toEqual([]);
  });

  it("when turned on, is given for every RUN_STARTED without a declaration", () => {
    expect(found("PROTOCOL_VERSION_MISSING", [RS(), RF()], on)).toEqual([[0, "protocolVersion"]]);
    const second = [RS({ protocolVersion: "1.1" }), RF(), RS({ runId: "r2" }), RF({ runId: "r2" })];
    expect(found("PROTOCOL_VERSION_MISSING", second, on)).toEqual([[2, "protocolVersion"]]);
  });

  it("when turned on, is not given for a declaration, published or not", () => {
    expect(found("PROTOCOL_VERSION_MISSING", [RS({ protocolVersion: "1.1" }), RF()], on)).toEqual(
      [],
    );
    expect(found("PROTOCOL_VERSION_MISSING", [RS({ protocolVersion: "v1" }), RF()], on)).toEqual(
      [],
    );
  });
});

describe('PROTOCOL_VERSION_NOT_PUBLISHED (versioning: versions are "MAJOR.MINOR")', () => {
  it("is given for a declaration that is not two numbers and a dot", () => {
    expect(
      found("PROTOCOL_VERSION_NOT_PUBLISHED", [RS({ protocolVersion: "1.1.0" }), RF()]),
    ).toEqual([[0, "protocolVersion"]]);
    expect(
      found("PROTOCOL_VERSION_NOT_PUBLISHED", [RS({ protocolVersion: "draft" }), RF()]),
    ).toEqual([[0, "protocolVersion"]]);
    expect(found("PROTOCOL_VERSION_NOT_PUBLISHED", [RS({ protocolVersion: 1.1 }), RF()])).toEqual([
      [0, "protocolVersion"],
    ]);
    expect(
      first("PROTOCOL_VERSION_NOT_PUBLISHED", [RS({ protocolVersion: "1.1.0" }), RF()])?.message,
    ).toContain(
      'protocolVersion "1.1.0" is not a published version; 1.1 says the declaration is "MAJOR.MINOR" (basic/versioning)',
    );
  });

  it("is not given for 1.1, 1.0 or 2.10", () => {
    for (const protocolVersion of ["1.1", "1.0", "2.10"]) {
      expect(found("PROTOCOL_VERSION_NOT_PUBLISHED", [RS({ protocolVersion }), RF()])).toEqual([]);
    }
  });
});

describe("every duty", () => {
  const breaking: Array<[string, Ev[]]> = [
    ["THREAD_ID_MISMATCH", [RS(), RF({ threadId: "t9" })]],
    ["RUN_ID_REUSED", [RS(), RF(), RS(), RF()]],
    [
      "INTERRUPT_ID_DUPLICATE",
      [RS(), RF({ outcome: { type: "interrupt", interrupts: [{ id: "a" }, { id: "a" }] } })],
    ],
    ["UNKNOWN_RUN_OUTCOME", [RS(), RF({ outcome: { type: "x" } })]],
    ["CANCELLED_RUN_HAS_RESULT", [RS(), RF({ outcome: { type: "cancelled" }, result: 1 })]],
    [
      "USAGE_TOTAL_MISMATCH",
      [RS(), RF({ usage: [{ inputTokens: 1, outputTokens: 1, totalTokens: 3 }] })],
    ],
    ["USAGE_PART_EXCEEDS_TOTAL", [RS(), RF({ usage: [{ outputTokens: 1, reasoningTokens: 2 }] })]],
    ["PROTOCOL_VERSION_NOT_PUBLISHED", [RS({ protocolVersion: "v1" }), RF()]],
    [
      "PENDING_TOOL_CALL_IDS_OMITTED",
      [
        RS(),
        { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "f" },
        { type: "TOOL_CALL_END", toolCallId: "c1" },
        RF(),
      ],
    ],
    [
      "ACTIVITY_DELTA_WITHOUT_SNAPSHOT",
      [RS(), { type: "ACTIVITY_DELTA", messageId: "a1", patch: [] }, RF()],
    ],
    [
      "MESSAGE_ID_NOT_UNIQUE",
      [
        RS(),
        {
          type: "MESSAGES_SNAPSHOT",
          messages: [
            { id: "u", role: "user", content: "" },
            { id: "u", role: "user", content: "" },
          ],
        },
        RF(),
      ],
    ],
    [
      "TEXT_REOPEN_MISMATCH",
      [
        RS(),
        { type: "TEXT_MESSAGE_START", messageId: "m", role: "user" },
        { type: "TEXT_MESSAGE_END", messageId: "m" },
        { type: "TEXT_MESSAGE_START", messageId: "m" },
        { type: "TEXT_MESSAGE_END", messageId: "m" },
        RF(),
      ],
    ],
  ];

  it.each(breaking)(
    "%s can be made an error, which never changes the verifier's verdict",
    (code, stream) => {
      expect(() => verifyAll(stream)).not.toThrow();
      const report = lint(stream, { severity: { [code]: "error" } });
      expect(report.valid).toBe(false);
      expect(report.findings.find((f) => f.code === code)).toMatchObject({
        severity: "error",
        rule: undefined,
      });
      expect(
        lint(stream, { severity: { [code]: "off" } }).findings.some((f) => f.code === code),
      ).toBe(false);
    },
  );

  it("reads no field through a throwing getter: the event is accepted and the duties skip it", () => {
    const hostile = RS();
    Object.defineProperty(hostile, "protocolVersion", {
      enumerable: true,
      get() {
        throw new Error("no");
      },
    });
    const report = lint([hostile, RF()]);
    expect(report.valid).toBe(true);
    expect(report.findings.filter((f) => f.code.startsWith("PROTOCOL_VERSION"))).toEqual([]);
  });
});

const start = (id: string): Ev => ({ type: "TOOL_CALL_START", toolCallId: id, toolCallName: "f" });
const end = (id: string): Ev => ({ type: "TOOL_CALL_END", toolCallId: id });
const result = (id: string): Ev => ({
  type: "TOOL_CALL_RESULT",
  toolCallId: id,
  messageId: `m-${id}`,
  content: "ok",
});
const chunk = (id: string): Ev => ({
  type: "TOOL_CALL_CHUNK",
  toolCallId: id,
  toolCallName: "f",
  delta: "{}",
});
const success = (pendingToolCallIds?: unknown) => ({
  outcome:
    pendingToolCallIds === undefined
      ? { type: "success" }
      : { type: "success", pendingToolCallIds },
});

describe('PENDING_TOOL_CALL_IDS_MISMATCH (tool-calls: "the list MUST contain exactly the tool calls the run started and did not answer")', () => {
  it("is given for a list naming an answered call, missing one, or in another order", () => {
    const answered = [
      RS(),
      start("c1"),
      end("c1"),
      result("c1"),
      start("c2"),
      end("c2"),
      RF(success(["c1", "c2"])),
    ];
    expect(found("PENDING_TOOL_CALL_IDS_MISMATCH", answered)).toEqual([
      [6, "outcome.pendingToolCallIds"],
    ]);
    const missing = [RS(), start("c1"), end("c1"), start("c2"), end("c2"), RF(success(["c2"]))];
    expect(found("PENDING_TOOL_CALL_IDS_MISMATCH", missing)).toEqual([
      [5, "outcome.pendingToolCallIds"],
    ]);
    // "in the order they were made": c1's chunk came first.
    const order = [RS(), chunk("c1"), start("c2"), end("c2"), RF(success(["c2", "c1"]))];
    expect(found("PENDING_TOOL_CALL_IDS_MISMATCH", order)).toEqual([
      [4, "outcome.pendingToolCallIds"],
    ]);
    expect(first("PENDING_TOOL_CALL_IDS_MISMATCH", answered)?.message).toContain(
      'pendingToolCallIds names ["c1", "c2"] but the run left ["c2"] unanswered; 1.1 says "the list MUST contain exactly the tool calls the run started and did not answer with TOOL_CALL_RESULT", "in the order they were made" (events/tool-calls)',
    );
  });

  it("is not given for the exact list, nor for calls of an earlier run that this one did not re-open", () => {
    const exact = [
      RS(),
      start("c1"),
      end("c1"),
      chunk("c2"),
      start("c3"),
      end("c3"),
      result("c3"),
      RF(success(["c1", "c2"])),
    ];
    expect(found("PENDING_TOOL_CALL_IDS_MISMATCH", exact)).toEqual([]);
    const earlier = [
      RS(),
      start("c1"),
      end("c1"),
      RF(success(["c1"])),
      RS({ runId: "r2" }),
      start("c2"),
      end("c2"),
      RF({ runId: "r2", ...success(["c2"]) }),
    ];
    expect(found("PENDING_TOOL_CALL_IDS_MISMATCH", earlier)).toEqual([]);
  });
});

describe('PENDING_TOOL_CALL_IDS_OMITTED (tool-calls: "A producer SHOULD send it when a run leaves calls pending")', () => {
  it("is given for a success outcome, or none, that leaves calls unanswered and names none", () => {
    expect(found("PENDING_TOOL_CALL_IDS_OMITTED", [RS(), start("c1"), end("c1"), RF()])).toEqual([
      [3, "outcome"],
    ]);
    // "Absent or empty means the producer named none."
    const empty = [RS(), start("c1"), end("c1"), RF(success([]))];
    expect(found("PENDING_TOOL_CALL_IDS_OMITTED", empty)).toEqual([
      [3, "outcome.pendingToolCallIds"],
    ]);
    expect(first("PENDING_TOOL_CALL_IDS_OMITTED", empty)?.message).toContain(
      'the run leaves ["c1"] unanswered but its outcome names no pendingToolCallIds; 1.1 says "A producer SHOULD send it when a run leaves calls pending" (events/tool-calls)',
    );
  });

  it("is not given when every call was answered, nor for an interrupted or cancelled run", () => {
    expect(
      found("PENDING_TOOL_CALL_IDS_OMITTED", [RS(), start("c1"), end("c1"), result("c1"), RF()]),
    ).toEqual([]);
    const interrupt = {
      outcome: { type: "interrupt", interrupts: [{ id: "i1", toolCallId: "c1" }] },
    };
    expect(
      found("PENDING_TOOL_CALL_IDS_OMITTED", [RS(), start("c1"), end("c1"), RF(interrupt)]),
    ).toEqual([]);
    expect(
      found("PENDING_TOOL_CALL_IDS_OMITTED", [
        RS(),
        start("c1"),
        end("c1"),
        RF({ outcome: { type: "cancelled" } }),
      ]),
    ).toEqual([]);
  });

  it("judges nothing once the run's calls no longer fit under maxIds (SPEC §17)", () => {
    // Chunked calls are the linter's to hold (the verifier does not track chunks).
    const stream = [RS(), chunk("c1"), chunk("c2"), chunk("c3"), RF()];
    expect(found("PENDING_TOOL_CALL_IDS_OMITTED", stream)).toEqual([[4, "outcome"]]);
    expect(found("PENDING_TOOL_CALL_IDS_OMITTED", stream, { maxIds: 2 })).toEqual([]);
  });
});

describe('ENCRYPTED_VALUE_TYPE_WITHOUT_VALUE (reasoning: "A producer MUST NOT send encryptedValueType without encryptedValue")', () => {
  const call = (fields: Record<string, unknown>) => ({
    id: "c1",
    type: "function",
    function: { name: "f", arguments: "{}" },
    ...fields,
  });

  it("is given on a snapshot's message, a tool call, and the input echo", () => {
    const snapshot = {
      type: "MESSAGES_SNAPSHOT",
      messages: [{ id: "a1", role: "assistant", content: "x", encryptedValueType: "r" }],
    };
    expect(found("ENCRYPTED_VALUE_TYPE_WITHOUT_VALUE", [RS(), snapshot, RF()])).toEqual([
      [1, "messages[0].encryptedValueType"],
    ]);
    const echo = RS({
      input: {
        messages: [{ id: "a1", role: "assistant", toolCalls: [call({ encryptedValueType: "k" })] }],
      },
    });
    expect(found("ENCRYPTED_VALUE_TYPE_WITHOUT_VALUE", [echo, RF()])).toEqual([
      [0, "input.messages[0].toolCalls[0].encryptedValueType"],
    ]);
    expect(first("ENCRYPTED_VALUE_TYPE_WITHOUT_VALUE", [RS(), snapshot, RF()])?.message).toContain(
      'messages[0] has an encryptedValueType but no encryptedValue; 1.1 says "A producer MUST NOT send encryptedValueType without encryptedValue" (events/reasoning)',
    );
  });

  it("is not given with the value, nor for a value without a type", () => {
    const both = {
      type: "MESSAGES_SNAPSHOT",
      messages: [
        {
          id: "a1",
          role: "assistant",
          toolCalls: [call({ encryptedValue: "e", encryptedValueType: "k" })],
        },
      ],
    };
    expect(found("ENCRYPTED_VALUE_TYPE_WITHOUT_VALUE", [RS(), both, RF()])).toEqual([]);
    const valueOnly = {
      type: "MESSAGES_SNAPSHOT",
      messages: [{ id: "a1", role: "assistant", content: "x", encryptedValue: "e" }],
    };
    expect(found("ENCRYPTED_VALUE_TYPE_WITHOUT_VALUE", [RS(), valueOnly, RF()])).toEqual([]);
  });
});

describe('ACTIVITY_DELTA_WITHOUT_SNAPSHOT (activity: "A producer MUST NOT send a delta for an activity message it has not created with a snapshot")', () => {
  const delta = (id: string): Ev => ({ type: "ACTIVITY_DELTA", messageId: id, patch: [] });
  const snap = (id: string): Ev => ({
    type: "ACTIVITY_SNAPSHOT",
    messageId: id,
    activityType: "PLAN",
    content: {},
  });

  it("is given for a delta before any snapshot, and for another activity's id", () => {
    expect(found("ACTIVITY_DELTA_WITHOUT_SNAPSHOT", [RS(), delta("a1"), snap("a1"), RF()])).toEqual(
      [[1, "messageId"]],
    );
    expect(found("ACTIVITY_DELTA_WITHOUT_SNAPSHOT", [RS(), snap("a1"), delta("a2"), RF()])).toEqual(
      [[2, "messageId"]],
    );
    expect(first("ACTIVITY_DELTA_WITHOUT_SNAPSHOT", [RS(), delta("a1"), RF()])?.message).toContain(
      'activity "a1" was not created by a snapshot in this stream; 1.1 says "A producer MUST NOT send a delta for an activity message it has not created with a snapshot" (events/activity)',
    );
  });

  it("is not given after a snapshot, in this run, an earlier run, or a MESSAGES_SNAPSHOT", () => {
    const twoRuns = [RS(), snap("a1"), RF(), RS({ runId: "r2" }), delta("a1"), RF({ runId: "r2" })];
    expect(found("ACTIVITY_DELTA_WITHOUT_SNAPSHOT", twoRuns)).toEqual([]);
    const messages = {
      type: "MESSAGES_SNAPSHOT",
      messages: [{ id: "a1", role: "activity", activityType: "PLAN", content: {} }],
    };
    expect(found("ACTIVITY_DELTA_WITHOUT_SNAPSHOT", [RS(), messages, delta("a1"), RF()])).toEqual(
      [],
    );
  });
});

const textStart = (id: string, fields: Record<string, unknown> = {}): Ev => ({
  type: "TEXT_MESSAGE_START",
  messageId: id,
  ...fields,
});
const textEnd = (id: string, fields: Record<string, unknown> = {}): Ev => ({
  type: "TEXT_MESSAGE_END",
  messageId: id,
  ...fields,
});

describe('MESSAGE_ID_NOT_UNIQUE (basic/index: "messageId … MUST be unique within its thread")', () => {
  const snapshot = (...messages: Array<Record<string, unknown>>): Ev => ({
    type: "MESSAGES_SNAPSHOT",
    messages,
  });

  it("is given for one id on two kinds, two results minting one tool message, and a snapshot's duplicate", () => {
    const kinds = [
      RS(),
      textStart("m1"),
      textEnd("m1"),
      start("c1"),
      end("c1"),
      { ...result("c1"), messageId: "m1" },
      RF(),
    ];
    expect(found("MESSAGE_ID_NOT_UNIQUE", kinds)).toEqual([[5, "messageId"]]);
    const twice = [RS(), start("c1"), end("c1"), result("c1"), { ...result("c1") }, RF()];
    expect(found("MESSAGE_ID_NOT_UNIQUE", twice)).toEqual([[4, "messageId"]]);
    const dup = [
      RS(),
      snapshot({ id: "u1", role: "user", content: "a" }, { id: "u1", role: "user", content: "a" }),
      RF(),
    ];
    expect(found("MESSAGE_ID_NOT_UNIQUE", dup)).toEqual([[1, "messages[1].id"]]);
    // Across runs: a message of an earlier run is still the thread's.
    const runs = [
      RS(),
      { type: "REASONING_MESSAGE_START", messageId: "x", role: "reasoning" },
      { type: "REASONING_MESSAGE_END", messageId: "x" },
      RF(),
      RS({ runId: "r2" }),
      textStart("x"),
      textEnd("x"),
      RF({ runId: "r2" }),
    ];
    expect(found("MESSAGE_ID_NOT_UNIQUE", runs)).toEqual([[5, "messageId"]]);
    expect(first("MESSAGE_ID_NOT_UNIQUE", kinds)?.message).toContain(
      'message id "m1" already names a message with role "assistant", not a tool message; 1.1 says "messageId … MUST be unique within its thread" (basic/index)',
    );
  });

  it("is not given for a re-open, a snapshot restating a message, or a span sharing a message's id", () => {
    const reopen = [RS(), textStart("m1"), textEnd("m1"), textStart("m1"), textEnd("m1"), RF()];
    expect(found("MESSAGE_ID_NOT_UNIQUE", reopen)).toEqual([]);
    const restated = [
      RS(),
      textStart("m1"),
      textEnd("m1"),
      start("c1"),
      end("c1"),
      result("c1"),
      snapshot(
        { id: "m1", role: "assistant", content: "hi" },
        { id: "m-c1", role: "tool", toolCallId: "c1", content: "ok" },
      ),
      RF(),
    ];
    expect(found("MESSAGE_ID_NOT_UNIQUE", restated)).toEqual([]);
    const span = [
      RS(),
      { type: "REASONING_START", messageId: "m1" },
      { type: "REASONING_END", messageId: "m1" },
      textStart("m1"),
      textEnd("m1"),
      RF(),
    ];
    expect(found("MESSAGE_ID_NOT_UNIQUE", span)).toEqual([]);
  });
});

describe('TEXT_REOPEN_MISMATCH (text-messages: "A reopening TEXT_MESSAGE_START MUST agree with the message it reopens")', () => {
  it("is given for another role (absent means assistant), another name, another owner across runs", () => {
    const role = [
      RS(),
      textStart("m1", { role: "user" }),
      textEnd("m1"),
      textStart("m1"),
      textEnd("m1"),
      RF(),
    ];
    expect(found("TEXT_REOPEN_MISMATCH", role)).toEqual([[3, "role"]]);
    const name = [
      RS(),
      textStart("m1", { name: "ada" }),
      textEnd("m1"),
      textStart("m1", { name: "bob" }),
      textEnd("m1"),
      RF(),
    ];
    expect(found("TEXT_REOPEN_MISMATCH", name)).toEqual([[3, "name"]]);
    // Within a run another owner is OWNER_MISMATCH (rule 9); across runs the linter sees it.
    const owner = [
      RS(),
      textStart("m1", { subagentRunId: "s1" }),
      textEnd("m1"),
      RF(),
      RS({ runId: "r2" }),
      textStart("m1", { subagentRunId: "s2" }),
      textEnd("m1"),
      RF({ runId: "r2" }),
    ];
    expect(found("TEXT_REOPEN_MISMATCH", owner)).toEqual([[5, "subagentRunId"]]);
    expect(first("TEXT_REOPEN_MISMATCH", role)?.message).toContain(
      're-opening text message "m1" with role "assistant", where it had "user"; 1.1 says "A reopening TEXT_MESSAGE_START MUST agree with the message it reopens — the same owner, the same role, the same name" (events/text-messages)',
    );
  });

  it("is not given for a re-open that agrees or omits the name and tag", () => {
    const agrees = [
      RS(),
      textStart("m1", { role: "user", name: "ada", subagentRunId: "s1" }),
      textEnd("m1", { subagentRunId: "s1" }),
      textStart("m1", { role: "user", name: "ada", subagentRunId: "s1" }),
      textEnd("m1"),
      RF(),
    ];
    expect(found("TEXT_REOPEN_MISMATCH", agrees)).toEqual([]);
    const omits = [
      RS(),
      textStart("m1", { name: "ada", subagentRunId: "s1" }),
      textEnd("m1"),
      textStart("m1"),
      textEnd("m1"),
      RF(),
    ];
    expect(found("TEXT_REOPEN_MISMATCH", omits)).toEqual([]);
  });
});

describe('TOOL_CALL_REOPEN_MISMATCH (tool-calls: "A reopening start MUST agree with the call it reopens")', () => {
  const call = (id: string, fields: Record<string, unknown>): Ev => ({
    type: "TOOL_CALL_START",
    toolCallId: id,
    ...fields,
  });

  it("is given for another toolCallName, another parentMessageId, another owner across runs", () => {
    const name = [
      RS(),
      call("c1", { toolCallName: "search" }),
      end("c1"),
      call("c1", { toolCallName: "delete" }),
      end("c1"),
      result("c1"),
      RF(),
    ];
    expect(found("TOOL_CALL_REOPEN_MISMATCH", name)).toEqual([[3, "toolCallName"]]);
    const parent = [
      RS(),
      textStart("p1"),
      textEnd("p1"),
      textStart("p2"),
      textEnd("p2"),
      call("c1", { toolCallName: "f", parentMessageId: "p1" }),
      end("c1"),
      call("c1", { parentMessageId: "p2" }),
      end("c1"),
      result("c1"),
      RF(),
    ];
    expect(found("TOOL_CALL_REOPEN_MISMATCH", parent)).toEqual([[7, "parentMessageId"]]);
    const owner = [
      RS(),
      call("c1", { toolCallName: "f", subagentRunId: "s1" }),
      end("c1"),
      result("c1"),
      RF(),
      RS({ runId: "r2" }),
      call("c1", { subagentRunId: "s2" }),
      end("c1"),
      result("c1"),
      RF({ runId: "r2" }),
    ];
    expect(found("TOOL_CALL_REOPEN_MISMATCH", owner)).toEqual([[6, "subagentRunId"]]);
    expect(first("TOOL_CALL_REOPEN_MISMATCH", name)?.message).toContain(
      're-opening tool call "c1" with toolCallName "delete", where it had "search"; 1.1 says "A reopening start MUST agree with the call it reopens — the same toolCallName, the same parentMessageId, the same owner" (events/tool-calls)',
    );
  });

  it("is not given for a re-open that agrees or omits its fields, nor for an untagged call re-opened by its parent's agent", () => {
    const omits = [
      RS(),
      call("c1", { toolCallName: "f", parentMessageId: "p1" }),
      end("c1"),
      call("c1", {}),
      end("c1"),
      result("c1"),
      RF(),
    ];
    expect(found("TOOL_CALL_REOPEN_MISMATCH", omits)).toEqual([]);
    // An untagged call belongs to its parent message's agent (SPEC §8.2).
    const inherits = [
      RS(),
      textStart("p1", { subagentRunId: "s1" }),
      textEnd("p1"),
      call("c1", { toolCallName: "f", parentMessageId: "p1" }),
      end("c1"),
      call("c1", { toolCallName: "f", subagentRunId: "s1" }),
      end("c1"),
      result("c1"),
      RF(),
    ];
    expect(found("TOOL_CALL_REOPEN_MISMATCH", inherits)).toEqual([]);
  });
});

describe('SUBAGENT_ANNOUNCED_AFTER_USE (subagents: "A producer that announces an invocation MUST do so before any event attributed to it")', () => {
  const announce = (id: string): Ev => ({ type: "SUBAGENT_STARTED", subagentRunId: id, name: "n" });
  const finish = (id: string): Ev => ({ type: "SUBAGENT_FINISHED", subagentRunId: id });

  it("is given for an announcement after a tagged message, or after a tagged step", () => {
    const message = [
      RS(),
      textStart("m1", { subagentRunId: "s1" }),
      textEnd("m1", { subagentRunId: "s1" }),
      announce("s1"),
      finish("s1"),
      RF(),
    ];
    expect(found("SUBAGENT_ANNOUNCED_AFTER_USE", message)).toEqual([[3, "subagentRunId"]]);
    const step = [
      RS(),
      { type: "STEP_STARTED", stepName: "a", subagentRunId: "s1" },
      announce("s1"),
      { type: "STEP_FINISHED", stepName: "a", subagentRunId: "s1" },
      finish("s1"),
      RF(),
    ];
    expect(found("SUBAGENT_ANNOUNCED_AFTER_USE", step)).toEqual([[2, "subagentRunId"]]);
    expect(first("SUBAGENT_ANNOUNCED_AFTER_USE", message)?.message).toContain(
      'subagent "s1" is announced after events attributed to it in this run; 1.1 says "A producer that announces an invocation MUST do so before any event attributed to it" (events/subagents)',
    );
  });

  it("is not given for provenance tags (CUSTOM, state), an earlier run's use, or a subagent never announced", () => {
    const provenance = [
      RS(),
      { type: "CUSTOM", name: "x", value: 1, subagentRunId: "s1" },
      { type: "STATE_SNAPSHOT", snapshot: {}, subagentRunId: "s1" },
      announce("s1"),
      finish("s1"),
      RF(),
    ];
    expect(found("SUBAGENT_ANNOUNCED_AFTER_USE", provenance)).toEqual([]);
    const earlier = [
      RS(),
      textStart("m1", { subagentRunId: "s1" }),
      textEnd("m1"),
      RF(),
      RS({ runId: "r2" }),
      announce("s1"),
      finish("s1"),
      RF({ runId: "r2" }),
    ];
    expect(found("SUBAGENT_ANNOUNCED_AFTER_USE", earlier)).toEqual([]);
    // SPEC §9.1 (d): attribution without lifecycle events.
    expect(
      found("SUBAGENT_ANNOUNCED_AFTER_USE", [
        RS(),
        textStart("m1", { subagentRunId: "x" }),
        textEnd("m1"),
        RF(),
      ]),
    ).toEqual([]);
  });
});

describe('SUBAGENT_EVENT_AFTER_TERMINAL (subagents: "A producer MUST NOT reuse a subagentRunId for a second invocation within a run")', () => {
  const announce = (id: string): Ev => ({ type: "SUBAGENT_STARTED", subagentRunId: id, name: "n" });

  it("is given for a tagged start, a first chunk or a new activity after the terminal event", () => {
    const startAfter = [
      RS(),
      announce("s1"),
      { type: "SUBAGENT_ERROR", subagentRunId: "s1", message: "x" },
      textStart("m1", { subagentRunId: "s1" }),
      textEnd("m1"),
      RF(),
    ];
    expect(found("SUBAGENT_EVENT_AFTER_TERMINAL", startAfter)).toEqual([[3, "subagentRunId"]]);
    const chunk = [
      RS(),
      announce("s1"),
      { type: "SUBAGENT_FINISHED", subagentRunId: "s1" },
      { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", delta: "x", subagentRunId: "s1" },
      RF(),
    ];
    expect(found("SUBAGENT_EVENT_AFTER_TERMINAL", chunk)).toEqual([[3, "subagentRunId"]]);
    const activity = [
      RS(),
      announce("s1"),
      { type: "SUBAGENT_FINISHED", subagentRunId: "s1" },
      {
        type: "ACTIVITY_SNAPSHOT",
        messageId: "a1",
        activityType: "PLAN",
        content: {},
        subagentRunId: "s1",
      },
      RF(),
    ];
    expect(found("SUBAGENT_EVENT_AFTER_TERMINAL", activity)).toEqual([[3, "subagentRunId"]]);
  });

  it("is not given for continuing what was opened before (SPEC §9.1 (d)), nor in the next run", () => {
    const continues = [
      RS(),
      announce("s1"),
      textStart("m2", { subagentRunId: "s1" }),
      { type: "SUBAGENT_FINISHED", subagentRunId: "s1" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m2", delta: "x", subagentRunId: "s1" },
      textEnd("m2", { subagentRunId: "s1" }),
      RF(),
    ];
    expect(found("SUBAGENT_EVENT_AFTER_TERMINAL", continues)).toEqual([]);
    const nextRun = [
      RS(),
      announce("s1"),
      { type: "SUBAGENT_FINISHED", subagentRunId: "s1" },
      RF(),
      RS({ runId: "r2" }),
      textStart("m1", { subagentRunId: "s1" }),
      textEnd("m1"),
      RF({ runId: "r2" }),
    ];
    expect(found("SUBAGENT_EVENT_AFTER_TERMINAL", nextRun)).toEqual([]);
  });
});

describe('SUSPENDED_INTERRUPT_ID_UNKNOWN (schema: a suspended outcome\'s interruptIds are "the run-level interrupts this subagent raised itself")', () => {
  const announce: Ev = { type: "SUBAGENT_STARTED", subagentRunId: "s1", name: "n" };
  const suspend = (interruptIds: unknown[]): Ev => ({
    type: "SUBAGENT_FINISHED",
    subagentRunId: "s1",
    outcome: { type: "suspended", interruptIds },
  });
  const interrupts = (...list: Array<Record<string, unknown>>) => ({
    outcome: { type: "interrupt", interrupts: list },
  });

  it("is given for an id the run raised for another owner, for none, or when the run fails", () => {
    const parents = [
      RS(),
      announce,
      suspend(["i1", "i2"]),
      RF(interrupts({ id: "i1", subagentRunId: "s1" }, { id: "i2" })),
    ];
    expect(found("SUSPENDED_INTERRUPT_ID_UNKNOWN", parents)).toEqual([[3, "outcome"]]);
    expect(
      found("SUSPENDED_INTERRUPT_ID_UNKNOWN", [RS(), announce, suspend(["i1"]), RF()]),
    ).toEqual([[3, "outcome"]]);
    expect(
      found("SUSPENDED_INTERRUPT_ID_UNKNOWN", [RS(), announce, suspend(["i1"]), RE()]),
    ).toEqual([[3, undefined]]);
    expect(first("SUSPENDED_INTERRUPT_ID_UNKNOWN", parents)?.message).toContain(
      'subagent "s1" suspended on interrupt ids ["i2"] that the run does not raise for it in an interrupt outcome; the schema says a suspended outcome\'s interruptIds are "the run-level interrupts this subagent raised itself"',
    );
  });

  it("is not given for ids the run raised for the subagent, nor for a suspension without ids, nor twice after a late RUN_ERROR", () => {
    const raised = [
      RS(),
      announce,
      suspend(["i1"]),
      RF(interrupts({ id: "i1", subagentRunId: "s1" })),
      RE(),
    ];
    expect(found("SUSPENDED_INTERRUPT_ID_UNKNOWN", raised)).toEqual([]);
    // "An invocation suspended because a descendant interrupted owns no interrupt of its own."
    expect(found("SUSPENDED_INTERRUPT_ID_UNKNOWN", [RS(), announce, suspend([]), RF()])).toEqual(
      [],
    );
    const late = [RS(), announce, suspend(["i1"]), RF(), RE()];
    expect(found("SUSPENDED_INTERRUPT_ID_UNKNOWN", late)).toEqual([[3, "outcome"]]);
  });
});

describe('SSE_LINE_ENDINGS_NOT_LF (http-sse: "A producer MUST frame the stream with LF (\\n) line endings")', () => {
  const RUN = [
    RS(),
    { type: "STEP_STARTED", stepName: "a" },
    { type: "STEP_FINISHED", stepName: "a" },
    RF(),
  ];
  /** The SSE of RUN with each event's line ends given (the first, second... event's). */
  const sse = (ends: readonly string[]) =>
    RUN.map((e, i) => {
      const end = ends[i] ?? "\n";
      return `data: ${JSON.stringify(e)}${end}${end}`;
    }).join("");

  /** [index, line, offset] of the finding, the same in chunks of 1, 2, 5 bytes and whole. */
  async function lineEnds(
    text: string,
  ): Promise<Array<[number, number | undefined, number | undefined]>> {
    const bytes = new TextEncoder().encode(text);
    const seen = new Set<string>();
    let last: Array<[number, number | undefined, number | undefined]> = [];
    for (const size of [1, 2, 5, bytes.length]) {
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          for (let i = 0; i < bytes.length; i += size) c.enqueue(bytes.slice(i, i + size));
          c.close();
        },
      });
      const report = await lintStream(body);
      expect(report.valid).toBe(true);
      last = report.findings
        .filter((f) => f.code === "SSE_LINE_ENDINGS_NOT_LF")
        .map((f) => [f.index, f.line, f.offset]);
      seen.add(JSON.stringify(last));
    }
    expect(seen.size).toBe(1);
    return last;
  }

  it("is given once, at the event whose message holds the first CR, for CRLF and for CR alone", async () => {
    const crlf = sse(["\r\n", "\r\n", "\r\n", "\r\n"]);
    expect(await lineEnds(crlf)).toEqual([[0, 1, 0]]);
    const third = sse(["\n", "\n", "\r\n", "\n"]);
    // The third message starts after the first two, each `data: …` and a blank line.
    const before = RUN.slice(0, 2)
      .map((e) => `data: ${JSON.stringify(e)}\n\n`)
      .join("");
    const offset = new TextEncoder().encode(before).length;
    expect(await lineEnds(third)).toEqual([[2, 5, offset]]);
    expect(await lineEnds(sse(["\n", "\r", "\r", "\r"]))).toEqual([[1, 3, expect.any(Number)]]);
    const report = await lintStream(crlf);
    expect(report.findings.find((f) => f.code === "SSE_LINE_ENDINGS_NOT_LF")?.message).toContain(
      'RUN_STARTED at index 0: the stream\'s line ends include a CR (the first at byte 57); 1.1 says "A producer MUST frame the stream with LF (\\n) line endings" (basic/transports/http-sse)',
    );
  });

  it("is not given for LF framing, a CR escaped inside JSON, or JSON Lines", async () => {
    expect(await lineEnds(sse([]))).toEqual([]);
    const escaped = `data: ${JSON.stringify({ ...RS(), note: "a\r\nb" })}\n\ndata: ${JSON.stringify(RF())}\n\n`;
    expect(await lineEnds(escaped)).toEqual([]);
    const jsonl = RUN.map((e) => `${JSON.stringify(e)}\r\n`).join("");
    const report = await lintStream(jsonl);
    expect(report.findings.filter((f) => f.code === "SSE_LINE_ENDINGS_NOT_LF")).toEqual([]);
  });
});
