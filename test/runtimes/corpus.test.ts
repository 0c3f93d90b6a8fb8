// The command over a whole corpus: hundreds of generated captures (valid runs from the
// property-test generator, and mutations of them) written as SSE in every framing, JSON
// Lines and HAR files, in nested folders. Every verdict must equal the library's
// `verifyAll` on the same values, the first error finding its error, and the findings the
// library's `lint`; the summary's counts are exact; the output does not depend on --jobs.

import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isVerifyError, SseDecodeFailure } from "../../src/errors.ts";
import { lint } from "../../src/lint/linter.ts";
import { verifyAll } from "../../src/verify/verifier.ts";
import { FINDING_KEYS, INPUT_KEYS, SUMMARY_KEYS, unreadableLine } from "../support/ndjson.ts";
import { buildRun, type Ev } from "../support/valid-run.ts";
import { runCli } from "./cli-run.ts";

type Verdict =
  | { valid: true }
  | { valid: false; code: string; index: number; line: number; field: string | null };

/** What the command reports of one code in one input: the first finding's place. */
interface Found {
  code: string;
  severity: string;
  line: number;
  field: string | null;
}

interface Input {
  /** The input's name in the output: its path, or a HAR entry's path and URL. */
  name: string;
  verdict: Verdict;
  /** Every finding the linter gives, in the report's order, placed by line. */
  findings: Found[];
}

