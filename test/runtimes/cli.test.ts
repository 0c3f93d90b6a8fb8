// The `ag-ui-verify` command (dist/cli.js, built by `npm test`), run as a user runs it, over
// capture files written here, over stdin, and against the local agent server. It lints
// every input (SPEC §18.3): every finding, in the report format --reporter names.

import { copyFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InputReader, type ReaderOptions } from "../../src/report/input-reader.ts";
import { RUN_INPUT, VIOLATION_PREFIX, validRun, violationRun } from "../runtime/cases.ts";
import { type AgentServer, sse, startAgentServer } from "../server/agent-server.ts";
import { FINDING_KEYS, INPUT_KEYS, SUMMARY_KEYS, unreadableLine } from "../support/ndjson.ts";
import { runCli } from "./cli-run.ts";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
/** The rule pages, as the command names them from its temporary working directory. */
const RULES = pathToFileURL(join(REPO, "docs/rules.md")).href;

/** Runs the command in the temporary directory. */
function cli(
  args: readonly string[],
  options: { stdin?: string | Uint8Array; env?: Record<string, string> } = {},
) {
  return runCli(args, { ...options, cwd: dir });
}

let dir: string;
let server: AgentServer;
const utf8 = new TextEncoder();

/** Writes a fixture into the temporary directory and returns its name. */
async function fixture(name: string, content: string | Uint8Array): Promise<string> {
  await mkdir(dirname(join(dir, name)), { recursive: true });
  await writeFile(join(dir, name), content);
  return name;
}

const jsonl = (events: readonly unknown[], end = "\n") =>
  events.map((event) => `${JSON.stringify(event)}${end}`).join("");

/** Where `data: <json>\n\n` block `i` of `events` starts: its line and byte offset. */
function blockStart(events: readonly unknown[], i: number): { line: number; offset: number } {
  return { line: 2 * i + 1, offset: utf8.encode(sse(events.slice(0, i))).length };
}

/** The objects of NDJSON output, one per line (each checked to be an object). */
function lines(stdout: string) {
  expect(stdout.endsWith("\n"), stdout).toBe(true);
  return stdout
    .trimEnd()
    .split("\n")
    .map((line) => {
      const value = JSON.parse(line);
      if (typeof value !== "object" || value === null) throw new Error(`not an object: ${line}`);
      return value;
    });
}

/** One input's NDJSON output: its object, and the summary line after it (nothing else). */
function one(stdout: string) {
  const all = lines(stdout);
  expect(all).toHaveLength(2);
  expect(Object.keys(all[1])).toEqual(["summary"]);
  return all[0];
}

/** The summary object: the last line of NDJSON output. */
const summaryOf = (stdout: string) => lines(stdout).at(-1).summary;

const T = RUN_INPUT.threadId;
const R = RUN_INPUT.runId;

/**
 * Two errors (a message never opened, three times: one merged finding; a step never
 * started) and two warnings (tool call arguments that are not JSON; RUN_FINISHED naming
 * another run), interleaved.
 */
const MIXED = [
  { type: "RUN_STARTED", threadId: T, runId: R },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "x", delta: "a" },
  { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "f" },
  { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: "not json" },
  { type: "TOOL_CALL_END", toolCallId: "c1" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "x", delta: "b" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "x", delta: "c" },
  { type: "STEP_FINISHED", stepName: "nope" },
  // c1 is left to the application, and named so (no PENDING_TOOL_CALL_IDS_OMITTED).
  {
    type: "RUN_FINISHED",
    threadId: T,
    runId: "another-run",
    outcome: { type: "success", pendingToolCallIds: ["c1"] },
  },
];

/** A valid run with one warning: its tool call's arguments are not JSON. */
const WARNED = [
  { type: "RUN_STARTED", threadId: T, runId: R },
  { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "f" },
  { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: "{nope" },
  { type: "TOOL_CALL_END", toolCallId: "c1" },
  {
    type: "RUN_FINISHED",
    threadId: T,
    runId: R,
    outcome: { type: "success", pendingToolCallIds: ["c1"] },
  },
];

/** A valid run whose only finding is the warning RUN_ID_MISMATCH. */
const OTHER_RUN = [
  { type: "RUN_STARTED", threadId: T, runId: R },
  { type: "RUN_FINISHED", threadId: T, runId: "run-2" },
];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ag-ui-verify-cli-"));
  server = await startAgentServer();
});

