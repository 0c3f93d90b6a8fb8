// The bundled captures in examples/captures/ (written by scripts/captures.mjs from the built
// package's own factories and encoder; `npm test` builds first):
// (a) each committed file equals what the generator produces now, byte for byte;
// (b) the library's verdict on each: valid, or the expected code at the expected index;
// (c) the CLI's verdict on each: exit code and `--json` output (its first error finding).

import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type * as Lib from "../../src/index.ts";

// Computed specifiers, so that type-checking needs neither a build nor types for the script.
const DIST = new URL("../../dist/index.js", import.meta.url).href;
const GENERATOR = new URL("../../scripts/captures.mjs", import.meta.url).href;
const REPO = fileURLToPath(new URL("../..", import.meta.url));
const DIR = fileURLToPath(new URL("../../examples/captures/", import.meta.url));
const CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));
const CLI_SOURCE = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));

type Verdict = { valid: true } | { valid: false; code: Lib.VerifyErrorCode; index: number };

/** Every capture and what the library must say about it. */
const EXPECTED: Record<string, Verdict> = {
  "chat.sse": { valid: true },
  "chat.jsonl": { valid: true },
  "parallel-tools.sse": { valid: true },
  "agentic.sse": { valid: true },
  "crlf.sse": { valid: true },
  "truncated.sse": { valid: false, code: "STREAM_ENDED_BEFORE_RUN_CLOSED", index: 18 },
  "owner-mismatch.sse": { valid: false, code: "OWNER_MISMATCH", index: 7 },
  "after-close.sse": { valid: false, code: "EVENT_AFTER_RUN_CLOSED", index: 14 },
  "not-json.sse": { valid: false, code: "INVALID_JSON", index: 10 },
  "schema-mismatch.sse": { valid: true },
  "client-loses.sse": { valid: true },
  "snake-case.sse": { valid: false, code: "FIELD_MISSING", index: 1 },
};
/** The verdicts that change when the AG-UI event schema is checked too (`--strict`). */
const STRICT: Record<string, Verdict> = {
  "schema-mismatch.sse": { valid: false, code: "SCHEMA_MISMATCH", index: 8 },
};
const SCHEMA = new URL("../../dist/schema.js", import.meta.url).href;
const NAMES = Object.keys(EXPECTED);
/** A browser's network export holding chat.sse (as text) and owner-mismatch.sse (base64). */
const HAR = "session.har";

let lib: typeof Lib;
let generated: Record<string, string>;

beforeAll(async () => {
  lib = (await import(/* @vite-ignore */ DIST)) as typeof Lib;
  const generator = (await import(/* @vite-ignore */ GENERATOR)) as {
    buildCaptures: () => Promise<Record<string, string>>;
  };
  generated = await generator.buildCaptures();
});

function read(name: string): Buffer {
  return readFileSync(`${DIR}${name}`);
}

/** The library's verdict on a capture file, and the events it accepted. */
async function verdict(
  name: string,
  options: Lib.VerifierOptions = {},
): Promise<{ verdict: Verdict; events: Lib.AgUiEvent[] }> {
  const bytes = read(name);
  const events: Lib.AgUiEvent[] = [];
  let error: unknown;
  if (name.endsWith(".jsonl")) {
    const parsed: unknown[] = bytes
      .toString("utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line));
    try {
      lib.verifyAll(parsed, options);
      events.push(...(parsed as Lib.AgUiEvent[]));
    } catch (e) {
      error = e;
    }
  } else {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(bytes));
        controller.close();
      },
    });
    const reader = lib.verifiedEvents(body, options).getReader();
    try {
      for (let r = await reader.read(); !r.done; r = await reader.read()) events.push(r.value);
    } catch (e) {
      error = e;
    }
  }
  if (error === undefined) return { verdict: { valid: true }, events };
  if (!lib.isVerifyError(error)) throw error;
  return { verdict: { valid: false, code: error.code, index: error.index }, events };
}