/** mulberry32: a small seeded generator, so the corpus is the same on every run. */
function random(seed: number): (n: number) => number {
  let a = seed;
  return (n) => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

const rand = random(20260302);

function validEvents(): Ev[] {
  const choices = Array.from({ length: 20 + rand(200) }, () => rand(0x7fffffff));
  return buildRun(choices, { ending: rand(4) === 0 ? "error" : "finished" });
}

/** A valid run, or one of several mutations of it. */
function values(): unknown[] {
  const events: unknown[] = validEvents();
  const at = 1 + rand(events.length - 1);
  switch (rand(8)) {
    case 0:
      events.splice(at, 1); // drop an event
      break;
    case 1:
      events.splice(at, 0, events[at - 1]); // send one twice
      break;
    case 2:
      events.length = at; // cut off
      break;
    case 3:
      // A step after the close (a second RUN_STARTED would open a new run, SPEC v4 §9.6).
      events.push({ type: "STEP_STARTED", stepName: "late" });
      break;
    case 4:
      events.push(new SseDecodeFailure("INVALID_JSON", "[DONE]"));
      break;
  }
  return events;
}

const LINE_END = ["\n", "\r\n", "\r"];

/** SSE text for `values`, and the line each message starts on (1-based). */
function encodeSse(values: readonly unknown[]): { text: string; lines: number[] } {
  const end = LINE_END[rand(3)] ?? "\n";
  let text = rand(4) === 0 ? "\uFEFF" : "";
  let line = 1;
  if (rand(3) === 0) {
    text += `: recorded${end}${end}`;
    line += 2;
  }
  const lines: number[] = [];
  const multiline = rand(4) === 0;
  for (const value of values) {
    lines.push(line);
    const data =
      value instanceof SseDecodeFailure
        ? [value.data ?? ""]
        : (multiline ? JSON.stringify(value, null, 1) : JSON.stringify(value)).split("\n");
    text += `${data.map((d) => `data: ${d}${end}`).join("")}${end}`;
    line += data.length + 1;
  }
  return { text, lines };
}

function encodeJsonl(values: readonly unknown[]): { text: string; lines: number[] } {
  const end = rand(2) === 0 ? "\n" : "\r\n";
  return {
    text: values.map((value) => `${JSON.stringify(value)}${end}`).join(""),
    lines: values.map((_, i) => i + 1),
  };
}

/** The input's last line, as the command counts it (a final line end closes the last line). */
function lastLine(text: string): number {
  const parts = text.split(/\r\n|\r|\n/);
  return parts[parts.length - 1] === "" ? Math.max(parts.length - 1, 1) : parts.length;
}

/**
 * The library's findings for `values`, each placed on the line its event starts; for SSE
 * with a CR, also SSE_LINE_ENDINGS_NOT_LF (which only a stream reader sees), at the event
 * whose message holds the first CR, found before that event's own findings.
 */
function findings(
  values: unknown[],
  text: string,
  lines: readonly number[],
  sse: boolean,
): Found[] {
  const place = (index: number) => (index >= values.length ? lastLine(text) : (lines[index] ?? -1));
  const found: Array<Found & { index: number }> = lint(values).findings.map((f) => ({
    index: f.index,
    code: f.code,
    severity: f.severity,
    line: place(f.index),
    field: f.field ?? null,
  }));
  if (sse && text.includes("\r")) {
    // encodeSse frames the whole text with one line end, so the first CR ends the first
    // line: a comment before the first event, or that event's own first line.
    const index = 0;
    const at = found.findIndex((f) => f.index >= index);
    const lineEnds = {
      index,
      code: "SSE_LINE_ENDINGS_NOT_LF",
      severity: "warning",
      line: place(index),
      field: null,
    };
    found.splice(at === -1 ? found.length : at, 0, lineEnds);
  }
  return found.map(({ index: _index, ...f }) => f);
}

/** The verdict and the findings of one input. */
function judged(values: unknown[], text: string, lines: readonly number[], sse: boolean) {
  return { verdict: verdict(values, text, lines), findings: findings(values, text, lines, sse) };
}

function verdict(values: unknown[], text: string, lines: readonly number[]): Verdict {
  try {
    verifyAll(values);
    return { valid: true };
  } catch (error) {
    if (!isVerifyError(error)) throw error;
    const line = error.event === undefined ? lastLine(text) : (lines[error.index] ?? -1);
    return { valid: false, code: error.code, index: error.index, line, field: error.field ?? null };
  }
}

/** A capture cut in the middle of its last message: SSE discards that message. */
function truncatedSse(): { text: string; lines: number[]; values: unknown[] } {
  const events = validEvents();
  const { text, lines } = encodeSse(events);
  const keep = Math.max(1, events.length - 1 - rand(5));
  const cut = (lines[keep] ?? 1) - 1;
  const split = text.split(/(?<=\r\n|\r(?!\n)|\n)/);
  const startOfKeep = split.slice(0, cut).join("");
  return {
    text: `${startOfKeep}data: {"type":"TEXT_MESSAGE_CONT`,
    lines,
    values: events.slice(0, keep),
  };
}

/** A HAR file as DevTools writes one: SSE entries (text or base64 bodies) among others. */
function har(name: string, n: number): { text: string; inputs: Input[]; skipped: number } {
  const entries: unknown[] = [];
  const inputs: Input[] = [];
  let skipped = 0;
  for (let k = 0; k < n; k++) {
    const started = new Date(Date.UTC(2026, 2, 2, 9, 15, k)).toISOString();
    const url = `https://agent.example/run/${k}`;
    const request = {
      method: "POST",
      url,
      httpVersion: "HTTP/1.1",
      headers: [{ name: "content-type", value: "application/json" }],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: 2,
      postData: { mimeType: "application/json", text: "{}" },
    };
    const timings = { blocked: 1, dns: -1, ssl: -1, connect: -1, send: 0, wait: 40, receive: 9 };
    if (rand(3) === 0) {
      skipped++;
      const text = JSON.stringify({ ok: true });
      entries.push({
        startedDateTime: started,
        time: 50,
        request: { ...request, method: "GET", url: `https://agent.example/info/${k}` },
        response: {
          status: 200,
          statusText: "OK",
          httpVersion: "HTTP/1.1",
          headers: [{ name: "Content-Type", value: "application/json" }],
          cookies: [],
          content: { size: text.length, mimeType: "application/json", text },
          redirectURL: "",
          headersSize: -1,
          bodySize: -1,
        },
        cache: {},
        timings,
      });
      continue;
    }
    const vals = values();
    const { text, lines } = encodeSse(vals);
    const base64 = rand(2) === 0;
    inputs.push({ name: `${name}: POST ${url} ${started}`, ...judged(vals, text, lines, true) });
    entries.push({
      startedDateTime: started,
      time: 50,
      request,
      response: {
        status: 200,
        statusText: "OK",
        httpVersion: "HTTP/1.1",
        headers: [
          { name: "Content-Type", value: "text/event-stream; charset=utf-8" },
          { name: "Cache-Control", value: "no-cache" },
        ],
        cookies: [],
        content: base64
          ? {
              size: text.length,
              mimeType: "text/event-stream",
              text: Buffer.from(text).toString("base64"),
              encoding: "base64",
            }
          : { size: text.length, mimeType: "text/event-stream", text },
        redirectURL: "",
        headersSize: -1,
        bodySize: -1,
        _transferSize: text.length + 200,
      },
      cache: {},
      timings,
      _resourceType: "fetch",
    });
  }
  const log = {
    version: "1.2",
    creator: { name: "WebInspector", version: "537.36" },
    pages: [],
    entries,
  };
  return { text: JSON.stringify({ log }, null, 2), inputs, skipped };
}

let root: string;
/** The corpus's inputs in the command's order (files sorted by path, segment by segment). */
const corpus: Input[] = [];
let skipped = 0;
/** Per HAR file, its entries that are not event streams. */
const harSkipped = new Map<string, number>();

function bySegments(a: string, b: string): number {
  const x = a.split("/");
  const y = b.split("/");
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return (x[i] ?? "") < (y[i] ?? "") ? -1 : 1;
  }
  return x.length - y.length;
}

