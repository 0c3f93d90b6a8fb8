// The linter (SPEC §18.1): the verifier's checks going on after an error, merged findings,
// and the invariant that keeps the two honest: the first error finding IS the verifier's
// VerifyError, and `valid` holds exactly when `verifyAll` returns.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type VerifierOptions, VerifyError, verifyAll } from "../src/index.ts";
import { type Finding, Linter, lint, lintStream } from "../src/lint/index.ts";
import { agUiSchema } from "../src/schema/index.ts";
import { SPEC_CASES } from "./support/spec-cases.ts";
import { type Ev, sequentialRuns, validRun, validStream } from "./support/valid-run.ts";

function verdictOf(events: readonly unknown[], options: VerifierOptions): VerifyError | undefined {
  try {
    verifyAll(events, options);
  } catch (e) {
    if (e instanceof VerifyError) return e;
    throw e;
  }
  return undefined;
}

/** The invariant of SPEC §18.1 on one input. */
function expectInvariant(events: readonly unknown[], options: VerifierOptions, label: string) {
  const report = lint(events, options);
  const error = verdictOf(events, options);
  const first = report.findings.find((f) => f.severity === "error");
  expect({ label, valid: report.valid }).toEqual({ label, valid: error === undefined });
  if (error === undefined) return;
  expect({
    label,
    code: first?.code,
    index: first?.index,
    field: first?.field,
    message: first?.message,
  }).toEqual({
    label,
    code: error.code,
    index: error.index,
    field: error.field,
    message: error.message,
  });
}

describe("the first-error invariant", () => {
  it.each(SPEC_CASES.map((c) => [`SPEC.md:${c.line} ${c.header}`, c] as const))("%s", (name, c) => {
    const options: VerifierOptions = {
      ...(c.draft ? { protocol: "draft" as const } : {}),
      ...(c.schema ? { schema: agUiSchema } : {}),
      ...(c.maxIds === undefined ? {} : { maxIds: c.maxIds }),
    };
    expectInvariant(c.events, options, name);
  });

  /** A mutation of a valid run, as a producer's bug would make one. */
  const mutated = fc
    .tuple(
      fc.oneof(
        validRun,
        validStream,
        sequentialRuns.map((runs) => runs.flat()),
      ),
      fc.array(
        fc.tuple(
          fc.nat(),
          fc.nat(),
          fc.constantFrom("drop", "dup", "swap", "retag", "strip", "junk"),
        ),
        { minLength: 1, maxLength: 4 },
      ),
      fc.boolean(),
    )
    .map(([events, edits, sequential]) => {
      const out: unknown[] = events.map((e) => ({ ...e }));
      for (const [a, b, kind] of edits) {
        if (out.length === 0) break;
        const i = a % out.length;
        const j = b % out.length;
        const e = out[i] as Ev;
        if (typeof e !== "object" || e === null) continue;
        if (kind === "drop") out.splice(i, 1);
        else if (kind === "dup") out.splice(i, 0, { ...e });
        else if (kind === "swap") [out[i], out[j]] = [out[j], out[i]];
        else if (kind === "retag") out[i] = { ...e, subagentRunId: b % 2 === 0 ? "s1" : "s9" };
        else if (kind === "strip") {
          const keys = Object.keys(e).filter((k) => k !== "type");
          const key = keys[b % Math.max(1, keys.length)];
          if (key !== undefined) out[i] = { ...e, [key]: b % 3 === 0 ? null : undefined };
        } else out.splice(i, 0, b % 2 === 0 ? null : { type: 7 });
      }
      return { events: out, draft: sequential };
    });

  it("holds on 5,000 generated runs with mutations", () => {
    let invalid = 0;
    fc.assert(
      fc.property(mutated, ({ events, draft }) => {
        const protocol = draft ? ("draft" as const) : ("1.1" as const);
        if (verdictOf(events, { protocol }) !== undefined) invalid++;
        expectInvariant(events, { protocol }, "generated");
        expectInvariant(events, { protocol, maxIds: 4 }, "maxIds 4");
      }),
      { numRuns: 5_000, seed: 18_001 },
    );
    // Most mutations break a rule, so most runs test the first error, not only `valid`.
    expect(invalid).toBeGreaterThan(2_500);
  }, 120_000);
});

const RS = { type: "RUN_STARTED", threadId: "t", runId: "r" };
const RF = { type: "RUN_FINISHED", threadId: "t", runId: "r" };
const codes = (findings: readonly Finding[]) => findings.map((f) => [f.code, f.index, f.count]);

