// The `ag-ui-verify` command (dist/cli.js, built by `npm test`), run as a user runs it, over
// capture files written here, over stdin, and against the local agent server.

import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Check, type CheckOptions } from "../../src/report/check.ts";
import { RUN_INPUT, VIOLATION_PREFIX, validRun, violationRun } from "../runtime/cases.ts";
import { type AgentServer, sse, startAgentServer } from "../server/agent-server.ts";
import { runCli } from "./cli-run.ts";

const REPO = fileURLToPath(new URL("../..", import.meta.url));

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

function parse(stdout: string): Record<string, unknown> {
  const value: unknown = JSON.parse(stdout);
  if (typeof value !== "object" || value === null) throw new Error(`not an object: ${stdout}`);
  return value as Record<string, unknown>;
}

const T = RUN_INPUT.threadId;
const R = RUN_INPUT.runId;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ag-ui-verify-cli-"));
  server = await startAgentServer();
});

afterAll(async () => {
  await server?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe("a valid capture", () => {
  it("prints the summary and exits 0", async () => {
    const file = await fixture("valid.sse", sse(validRun()));
    const { code, stdout, stderr } = await cli([file]);
    expect(code).toBe(0);
    expect(stderr).toBe("");
    expect(stdout).toContain(`✔ valid  ${file} (SSE)`);
    expect(stdout).toContain(`Run "${R}" (thread "${T}"): RUN_FINISHED, success`);
    expect(stdout).toContain(
      "21 events: 2 messages · 1 tool call · 0 reasoning messages · 1 step · 0 subagents",
    );
    const size = (await stat(join(dir, file))).size;
    expect(stdout).toContain(`${size.toLocaleString("en-US")} bytes`);
    expect(stdout).toMatch(/ in \d+ ms/);
    expect(stdout).toContain("Events by type");
    expect(stdout).toMatch(/TEXT_MESSAGE_CONTENT +6/);
    expect(stdout).toMatch(/TOOL_CALL_RESULT +1/);
    expect(stdout.split("\n").length).toBeLessThan(30);
  });

  it("shows outcomes, counts and the subagent tree", async () => {
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
    const { code, stdout } = await cli([file, "--allow-sequential-runs"]);
    expect(code).toBe(0);
    expect(stdout).toContain(`Run 1 "${R}" (thread "${T}"): RUN_FINISHED, interrupt (1 interrupt)`);
    expect(stdout).toContain(
      `Run 2 "run-2" (thread "${T}"): RUN_ERROR (code "overloaded"): model overloaded`,
    );
    expect(stdout).toContain(
      "0 messages · 0 tool calls · 1 reasoning message · 0 steps · 3 subagents",
    );
    expect(stdout).toContain('└─ research "s1"  suspended');
    expect(stdout).toContain('├─ search "s2"  success');
    expect(stdout).toContain('└─ fx "s3"  error');
    const json = parse((await cli([file, "--allow-sequential-runs", "--json"])).stdout);
    expect(json.outcome).toEqual({
      event: "RUN_ERROR",
      type: "error",
      message: "model overloaded",
      code: "overloaded",
    });
    expect(json.counts).toMatchObject({ runs: 2, subagents: 3, reasoningMessages: 1 });
  });

  it("reads JSON Lines, detected from the content", async () => {
    const file = await fixture("valid.log", `\n${jsonl(validRun(), "\r\n")}\n`);
    const { code, stdout } = await cli([file]);
    expect(code).toBe(0);
    expect(stdout).toContain(`✔ valid  ${file} (JSON Lines)`);
    expect(stdout).toContain("21 events");
    expect(parse((await cli([file, "--json"])).stdout).format).toBe("jsonl");
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
    expect(parse(stdout)).toMatchObject({ valid: true, format: "sse", counts: { events: 21 } });
  });

  it("reads stdin with -", async () => {
    const sseRun = await cli(["-"], { stdin: sse(validRun()) });
    expect(sseRun.code).toBe(0);
    expect(sseRun.stdout).toContain("✔ valid  - (SSE)");
    const jsonRun = await cli(["-", "--json"], { stdin: jsonl(validRun()) });
    expect(jsonRun.code).toBe(0);
    expect(parse(jsonRun.stdout)).toMatchObject({ valid: true, input: "-", format: "jsonl" });
  });

  it("verifies a large capture as a stream", async () => {
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
    const json = parse(stdout);
    expect(json.counts).toMatchObject({ events: events.length, messages: 2000 });
    expect(json.bytes).toBe((await stat(join(dir, file))).size);
  });
});

describe("a capture that breaks a rule", () => {
  it("explains the violation: message, rule, event, the events before it, line and offset", async () => {
    const events = violationRun();
    const file = await fixture("violation.sse", sse(events));
    const { code, stdout, stderr } = await cli([file]);
    expect(code).toBe(1);
    const { line, offset } = blockStart(events, VIOLATION_PREFIX);
    expect(stdout).toContain(`✘ invalid  ${file} (SSE)`);
    expect(stdout).toContain(
      `TEXT_MESSAGE_CONTENT at index ${VIOLATION_PREFIX}: text message "m1" is not open`,
    );
    expect(stdout).toContain("[TEXT_MESSAGE_NOT_OPEN, rule 3]");
    expect(stdout).toMatch(/Rule 3: A text message opens with TEXT_MESSAGE_START/);
    expect(stdout).toContain(`At line ${line}, byte offset ${offset}, where the offending SSE`);
    expect(stdout).toContain("The 3 events before it:");
    expect(stdout).toMatch(/#10 +line 21 +TEXT_MESSAGE_CONTENT \{"messageId":"m1","delta":"sunny/);
    expect(stdout).toMatch(/#12 +line 25 +TEXT_MESSAGE_END \{"messageId":"m1"\}/);
    expect(stdout).toContain(`The offending event (#${VIOLATION_PREFIX}):`);
    expect(stdout).toContain(
      '    {\n      "type": "TEXT_MESSAGE_CONTENT",\n      "messageId": "m1",',
    );
    expect(stdout).toContain('"delta": "too late"');
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toContain(`ag-ui-verify: invalid stream (${file}, line ${line}):`);
    expect(stderr).toContain("TEXT_MESSAGE_NOT_OPEN");
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
    expect(stdout).toMatch(/has no blank line after it, so SSE\s+discards it/);
    expect(stdout).toContain("The last 3 events:");
    const json = parse((await cli([file, "--json"])).stdout);
    expect(json.error).toMatchObject({
      code: "STREAM_ENDED_BEFORE_RUN_CLOSED",
      rule: 2,
      index: 8,
      eventType: null,
      line: 17,
      offset: utf8.encode(text).length,
    });
  });

  it("reports data that is not JSON", async () => {
    const events = validRun();
    const file = await fixture("done.sse", `${sse(events)}data: [DONE]\n\n`);
    const { code, stdout } = await cli([file]);
    expect(code).toBe(1);
    expect(stdout).toContain('SSE message at index 21: data "[DONE]" is not JSON');
    expect(stdout).toContain("[INVALID_JSON, rule 0]");
    expect(stdout).toContain("The offending SSE message (#21):\n    data: [DONE]");
    expect(stdout).toContain(`At line 43, byte offset ${blockStart(events, 21).offset}`);
  });

  it("reports an event after the close, unless sequential runs are allowed", async () => {
    const events = [...validRun(), ...validRun()];
    const file = await fixture("two-runs.jsonl", jsonl(events));
    const once = await cli([file, "--json"]);
    expect(once.code).toBe(1);
    expect(parse(once.stdout).error).toMatchObject({
      code: "EVENT_AFTER_RUN_CLOSED",
      rule: 2,
      index: 21,
      eventType: "RUN_STARTED",
      line: 22,
      offset: utf8.encode(jsonl(validRun())).length,
    });
    const allowed = await cli([file, "--json", "--allow-sequential-runs"]);
    expect(allowed.code).toBe(0);
    expect(parse(allowed.stdout).counts).toMatchObject({ runs: 2, events: 42 });
  });

  it("reports an owner mismatch and a bad field", async () => {
    const owner = [
      { type: "RUN_STARTED", threadId: T, runId: R },
      { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant", subagentRunId: "s1" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "x", subagentRunId: "s2" },
    ];
    const a = await cli([await fixture("owner.sse", sse(owner)), "--json"]);
    expect(a.code).toBe(1);
    expect(parse(a.stdout).error).toMatchObject({ code: "OWNER_MISMATCH", rule: 9, index: 2 });
    const field = [{ type: "RUN_STARTED", threadId: T, runId: R }, { type: "TEXT_MESSAGE_START" }];
    const b = await cli([await fixture("field.jsonl", jsonl(field)), "--json"]);
    expect(b.code).toBe(1);
    expect(parse(b.stdout).error).toMatchObject({
      code: "FIELD_MISSING",
      rule: 0,
      index: 1,
      field: "messageId",
      eventType: "TEXT_MESSAGE_START",
      line: 2,
    });
  });

  it("reports a message longer than --max-buffer-size, and an empty file", async () => {
    const events = [
      { type: "RUN_STARTED", threadId: T, runId: R },
      { type: "CUSTOM", name: "big", value: "x".repeat(200_000) },
      { type: "RUN_FINISHED", threadId: T, runId: R },
    ];
    const file = await fixture("big.sse", sse(events));
    const big = await cli([file, "--json", "--max-buffer-size", "100000"]);
    expect(big.code).toBe(1);
    expect(parse(big.stdout).error).toMatchObject({
      code: "SSE_BUFFER_OVERFLOW",
      index: 1,
      line: 3,
    });
    expect((await cli([file, "--max-buffer-size=300000", "--json"])).code).toBe(0);
    const empty = await cli([await fixture("empty.sse", ""), "--json"]);
    expect(empty.code).toBe(1);
    expect(parse(empty.stdout).error).toMatchObject({
      code: "STREAM_ENDED_BEFORE_RUN_STARTED",
      line: 1,
      offset: 0,
    });
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
    expect(parse(stdout).error).toMatchObject({
      code: "TEXT_MESSAGE_NOT_OPEN",
      line: 2 * VIOLATION_PREFIX + 3,
      offset,
    });
    const lines = await fixture("crlf.jsonl", jsonl(events, "\r\n"));
    const j = await cli([lines, "--json"]);
    expect(parse(j.stdout).error).toMatchObject({
      line: VIOLATION_PREFIX + 1,
      offset: utf8.encode(jsonl(events.slice(0, VIOLATION_PREFIX), "\r\n")).length,
    });
  });

  it("reads the capture as the format --format names", async () => {
    const asSse = await cli([
      await fixture("run.jsonl", jsonl(validRun())),
      "--format",
      "sse",
      "--json",
    ]);
    expect(asSse.code).toBe(1);
    expect(parse(asSse.stdout)).toMatchObject({
      format: "sse",
      error: { code: "STREAM_ENDED_BEFORE_RUN_STARTED" },
    });
    const asJsonl = await cli([
      await fixture("run.sse", sse(validRun())),
      "--format=jsonl",
      "--json",
    ]);
    expect(asJsonl.code).toBe(1);
    expect(parse(asJsonl.stdout)).toMatchObject({
      format: "jsonl",
      error: { code: "INVALID_JSON", index: 0, line: 1, offset: 0 },
    });
  });
});

describe("positions do not depend on chunk boundaries", () => {
  /** What a check with positions reports, as plain data. */
  function place(chunks: readonly Uint8Array[], options: CheckOptions = {}) {
    const check = new Check(options, true);
    for (const chunk of chunks) if (!check.push(chunk)) break;
    check.finish();
    return {
      format: check.format,
      code: check.error?.code,
      index: check.error?.index,
      position: check.position,
      unterminated: check.unterminated,
      recent: check.tally.recent?.map(({ index, position }) => ({ index, position })),
      events: check.tally.events,
    };
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
  ])("%s", (_name, text) => {
    const bytes = utf8.encode(text);
    const whole = place([bytes]);
    expect(whole.code).toBeDefined();
    expect(whole.position).toBeDefined();
    // Split at every CR (so CRLF pairs fall apart) and inside the BOM.
    const at = [...indicesOf(bytes, 13), 1, 2];
    for (const chunks of splits(bytes, at)) expect(place(chunks)).toEqual(whole);
  });

  it("matches the lines and offsets written into the file", () => {
    const prefix = `\uFEFF: recorded\r\n\r\n${sse(violationRun().slice(0, VIOLATION_PREFIX), true)}`;
    const bytes = utf8.encode(`${prefix}${sse(violationRun().slice(VIOLATION_PREFIX), true)}`);
    const bomSplit = place([bytes.subarray(0, 2), bytes.subarray(2)]);
    expect(bomSplit.position).toEqual({
      line: 2 * VIOLATION_PREFIX + 3,
      offset: utf8.encode(prefix).length,
    });
  });
});

describe("--json", () => {
  it("prints exactly one object, with the documented keys", async () => {
    const file = await fixture("valid.sse", sse(validRun()));
    const valid = await cli([file, "--json"]);
    expect(valid.code).toBe(0);
    expect(valid.stderr).toBe("");
    const v = parse(valid.stdout);
    expect(Object.keys(v)).toEqual([
      "valid",
      "input",
      "format",
      "counts",
      "outcome",
      "bytes",
      "durationMs",
    ]);
    expect(v).toMatchObject({
      valid: true,
      input: file,
      format: "sse",
      counts: {
        events: 21,
        runs: 1,
        messages: 2,
        toolCalls: 1,
        reasoningMessages: 0,
        steps: 1,
        subagents: 0,
      },
      outcome: { event: "RUN_FINISHED", type: "success" },
      bytes: (await stat(join(dir, file))).size,
    });
    expect((v.counts as { byType: unknown }).byType).toEqual({
      RUN_STARTED: 1,
      RUN_FINISHED: 1,
      STEP_STARTED: 1,
      STEP_FINISHED: 1,
      TEXT_MESSAGE_START: 2,
      TEXT_MESSAGE_CONTENT: 6,
      TEXT_MESSAGE_END: 2,
      TOOL_CALL_START: 1,
      TOOL_CALL_ARGS: 2,
      TOOL_CALL_END: 1,
      TOOL_CALL_RESULT: 1,
      STATE_SNAPSHOT: 1,
      CUSTOM: 1,
    });
    expect(typeof v.durationMs).toBe("number");

    const invalid = await cli([await fixture("violation.sse", sse(violationRun())), "--json"]);
    expect(invalid.code).toBe(1);
    const i = parse(invalid.stdout);
    expect(Object.keys(i)).toEqual([
      "valid",
      "input",
      "format",
      "error",
      "counts",
      "bytes",
      "durationMs",
    ]);
    expect(Object.keys(i.error as object)).toEqual([
      "code",
      "rule",
      "index",
      "field",
      "eventType",
      "message",
      "line",
      "offset",
    ]);
    expect(i).toMatchObject({ valid: false, counts: { events: VIOLATION_PREFIX } });
  });

  it("prints a usage error as an object, and exits 2", async () => {
    const missing = await cli(["nope.sse", "--json"]);
    expect(missing.code).toBe(2);
    expect(parse(missing.stdout)).toEqual({
      valid: false,
      usageError: 'cannot read "nope.sse": no such file',
    });
    const flag = await cli(["--json", "--bogus"]);
    expect(flag.code).toBe(2);
    expect(parse(flag.stdout)).toEqual({
      valid: false,
      usageError: 'unknown option "--bogus" (see --help)',
    });
  });
});

describe("usage and I/O problems exit 2 with one line", () => {
  it.each([
    [["nope.sse"], 'cannot read "nope.sse": no such file'],
    [["--bogus", "x.sse"], 'unknown option "--bogus"'],
    [["--format", "xml", "x.sse"], 'unknown format "xml"; expected sse or jsonl'],
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
    const http = await cli(["--url", `${server.url}/status/502`]);
    expect(http.code).toBe(2);
    expect(http.stderr).toContain(`POST ${server.url}/status/502 failed with 502 Bad Gateway`);
    expect(http.stderr.trim().split("\n")).toHaveLength(1);
    const json = await cli(["--url", `${server.url}/status/502`, "--json"]);
    expect(parse(json.stdout)).toMatchObject({ valid: false });
    expect(String(parse(json.stdout).usageError)).toContain("502 Bad Gateway");
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
    expect(stdout).toContain(`✔ valid  ${server.url}/run/valid?chunk=7 (live SSE)`);
    expect(stdout).toContain("21 events");
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

  it("reports a violation with exit 1, without a line", async () => {
    const { code, stdout } = await cli(["--url", `${server.url}/run/violation`, "--json"]);
    expect(code).toBe(1);
    expect(parse(stdout)).toMatchObject({
      valid: false,
      format: "url",
      error: { code: "TEXT_MESSAGE_NOT_OPEN", index: VIOLATION_PREFIX, line: null, offset: null },
      counts: { events: VIOLATION_PREFIX },
      bytes: utf8.encode(sse(violationRun())).length,
    });
    const human = await cli(["--url", `${server.url}/run/violation`]);
    expect(human.code).toBe(1);
    expect(human.stdout).toContain('"delta": "too late"');
    expect(human.stdout).not.toContain("byte offset");
  });
});

describe("--url: time-outs and broken connections exit 2, saying what happened", () => {
  it("--timeout: no response head in time", async () => {
    const url = `${server.url}/run/valid?wait=5000`;
    const run = await cli(["--url", url, "--timeout", "0.3"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`ag-ui-verify: no byte from ${url} for 0.3 s (--timeout 0.3)\n`);
    const json = await cli(["--url", url, "--timeout=0.3", "--json"]);
    expect(parse(json.stdout)).toEqual({
      valid: false,
      usageError: `no byte from ${url} for 0.3 s (--timeout 0.3)`,
    });
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
    expect(run.stderr).toMatch(
      new RegExp(
        `^ag-ui-verify: the connection to ${url.replace(/[?.]/g, "\\$&")} broke mid-run, after 4 events: .+\n$`,
      ),
    );
    expect(run.stderr).not.toContain("STREAM_ENDED");
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
    const json = parse((await cli([file, "--strict", "--json"])).stdout);
    expect(json.error).toMatchObject({ code: "SCHEMA_MISMATCH", field: "role", index: 1, line: 3 });
  });

  it("applies to every input of a corpus, in every job", async () => {
    await fixture("strict/a-robot.sse", sse(robot));
    await fixture("strict/b-valid.jsonl", jsonl(validRun()));
    await fixture("strict/c-thread.jsonl", jsonl([{ type: "RUN_STARTED", threadId: 1, runId: R }]));
    for (const jobs of ["1", "3"]) {
      const run = await cli(["--strict", "--json", "--jobs", jobs, "strict"]);
      expect(run.code).toBe(1);
      const lines = run.stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line));
      const { summary } = lines.pop();
      expect(lines.map((r) => [r.valid, r.error?.field ?? null])).toEqual([
        [false, "role"],
        [true, null],
        [false, "threadId"],
      ]);
      expect(summary.byCode).toEqual([
        {
          code: "SCHEMA_MISMATCH",
          rule: 0,
          count: 2,
          examples: [
            { input: "strict/a-robot.sse", line: 3, field: "role" },
            { input: "strict/c-thread.jsonl", line: 1, field: "threadId" },
          ],
        },
      ]);
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
      expect(parse(strict.stdout).error).toMatchObject({ code: "SCHEMA_MISMATCH", field: "role" });
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
  });

  it("explains itself with --help", async () => {
    const { code, stdout } = await cli(["--help"]);
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
      "--allow-sequential-runs",
      "--strict",
      'role "robot"',
      "--max-buffer-size <n>",
      "1 to 536870912 (512 MiB",
      "--max-ids <n>",
      "Infinity for no limit",
      "--json",
      "--no-color",
      "Exit status:",
      "13. Every started subagent",
    ]) {
      expect(stdout).toContain(text);
    }
    expect((await cli(["-h"])).stdout).toBe(stdout);
  });

  it("prints its version", async () => {
    const pkg = JSON.parse(await readFile(join(REPO, "package.json"), "utf8"));
    const { code, stdout } = await cli(["--version"]);
    expect(code).toBe(0);
    expect(stdout).toBe(`ag-ui-verify ${pkg.version}\n`);
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