async function write(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), text);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "ag-ui-verify-corpus-"));
  const files: { path: string; inputs: Input[] }[] = [];
  for (let i = 0; i < 360; i++) {
    const dir = ["runs", "runs/ci", "runs/ci/2026-03", "prod/eu", "prod/us/b"][i % 5];
    const kind = rand(10);
    let path: string;
    let text: string;
    let input: Input;
    if (kind < 6) {
      path = `${dir}/capture-${i}.sse`;
      const vals = values();
      const encoded = encodeSse(vals);
      text = encoded.text;
      input = { name: path, ...judged(vals, text, encoded.lines, true) };
    } else if (kind < 7) {
      path = `${dir}/cut-${i}.sse`;
      const cut = truncatedSse();
      text = cut.text;
      input = { name: path, ...judged(cut.values, text, cut.lines, true) };
    } else {
      path = `${dir}/events-${i}.${kind === 9 ? "ndjson" : "jsonl"}`;
      const vals = values().filter((v) => !(v instanceof SseDecodeFailure));
      const encoded = encodeJsonl(vals);
      text = encoded.text;
      input = { name: path, ...judged(vals, text, encoded.lines, false) };
    }
    await write(path, text);
    files.push({ path, inputs: [input] });
  }
  for (const [i, dir] of ["runs", "prod/eu", "prod/us"].entries()) {
    const path = `${dir}/session-${i}.har`;
    const made = har(path, 6 + rand(6));
    await write(path, made.text);
    files.push({ path, inputs: made.inputs });
    skipped += made.skipped;
    harSkipped.set(path, made.skipped);
  }
  await write("runs/notes.txt", "not a capture");
  // The command's order: its arguments' (runs, then prod), then each one's walk.
  const top = (path: string) => (path.startsWith("runs/") ? 0 : 1);
  files.sort((a, b) => top(a.path) - top(b.path) || bySegments(a.path, b.path));
  for (const file of files) corpus.push(...file.inputs);
});