describe("examples/captures", () => {
  it("holds exactly the generated captures (and a README)", () => {
    expect(Object.keys(generated).sort()).toEqual([...NAMES, HAR].sort());
    const files = readdirSync(DIR).filter((f) => f !== "README.md" && !f.startsWith("."));
    expect(files.sort()).toEqual([...NAMES, HAR].sort());
  });

  it("the README lists every capture", () => {
    const readme = read("README.md").toString("utf8");
    for (const name of [...NAMES, HAR]) expect(readme).toContain(`\`${name}\``);
  });

  it("the generator is deterministic", async () => {
    const generator = (await import(/* @vite-ignore */ GENERATOR)) as {
      buildCaptures: () => Promise<Record<string, string>>;
    };
    expect(await generator.buildCaptures()).toEqual(generated);
  });
});

describe.each(NAMES)("%s", (name) => {
  it("equals the generator's output byte for byte (run `npm run captures` after a change)", () => {
    const expected = generated[name];
    expect(expected).toBeDefined();
    // As text first, for a readable diff; then as bytes, so a re-encoded file fails too.
    expect(read(name).toString("utf8")).toBe(expected);
    expect(read(name).equals(Buffer.from(expected ?? "", "utf8"))).toBe(true);
  });

  it("gets the expected verdict from the library with agUiSchema too", async () => {
    const { agUiSchema } = (await import(/* @vite-ignore */ SCHEMA)) as {
      agUiSchema: Lib.VerifierOptions["schema"];
    };
    const { verdict: got } = await verdict(name, { schema: agUiSchema });
    expect(got).toEqual(STRICT[name] ?? EXPECTED[name]);
  });

  it("gets the expected verdict from the library", async () => {
    const { verdict: got, events } = await verdict(name);
    expect(got).toEqual(EXPECTED[name]);
    if (got.valid) {
      // Small enough to read, big enough to be realistic.
      expect(events.length).toBeGreaterThanOrEqual(10);
      expect(read(name).length).toBeLessThan(12_000);
    }
  });
});

describe("what the captures show", () => {
  async function eventsOf(name: string): Promise<Lib.AgUiEvent[]> {
    return (await verdict(name)).events;
  }
  const types = (events: Lib.AgUiEvent[]) => new Set(events.map((e) => e.type));

  it("every event carries a timestamp, and run events carry threadId and runId", async () => {
    for (const name of NAMES) {
      for (const event of await eventsOf(name)) {
        expect(typeof event.timestamp, `${name} ${event.type}`).toBe("number");
        if (event.type === "RUN_STARTED" || event.type === "RUN_FINISHED") {
          expect(typeof event.threadId).toBe("string");
          expect(typeof event.runId).toBe("string");
        }
      }
    }
  });

  it("chat.sse: 40–80 events, answered token by token with multi-byte text", async () => {
    const events = await eventsOf("chat.sse");
    expect(events.length).toBeGreaterThanOrEqual(40);
    expect(events.length).toBeLessThanOrEqual(80);
    const text = events.map((e) => (e.type === "TEXT_MESSAGE_CONTENT" ? e.delta : "")).join("");
    expect(text).toMatch(/[\p{Script=Hiragana}\p{Script=Hangul}]/u);
    expect(text).toMatch(/\p{Extended_Pictographic}/u);
    expect(await eventsOf("chat.jsonl")).toEqual(events);
  });

  it("parallel-tools.sse: interleaved argument streams inside a narrating message", async () => {
    const events = await eventsOf("parallel-tools.sse");
    const starts = events.filter((e) => e.type === "TOOL_CALL_START");
    expect(starts.length).toBeGreaterThanOrEqual(2);
    for (const start of starts) expect(start.parentMessageId).toBeTypeOf("string");
    const args = events.filter((e) => e.type === "TOOL_CALL_ARGS").map((e) => e.toolCallId);
    expect(args.some((id, i) => i > 0 && id !== args[i - 1])).toBe(true);
    for (const start of starts) {
      const json = events
        .filter((e) => e.type === "TOOL_CALL_ARGS" && e.toolCallId === start.toolCallId)
        .map((e) => e.delta)
        .join("");
      expect(() => JSON.parse(json)).not.toThrow();
    }
    expect(events.filter((e) => e.type === "TOOL_CALL_RESULT").length).toBe(starts.length);
  });

  it("agentic.sse: steps, reasoning, state and a subagent tree of depth 2 or more", async () => {
    const events = await eventsOf("agentic.sse");
    for (const type of [
      "STEP_STARTED",
      "REASONING_START",
      "REASONING_MESSAGE_START",
      "REASONING_MESSAGE_CONTENT",
      "REASONING_MESSAGE_END",
      "REASONING_END",
      "REASONING_ENCRYPTED_VALUE",
      "STATE_SNAPSHOT",
      "STATE_DELTA",
      "SUBAGENT_STARTED",
    ]) {
      expect(types(events)).toContain(type);
    }
    const parents = new Map<string, string | undefined>();
    for (const e of events) {
      if (e.type === "SUBAGENT_STARTED") {
        parents.set(e.subagentRunId as string, e.parentSubagentRunId as string | undefined);
      }
    }
    const depth = (id: string | undefined): number =>
      id === undefined ? 0 : 1 + depth(parents.get(id));
    expect(Math.max(...[...parents.keys()].map(depth))).toBeGreaterThanOrEqual(2);
    // Subagents own things: tagged events other than the SUBAGENT_* ones.
    expect(events.some((e) => !e.type.startsWith("SUBAGENT_") && e.subagentRunId)).toBe(true);
  });

  it("crlf.sse is framed with CRLF only; chat.jsonl has one event per line", () => {
    const crlf = read("crlf.sse").toString("utf8");
    expect(crlf).toContain("\r\n\r\n");
    expect(crlf.replaceAll("\r\n", "")).not.toMatch(/[\r\n]/);
    const lines = read("chat.jsonl").toString("utf8").split("\n");
    expect(lines.pop()).toBe("");
    for (const line of lines) expect(JSON.parse(line)).toHaveProperty("type");
  });
});