describe("going on after an error", () => {
  it("merges 400 contents of a message never opened into one finding", () => {
    const events = [RS];
    for (let i = 0; i < 400; i++) {
      events.push({ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "x" } as never);
    }
    events.push(RF);
    const report = lint(events);
    expect(codes(report.findings)).toEqual([["TEXT_MESSAGE_NOT_OPEN", 1, 400]]);
    expect(report.findings[0]?.lastIndex).toBe(400);
    expect(report).toMatchObject({ errors: 1, warnings: 0, valid: false, events: 402 });
  });

  it("keeps one finding per entity: two messages never opened are two", () => {
    const report = lint([
      RS,
      { type: "TEXT_MESSAGE_END", messageId: "m1" },
      { type: "TEXT_MESSAGE_END", messageId: "m2" },
      { type: "TEXT_MESSAGE_END", messageId: "m1" },
      RF,
    ]);
    expect(codes(report.findings)).toEqual([
      ["TEXT_MESSAGE_NOT_OPEN", 1, 2],
      ["TEXT_MESSAGE_NOT_OPEN", 2, 1],
    ]);
  });

  it("gives one EVENT_AFTER_RUN_CLOSED per event type after the close", () => {
    const report = lint([
      RS,
      RF,
      { type: "TEXT_MESSAGE_START", messageId: "m1" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "a" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "b" },
      { type: "TEXT_MESSAGE_END", messageId: "m1" },
      RF,
    ]);
    expect(report.findings.map((f) => [f.code, f.eventType, f.count])).toEqual([
      ["EVENT_AFTER_RUN_CLOSED", "TEXT_MESSAGE_START", 1],
      ["EVENT_AFTER_RUN_CLOSED", "TEXT_MESSAGE_CONTENT", 2],
      ["EVENT_AFTER_RUN_CLOSED", "TEXT_MESSAGE_END", 1],
      ["EVENT_AFTER_RUN_CLOSED", "RUN_FINISHED", 1],
    ]);
  });

  it("drops an event that fails a field check: it opens nothing", () => {
    const report = lint([
      RS,
      { type: "TEXT_MESSAGE_START", messageId: "m1", subagentRunId: 5 },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "a" },
      RF,
    ]);
    expect(codes(report.findings)).toEqual([
      ["FIELD_WRONG_TYPE", 1, 1],
      ["TEXT_MESSAGE_NOT_OPEN", 2, 1],
    ]);
  });

  it("drops a second RUN_STARTED and goes on in the open run", () => {
    const report = lint([RS, { type: "TEXT_MESSAGE_START", messageId: "m1" }, RS, RF]);
    expect(codes(report.findings)).toEqual([
      ["RUN_ALREADY_STARTED", 2, 1],
      ["OPEN_AT_RUN_FINISHED", 3, 1],
      ["STREAM_ENDED_BEFORE_RUN_CLOSED", 4, 1],
    ]);
  });

  it("drops a RUN_STARTED of a new run whose input is malformed: the old run's state stays", () => {
    const events = [
      RS,
      { type: "TEXT_MESSAGE_START", messageId: "m1", subagentRunId: "s1" },
      { type: "TEXT_MESSAGE_END", messageId: "m1" },
      RF,
      { ...RS, input: { messages: 5 } },
      { type: "TEXT_MESSAGE_START", messageId: "m1", subagentRunId: "s2" },
    ];
    const report = lint(events);
    // The malformed RUN_STARTED is dropped, so no run is open for the next event.
    expect(codes(report.findings).slice(0, 2)).toEqual([
      ["FIELD_WRONG_TYPE", 4, 1],
      ["EVENT_AFTER_RUN_CLOSED", 5, 1],
    ]);
  });

  it("reports the end of input once, at the event count", () => {
    const report = lint([RS, { type: "TOOL_CALL_START", toolCallId: "c1" }]);
    expect(codes(report.findings)).toEqual([["STREAM_ENDED_BEFORE_RUN_CLOSED", 2, 1]]);
  });

  it("keeps the 3 events before the first error, and only there", () => {
    const events = [
      RS,
      { type: "RAW", event: 1 },
      { type: "CUSTOM", name: "a" },
      { type: "CUSTOM", name: "b" },
      { type: "STEP_FINISHED", stepName: "x" },
      { type: "STEP_FINISHED", stepName: "y" },
      RF,
    ];
    const errors = lint(events).findings.filter((f) => f.severity === "error");
    expect(errors[0]?.index).toBe(4);
    expect(errors[0]?.before).toEqual([events[1], events[2], events[3]]);
    expect(errors[1]?.before).toBeUndefined();
  });
});