afterAll(async () => {
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

const cli = (args: readonly string[], stdin?: string) =>
  runCli(args, { cwd: root, stdin: stdin ?? "" });

/** NDJSON lines, parsed. */
function lines(stdout: string): Record<string, unknown>[] {
  return stdout
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));
}

interface FindingLine {
  code: string;
  severity: string;
  index: number;
  line: number;
  field: string | null;
}

/** What a report's first error says, in the shape of a {@link Verdict}. */
function said(report: Record<string, unknown>): Verdict {
  const findings = (report.findings ?? []) as FindingLine[];
  const error = findings.find((f) => f.severity === "error");
  if (report.valid === true) expect(error).toBeUndefined();
  return error === undefined
    ? { valid: true }
    : { valid: false, code: error.code, index: error.index, line: error.line, field: error.field };
}

/** A report's findings, in the shape of {@link Found}. */
const foundIn = (report: Record<string, unknown>): Found[] =>
  ((report.findings ?? []) as FindingLine[]).map(({ code, severity, line, field }) => ({
    code,
    severity,
    line,
    field,
  }));

/** The name an input is shown by: its path, and a HAR entry's URL after it. */
const nameOf = (report: Record<string, unknown>): string =>
  report.url === undefined ? String(report.name) : `${report.name}: ${report.url}`;

/** Output with what changes run to run (durations) taken out. */
const steady = (stdout: string) =>
  stdout
    .replace(/"durationMs":[\d.]+/g, '"durationMs":0')
    .replace(/\n[^\n]* in [\d.]+ m?s \([^\n]*\)\n$/, "\n");

