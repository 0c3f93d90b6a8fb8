/**
 * Corpus benchmark: the command linting a folder of captures.
 *
 * A corpus of --files captures (default 2,000: chat, tool and agentic runs of bench/runs.mjs,
 * 40 to 600 events each, one in ten with a violation near its end; SSE, `data: <json>\n\n`)
 * is written to a temporary folder. Then, alternating, for --rounds rounds:
 *
 * (a) floor: eventsource-parser's `createParser` + `JSON.parse` of every message, over the
 *     same bytes held in memory (one `TextDecoder` pass and one parser per file; no streams,
 *     no verification, no file reads);
 * (b) one job, in this process: the command's own per-file lint (src/cli/read.ts
 *     `lintFile`, bundled here with esbuild), which reads each file from disk, decodes and
 *     lints it to its end (every finding, with lines, warnings included);
 * (v) the verifier alone, as the command checked before it linted (SPEC §18.3's cost line:
 *     linting at most 1.5x this): each file from disk through `SseDecoder` into a
 *     `Verifier`, to its first error;
 * (c) the command itself, `node dist/cli.js --json --jobs N <folder>` for N = 1 and 2, timed
 *     by its own summary (`durationMs`: walking, worker start-up and checking, without
 *     Node's start-up), and by the wall clock.
 *
 * Every figure is MB/s (10^6 bytes) of capture bytes; (a) and (b) are also compared by the
 * CPU time this process spent, which other processes on the machine disturb least. Before timing, (b) and (c) must give
 * the expected number of invalid inputs; otherwise the script exits 1. Ratios are printed,
 * never asserted. Run with `npm run bench` (builds first) or `node bench/corpus.bench.mjs`
 * after `npx tsup`. Options: --files=N, --rounds=N (default 5), --keep (leave the folder).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { createParser } from "eventsource-parser";
import { agenticRun, chatRun, corrupted, createRng, toolRun } from "./runs.mjs";

const arg = (name, fallback) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found === undefined ? fallback : Number(found.slice(name.length + 3));
};
const FILES = arg("files", 2000);
const ROUNDS = arg("rounds", 5);
const KEEP = process.argv.includes("--keep");
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "dist", "cli.js");

// The corpus -------------------------------------------------------------------------------

const dir = mkdtempSync(join(os.tmpdir(), "ag-ui-verify-corpus-bench-"));
const rng = createRng(0xc0de);
const paths = [];
let invalidExpected = 0;
let totalBytes = 0;
for (let i = 0; i < FILES; i++) {
  const n = Math.round(40 * 15 ** rng.next()); // log-uniform, 40–600 events
  const shape = [chatRun, toolRun, agenticRun][i % 3];
  let events = shape(n, { seed: i + 1 });
  const bad = i % 10 === 9 ? corrupted(events) : undefined;
  if (bad !== undefined) {
    events = bad;
    invalidExpected++;
  }
  const text = events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join("");
  const sub = join(dir, `shard-${i % 16}`);
  mkdirSync(sub, { recursive: true });
  const path = join(sub, `run-${i}.sse`);
  writeFileSync(path, text);
  paths.push(path);
  totalBytes += Buffer.byteLength(text);
}
const bytes = paths.map((path) => readFileSync(path));

// (a) the floor, (b) one job in this process -------------------------------------------------

function floor() {
  let events = 0;
  for (const file of bytes) {
    const parser = createParser({
      onEvent(message) {
        JSON.parse(message.data);
        events++;
      },
    });
    parser.feed(new TextDecoder().decode(file));
  }
  return events;
}

/** One of src/, bundled with esbuild into the corpus folder and imported. */
async function load(entry, name) {
  const bundle = await build({
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    format: "esm",
    platform: "node",
    write: false,
    logLevel: "error",
  });
  const bundled = join(dir, name);
  writeFileSync(bundled, bundle.outputFiles[0].text);
  return import(bundled);
}
const { lintFile } = await load("src/cli/read.ts", "read.mjs");
const { SseDecoder } = await load("src/sse/decoder.ts", "decoder.mjs");
const { Verifier } = await load("src/verify/verifier.ts", "verifier.mjs");

function oneJob() {
  let invalid = 0;
  for (const path of paths) if (!lintFile(path, {}).report.valid) invalid++;
  return invalid;
}

function verifierAlone() {
  let invalid = 0;
  for (const path of paths) {
    const verifier = new Verifier();
    try {
      const decoder = new SseDecoder((value) => verifier.verify(value));
      decoder.push(readFileSync(path));
      decoder.finish();
      verifier.end();
    } catch {
      invalid++;
    }
  }
  return invalid;
}