// (c) The CLI (dist/cli.js, built from src/cli/). Skipped only while src/cli/main.ts does not
// exist; once it does, a missing dist/cli.js fails here.
type CliRun = { code: number; stdout: string; stderr: string };

function cli(args: string[]): Promise<CliRun> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: REPO, env: { ...process.env, NO_COLOR: "1" } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        done({ code, stdout, stderr });
      },
    );
  });
}

/**
 * Where SSE message `index` starts in an LF-framed capture: its 1-based line and its byte
 * offset (messages are `data: …` lines, each followed by a blank line).
 */
function messageStart(bytes: Buffer, index: number): { line: number; offset: number } {
  let offset = 0;
  for (let i = 0; i < index; i++) offset = bytes.indexOf("\n\n", offset) + 2;
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return { line, offset };
}

interface FindingObject {
  code: string;
  severity: string;
  index: number;
  field: string | null;
  line: number | null;
  offset: number | null;
}

/** The NDJSON line of an input, with its first error finding as `error`. */
function inputLine(line: Record<string, unknown>): Record<string, unknown> & {
  valid: boolean;
  error?: FindingObject;
} {
  const findings = (line.findings ?? []) as FindingObject[];
  const error = findings.find((f) => f.severity === "error");
  return { ...line, valid: line.valid === true, ...(error === undefined ? {} : { error }) };
}

/** The first NDJSON line of a run of one input (a summary line follows it). */
function firstOf(stdout: string) {
  const lines = stdout.trimEnd().split("\n");
  expect(lines).toHaveLength(2);
  expect(Object.keys(JSON.parse(lines[1] ?? "{}"))).toEqual(["summary"]);
  return inputLine(JSON.parse(lines[0] ?? "{}"));
}