describe("a corpus of SSE, JSON Lines and HAR captures in nested folders", () => {
  it("gives each input the library's verdict and findings, in path order, then the exact summary", async () => {
    expect(corpus.length).toBeGreaterThan(360);
    const run = await cli(["--json", "runs", "prod"]);
    const reports = lines(run.stdout);
    const summary = reports.pop() as { summary: Record<string, unknown> };
    expect(reports.map(nameOf)).toEqual(corpus.map((input) => input.name));
    for (const [i, report] of reports.entries()) {
      expect(said(report), nameOf(report)).toEqual(corpus[i]?.verdict);
      expect(foundIn(report), nameOf(report)).toEqual(corpus[i]?.findings);
    }

    const invalid = corpus.filter((input) => !input.verdict.valid);
    // Per code: the inputs with a finding of it, and the line of each one's first.
    const byCode = new Map<string, { name: string; line: number; field: string | null }[]>();
    for (const input of corpus) {
      const seen = new Set<string>();
      for (const f of input.findings) {
        if (seen.has(f.code)) continue;
        seen.add(f.code);
        const example = { name: input.name, line: f.line, field: f.field };
        byCode.set(f.code, [...(byCode.get(f.code) ?? []), example]);
      }
    }
    expect(invalid.length).toBeGreaterThan(50);
    expect(byCode.size).toBeGreaterThanOrEqual(5);
    const count = (severity: string) =>
      corpus.reduce((n, i) => n + i.findings.filter((f) => f.severity === severity).length, 0);
    expect(summary.summary).toMatchObject({
      inputs: corpus.length,
      valid: corpus.length - invalid.length,
      invalid: invalid.length,
      unreadable: 0,
      errors: count("error"),
      warnings: count("warning"),
      skippedHarEntries: skipped,
    });
    const groups = summary.summary.codes as { code: string; inputs: number; examples: unknown[] }[];
    expect(new Map(groups.map((g) => [g.code, g.inputs]))).toEqual(
      new Map([...byCode].map(([code, inputs]) => [code, inputs.length])),
    );
    for (const group of groups) {
      expect(group.examples).toEqual(
        (byCode.get(group.code) ?? []).slice(0, 5).map(({ name, line, field }) => ({
          input: name,
          line,
          field,
        })),
      );
    }
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`ag-ui-verify: ${invalid.length} of ${corpus.length} inputs invalid\n`);
  });

  it("prints the same output for --jobs 1 and --jobs 4", async () => {
    for (const args of [["--json"], []]) {
      const one = await cli([...args, "--jobs", "1", "runs", "prod"]);
      const four = await cli([...args, "-j", "4", "runs", "prod"]);
      expect(four.code).toBe(one.code);
      expect(steady(four.stdout)).toBe(steady(one.stdout));
      expect(four.stderr).toBe(one.stderr);
    }
  });

  it("keeps a stable NDJSON schema", async () => {
    const reports = lines((await cli(["--json", "runs", "prod"])).stdout);
    const summary = reports.pop();
    expect(Object.keys(summary ?? {})).toEqual(["summary"]);
    expect(Object.keys(summary?.summary as object)).toEqual([...SUMMARY_KEYS]);
    for (const report of reports) {
      expect(Object.keys(report).filter((k) => k !== "url")).toEqual([...INPUT_KEYS]);
      for (const f of report.findings as object[])
        expect(Object.keys(f)).toEqual([...FINDING_KEYS]);
    }
  });

  it("summarises for people: the groups by code, the rule in words, examples with lines", async () => {
    const run = await cli(["runs", "prod"]);
    expect(run.code).toBe(1);
    const invalid = corpus.filter((input) => !input.verdict.valid).length;
    expect(run.stdout).toContain(`Checked ${corpus.length} inputs`);
    expect(run.stdout).toContain(`✘ ${invalid} invalid`);
    expect(run.stdout).toContain(`HAR entries skipped: not text/event-stream`);
    const first = corpus.find(
      (input) => !input.verdict.valid && input.verdict.code === "EVENT_AFTER_RUN_CLOSED",
    );
    expect(first).toBeDefined();
    expect(run.stdout).toMatch(
      /EVENT_AFTER_RUN_CLOSED {2}\d+ inputs(, \d+ findings)? {2}\S+\/docs\/rules\.md#event_after_run_closed\n {2}Rule 2: After RUN_FINISHED only a new RUN_STARTED or one late RUN_ERROR may/,
    );
    const line = first?.findings.find((f) => f.code === "EVENT_AFTER_RUN_CLOSED")?.line;
    expect(line).toBeDefined();
    if (first !== undefined) {
      expect(run.stdout).toMatch(
        new RegExp(`line ${line} +${first.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\n`),
      );
    }
    expect(run.stdout).toContain("Largest inputs");
    expect(run.stdout).not.toContain("notes.txt");
  });
});

describe("HAR files", () => {
  it("checks each text/event-stream entry as its own input and skips the others", async () => {
    const path = "prod/eu/session-1.har";
    const expected = corpus.filter((input) => input.name.startsWith(`${path}: `));
    expect(expected.length).toBeGreaterThan(1);
    const run = await cli(["--json", path]);
    const reports = lines(run.stdout);
    const summary = reports.pop() as { summary: { skippedHarEntries: number } };
    expect(reports.map((r) => [nameOf(r), said(r), foundIn(r)])).toEqual(
      expected.map((i) => [i.name, i.verdict, i.findings]),
    );
    expect(summary.summary.skippedHarEntries).toBe(harSkipped.get(path));
    expect(run.code).toBe(expected.every((i) => i.verdict.valid) ? 0 : 1);
  });

  it("reports a broken HAR, and a HAR without event streams, and checks the rest", async () => {
    await write("bad/not-json.har", "{ log: ");
    await write("bad/no-entries.har", '{"log": {"version": "1.2"}}');
    await write("bad/no-sse.har", '{"log": {"entries": []}}');
    await write("bad/ok.sse", "");
    const run = await cli(["--json", "bad"]);
    expect(run.code).toBe(2);
    const reports = lines(run.stdout);
    const summary = reports.pop() as { summary: { unreadable: number; problems: string[] } };
    expect(reports.map((r) => r.name)).toEqual([
      "bad/no-entries.har",
      "bad/no-sse.har",
      "bad/not-json.har",
      "bad/ok.sse",
    ]);
    expect(reports[0]?.problem).toBe(
      '"bad/no-entries.har" is not a HAR file: it has no log.entries list',
    );
    expect(reports[1]?.problem).toBe('"bad/no-sse.har" holds no text/event-stream response');
    expect(String(reports[2]?.problem)).toMatch(/^"bad\/not-json.har" is not a HAR file: \S/);
    expect(said(reports[3] ?? {})).toMatchObject({ code: "STREAM_ENDED_BEFORE_RUN_STARTED" });
    expect(summary.summary.unreadable).toBe(3);
    expect(summary.summary.problems).toEqual(reports.slice(0, 3).map((r) => r.problem));
    expect(run.stderr.trim().split("\n")).toEqual([
      ...reports.slice(0, 3).map((r) => `ag-ui-verify: ${r.problem}`),
      "ag-ui-verify: 1 of 4 inputs invalid",
    ]);
    expect(run.stderr).toContain('ag-ui-verify: "bad/no-entries.har" is not a HAR file');
  });
});

