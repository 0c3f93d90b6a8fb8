// The producer duties of AG-UI 1.1 at a run's boundaries (SPEC §18.5), through `lint()`:
// for each code, streams that break the duty in different ways and near misses that keep
// it, all valid under SPEC v4 (the verifier accepts every one); the message of one
// finding each, quoting the 1.1 sentence; the override to error; and the draft's codes as
// errors with protocol "draft".

import { describe, expect, it } from "vitest";
import { verifyAll } from "../src/index.ts";
import { type Finding, type LintOptions, lint } from "../src/lint/index.ts";

type Ev = { type: string } & Record<string, unknown>;

const RS = (fields: Record<string, unknown> = {}): Ev => ({
  type: "RUN_STARTED",
  threadId: "t1",
  runId: "r1",
  ...fields,
});
const RF = (fields: Record<string, unknown> = {}): Ev => ({
  type: "RUN_FINISHED",
  threadId: "t1",
  runId: "r1",
  ...fields,
});
const RE = (fields: Record<string, unknown> = {}): Ev => ({
  type: "RUN_ERROR",
  message: "boom",
  ...fields,
});

/** The warnings of one code `lint` gives a stream the verifier accepts: [index, field]. */
function found(
  code: string,
  events: readonly Ev[],
  options?: LintOptions,
): Array<[number, string | undefined]> {
  expect(() => verifyAll(events), "the stream must be valid under SPEC v4").not.toThrow();
  const report = lint(events, options);
  expect(report.valid).toBe(true);
  return report.findings.filter((f) => f.code === code).map((f) => [f.index, f.field]);
}

function first(code: string, events: readonly Ev[], options?: LintOptions): Finding | undefined {
  return lint(events, options).findings.find((f) => f.code === code);
}

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
