/**
 * Linting a folder of captures against checking it with the verifier alone (SPEC §18.3's
 * cost line: at most 1.5x). Every file (`.sse`, `.jsonl`, `.ndjson`, found recursively) is
 * read into memory once; then, alternating, for --rounds rounds (default 5):
 *
 * (v) the verifier alone, as the command read before it linted: `SseDecoder` (or
 *     `JsonLines`) into a `Verifier`, no positions, each file until its first error;
 * (l) the linter, as the command reads now: `InputReader` of src/report/input-reader.ts
 *     (`LintReader` of src/lint/stream.ts inside), each whole file, every finding, with
 *     positions, warnings included.
 *
 * (p) the floor: the same decoders over every byte of every file, each value parsed and
 *     checked by nothing. The verifier stops at a file's first error and the linter does
 *     not, so on a corpus with invalid files the linter can be no faster than this.
 *
 * The same three are then timed on the valid files alone, which all of them read whole.
 *
 * All are bundled on the fly with esbuild from src/. It prints the median time of each and
 * the ratios, then what the linter found: files, valid, invalid, errors and warnings by code
 * (each merged finding counted once, and its occurrences). Ratios are printed, never asserted.
 *
 * Run with `npm run bench`, or `node bench/lint.bench.mjs [folder]` after `npm run build`
 * (default folder: the team's shared sample of real captures, ../shared/corpus; without
 * it, the script says so and exits 0). Option: --rounds=N.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const folder =
  process.argv.slice(2).find((a) => !a.startsWith("--")) ?? join(ROOT, "../shared/corpus");
const roundsArg = process.argv.find((a) => a.startsWith("--rounds="));
const ROUNDS = roundsArg === undefined ? 5 : Number(roundsArg.slice(9));

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) out.push(...walk(path));
    else if (stat.isFile() && /\.(sse|jsonl|ndjson)$/.test(name)) out.push(path);
  }
  return out;
}

async function load(entry) {
  const result = await build({
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    write: false,
    logLevel: "error",
  });
  return import(
    `data:text/javascript;base64,${Buffer.from(result.outputFiles[0].text).toString("base64")}`
  );
}

const { SseDecoder } = await load("src/sse/decoder.ts");
const { JsonLines, sniff } = await load("src/sse/json-lines.ts");
const { Verifier } = await load("src/verify/verifier.ts");
const { InputReader } = await load("src/report/input-reader.ts");
let found = true;
try {
  statSync(folder);
} catch {
  found = false;
}
if (!found) {
  console.log(`no folder ${folder}: nothing to lint (give a folder of captures)`);
  process.exit(0);
}
const paths = walk(folder);
if (paths.length === 0) {
  console.error(`no captures under ${folder}`);
  process.exit(1);
}
const files = paths.map((path) => readFileSync(path));
const bytes = files.reduce((n, f) => n + f.length, 0);

/** Whether the verifier accepts `file`, read as the command did: until the first error. */
function verifies(file) {
  const verifier = new Verifier();
  const accept = (value) => verifier.verify(value);
  try {
    if ((sniff(file) ?? "sse") === "jsonl") {
      const lines = new JsonLines(accept, 10 * 1024 * 1024);
      lines.push(file);
      lines.finish();
    } else {
      const decoder = new SseDecoder(accept, { maxBufferSize: 10 * 1024 * 1024 });
      decoder.push(file);
      decoder.finish();
    }
    verifier.end();
    return true;
  } catch {
    return false;
  }
}

function verifyAll(set = files) {
  let invalid = 0;
  for (const file of set) if (!verifies(file)) invalid++;
  return invalid;
}

const ignore = () => {};

/** Every value of every file decoded and parsed, nothing checked. */
function parseAll(set = files) {
  for (const file of set) {
    if ((sniff(file) ?? "sse") === "jsonl") {
      const lines = new JsonLines(ignore, 10 * 1024 * 1024);
      lines.push(file);
      lines.finish();
    } else {
      const decoder = new SseDecoder(ignore, { maxBufferSize: 10 * 1024 * 1024 });
      decoder.push(file);
      decoder.finish();
    }
  }
}

function lintAll(set = files) {
  const reports = [];
  for (const file of set) {
    const reader = new InputReader({});
    reader.push(file);
    reports.push(reader.finish().report);
  }
  return reports;
}

const reports = lintAll();
const invalid = verifyAll();
const lintInvalid = reports.filter((r) => !r.valid).length;
if (invalid !== lintInvalid) {
  console.error(`the verifier finds ${invalid} invalid files, the linter ${lintInvalid}`);
  process.exit(1);
}

const valid = files.filter((_file, i) => reports[i].valid);
const run = { v: verifyAll, p: parseAll, l: lintAll };
const times = { v: [], p: [], l: [], vv: [], vp: [], vl: [] };
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 === 0 ? ["v", "p", "l"] : ["l", "p", "v"];
  for (const [set, prefix] of [
    [files, ""],
    [valid, "v"],
  ]) {
    for (const k of order) {
      const start = performance.now();
      run[k](set);
      times[prefix + k].push(performance.now() - start);
    }
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (t) => `${t.toFixed(0).padStart(6)} ms`;
function rows(prefix) {
  const v = median(times[`${prefix}v`]);
  const p = median(times[`${prefix}p`]);
  const l = median(times[`${prefix}l`]);
  console.log(`  (v) verifier alone   ${ms(v)}`);
  console.log(`  (p) parse floor      ${ms(p)}   ${(p / v).toFixed(2)}x the verifier`);
  console.log(
    `  (l) linter           ${ms(l)}   ${(l / v).toFixed(2)}x the verifier (target <= 1.5x), ${(l / p).toFixed(2)}x the floor`,
  );
}
const validBytes = valid.reduce((n, f) => n + f.length, 0);
console.log(
  `${paths.length} files, ${(bytes / 1e6).toFixed(1)} MB, under ${folder}; ${ROUNDS} alternating rounds, medians`,
);
rows("");
console.log(`the ${valid.length} valid files alone, ${(validBytes / 1e6).toFixed(1)} MB:`);
rows("v");

const byCode = new Map();
for (const report of reports) {
  for (const f of report.findings) {
    const entry = byCode.get(f.code) ?? { severity: f.severity, files: 0, findings: 0, events: 0 };
    entry.findings++;
    entry.events += f.count;
    byCode.set(f.code, entry);
  }
  for (const code of new Set(report.findings.map((f) => f.code))) byCode.get(code).files++;
}
const errors = reports.reduce((n, r) => n + r.errors, 0);
const warnings = reports.reduce((n, r) => n + r.warnings, 0);
console.log(
  `\n${paths.length - lintInvalid} valid, ${lintInvalid} invalid; ${errors} error findings, ${warnings} warning findings`,
);
console.log("\ncode                              severity  files  findings  events");
for (const [code, e] of [...byCode].sort((a, b) => b[1].files - a[1].files)) {
  console.log(
    `${code.padEnd(34)}${e.severity.padEnd(9)}${String(e.files).padStart(6)}${String(e.findings).padStart(10)}${String(e.events).padStart(8)}`,
  );
}