describe("an event only the schema rejects (issue 27 row 10)", () => {
  const run = [
    { type: "RUN_STARTED", threadId: "t", runId: "r", parentRunId: 5 },
    { type: "TEXT_MESSAGE_START", messageId: "m", role: "assistant" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "hi" },
    { type: "TEXT_MESSAGE_END", messageId: "m" },
    { type: "STEP_STARTED", stepName: "s", timestamp: "noon" },
    { type: "STEP_FINISHED", stepName: "s" },
    { type: "RUN_FINISHED", threadId: "t", runId: "r" },
  ];

  it("keeps its ordering effects in the linter: one bad field is one finding, not a cascade", () => {
    const report = lint(run, { schema: agUiSchema });
    expect(report.findings.map((f) => [f.code, f.index, f.field])).toEqual([
      ["SCHEMA_MISMATCH", 0, "parentRunId"],
      ["SCHEMA_MISMATCH", 4, "timestamp"],
    ]);
  });

  it("leaves the verifier's first error as it was", () => {
    let error: unknown;
    try {
      verifyAll(run, { schema: agUiSchema });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: "SCHEMA_MISMATCH", index: 0, field: "parentRunId" });
  });

  it("reports the schema's finding, not the rule's, when the event breaks a rule too", () => {
    const both = [
      run[0],
      { type: "TEXT_MESSAGE_END", messageId: "x", timestamp: "noon" },
      ...run.slice(1),
    ];
    const report = lint(both, { schema: agUiSchema });
    expect(report.findings.map((f) => [f.code, f.index])).toEqual([
      ["SCHEMA_MISMATCH", 0],
      ["SCHEMA_MISMATCH", 1],
      ["SCHEMA_MISMATCH", 5],
    ]);
  });
});

describe("reporting options", () => {
  const broken = [
    RS,
    { type: "STEP_FINISHED", stepName: "a" },
    { type: "STEP_FINISHED", stepName: "b" },
    { type: "STEP_FINISHED", stepName: "c" },
    RF,
  ];

  it("keeps the first maxFindings findings and counts the rest in omitted", () => {
    const report = lint(broken, { maxFindings: 2 });
    expect(codes(report.findings)).toEqual([
      ["STEP_NOT_STARTED", 1, 1],
      ["STEP_NOT_STARTED", 2, 1],
    ]);
    expect(report).toMatchObject({ errors: 3, omitted: 1, valid: false });
  });

  it("turns a code off or down, without changing what is checked", () => {
    const off = lint(broken, { severity: { STEP_NOT_STARTED: "off" } });
    expect(off).toMatchObject({ findings: [], errors: 0, valid: true });
    const down = lint(broken, { severity: { STEP_NOT_STARTED: "warning" } });
    expect(down).toMatchObject({ errors: 0, warnings: 3, valid: true });
    expect(down.findings.map((f) => f.severity)).toEqual(["warning", "warning", "warning"]);
  });

  it("returns from push the findings that event gave", () => {
    const linter = new Linter();
    expect(linter.push(RS)).toEqual([]);
    const gave = linter.push({ type: "STEP_FINISHED", stepName: "a" });
    expect(gave.map((f) => [f.code, f.count])).toEqual([["STEP_NOT_STARTED", 1]]);
    const again = linter.push({ type: "STEP_FINISHED", stepName: "a" });
    expect(again.map((f) => [f.code, f.count])).toEqual([["STEP_NOT_STARTED", 2]]);
    expect(linter.end().findings).toHaveLength(2);
    expect(() => linter.push(RF)).toThrow(/after end/);
  });

  it("rejects a bad maxFindings, and the verifier's bad options, with a TypeError", () => {
    expect(() => new Linter({ maxFindings: -1 })).toThrow(TypeError);
    expect(() => new Linter({ maxIds: Number.NaN })).toThrow(TypeError);
  });
});