describe("what cannot be read is reported and counted; the rest is checked", () => {
  it("an unreadable file, a missing path, an empty directory, a directory with no captures", async () => {
    await write(
      "mixed/good.jsonl",
      `${JSON.stringify({ type: "RUN_STARTED", threadId: "t", runId: "r" })}\n${JSON.stringify({ type: "RUN_FINISHED", threadId: "t", runId: "r" })}\n`,
    );
    await symlink(join(root, "nowhere.sse"), join(root, "mixed/dangling.sse"));
    await symlink(join(root, "runs"), join(root, "mixed/folder.sse"));
    await mkdir(join(root, "empty"));
    await write("texts/a.txt", "x");
    const run = await cli(["--json", "mixed", "missing.sse", "empty", "texts"]);
    expect(run.code).toBe(2);
    const reports = lines(run.stdout);
    const summary = reports.pop() as { summary: Record<string, unknown> };
    const unreadable = (name: string, problem: string) => unreadableLine(name, problem);
    const none = "it holds no *.sse, *.jsonl, *.ndjson, *.har, *.pb, *.bin files";
    expect(reports).toEqual([
      unreadable("mixed/dangling.sse", 'cannot read "mixed/dangling.sse": no such file'),
      unreadable("mixed/folder.sse", 'cannot read "mixed/folder.sse": it is a directory'),
      expect.objectContaining({
        valid: true,
        name: "mixed/good.jsonl",
        input: { format: "jsonl", bytes: expect.any(Number) },
      }),
      unreadable("missing.sse", 'cannot read "missing.sse": no such file'),
      unreadable("empty", `no input in "empty": ${none}`),
      unreadable("texts", `no input in "texts": ${none}`),
    ]);
    expect(summary.summary).toMatchObject({ inputs: 6, valid: 1, invalid: 0, unreadable: 5 });
    expect(run.stderr.trim().split("\n")).toHaveLength(5);
    const human = await cli(["mixed", "empty"]);
    expect(human.code).toBe(2);
    expect(human.stdout).toContain("! 3 unreadable");
    expect(human.stdout).toContain('  cannot read "mixed/folder.sse": it is a directory');
  });

  it("--ext chooses the extensions; - adds stdin", async () => {
    const run = await cli(["--json", "--ext", ".txt", "texts", "-"], "data: {}\n\n");
    const reports = lines(run.stdout);
    expect(reports.map((r) => [r.name, said(r)])).toEqual([
      [
        "texts/a.txt",
        { valid: false, code: "STREAM_ENDED_BEFORE_RUN_STARTED", index: 0, line: 1, field: null },
      ],
      ["-", { valid: false, code: "EVENT_TYPE_INVALID", index: 0, line: 1, field: null }],
      [undefined, { valid: true }], // the summary
    ]);
    expect(run.code).toBe(1);
  });
});