afterAll(async () => {
  await server?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe("a valid capture", () => {
  it("prints the verdict, no finding, what was read, and exits 0", async () => {
    const file = await fixture("valid.sse", sse(validRun()));
    const { code, stdout, stderr } = await cli([file]);
    expect(code).toBe(0);
    expect(stderr).toBe("");
    const size = (await stat(join(dir, file))).size;
    const kib = (size / 1024).toFixed(1);
    expect(stdout).toBe(
      `✔ valid  ${file} (SSE): 0 errors, 0 warnings\n\n  Read ${size.toLocaleString("en-US")} bytes (${kib} KiB), 21 events.\n`,
    );
  });

  it("accepts subagents, interrupts and a second, failed run; --allow-sequential-runs is ignored with a notice", async () => {
    const events = [
      { type: "RUN_STARTED", threadId: T, runId: R },
      { type: "SUBAGENT_STARTED", subagentRunId: "s1", name: "research" },
      { type: "SUBAGENT_STARTED", subagentRunId: "s2", name: "search", parentSubagentRunId: "s1" },
      { type: "SUBAGENT_STARTED", subagentRunId: "s3", name: "fx", parentSubagentRunId: "s1" },
      { type: "REASONING_MESSAGE_START", messageId: "r1", role: "reasoning" },
      { type: "REASONING_MESSAGE_END", messageId: "r1" },
      { type: "SUBAGENT_FINISHED", subagentRunId: "s2" },
      { type: "SUBAGENT_ERROR", subagentRunId: "s3", message: "no rates" },
      { type: "SUBAGENT_FINISHED", subagentRunId: "s1", outcome: { type: "suspended" } },
      {
        type: "RUN_FINISHED",
        threadId: T,
        runId: R,
        outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "confirm" }] },
      },
      { type: "RUN_STARTED", threadId: T, runId: "run-2" },
      { type: "RUN_ERROR", message: "model overloaded", code: "overloaded" },
    ];
    const file = await fixture("agentic.sse", sse(events));
    // SPEC §9.6 (AG-UI 1.1: "A stream MAY contain multiple runs"): the second run, failed
    // after it started, is accepted with no flag.
    const plain = await cli([file]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain(`✔ valid  ${file} (SSE): 0 errors, 0 warnings`);
    expect(plain.stdout).toContain("12 events.");
    expect(plain.stderr).toBe("");
    // SPEC §2: the retired flag is accepted, changes nothing, and says so once on stderr.
    const legacy = await cli([file, "--allow-sequential-runs"]);
    expect(legacy.code).toBe(0);
    expect(legacy.stdout).toContain(`✔ valid  ${file} (SSE): 0 errors, 0 warnings`);
    expect(legacy.stdout).toContain("12 events.");
    expect(legacy.stderr.trim().split("\n")).toEqual([
      "ag-ui-verify: --allow-sequential-runs is deprecated and ignored: several runs in one stream are always accepted (AG-UI 1.1)",
    ]);
  });

  it("--protocol draft adds the draft's consumer duties (SPEC §9.14)", async () => {
    const events = [
      { type: "RUN_STARTED", threadId: T, runId: R },
      { type: "RUN_FINISHED", threadId: T, runId: "another-run" },
    ];
    const file = await fixture("mismatch.jsonl", jsonl(events));
    // AG-UI 1.1 only asks it of producers: a warning by default, an error with the draft.
    const byDefault = one((await cli([file, "--json"])).stdout);
    expect(byDefault).toMatchObject({ valid: true, errors: 0, warnings: 1 });
    expect(byDefault.findings[0]).toMatchObject({ code: "RUN_ID_MISMATCH", severity: "warning" });
    const draft = await cli([file, "--json", "--protocol", "draft"]);
    expect(draft.code).toBe(1);
    expect(one(draft.stdout).findings[0]).toMatchObject({
      code: "RUN_ID_MISMATCH",
      severity: "error",
      index: 1,
    });
    const bad = await cli([file, "--protocol", "1.0"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--protocol must be 1.1 or draft, not "1.0"');
  });

  it("reads JSON Lines, detected from the content", async () => {
    const file = await fixture("valid.log", `\n${jsonl(validRun(), "\r\n")}\n`);
    const { code, stdout } = await cli([file]);
    expect(code).toBe(0);
    expect(stdout).toContain(`✔ valid  ${file} (JSON Lines): 0 errors, 0 warnings`);
    expect(stdout).toContain("21 events.");
    expect(one((await cli([file, "--json"])).stdout).input.format).toBe("jsonl");
  });

  it("reads SSE with a BOM, comments, CR line ends and multi-line data", async () => {
    const body = validRun()
      .map(
        (event) =>
          `: keep-alive\revent: message\rdata: ${JSON.stringify(event, null, 1).replaceAll("\n", "\rdata: ")}\r\r`,
      )
      .join("");
    const file = await fixture("cr.sse", `\uFEFF${body}`);
    const { code, stdout } = await cli([file, "--json"]);
    expect(code).toBe(0);
    // Comments and `event:` lines are SSE: no SSE_LINE_IGNORED. The CR line ends are read,
    // and are the one warning 1.1 gives them (SSE_LINE_ENDINGS_NOT_LF, at the first event).
    const report = one(stdout);
    expect(report).toMatchObject({ valid: true, events: 21, input: { format: "sse" } });
    expect(report.findings.map((f: { code: string; index: number }) => [f.code, f.index])).toEqual([
      ["SSE_LINE_ENDINGS_NOT_LF", 0],
    ]);
  });

  it("reads stdin with -", async () => {
    const sseRun = await cli(["-"], { stdin: sse(validRun()) });
    expect(sseRun.code).toBe(0);
    expect(sseRun.stdout).toContain("✔ valid  - (SSE)");
    const jsonRun = await cli(["-", "--json"], { stdin: jsonl(validRun()) });
    expect(jsonRun.code).toBe(0);
    expect(one(jsonRun.stdout)).toMatchObject({
      name: "-",
      valid: true,
      input: { format: "jsonl" },
    });
  });

  it("lints a large capture as a stream", async () => {
    const events = [{ type: "RUN_STARTED", threadId: T, runId: R }];
    for (let i = 0; i < 2000; i++) {
      events.push({ type: "TEXT_MESSAGE_START", messageId: `m${i}`, role: "assistant" } as never);
      for (let j = 0; j < 20; j++) {
        events.push({
          type: "TEXT_MESSAGE_CONTENT",
          messageId: `m${i}`,
          delta: `é東🚀 ${j} `,
        } as never);
      }
      events.push({ type: "TEXT_MESSAGE_END", messageId: `m${i}` } as never);
    }
    events.push({ type: "RUN_FINISHED", threadId: T, runId: R });
    const file = await fixture("large.sse", sse(events));
    const { code, stdout } = await cli([file, "--json"]);
    expect(code).toBe(0);
    expect(one(stdout)).toMatchObject({
      valid: true,
      events: events.length,
      input: { bytes: (await stat(join(dir, file))).size },
      findings: [],
    });
  });
});

describe("a capture that breaks a rule", () => {
  it("explains the first error: message, rule, line and offset, the events before it", async () => {
    const events = violationRun();
    const file = await fixture("violation.sse", sse(events));
    const { code, stdout, stderr } = await cli([file]);
    expect(code).toBe(1);
    const { line, offset } = blockStart(events, VIOLATION_PREFIX);
    expect(stdout.startsWith(`✘ invalid  ${file} (SSE): 1 error, 0 warnings\n\nErrors\n`)).toBe(
      true,
    );
    expect(stdout).toContain(
      `  ✘ line ${line}  TEXT_MESSAGE_CONTENT at index ${VIOLATION_PREFIX}: text message "m1" is not open; expected its start first. [TEXT_MESSAGE_NOT_OPEN, rule 3]  ${RULES}#text_message_not_open\n`,
    );
    expect(stdout).toMatch(/ {6}Rule 3: A text message opens with TEXT_MESSAGE_START/);
    expect(stdout).toContain(
      `      At line ${line}, byte offset ${offset}, where the offending SSE message starts.\n`,
    );
    expect(stdout).toContain("The 3 events before it:");
    expect(stdout).toMatch(/#10 +TEXT_MESSAGE_CONTENT \{"messageId":"m1","delta":"sunny/);
    expect(stdout).toMatch(/#12 +TEXT_MESSAGE_END \{"messageId":"m1"\}\n/);
    expect(stdout).not.toContain("Warnings");
    // The linter reads on after the error: the run's other events are read, and are fine.
    expect(stdout).toContain(`, ${events.length} events.\n`);
    expect(stderr).toBe(
      `ag-ui-verify: invalid stream (${file}, line ${line}): TEXT_MESSAGE_NOT_OPEN (rule 3) at index ${VIOLATION_PREFIX}\n`,
    );
  });

  it("reports a truncated stream at the end of the file", async () => {
    const events = validRun().slice(0, 8);
    const text = `${sse(events)}data: ${JSON.stringify(validRun()[8])}\n`;
    const file = await fixture("truncated.sse", text);
    const { code, stdout } = await cli([file]);
    expect(code).toBe(1);
    expect(stdout).toContain("[STREAM_ENDED_BEFORE_RUN_CLOSED, rule 2]");
    expect(stdout).toContain(
      `At the end of the input: line 17, byte offset ${utf8.encode(text).length}.`,
    );
    expect(stdout).toMatch(
      new RegExp(
        `Note: the last SSE message \\(line 17, byte offset ${utf8.encode(sse(events)).length}\\) has no blank line after it,\\s+so\\s+SSE\\s+discards it\\.`,
      ),
    );
    expect(stdout).toContain("The last 3 events:");
    const json = one((await cli([file, "--json"])).stdout);
    expect(json.input).toEqual({
      format: "sse",
      bytes: utf8.encode(text).length,
      unterminated: { line: 17, offset: utf8.encode(sse(events)).length },
    });
    expect(json.findings).toEqual([
      expect.objectContaining({
        code: "STREAM_ENDED_BEFORE_RUN_CLOSED",
        rule: 2,
        index: 8,
        eventType: null,
        line: 17,
        offset: utf8.encode(text).length,
      }),
    ]);
  });

  it("reports data that is not JSON", async () => {
    const events = validRun();
    const file = await fixture("done.sse", `${sse(events)}data: [DONE]\n\n`);
    const { code, stdout } = await cli([file]);
    expect(code).toBe(1);
    expect(stdout).toContain('line 43  SSE message at index 21: data "[DONE]" is not JSON');
    expect(stdout).toContain(`[INVALID_JSON, rule 0]  ${RULES}#invalid_json`);
    expect(stdout).toContain(
      `At line 43, byte offset ${blockStart(events, 21).offset}, where the offending SSE message starts.`,
    );
    expect(stdout).toMatch(/#20 +RUN_FINISHED /);
  });

  it("accepts a replayed thread: two runs in one stream (SPEC §9.6)", async () => {
    // The second run has its own run, message and call ids: a replayed thread that
    // re-streamed the first run's would reuse them (RUN_ID_REUSED, MESSAGE_ID_NOT_UNIQUE).
    const second = validRun().map((e) => {
      const renamed: Record<string, unknown> = { ...e };
      for (const key of ["runId", "messageId", "toolCallId", "parentMessageId"]) {
        if (typeof renamed[key] === "string") renamed[key] = `${renamed[key]}-2`;
      }
      return renamed;
    });
    const events = [...validRun(), ...second];
    const file = await fixture("two-runs.jsonl", jsonl(events));
    const { code, stdout } = await cli([file, "--json"]);
    expect(code).toBe(0);
    expect(one(stdout)).toMatchObject({ valid: true, events: 42, findings: [] });
  });

  it("reports an owner mismatch and a bad field", async () => {
    const owner = [
      { type: "RUN_STARTED", threadId: T, runId: R },
      { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant", subagentRunId: "s1" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "x", subagentRunId: "s2" },
    ];
    const a = await cli([await fixture("owner.sse", sse(owner)), "--json"]);
    expect(a.code).toBe(1);
    expect(one(a.stdout).findings[0]).toMatchObject({
      code: "OWNER_MISMATCH",
      rule: 9,
      index: 2,
      line: 5,
    });
    const field = [{ type: "RUN_STARTED", threadId: T, runId: R }, { type: "TEXT_MESSAGE_START" }];
    const b = await cli([await fixture("field.jsonl", jsonl(field)), "--json"]);
    expect(b.code).toBe(1);
    expect(one(b.stdout).findings[0]).toMatchObject({
      code: "FIELD_MISSING",
      rule: 0,
      index: 1,
      field: "messageId",
      eventType: "TEXT_MESSAGE_START",
      line: 2,
    });
  });

  it("reports a message longer than --max-buffer-size, and stops reading there", async () => {
    const events = [
      { type: "RUN_STARTED", threadId: T, runId: R },
      { type: "CUSTOM", name: "big", value: "x".repeat(200_000) },
      { type: "RUN_FINISHED", threadId: T, runId: R },
    ];
    const file = await fixture("big.sse", sse(events));
    const big = await cli([file, "--json", "--max-buffer-size", "100000"]);
    expect(big.code).toBe(1);
    const report = one(big.stdout);
    expect(report.findings.map((f: { code: string }) => f.code)).toEqual([
      "SSE_BUFFER_OVERFLOW",
      // RUN_FINISHED after it is not read: the run is still open.
      "STREAM_ENDED_BEFORE_RUN_CLOSED",
    ]);
    expect(report.findings[0]).toMatchObject({ index: 1, line: 3 });
    // Every byte counts in the input's size, those not read too.
    expect(report.input.bytes).toBe(utf8.encode(sse(events)).length);
    expect((await cli([file, "--max-buffer-size=300000", "--json"])).code).toBe(0);
  });

  it("counts CRLF lines right, in SSE and in JSON Lines", async () => {
    const events = violationRun();
    const crlf = sse(events, true);
    const file = await fixture("crlf.sse", `: recorded\r\n\r\n${crlf}`);
    const { code, stdout } = await cli([file, "--json"]);
    expect(code).toBe(1);
    const offset = utf8.encode(
      `: recorded\r\n\r\n${sse(events.slice(0, VIOLATION_PREFIX), true)}`,
    ).length;
    const findings = one(stdout).findings as { code: string }[];
    // The CRLF framing is also a warning (SSE_LINE_ENDINGS_NOT_LF), placed by its own test.
    expect(findings.filter((f) => f.code !== "SSE_LINE_ENDINGS_NOT_LF")).toEqual([
      expect.objectContaining({
        code: "TEXT_MESSAGE_NOT_OPEN",
        line: 2 * VIOLATION_PREFIX + 3,
        offset,
      }),
    ]);
    const lines = await fixture("crlf.jsonl", jsonl(events, "\r\n"));
    const j = await cli([lines, "--json"]);
    expect(one(j.stdout).findings).toEqual([
      expect.objectContaining({
        line: VIOLATION_PREFIX + 1,
        offset: utf8.encode(jsonl(events.slice(0, VIOLATION_PREFIX), "\r\n")).length,
      }),
    ]);
  });

  it("reads the capture as the format --format names", async () => {
    const asSse = await cli([
      await fixture("run.jsonl", jsonl(validRun())),
      "--format",
      "sse",
      "--json",
    ]);
    expect(asSse.code).toBe(1);
    // Read as SSE, no line of JSON Lines is a field SSE knows: each is ignored.
    expect(one(asSse.stdout)).toMatchObject({
      input: { format: "sse" },
      events: 0,
      findings: [
        { code: "SSE_LINE_IGNORED", severity: "warning", count: 21 },
        { code: "STREAM_ENDED_BEFORE_RUN_STARTED", severity: "error" },
      ],
    });
    const asJsonl = await cli([
      await fixture("run.sse", sse(validRun())),
      "--format=jsonl",
      "--json",
    ]);
    expect(asJsonl.code).toBe(1);
    expect(one(asJsonl.stdout)).toMatchObject({
      input: { format: "jsonl" },
      findings: [
        { code: "INVALID_JSON", index: 0, lastIndex: 20, count: 21, line: 1, offset: 0 },
        { code: "STREAM_ENDED_BEFORE_RUN_STARTED" },
      ],
    });
  });
});

describe("an SSE input's last message with no blank line after it", () => {
  it("is reported in a valid file's input, alone and among other files", async () => {
    const events = validRun();
    const text = `${sse(events)}data: {"type":"CUSTOM","name":"cut`;
    const file = await fixture("twice-cut/valid-cut.sse", text);
    const alone = one((await cli(["--json", file])).stdout);
    const start = utf8.encode(sse(events)).length;
    const expected = { line: 2 * events.length + 1, offset: start };
    expect(alone).toMatchObject({ valid: true, input: { unterminated: expected } });
    // Among other files, in a worker, the same.
    await fixture("twice-cut/valid.sse", sse(events));
    const corpus = lines((await cli(["--json", "twice-cut"])).stdout);
    expect(corpus[0]).toMatchObject({ name: file, input: { unterminated: expected } });
    expect(corpus[1]?.input).toEqual({ format: "sse", bytes: start });
  });
});

describe("positions do not depend on chunk boundaries", () => {
  /** The report of `chunks` read as the command reads an input, as plain data. */
  function place(chunks: readonly Uint8Array[], options: ReaderOptions = {}) {
    const reader = new InputReader(options);
    for (const chunk of chunks) reader.push(chunk);
    return reader.finish();
  }

  /** Every split of `bytes` into two chunks, three chunks around `at`, and one byte each. */
  function splits(bytes: Uint8Array, at: readonly number[]): Uint8Array[][] {
    const out: Uint8Array[][] = [];
    for (let i = 1; i < bytes.length; i++) out.push([bytes.subarray(0, i), bytes.subarray(i)]);
    for (const k of at) {
      out.push([bytes.subarray(0, k), bytes.subarray(k, k + 1), bytes.subarray(k + 1)]);
    }
    out.push([...bytes].map((b) => Uint8Array.of(b)));
    return out;
  }

  const indicesOf = (bytes: Uint8Array, byte: number) =>
    [...bytes.keys()].filter((i) => bytes[i] === byte);

  it.each([
    ["a CRLF-framed violation with comments", `: hi\r\n\r\n${sse(violationRun(), true)}`],
    ["a BOM, then a CRLF-framed violation", `\uFEFF${sse(violationRun(), true)}`],
    ["a BOM, then a CR-framed violation", `\uFEFF${sse(violationRun()).replaceAll("\n", "\r")}`],
    ["a BOM, then a truncated CRLF run", `\uFEFF${sse(validRun().slice(0, 5), true)}data: {"ty`],
    ["a BOM, then CRLF JSON Lines", `\uFEFF${jsonl(violationRun(), "\r\n")}`],
    ["CRLF SSE with several errors and warnings", `\uFEFF${sse(MIXED, true)}`],
    ["CRLF JSON Lines with several errors and warnings", jsonl(MIXED, "\r\n")],
  ])("%s", (_name, text) => {
    const bytes = utf8.encode(text);
    const whole = place([bytes]);
    expect(whole.array).toBe(false);
    const { findings } = whole.report;
    expect(findings.some((f) => f.severity === "error")).toBe(true);
    for (const f of findings) {
      expect(f.line, f.code).toBeDefined();
      expect(f.offset, f.code).toBeDefined();
    }
    // Split at every CR (so CRLF pairs fall apart) and inside the BOM.
    const at = [...indicesOf(bytes, 13), 1, 2];
    for (const chunks of splits(bytes, at)) expect(place(chunks)).toEqual(whole);
  });

  it("matches the lines and offsets written into the file, for every finding", () => {
    const prefix = `\uFEFF: recorded\r\n\r\n${sse(violationRun().slice(0, VIOLATION_PREFIX), true)}`;
    const bytes = utf8.encode(`${prefix}${sse(violationRun().slice(VIOLATION_PREFIX), true)}`);
    const bomSplit = place([bytes.subarray(0, 2), bytes.subarray(2)]);
    expect(bomSplit.report.findings).toEqual([
      // The first CR ends the comment: the warning goes to the first event, where it starts.
      expect.objectContaining({
        code: "SSE_LINE_ENDINGS_NOT_LF",
        index: 0,
        line: 3,
        offset: utf8.encode("\uFEFF: recorded\r\n\r\n").length,
      }),
      expect.objectContaining({
        code: "TEXT_MESSAGE_NOT_OPEN",
        line: 2 * VIOLATION_PREFIX + 3,
        offset: utf8.encode(prefix).length,
      }),
    ]);
    const mixed = utf8.encode(sse(MIXED));
    const places = place([mixed.subarray(0, 100), mixed.subarray(100)]).report.findings.map((f) => [
      f.code,
      f.line,
      f.offset,
    ]);
    const at = (i: number) => {
      const { line, offset } = blockStart(MIXED, i);
      return [line, offset];
    };
    expect(places).toEqual([
      ["TEXT_MESSAGE_NOT_OPEN", ...at(1)],
      ["TOOL_CALL_ARGS_NOT_JSON", ...at(4)],
      ["STEP_NOT_STARTED", ...at(7)],
      ["RUN_ID_MISMATCH", ...at(8)],
    ]);
  });

  it("reads one JSON array the same, whatever the chunks", () => {
    const bytes = utf8.encode(JSON.stringify(violationRun(), null, 2));
    const whole = place([bytes]);
    expect(whole.array).toBe(true);
    expect(whole.report.findings.map((f) => [f.code, f.index])).toEqual([
      ["TEXT_MESSAGE_NOT_OPEN", VIOLATION_PREFIX],
    ]);
    for (const k of [1, 2, 50, bytes.length - 1]) {
      expect(place([bytes.subarray(0, k), bytes.subarray(k)])).toEqual(whole);
    }
    expect(place([...bytes].map((b) => Uint8Array.of(b)))).toEqual(whole);
  });
});

describe("--json: one line per input, then the summary", () => {
  it("prints the documented keys, for a valid and an invalid input", async () => {
    const file = await fixture("valid.sse", sse(validRun()));
    const valid = await cli([file, "--json"]);
    expect(valid.code).toBe(0);
    expect(valid.stderr).toBe("");
    const v = one(valid.stdout);
    const keys = [...INPUT_KEYS];
    expect(Object.keys(v)).toEqual(keys);
    expect(v).toEqual({
      name: file,
      valid: true,
      errors: 0,
      warnings: 0,
      omitted: 0,
      events: 21,
      input: { format: "sse", bytes: (await stat(join(dir, file))).size },
      findings: [],
    });
    const summary = summaryOf(valid.stdout);
    expect(Object.keys(summary)).toEqual([...SUMMARY_KEYS]);
    expect(summary).toMatchObject({ inputs: 1, valid: 1, invalid: 0, unreadable: 0, byCode: {} });
    expect(typeof summary.durationMs).toBe("number");

    const invalid = await cli([await fixture("violation.sse", sse(violationRun())), "--json"]);
    expect(invalid.code).toBe(1);
    const i = one(invalid.stdout);
    expect(Object.keys(i)).toEqual(keys);
    expect(i).toMatchObject({ valid: false, errors: 1, warnings: 0, events: 22 });
    expect(Object.keys(i.findings[0])).toEqual([...FINDING_KEYS]);
    expect(i.findings[0]).toEqual({
      code: "TEXT_MESSAGE_NOT_OPEN",
      severity: "error",
      rule: 3,
      index: VIOLATION_PREFIX,
      lastIndex: VIOLATION_PREFIX,
      count: 1,
      eventType: "TEXT_MESSAGE_CONTENT",
      field: null,
      message: `TEXT_MESSAGE_CONTENT at index ${VIOLATION_PREFIX}: text message "m1" is not open; expected its start first. [TEXT_MESSAGE_NOT_OPEN, rule 3]`,
      ...blockStart(violationRun(), VIOLATION_PREFIX),
    });
    expect(summaryOf(invalid.stdout)).toMatchObject({
      inputs: 1,
      invalid: 1,
      errors: 1,
      byCode: { TEXT_MESSAGE_NOT_OPEN: 1 },
    });
  });

  it("prints an unreadable input as an input with a problem, and exits 2", async () => {
    const missing = await cli(["nope.sse", "--json"]);
    expect(missing.code).toBe(2);
    const problem = 'cannot read "nope.sse": no such file';
    expect(one(missing.stdout)).toEqual(unreadableLine("nope.sse", problem));
    expect(summaryOf(missing.stdout)).toMatchObject({
      inputs: 1,
      unreadable: 1,
      problems: [problem],
    });
    expect(missing.stderr).toBe(`ag-ui-verify: ${problem}\n`);
  });

  it("prints a usage error as one object, and exits 2", async () => {
    const flag = await cli(["--json", "--bogus"]);
    expect(flag.code).toBe(2);
    expect(flag.stdout).toBe(
      `${JSON.stringify({ valid: false, usageError: 'unknown option "--bogus" (see --help)' })}\n`,
    );
  });
});

describe("usage and I/O problems exit 2 with one line", () => {
  it.each([
    [["nope.sse"], 'cannot read "nope.sse": no such file'],
    [["--bogus", "x.sse"], 'unknown option "--bogus"'],
    [["--format", "xml", "x.sse"], 'unknown format "xml"; expected sse, jsonl or proto'],
    [["--format"], "--format needs a value"],
    [["--max-buffer-size", "0", "x.sse"], "--max-buffer-size must be a positive whole number"],
    [[], "no input"],
    [["-", "-"], "stdin (-) can be read only once"],
    [["--jobs", "0", "x.sse"], "--jobs must be a positive whole number"],
    [["--ext", ",", "x"], "--ext needs extensions"],
    [["--timeout", "5", "x.sse"], "--timeout needs --url"],
    [["--url", "http://127.0.0.1:1/", "--timeout", "soon"], "--timeout must be a positive number"],
    [["--url", "not a url"], "is not a URL"],
    [["--url", "http://127.0.0.1:1/", "x.sse"], "not both"],
    [["x.sse", "--header", "A: b"], "--header needs --url"],
    [["--url", "http://127.0.0.1:1/", "--header", "no colon"], "is not 'Name: value'"],
  ])("%j", async (args, message) => {
    const { code, stdout, stderr } = await cli(args);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.startsWith("ag-ui-verify: ")).toBe(true);
    expect(stderr).toContain(message);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it("reports an HTTP error with its status, and an unreachable URL", async () => {
    const url = `${server.url}/status/502`;
    const http = await cli(["--url", url]);
    expect(http.code).toBe(2);
    expect(http.stdout).toBe("");
    expect(http.stderr).toContain(`POST ${url} failed with 502 Bad Gateway`);
    expect(http.stderr.trim().split("\n")).toHaveLength(1);
    const json = await cli(["--url", url, "--json"]);
    expect(json.code).toBe(2);
    const input = one(json.stdout);
    expect(input).toMatchObject({ name: url, valid: false, findings: [] });
    expect(input.problem).toContain("502 Bad Gateway");
    expect(summaryOf(json.stdout)).toMatchObject({ inputs: 1, unreadable: 1 });
    const unreachable = await cli(["--url", "http://127.0.0.1:1/run"]);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toContain("ag-ui-verify: cannot reach http://127.0.0.1:1/run: ");
    expect(unreachable.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("reports an --input file that is missing or not JSON", async () => {
    const missing = await cli(["--url", `${server.url}/run/valid`, "--input", "nope.json"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read --input "nope.json": no such file');
    const bad = await fixture("bad-input.json", "{ nope");
    const notJson = await cli(["--url", `${server.url}/run/valid`, "--input", bad]);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain(`--input "${bad}" is not JSON`);
  });
});

describe("--url", () => {
  it("runs the agent with the input and headers, and reports the stream", async () => {
    const input = await fixture("input.json", JSON.stringify(RUN_INPUT));
    const before = server.requests.length;
    const { code, stdout, stderr } = await cli([
      "--url",
      `${server.url}/run/valid?chunk=7`,
      "--input",
      input,
      "--header",
      "Authorization: Bearer t0ken",
      "--header=X-Trace:  abc ",
    ]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain(
      `✔ valid  ${server.url}/run/valid?chunk=7 (live SSE): 0 errors, 0 warnings`,
    );
    expect(stdout).toContain("21 events.");
    const request = server.requests[before];
    expect(request?.method).toBe("POST");
    expect(JSON.parse(request?.body ?? "")).toEqual(RUN_INPUT);
    expect(request?.headers.authorization).toBe("Bearer t0ken");
    expect(request?.headers["x-trace"]).toBe("abc");
    expect(request?.headers.accept).toBe("text/event-stream");
  });

  it("posts a default input when none is given", async () => {
    const before = server.requests.length;
    const { code } = await cli(["--url", `${server.url}/run/valid`]);
    expect(code).toBe(0);
    const body = JSON.parse(server.requests[before]?.body ?? "");
    expect(body).toMatchObject({ messages: [], tools: [], context: [], state: {} });
    expect(typeof body.threadId).toBe("string");
  });

  it("reports every finding of a live stream, placed as in a recording of it", async () => {
    const url = `${server.url}/run/violation?chunk=5`;
    const live = await cli(["--url", url, "--json"]);
    expect(live.code).toBe(1);
    const report = one(live.stdout);
    expect(report).toMatchObject({
      name: url,
      valid: false,
      events: violationRun().length,
      input: { format: "sse", bytes: utf8.encode(sse(violationRun())).length },
    });
    const recorded = await cli([await fixture("recorded.sse", sse(violationRun())), "--json"]);
    expect(report.findings).toEqual(one(recorded.stdout).findings);
    expect(report.findings[0]).toMatchObject({
      code: "TEXT_MESSAGE_NOT_OPEN",
      index: VIOLATION_PREFIX,
      ...blockStart(violationRun(), VIOLATION_PREFIX),
    });
    const human = await cli(["--url", url]);
    expect(human.code).toBe(1);
    expect(human.stdout).toContain(`✘ invalid  ${url} (live SSE): 1 error, 0 warnings`);
    expect(human.stdout).toContain("[TEXT_MESSAGE_NOT_OPEN, rule 3]");
    expect(human.stdout).toContain("The 3 events before it:");
  });
});

describe("--url: time-outs and broken connections exit 2, saying what happened", () => {
  it("--timeout: no response head in time", async () => {
    const url = `${server.url}/run/valid?wait=5000`;
    const problem = `no byte from ${url} for 0.3 s (--timeout 0.3)`;
    const run = await cli(["--url", url, "--timeout", "0.3"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(`ag-ui-verify: ${problem}\n`);
    const json = await cli(["--url", url, "--timeout=0.3", "--json"]);
    expect(json.code).toBe(2);
    expect(one(json.stdout)).toMatchObject({ name: url, valid: false, findings: [], problem });
    expect(summaryOf(json.stdout)).toMatchObject({ inputs: 1, unreadable: 1, problems: [problem] });
  });

  it("--timeout: the body stops mid-run", async () => {
    const body = utf8.encode(sse(validRun().slice(0, 3))).length;
    const url = `${server.url}/run/valid?chunk=${body}&delay=5000`;
    const run = await cli(["--url", url, "--timeout", "0.3"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `ag-ui-verify: no byte from ${url} for 0.3 s after 3 events (--timeout 0.3)\n`,
    );
  });

  it("a connection cut mid-run is reported as such, not as a short stream", async () => {
    const url = `${server.url}/run/disconnect?events=4`;
    const run = await cli(["--url", url]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(
      new RegExp(
        `^ag-ui-verify: the connection to ${url.replace(/[?.]/g, "\\$&")} broke after 4 events: .+\n$`,
      ),
    );
    expect(run.stderr).not.toContain("STREAM_ENDED");
    const json = await cli(["--url", url, "--json"]);
    expect(json.code).toBe(2);
    expect(one(json.stdout).problem).toMatch(/broke after 4 events/);
    expect(json.stdout).not.toContain("STREAM_ENDED");
  });
});

describe("--strict: the AG-UI event schema too", () => {
  const robot = [
    { type: "RUN_STARTED", threadId: T, runId: R },
    { type: "TEXT_MESSAGE_START", messageId: "m1", role: "robot" },
    { type: "TEXT_MESSAGE_END", messageId: "m1" },
    { type: "RUN_FINISHED", threadId: T, runId: R },
  ];
  const mismatch =
    'role does not match the schema (expected one of "developer", "system", "assistant", "user", got "robot")';

  it("passes by default what the schema rejects, and names the field with --strict", async () => {
    const file = await fixture("robot.sse", sse(robot));
    expect((await cli([file])).code).toBe(0);
    const strict = await cli([file, "--strict"]);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain(`TEXT_MESSAGE_START at index 1: ${mismatch}`);
    expect(strict.stdout).toContain("[SCHEMA_MISMATCH, rule 0]");
    expect(strict.stdout).toMatch(
      /Rule 0: With --strict, every event also matches the AG-UI event/,
    );
    expect(strict.stdout).toContain(
      `At line 3, byte offset ${utf8.encode(sse(robot.slice(0, 1))).length}`,
    );
    const json = one((await cli([file, "--strict", "--json"])).stdout);
    expect(json.findings[0]).toMatchObject({
      code: "SCHEMA_MISMATCH",
      field: "role",
      index: 1,
      line: 3,
    });
  });

  it("applies to every input of a corpus, in every job", async () => {
    await fixture("strict/a-robot.sse", sse(robot));
    await fixture("strict/b-valid.jsonl", jsonl(validRun()));
    await fixture("strict/c-thread.jsonl", jsonl([{ type: "RUN_STARTED", threadId: 1, runId: R }]));
    for (const jobs of ["1", "3"]) {
      const run = await cli(["--strict", "--json", "--jobs", jobs, "strict"]);
      expect(run.code).toBe(1);
      const inputs = lines(run.stdout);
      const { summary } = inputs.pop();
      expect(inputs.map((r) => [r.name, r.valid, r.findings[0]?.field ?? null])).toEqual([
        ["strict/a-robot.sse", false, "role"],
        ["strict/b-valid.jsonl", true, null],
        ["strict/c-thread.jsonl", false, "threadId"],
      ]);
      expect(summary.codes[0]).toEqual({
        code: "SCHEMA_MISMATCH",
        severity: "error",
        rule: 0,
        inputs: 2,
        findings: 2,
        examples: [
          { input: "strict/a-robot.sse", line: 3, field: "role" },
          { input: "strict/c-thread.jsonl", line: 1, field: "threadId" },
        ],
      });
    }
    const human = await cli(["--strict", "strict"]);
    expect(human.stdout).toContain("line 3  strict/a-robot.sse  (role)");
  });

  it("checks a live stream with the schema too", async () => {
    const agent = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" }).end(sse(robot));
    });
    await new Promise<void>((done) => agent.listen(0, "127.0.0.1", done));
    const { port } = agent.address() as AddressInfo;
    try {
      const url = `http://127.0.0.1:${port}/run`;
      expect((await cli(["--url", url])).code).toBe(0);
      const strict = await cli(["--url", url, "--strict", "--json"]);
      expect(strict.code).toBe(1);
      expect(one(strict.stdout).findings[0]).toMatchObject({
        code: "SCHEMA_MISMATCH",
        field: "role",
      });
    } finally {
      agent.close();
    }
  });
});

describe("colour, help and version", () => {
  it("prints no ANSI codes when stdout is not a terminal, nor with NO_COLOR or --no-color", async () => {
    const file = await fixture("violation.sse", sse(violationRun()));
    expect((await cli([file])).stdout).not.toContain("\u001b[");
    expect((await cli([file], { env: { FORCE_COLOR: "1" } })).stdout).toContain("\u001b[31m");
    expect((await cli([file], { env: { FORCE_COLOR: "1", NO_COLOR: "1" } })).stdout).not.toContain(
      "\u001b[",
    );
    expect((await cli([file, "--no-color"], { env: { FORCE_COLOR: "1" } })).stdout).not.toContain(
      "\u001b[",
    );
    // The same text, coloured or not.
    const plain = (await cli([file])).stdout;
    const coloured = (await cli([file], { env: { FORCE_COLOR: "1" } })).stdout;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the colour codes
    expect(coloured.replace(/\u001b\[\d+m/g, "")).toBe(plain);
  });

  it("explains itself with --help-all", async () => {
    const { code, stdout } = await cli(["--help-all"]);
    expect(code).toBe(0);
    for (const text of [
      "Usage:",
      "ag-ui-verify [options] <capture>",
      "--url <url>",
      "--input <file>",
      "--header 'Name: value'",
      "--timeout <seconds>",
      "--jobs <n>",
      "--ext <list>",
      "--format sse|jsonl",
      "--protocol 1.1|draft",
      "--allow-sequential-runs    deprecated",
      "--strict",
      'role "robot"',
      "--max-buffer-size <n>",
      "1 to 536870912 (512 MiB",
      "--max-ids <n>",
      "Infinity for no limit",
      "--severity <CODE=level>",
      "--reporter <name>",
      "--output <file>",
      "--fail-on <level>",
      "--json",
      "--no-color",
      "--rules-url <url>",
      "--help-all",
      "Exit status:",
      "13. Every started subagent",
      RULES,
      "TOOL_CALL_ARGS_NOT_JSON",
    ]) {
      expect(stdout).toContain(text);
    }
  });

  it("--help-all: what --strict adds is a paragraph of its own, after rule 13", async () => {
    const { stdout } = await cli(["--help-all"]);
    expect(stdout).toContain(
      "  13. Every started subagent finishes (or errors) before RUN_FINISHED.\n\nWith --strict, every event also matches the AG-UI event schema",
    );
    // Not indented as if it continued rule 13.
    expect(stdout).not.toMatch(/\n {2,}With --strict, every event also matches/);
    const paragraph = stdout.slice(stdout.indexOf("\nWith --strict, every event"));
    expect(paragraph.split("\n\n")[0]).toMatch(/allowed\s+value\.$/);
    expect(stdout).toContain(`${RULES} (${RULES}#<code in lower case>)`);
  });

  it("prints its version", async () => {
    const pkg = JSON.parse(await readFile(join(REPO, "package.json"), "utf8"));
    const { code, stdout } = await cli(["--version"]);
    expect(code).toBe(0);
    expect(stdout).toBe(`ag-ui-verify ${pkg.version}\n`);
  });
});

describe("lint: every finding, reporters, --fail-on, --severity, --output", () => {
  /** The HAR file's two event streams, as the command names them. */
  const HAR_OK =
    "mixed/d-session.har POST https://chat.example/api/agent/run 2026-03-02T09:15:01.000Z";
  const HAR_BAD =
    "mixed/d-session.har POST https://chat.example/api/agent/run 2026-03-02T09:15:30.000Z";

  /** A corpus: valid, invalid, warnings only, and a HAR file (one valid stream, one invalid). */
  beforeAll(async () => {
    await fixture("mixed/a-valid.sse", sse(validRun()));
    await fixture("mixed/b-invalid.sse", sse(violationRun()));
    await fixture("mixed/c-warned.sse", sse(WARNED));
    await copyFile(join(REPO, "examples/captures/session.har"), join(dir, "mixed/d-session.har"));
  });

  it("one input: every finding, errors first in input order, then warnings; the first error with its context", async () => {
    const file = await fixture("mixed.sse", sse(MIXED));
    const { code, stdout, stderr } = await cli([file]);
    expect(code).toBe(1);
    const at = (i: number) => blockStart(MIXED, i);
    expect(stdout.split("\n")[0]).toBe(`✘ invalid  ${file} (SSE): 2 errors, 2 warnings`);
    const order = [
      "\nErrors\n",
      // A merged finding: the line of its first event, and how many events gave it.
      `  ✘ line ${at(1).line}  TEXT_MESSAGE_CONTENT at index 1: text message "x" is not open; expected its start first. [TEXT_MESSAGE_NOT_OPEN, rule 3] (3 events, #1 to #6)  ${RULES}#text_message_not_open\n`,
      "      Rule 3: A text message opens",
      `      At line ${at(1).line}, byte offset ${at(1).offset}, where the offending SSE message starts.\n`,
      "      The 1 event before it:\n",
      `        #0  RUN_STARTED {"threadId":"${T}","runId":"${R}"}\n`,
      `  ✘ line ${at(7).line}  STEP_FINISHED at index 7: step "nope" is not open`,
      `[STEP_NOT_STARTED, rule 6]  ${RULES}#step_not_started\n`,
      "\nWarnings\n",
      `  ! line ${at(4).line}  TOOL_CALL_END at index 4: the arguments of tool call "c1"`,
      `[TOOL_CALL_ARGS_NOT_JSON, warning]  ${RULES}#tool_call_args_not_json\n`,
      `  ! line ${at(8).line}  RUN_FINISHED at index 8: runId "another-run" differs from "${R}"`,
      `[RUN_ID_MISMATCH, warning]  ${RULES}#run_id_mismatch\n`,
      `  Read ${utf8.encode(sse(MIXED)).length} bytes, ${MIXED.length} events.\n`,
    ];
    let from = 0;
    for (const text of order) {
      const found = stdout.indexOf(text, from);
      expect(found, `${JSON.stringify(text)} after offset ${from} in\n${stdout}`).toBeGreaterThan(
        -1,
      );
      from = found + text.length;
    }
    // Only the first error gets the context.
    expect(stdout.match(/ {6}Rule \d+:/g)).toHaveLength(1);
    expect(stdout.match(/before it:/g)).toHaveLength(1);
    expect(stderr).toBe(
      `ag-ui-verify: invalid stream (${file}, line ${at(1).line}): TEXT_MESSAGE_NOT_OPEN (rule 3) at index 1\n`,
    );
    // The same findings in NDJSON, in input order, merged alike.
    const json = one((await cli([file, "--json"])).stdout);
    expect(json).toMatchObject({ valid: false, errors: 2, warnings: 2, omitted: 0, events: 9 });
    expect(
      json.findings.map((f: Record<string, unknown>) => [
        f.code,
        f.severity,
        f.index,
        f.lastIndex,
        f.count,
        f.line,
        f.offset,
      ]),
    ).toEqual([
      ["TEXT_MESSAGE_NOT_OPEN", "error", 1, 6, 3, at(1).line, at(1).offset],
      ["TOOL_CALL_ARGS_NOT_JSON", "warning", 4, 4, 1, at(4).line, at(4).offset],
      ["STEP_NOT_STARTED", "error", 7, 7, 1, at(7).line, at(7).offset],
      ["RUN_ID_MISMATCH", "warning", 8, 8, 1, at(8).line, at(8).offset],
    ]);
  });

  it("a valid input with warnings only: valid, every warning listed, exit 0", async () => {
    const file = await fixture("warned.sse", sse(WARNED));
    const { code, stdout, stderr } = await cli([file]);
    expect(code).toBe(0);
    expect(stderr).toBe("");
    expect(stdout).toContain(`✔ valid  ${file} (SSE): 0 errors, 1 warning\n\nWarnings\n`);
    expect(stdout).toContain(
      `  ! line ${blockStart(WARNED, 3).line}  TOOL_CALL_END at index 3: the arguments of tool call "c1"`,
    );
    expect(stdout).not.toContain("Errors");
  });

  it("--reporter ndjson: one shape for one input and for many, the summary line last", async () => {
    const single = await cli(["--reporter", "ndjson", "mixed/b-invalid.sse"]);
    const many = await cli(["--reporter", "ndjson", "mixed"]);
    expect(single.code).toBe(1);
    expect(many.code).toBe(1);
    const [alone, ...rest] = lines(single.stdout);
    const all = lines(many.stdout);
    const last = all.pop();
    expect(rest.map(Object.keys)).toEqual([["summary"]]);
    expect(Object.keys(last)).toEqual(["summary"]);
    expect(
      all.map((input) => (input.url === undefined ? input.name : `${input.name} ${input.url}`)),
    ).toEqual(["mixed/a-valid.sse", "mixed/b-invalid.sse", "mixed/c-warned.sse", HAR_OK, HAR_BAD]);
    // The invalid file's line is the same, alone or among others.
    expect(all[1]).toEqual(alone);
    const keys = Object.keys(alone);
    for (const input of all) {
      expect(Object.keys(input).filter((key) => key !== "url")).toEqual(keys);
    }
    expect(all[3].url).toBe("POST https://chat.example/api/agent/run 2026-03-02T09:15:01.000Z");
    expect(Object.keys(last.summary)).toEqual(Object.keys(rest[0].summary));
    expect(last.summary).toMatchObject({
      inputs: 5,
      valid: 3,
      invalid: 2,
      unreadable: 0,
      errors: 2,
      warnings: 1,
      byCode: { OWNER_MISMATCH: 1, TEXT_MESSAGE_NOT_OPEN: 1, TOOL_CALL_ARGS_NOT_JSON: 1 },
      skippedHarEntries: 2,
    });
    // `--json` is the same report.
    const json = await cli(["--json", "mixed"]);
    const steady = (text: string) => text.replace(/"durationMs":[\d.]+/g, "");
    expect(steady(json.stdout)).toBe(steady(many.stdout));
  });

  it("several inputs: the summary by code, errors first, with example inputs and lines", async () => {
    const { code, stdout, stderr } = await cli(["mixed"]);
    expect(code).toBe(1);
    expect(stdout).toContain(
      "Checked 5 inputs\n  ✔ 3 valid, 1 of them with warnings\n  ✘ 2 invalid\n  2 HAR entries skipped: not text/event-stream\n",
    );
    // Each code with its rule page.
    const owner = stdout.indexOf(`\nOWNER_MISMATCH  1 input  ${RULES}#owner_mismatch\n`);
    const text = stdout.indexOf(
      `\nTEXT_MESSAGE_NOT_OPEN  1 input  ${RULES}#text_message_not_open\n`,
    );
    const warned = stdout.indexOf(
      `\nTOOL_CALL_ARGS_NOT_JSON  1 input (warning)  ${RULES}#tool_call_args_not_json\n`,
    );
    expect(owner).toBeGreaterThan(-1);
    expect(text).toBeGreaterThan(owner);
    expect(warned).toBeGreaterThan(text);
    const line = blockStart(violationRun(), VIOLATION_PREFIX).line;
    expect(stdout).toContain(`    line ${line}  mixed/b-invalid.sse\n`);
    expect(stdout).toContain(`    line ${blockStart(WARNED, 3).line}  mixed/c-warned.sse\n`);
    expect(stdout).toMatch(
      / {4}line \d+ {2}mixed\/d-session\.har: POST https:\/\/chat\.example\/api\/agent\/run 2026-03-02T09:15:30\.000Z\n/,
    );
    expect(stderr).toBe("ag-ui-verify: 2 of 5 inputs invalid\n");
  });

  it("--reporter github: a workflow command per finding, then the summary", async () => {
    const { code, stdout } = await cli(["--reporter", "github", "mixed"]);
    expect(code).toBe(1);
    const commands = stdout.split("\n").filter((line) => line.startsWith("::"));
    expect(commands).toHaveLength(3);
    const line = blockStart(violationRun(), VIOLATION_PREFIX).line;
    expect(commands[0]).toBe(
      `::error file=mixed/b-invalid.sse,line=${line},title=TEXT_MESSAGE_NOT_OPEN::TEXT_MESSAGE_CONTENT at index ${VIOLATION_PREFIX}: text message "m1" is not open; expected its start first. [TEXT_MESSAGE_NOT_OPEN, rule 3]`,
    );
    expect(commands[1]).toMatch(
      new RegExp(
        `^::warning file=mixed/c-warned\\.sse,line=${blockStart(WARNED, 3).line},title=TOOL_CALL_ARGS_NOT_JSON::TOOL_CALL_END at index 3: `,
      ),
    );
    // A HAR entry's finding is on the HAR file, its URL in the message.
    expect(commands[2]).toMatch(
      // A HAR entry's lines are its body's, not the HAR file's: no line property.
      /^::error file=mixed\/d-session\.har,title=OWNER_MISMATCH::TEXT_MESSAGE_CONTENT at index 7: .* \[POST https:\/\/chat\.example\/api\/agent\/run 2026-03-02T09:15:30\.000Z\]$/,
    );
    expect(stdout).not.toContain("a-valid.sse");
    // The summary follows, as plain lines.
    const summary = stdout.slice(stdout.lastIndexOf("::"));
    expect(summary).toContain("\nChecked 5 inputs\n");
    expect(stdout.indexOf("Checked 5 inputs")).toBeGreaterThan(stdout.indexOf(commands[2] ?? ""));
  });

  it("--reporter junit: a test case per input, a failure for an invalid one, warnings in system-out", async () => {
    const { code, stdout } = await cli(["--reporter", "junit", "mixed"]);
    expect(code).toBe(1);
    expect(stdout.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
    expect(stdout).toContain('<testsuites name="ag-ui-verify" tests="5" failures="2" errors="0">');
    const cases = [
      ...stdout.matchAll(/<testcase name="([^"]*)"[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g),
    ];
    expect(cases.map((c) => c[1])).toEqual([
      "mixed/a-valid.sse",
      "mixed/b-invalid.sse",
      "mixed/c-warned.sse",
      HAR_OK,
      HAR_BAD,
    ]);
    const body = (i: number) => cases[i]?.[3] ?? "";
    expect(cases[0]?.[2]).toBe("/>");
    expect(body(1)).toContain(
      `<failure message="TEXT_MESSAGE_CONTENT at index ${VIOLATION_PREFIX}: text message &quot;m1&quot; is not open; expected its start first. [TEXT_MESSAGE_NOT_OPEN, rule 3]" type="TEXT_MESSAGE_NOT_OPEN">`,
    );
    expect(body(1)).not.toContain("<system-out>");
    expect(body(2)).not.toContain("<failure");
    expect(body(2)).toMatch(
      new RegExp(
        `<system-out>warning TOOL_CALL_ARGS_NOT_JSON line ${blockStart(WARNED, 3).line}, event #3, count 1: TOOL_CALL_END at index 3: `,
      ),
    );
    expect(cases[3]?.[2]).toBe("/>");
    expect(body(4)).toContain('type="OWNER_MISMATCH"');
    // Nothing but the XML on stdout.
    expect(stdout.trimEnd().endsWith("</testsuites>")).toBe(true);
  });

  it("--reporter sarif: a rule per code found, a result per finding, at the input and line", async () => {
    const pkg = JSON.parse(await readFile(join(REPO, "package.json"), "utf8"));
    const { code, stdout } = await cli(["--reporter", "sarif", "mixed"]);
    expect(code).toBe(1);
    const log = JSON.parse(stdout);
    expect(log.version).toBe("2.1.0");
    expect(log.runs).toHaveLength(1);
    const [run] = log.runs;
    expect(run.tool.driver).toMatchObject({ name: "ag-ui-verify", version: pkg.version });
    const rules = run.tool.driver.rules.map((r: { id: string }) => r.id);
    expect([...rules].sort()).toEqual([
      "OWNER_MISMATCH",
      "TEXT_MESSAGE_NOT_OPEN",
      "TOOL_CALL_ARGS_NOT_JSON",
    ]);
    const results = run.results.map(
      (r: {
        ruleId: string;
        ruleIndex: number;
        level: string;
        locations: { physicalLocation: { artifactLocation: { uri: string } } }[];
      }) => {
        expect(rules[r.ruleIndex]).toBe(r.ruleId);
        return [r.ruleId, r.level, r.locations[0]?.physicalLocation.artifactLocation.uri];
      },
    );
    expect(results).toEqual([
      ["TEXT_MESSAGE_NOT_OPEN", "error", "mixed/b-invalid.sse"],
      ["TOOL_CALL_ARGS_NOT_JSON", "warning", "mixed/c-warned.sse"],
      ["OWNER_MISMATCH", "error", "mixed/d-session.har"],
    ]);
    expect(run.results[0].locations[0].physicalLocation.region).toEqual({
      startLine: blockStart(violationRun(), VIOLATION_PREFIX).line,
    });
    expect(run.results[0].message.text).toContain('text message "m1" is not open');
    expect(run.results[2].locations[0].message.text).toBe(
      "POST https://chat.example/api/agent/run 2026-03-02T09:15:30.000Z",
    );
    expect(run.invocations[0].executionSuccessful).toBe(true);
  });

  it("--fail-on: exit 1 for a finding at or above it, 0 otherwise; 2 for an unreadable input wins", async () => {
    const warned = "mixed/c-warned.sse";
    const invalid = "mixed/b-invalid.sse";
    const valid = "mixed/a-valid.sse";
    for (const [args, expected] of [
      [[warned], 0],
      [[warned, "--fail-on", "error"], 0],
      [[warned, "--fail-on", "warning"], 1],
      [[warned, "--fail-on", "none"], 0],
      [[invalid], 1],
      [[invalid, "--fail-on", "warning"], 1],
      [[invalid, "--fail-on", "none"], 0],
      [[valid, "--fail-on", "warning"], 0],
      [[valid, warned, "--fail-on", "warning"], 1],
      [[valid, warned, "--json", "--fail-on=warning"], 1],
      [[invalid, valid, "--fail-on", "none"], 0],
      [["mixed", "--reporter", "junit", "--fail-on", "none"], 0],
      // An input that cannot be read: 2, whatever --fail-on says.
      [[warned, "nope.sse", "--fail-on", "none"], 2],
      [[invalid, "nope.sse"], 2],
      [[invalid, "nope.sse", "--fail-on", "warning"], 2],
    ] as const) {
      const r = await cli(args);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(expected);
    }
    // --fail-on none changes the exit status, not the report.
    const none = await cli([invalid, "--fail-on", "none"]);
    expect(none.stdout).toBe((await cli([invalid])).stdout);
    expect(none.stdout).toContain("✘ invalid");
  });

  it("--severity CODE=level changes how a finding counts, in one input and in every job", async () => {
    const file = await fixture("other-run.sse", sse(OTHER_RUN));
    const normal = await cli([file, "--json"]);
    expect(normal.code).toBe(0);
    expect(one(normal.stdout)).toMatchObject({
      valid: true,
      warnings: 1,
      findings: [{ code: "RUN_ID_MISMATCH", severity: "warning" }],
    });
    const error = await cli([file, "--severity", "RUN_ID_MISMATCH=error"]);
    expect(error.code).toBe(1);
    expect(error.stdout).toContain(`✘ invalid  ${file} (SSE): 1 error, 0 warnings\n\nErrors\n`);
    expect(error.stderr).toBe(
      `ag-ui-verify: invalid stream (${file}, line 3): RUN_ID_MISMATCH at index 1\n`,
    );
    const off = await cli([
      file,
      "--json",
      "--severity=RUN_ID_MISMATCH=off",
      "--fail-on",
      "warning",
    ]);
    expect(off.code).toBe(0);
    expect(one(off.stdout)).toMatchObject({ valid: true, errors: 0, warnings: 0, findings: [] });
    expect((await cli([file, "--fail-on", "warning"])).code).toBe(1);
    // An error can be made a warning: the stream is then valid.
    const lowered = await cli([
      "mixed/b-invalid.sse",
      "--severity",
      "TEXT_MESSAGE_NOT_OPEN=warning",
    ]);
    expect(lowered.code).toBe(0);
    expect(lowered.stdout).toContain("✔ valid  mixed/b-invalid.sse (SSE): 0 errors, 1 warning");
    // Comma lists and repeated flags; the later one for a code wins; every job applies them.
    for (const jobs of ["1", "2"]) {
      const r = await cli([
        "--json",
        "--jobs",
        jobs,
        "--severity",
        "RUN_ID_MISMATCH=warning,TOOL_CALL_ARGS_NOT_JSON=error",
        "--severity",
        "RUN_ID_MISMATCH=error",
        file,
        "mixed/c-warned.sse",
        "mixed/a-valid.sse",
      ]);
      expect(r.code).toBe(1);
      const inputs = lines(r.stdout);
      expect(
        inputs
          .slice(0, 3)
          .map((i) => [i.valid, i.findings.map((f: { severity: string }) => f.severity)]),
      ).toEqual([
        [false, ["error"]],
        [false, ["error"]],
        [true, []],
      ]);
    }
  });

  it.each([
    [["--severity", "BOGUS=off"], '--severity "BOGUS=off": unknown code "BOGUS"'],
    [["--severity", "RUN_ID_MISMATCH=fatal"], "expected CODE=error, CODE=warning or CODE=off"],
    [["--severity", "RUN_ID_MISMATCH"], "expected CODE=error, CODE=warning or CODE=off"],
    [
      ["--severity", "RUN_ID_MISMATCH=off,NOPE=error"],
      '--severity "NOPE=error": unknown code "NOPE"',
    ],
    [["--severity"], "--severity needs a value"],
    [
      ["--reporter", "xml"],
      'unknown reporter "xml"; expected one of text, ndjson, junit, sarif, github',
    ],
    [["--reporter"], "--reporter needs a value"],
    [["--fail-on", "never"], '--fail-on must be error, warning or none, not "never"'],
    [["--fail-on"], "--fail-on needs a value"],
    [["--json", "--reporter", "junit"], "--json means --reporter ndjson, not junit"],
  ])("%j is a usage error: exit 2, one line", async (flags, message) => {
    const file = "mixed/a-valid.sse";
    const r = await cli([file, ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr.startsWith("ag-ui-verify: ")).toBe(true);
    expect(r.stderr).toContain(message);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    if (flags.includes("--json")) {
      expect(JSON.parse(r.stdout)).toEqual({ valid: false, usageError: r.stderr.slice(14, -1) });
    } else expect(r.stdout).toBe("");
  });

  it("--output FILE: the report in the file, nothing on stdout", async () => {
    const text = await cli(["mixed/b-invalid.sse"]);
    await mkdir(join(dir, "out"), { recursive: true });
    const written = await cli(["mixed/b-invalid.sse", "--output", "out/report.txt"]);
    expect(written.code).toBe(1);
    expect(written.stdout).toBe("");
    expect(written.stderr).toBe(text.stderr);
    expect(await readFile(join(dir, "out/report.txt"), "utf8")).toBe(text.stdout);
    // -o, a corpus, another reporter; the file is replaced, not appended to.
    const sarif = await cli(["--reporter", "sarif", "-o", "out/report.txt", "mixed"]);
    expect(sarif.code).toBe(1);
    expect(sarif.stdout).toBe("");
    const log = JSON.parse(await readFile(join(dir, "out/report.txt"), "utf8"));
    expect(log.runs[0].results).toHaveLength(3);
    const ndjson = await cli(["--json", "--output=out/report.ndjson", "mixed/c-warned.sse"]);
    expect(ndjson.code).toBe(0);
    expect(ndjson.stdout).toBe("");
    expect(one(await readFile(join(dir, "out/report.ndjson"), "utf8")).warnings).toBe(1);
  });

  it("--output a path that cannot be written: exit 2, one line", async () => {
    for (const [path, reason] of [
      ["missing/report.txt", "no such file"],
      ["mixed", "it is a directory"],
    ] as const) {
      const r = await cli(["mixed/a-valid.sse", "--output", path]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(`ag-ui-verify: cannot write --output "${path}": ${reason}\n`);
    }
  });

  it("a file holding one JSON array of events, pretty-printed, is linted as its events", async () => {
    const valid = await fixture("run.json", JSON.stringify(validRun(), null, 2));
    const v = await cli([valid]);
    expect(v.code).toBe(0);
    expect(v.stdout).toContain(`✔ valid  ${valid} (JSON array): 0 errors, 0 warnings`);
    expect(v.stdout).toContain(", 21 events.");
    const invalid = await fixture("violation.json", JSON.stringify(violationRun(), null, 2));
    const i = await cli([invalid]);
    expect(i.code).toBe(1);
    expect(i.stdout).toContain(`✘ invalid  ${invalid} (JSON array): 1 error, 0 warnings`);
    expect(i.stdout).toContain(
      `  ✘ TEXT_MESSAGE_CONTENT at index ${VIOLATION_PREFIX}: text message "m1" is not open`,
    );
    // A list has no lines: none is named.
    expect(i.stdout).not.toMatch(/line \d|byte offset/);
    expect(i.stdout).toContain("The 3 events before it:");
    expect(i.stderr).toBe(
      `ag-ui-verify: invalid stream (${invalid}): TEXT_MESSAGE_NOT_OPEN (rule 3) at index ${VIOLATION_PREFIX}\n`,
    );
    const json = one((await cli([invalid, "--json"])).stdout);
    expect(json).toMatchObject({ valid: false, events: violationRun().length });
    expect(json.findings[0]).toMatchObject({ index: VIOLATION_PREFIX, line: null, offset: null });
    // One array per line is JSON Lines, not one array.
    const perLine = await cli([await fixture("arrays.jsonl", "[1]\n[2]\n"), "--json"]);
    expect(one(perLine.stdout).findings[0]).toMatchObject({
      code: "EVENT_NOT_OBJECT",
      count: 2,
      line: 1,
    });
  });

  it("an empty file says so", async () => {
    const file = await fixture("empty.sse", "");
    const { code, stdout } = await cli([file]);
    expect(code).toBe(1);
    expect(stdout).toContain(`✘ invalid  ${file} (SSE): 1 error, 0 warnings`);
    expect(stdout).toContain(
      "  ✘ line 1  empty input (0 bytes): end of input at index 0: the stream ended before any run started; expected RUN_STARTED (or RUN_ERROR).",
    );
    expect(stdout).toContain(
      "The input is empty (0 bytes): nothing was sent, so no run was opened.",
    );
    expect(stdout).toContain("Read 0 bytes, 0 events.");
    expect(one((await cli([file, "--json"])).stdout)).toMatchObject({
      events: 0,
      input: { bytes: 0 },
      findings: [{ code: "STREAM_ENDED_BEFORE_RUN_STARTED", line: 1, offset: 0 }],
    });
  });

  it("a JSON Lines input names the line that is not JSON as a JSON line", async () => {
    const events = validRun();
    const text = `${jsonl(events.slice(0, 3))}{nope\n${jsonl(events.slice(3))}`;
    const file = await fixture("broken.jsonl", text);
    const { code, stdout } = await cli([file]);
    expect(code).toBe(1);
    expect(stdout).toContain(`✘ invalid  ${file} (JSON Lines): 1 error, 0 warnings`);
    expect(stdout).toContain('  ✘ line 4  JSON line at index 3: data "{nope" is not JSON');
    expect(stdout).toContain(
      `At line 4, byte offset ${utf8.encode(jsonl(events.slice(0, 3))).length}, where the offending JSON line starts.`,
    );
    expect(stdout).not.toContain("SSE message");
    // The events after it are read: one finding only.
    expect(stdout).toContain(`, ${events.length + 1} events.`);
  });
});

describe("docs/cli.md", () => {
  it("shows the command's real output in every transcript (timings aside)", async () => {
    // A computed specifier, so that type-checking needs no types for the script.
    const script = new URL("../../scripts/cli-doc.mjs", import.meta.url).href;
    const { transcripts, steady } = (await import(/* @vite-ignore */ script)) as {
      transcripts: () => { documented: string; actual: string }[];
      steady: (text: string) => string;
    };
    const blocks = transcripts();
    expect(blocks.length).toBeGreaterThanOrEqual(10);
    for (const { documented, actual } of blocks) {
      expect(steady(documented), documented.split("\n")[0]).toBe(steady(actual));
    }
  });
});