describe("lintStream", () => {
  const sse = (lines: readonly string[]) => lines.map((l) => `${l}\n\n`).join("");
  const RSd = `data: ${JSON.stringify(RS)}`;
  const RFd = `data: ${JSON.stringify(RF)}`;

  it("goes on after data that is not JSON, placing each finding by line and offset", async () => {
    const text = sse([RSd, "data: [DONE]", 'data: {"type":"STEP_FINISHED","stepName":"s"}', RFd]);
    const report = await lintStream(text);
    expect(report.findings.map((f) => [f.code, f.index, f.line, f.offset])).toEqual([
      ["INVALID_JSON", 1, 3, RSd.length + 2],
      ["STEP_NOT_STARTED", 2, 5, RSd.length + 2 + "data: [DONE]".length + 2],
    ]);
    expect(report.input).toEqual({ format: "sse", bytes: new TextEncoder().encode(text).length });
    expect(report.events).toBe(4);
  });

  it("stops at a message longer than maxBufferSize", async () => {
    const text = sse([RSd, `data: "${"x".repeat(500)}"`, 'data: {"type":"STEP_FINISHED"}', RFd]);
    const report = await lintStream(text, { maxBufferSize: 100 });
    expect(report.findings.map((f) => [f.code, f.index])).toEqual([
      ["SSE_BUFFER_OVERFLOW", 1],
      ["STREAM_ENDED_BEFORE_RUN_CLOSED", 2],
    ]);
  });

  it("reads JSON Lines when the first character is { or [, with line numbers", async () => {
    const text = `${JSON.stringify(RS)}\n\nnot json\n${JSON.stringify(RF)}\n`;
    const report = await lintStream(new TextEncoder().encode(text));
    expect(report.input?.format).toBe("jsonl");
    expect(report.findings.map((f) => [f.code, f.index, f.line])).toEqual([["INVALID_JSON", 1, 3]]);
  });

  it("warns about lines the SSE parser ignores, merged by field", async () => {
    const text = `${RSd}\n\n${JSON.stringify({ type: "CUSTOM" })}\n${JSON.stringify({ type: "RAW" })}\n\n${RFd}\n\n`;
    const report = await lintStream(new Response(text));
    expect(report.valid).toBe(true);
    expect(report.findings.map((f) => [f.code, f.severity, f.count])).toEqual([
      ["SSE_LINE_IGNORED", "warning", 2],
    ]);
    expect(report.findings[0]?.message).toMatch(
      /^SSE line at index 1: the line "\{\\"type\\":\\"CUSTOM\\"\}"/,
    );
  });

  it("places an ignored line where it starts, whatever the line ends and the chunks", async () => {
    const lines = [": c", "", RSd, "", 'daat: {"type":"X"}', "event: y", "", RFd, "bogus", "", ""];
    for (const end of ["\n", "\r\n", "\r"]) {
      const text = lines.join(end);
      const at = (part: string) => ({
        line: text.slice(0, text.indexOf(part)).split(end).length,
        offset: new TextEncoder().encode(text.slice(0, text.indexOf(part))).length,
      });
      const bytes = new TextEncoder().encode(text);
      for (const size of [1, 2, 5, bytes.length]) {
        const chunks: Uint8Array[] = [];
        for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            const chunk = chunks.shift();
            if (chunk === undefined) controller.close();
            else controller.enqueue(chunk);
          },
        });
        const report = await lintStream(body);
        const where = `${JSON.stringify(end)} in chunks of ${size}`;
        // (CR line ends are also SSE_LINE_ENDINGS_NOT_LF, tested in lint-duties.test.ts.)
        expect(
          report.findings
            .filter((f) => f.code !== "SSE_LINE_ENDINGS_NOT_LF")
            .map((f) => [f.code, f.index, f.line, f.offset]),
          where,
        ).toEqual([
          ["SSE_LINE_IGNORED", 1, at("daat").line, at("daat").offset],
          ["SSE_LINE_IGNORED", 1, at("bogus").line, at("bogus").offset],
        ]);
      }
    }
  });

  it("gives the verifier's first error on every SPEC example written as SSE, cut anywhere", async () => {
    for (const c of SPEC_CASES) {
      if (c.schema || c.draft || c.maxIds !== undefined) continue;
      const text = sse(c.events.map((e) => `data: ${JSON.stringify(e)}`));
      const bytes = new TextEncoder().encode(text);
      const chunks: Uint8Array[] = [];
      for (let i = 0; i < bytes.length; i += 7) chunks.push(bytes.subarray(i, i + 7));
      const report = await lintStream(
        new ReadableStream({
          pull(controller) {
            const chunk = chunks.shift();
            if (chunk === undefined) controller.close();
            else controller.enqueue(chunk);
          },
        }),
      );
      const error = verdictOf(c.events, {});
      const first = report.findings.find((f) => f.severity === "error");
      expect([c.line, first?.code, first?.index, first?.message]).toEqual([
        c.line,
        error?.code,
        error?.index,
        error?.message,
      ]);
    }
  });
});