describe.skipIf(!existsSync(CLI_SOURCE))("the CLI on each capture", () => {
  it("dist/cli.js is built", () => {
    expect(existsSync(CLI)).toBe(true);
  });

  it.each(NAMES)("ag-ui-verify examples/captures/%s --json", async (name) => {
    const expected = EXPECTED[name];
    if (expected === undefined) throw new Error(`no verdict for ${name}`);
    const run = await cli([`examples/captures/${name}`, "--json"]);
    expect(run.code, run.stderr).toBe(expected.valid ? 0 : 1);
    const report = firstOf(run.stdout);
    expect(report.valid).toBe(expected.valid);
    if (expected.valid) {
      expect(report.error).toBeUndefined();
    } else {
      expect(report.error?.code).toBe(expected.code);
      expect(report.error?.index).toBe(expected.index);
      // An offending message (not the end of input): where it starts in the file.
      if (expected.code !== "STREAM_ENDED_BEFORE_RUN_CLOSED") {
        const at = messageStart(read(name), expected.index);
        expect({ line: report.error?.line, offset: report.error?.offset }).toEqual(at);
      }
    }
  });

  it.each(NAMES.filter((name) => EXPECTED[name]?.valid))(
    "ag-ui-verify examples/captures/%s (human output) exits 0",
    async (name) => {
      const run = await cli([`examples/captures/${name}`]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).not.toBe("");
    },
  );

  it.each(NAMES.filter((name) => !EXPECTED[name]?.valid))(
    "ag-ui-verify examples/captures/%s (human output) exits 1 naming the code",
    async (name) => {
      const expected = EXPECTED[name];
      const run = await cli([`examples/captures/${name}`]);
      expect(run.code).toBe(1);
      expect(`${run.stdout}${run.stderr}`).toContain(expected?.valid ? "" : expected?.code);
    },
  );
});

describe(HAR, () => {
  interface Entry {
    startedDateTime: string;
    request: { method: string; url: string };
    response: { content: { mimeType: string; text: string; encoding?: string } };
  }
  const entries = (): Entry[] => JSON.parse(read(HAR).toString("utf8")).log.entries;

  it("equals the generator's output byte for byte", () => {
    expect(read(HAR).toString("utf8")).toBe(generated[HAR]);
  });

  it("holds chat.sse as text and owner-mismatch.sse as base64, among other responses", () => {
    const streams = entries().filter((e) => e.response.content.mimeType === "text/event-stream");
    expect(entries().length).toBe(4);
    expect(streams.map((e) => e.response.content.encoding)).toEqual([undefined, "base64"]);
    const bodies = streams.map(({ response: { content } }) =>
      Buffer.from(content.text, content.encoding === "base64" ? "base64" : "utf8"),
    );
    expect(bodies[0]?.equals(read("chat.sse"))).toBe(true);
    expect(bodies[1]?.equals(read("owner-mismatch.sse"))).toBe(true);
  });

  it.skipIf(!existsSync(CLI_SOURCE))(
    "ag-ui-verify --json: one input per event stream, named by method, URL and start time",
    async () => {
      const run = await cli([`examples/captures/${HAR}`, "--json"]);
      expect(run.code).toBe(1);
      const lines = run.stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line));
      const summary = lines.pop();
      const reports = lines.map(inputLine);
      const streams = entries().filter((e) => e.response.content.mimeType === "text/event-stream");
      expect(reports.map((r) => [r.name, r.url])).toEqual(
        streams.map((e) => [
          `examples/captures/${HAR}`,
          `${e.request.method} ${e.request.url} ${e.startedDateTime}`,
        ]),
      );
      expect(reports[0]).toMatchObject({ valid: true, events: 43 });
      const at = messageStart(read("owner-mismatch.sse"), 7);
      expect(reports[1]).toMatchObject({
        valid: false,
        error: { code: "OWNER_MISMATCH", index: 7, line: at.line, offset: at.offset },
      });
      expect(summary.summary).toMatchObject({
        inputs: 2,
        valid: 1,
        invalid: 1,
        skippedHarEntries: 2,
      });
    },
  );
});

describe.skipIf(!existsSync(CLI_SOURCE))("the CLI on each capture, with --strict", () => {
  it.each(NAMES)("ag-ui-verify --strict examples/captures/%s --json", async (name) => {
    const expected = STRICT[name] ?? EXPECTED[name];
    const run = await cli([`examples/captures/${name}`, "--strict", "--json"]);
    expect(run.code, run.stderr).toBe(expected?.valid ? 0 : 1);
    const report = firstOf(run.stdout);
    if (expected?.valid === false) {
      expect(report.error).toMatchObject({ code: expected.code, index: expected.index });
    }
    if (STRICT[name] !== undefined) {
      const at = messageStart(read(name), 8);
      expect(report.error).toMatchObject({ field: "toolCallName", ...at });
    }
  });
});