// (c) the command ------------------------------------------------------------------------------

function command(jobs) {
  const start = performance.now();
  let stdout;
  try {
    stdout = execFileSync(process.execPath, [CLI, "--json", "--jobs", String(jobs), dir], {
      stdio: ["ignore", "pipe", "ignore"],
      maxBuffer: 1 << 30,
      encoding: "utf8",
    });
  } catch (error) {
    stdout = error.stdout; // exit 1: some inputs are invalid, as intended
  }
  const wall = performance.now() - start;
  const { summary } = JSON.parse(stdout.slice(stdout.lastIndexOf("\n", stdout.length - 2) + 1));
  return { wall, ms: summary.durationMs, invalid: summary.invalid, inputs: summary.inputs };
}

// Check, then time -----------------------------------------------------------------------------

const failures = [];
if (floor() === 0) failures.push("the floor decoded nothing");
if (oneJob() !== invalidExpected) failures.push(`one job: expected ${invalidExpected} invalid`);
if (verifierAlone() !== invalidExpected) {
  failures.push(`the verifier alone: expected ${invalidExpected} invalid`);
}
for (const jobs of [1, 2]) {
  const run = command(jobs);
  if (run.inputs !== FILES || run.invalid !== invalidExpected) {
    failures.push(`--jobs ${jobs}: ${run.inputs} inputs, ${run.invalid} invalid`);
  }
}
if (failures.length > 0) {
  console.error(failures.join("\n"));
  process.exit(1);
}

/** Wall-clock and CPU milliseconds of `f()` (CPU time is what other processes disturb least). */
const time = (f, wall, cpu) => {
  const start = performance.now();
  const used = process.cpuUsage();
  f();
  const { user, system } = process.cpuUsage(used);
  wall.push(performance.now() - start);
  cpu.push((user + system) / 1000);
};
const samples = {
  floor: [],
  floorCpu: [],
  one: [],
  oneCpu: [],
  verifier: [],
  verifierCpu: [],
  jobs1: [],
  jobs2: [],
  wall1: [],
  wall2: [],
};
for (let round = 0; round < ROUNDS; round++) {
  time(floor, samples.floor, samples.floorCpu);
  time(oneJob, samples.one, samples.oneCpu);
  time(verifierAlone, samples.verifier, samples.verifierCpu);
  const c1 = command(1);
  const c2 = command(2);
  samples.jobs1.push(c1.ms);
  samples.jobs2.push(c2.ms);
  samples.wall1.push(c1.wall);
  samples.wall2.push(c2.wall);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mbps = (ms) => totalBytes / 1e6 / (ms / 1000);
const m = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));

const cpus = os.cpus();
console.log(
  `corpus: ${FILES} SSE files, ${(totalBytes / 1e6).toFixed(1)} MB, ${invalidExpected} invalid; ` +
    `${ROUNDS} rounds, medians; node ${process.version}, ${cpus.length} × ${cpus[0]?.model ?? "?"}, ` +
    `load ${os.loadavg()[0].toFixed(2)}`,
);
const row = (name, ms, note = "") =>
  console.log(`  ${name.padEnd(48)} ${mbps(ms).toFixed(1).padStart(7)} MB/s  ${note}`);
row("(a) floor: createParser + JSON.parse, in memory", m.floor);
row(
  "(b) one job: lintFile per file, from disk",
  m.one,
  `${(m.floor / m.one).toFixed(2)}× the floor by wall clock, ` +
    `${(m.floorCpu / m.oneCpu).toFixed(2)}× by CPU time (target ≥ 0.8)`,
);
row(
  "(v) the verifier alone, to the first error",
  m.verifier,
  `linting costs ${(m.one / m.verifier).toFixed(2)}× this by wall clock, ` +
    `${(m.oneCpu / m.verifierCpu).toFixed(2)}× by CPU time (target ≤ 1.5)`,
);
row("(c) ag-ui-verify --jobs 1 (its durationMs)", m.jobs1, `wall ${mbps(m.wall1).toFixed(1)} MB/s`);
row("(c) ag-ui-verify --jobs 2 (its durationMs)", m.jobs2, `wall ${mbps(m.wall2).toFixed(1)} MB/s`);
console.log(
  `  two jobs / one job: ${(m.jobs1 / m.jobs2).toFixed(2)}× by durationMs, ` +
    `${(m.wall1 / m.wall2).toFixed(2)}× by wall clock (target ≥ 1.7 on 2 free cores)`,
);

if (KEEP) console.log(`corpus kept in ${dir}`);
else rmSync(dir, { recursive: true, force: true });
