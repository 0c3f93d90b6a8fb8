/**
 * Verify-only benchmark: `verifyAll` from ../dist/index.js against the official client's
 * `verifyEvents` rxjs operator (@ag-ui/client 1.0.0), in one process, over the same
 * pre-parsed arrays of events (bench/runs.mjs). Run with `npm run bench` (builds first).
 *
 * Options: --events=N (default 200000), --rounds=N (default 9), --only=agentic|chat|tool,
 * --verbose (print every sample).
 *
 * Before timing, each run must be accepted by BOTH verifiers, and a corrupted copy must be
 * rejected by both (a guard against timing a no-op); otherwise the script exits 1.
 * The ratio is printed, never asserted.
 */
import os from "node:os";
import { verifyEvents } from "@ag-ui/client";
// rxjs is @ag-ui/client's own dependency (hoisted to the top-level node_modules); importing
// the ESM build here gives the same rxjs instance the operator itself uses.
import { from } from "rxjs";
import { exposeGc } from "./gc.mjs";
import { agenticRun, chatRun, corrupted, toolRun } from "./runs.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, "").split("=");
    return [k, v ?? "true"];
  }),
);
const N_EVENTS = Number(args.events ?? 200_000);
const ROUNDS = Number(args.rounds ?? 9);
const WARMUP = 5; // at least this many warm-up passes of each verifier
const WARMUP_MS = 2000; // and at least this long
const MIN_SAMPLE_MS = 40; // each timed sample repeats a pass until it lasts at least this long

let dist;
try {
  dist = await import("../dist/index.js");
} catch (err) {
  fail(`cannot import ../dist/index.js (run \`npm run build\` first): ${err?.message ?? err}`);
}
const { verifyAll, Verifier } = dist;
if (typeof verifyAll !== "function") fail("dist/index.js does not export verifyAll");

// A real GC for fair samples and for heap measurement, without re-spawning node.
const gc = exposeGc();
const collect = () => {
  if (gc) {
    gc();
    gc();
  }
};

function fail(message) {
  console.error(`\nBENCH ABORTED: ${message}\n`);
  process.exit(1);
}

/** Our verdict: undefined when accepted, else a description of the rejection. */
function oursVerdict(events) {
  try {
    verifyAll(events);
    return undefined;
  } catch (err) {
    return `${err?.code ?? err?.name} at index ${err?.index}: ${err?.message}`;
  }
}

/** Upstream verdict: the operator is synchronous over `from(array)`, so this returns at once. */
function upstreamVerdict(events) {
  let count = 0;
  let error;
  let completed = false;
  verifyEvents()(from(events)).subscribe({
    next: () => {
      count++;
    },
    error: (err) => {
      error = err;
    },
    complete: () => {
      completed = true;
    },
  });
  if (error) return `${error?.message ?? error} (after ${count} events passed)`;
  if (!completed) return "the observable did not complete synchronously";
  if (count !== events.length) return `passed ${count} of ${events.length} events`;
  return undefined;
}

/** One timed pass of each verifier. Returns a value so the work cannot be dead code. */
function passOurs(events) {
  verifyAll(events);
  return events.length;
}
function passUpstream(events) {
  let count = 0;
  let error;
  verifyEvents()(from(events)).subscribe({
    next: () => {
      count++;
    },
    error: (err) => {
      error = err;
    },
  });
  if (error) throw error;
  return count;
}

/** The id an event streams by: a switch on its type. */
function idOf(e) {
  switch (e.type) {
    case "TOOL_CALL_START":
    case "TOOL_CALL_ARGS":
    case "TOOL_CALL_END":
      return e.toolCallId;
    default:
      return e.messageId;
  }
}

/**
 * The floor of any per-event verifier: a switch on the type and one Map look-up per event
 * (an insert the first time an id is seen), with no checks. What the per-event path costs
 * beyond it is the verifier's own.
 */
function passFloor(events) {
  const seen = new Map();
  let n = 0;
  for (const e of events) {
    const id = idOf(e);
    if (id !== undefined && !seen.has(id)) seen.set(id, e.type);
    n++;
  }
  return n;
}

/**
 * The floor, plus what rule 9 needs at least for an event that names a subagent
 * (`subagentRunId`): the look-up returns the id's recorded owner, which is compared with the
 * tag. A run where many events carry a tag (the agentic one) costs that much more.
 */
let tagSink = 0;
function passFloorTagged(events) {
  const seen = new Map();
  let n = 0;
  for (const e of events) {
    const id = idOf(e);
    if (id !== undefined) {
      const owner = seen.get(id);
      const tag = e.subagentRunId;
      if (owner === undefined) seen.set(id, tag ?? null);
      else if (tag !== undefined && owner === tag) tagSink++;
    }
    n++;
  }
  return n;
}

/**
 * Reads every event's type and ids once (what any verifier must read), checking nothing:
 * the memory floor under the floor.
 */
let readSink = 0;
function passRead(events) {
  readSink += touch(events);
  return events.length;
}

/** Reads every event's type and ids once (what a pass touches), checking nothing. */
function touch(events) {
  let n = 0;
  for (const e of events) {
    n += e.type.length;
    if (typeof e.messageId === "string") n += e.messageId.length;
    if (typeof e.toolCallId === "string") n += e.toolCallId.length;
  }
  return n;
}

/**
 * ms per pass right after a full GC: `rounds` times, a full collection and then one pass;
 * the median. With `touchFirst`, the events are read once between the collection and the
 * timed pass.
 */
function afterGc(pass, events, rounds, touchFirst = false) {
  const samples = [];
  for (let r = 0; r < rounds; r++) {
    collect();
    if (touchFirst) touch(events);
    samples.push(sample(pass, events, 1));
  }
  return median(samples);
}

/**
 * ms per pass, over enough repetitions to last MIN_SAMPLE_MS. No forced GC here: samples run
 * back to back, alternating, as in a long-lived process; the passes right after a full GC
 * are timed apart (`afterGc`).
 */
function sample(pass, events, reps) {
  let sink = 0;
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) sink += pass(events);
  const ms = (performance.now() - t0) / reps;
  if (sink !== events.length * reps) fail("a timed pass did not see every event");
  return ms;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// What is under measurement (keep) and what must stay alive around it (pinned: the events).
const keep = [];
let pinned;

/**
 * Heap after a full GC. Waits a macrotask first: a value that was just released can linger in
 * a register of the running frame and survive a GC called synchronously from that frame.
 */
const settledHeap = async () => {
  await new Promise((resolve) => setImmediate(resolve));
  collect();
  return process.memoryUsage().heapUsed;
};

/**
 * Heap (bytes) retained by whatever `build()` returns: the difference between two GC'd heaps
 * taken back to back, with the object alive and then released.
 */
async function retainedBy(build) {
  keep.push(build());
  const withIt = await settledHeap();
  keep.length = 0;
  return withIt - (await settledHeap());
}

/** Retained heap (bytes) of each verifier's state after consuming the whole run. */
async function retainedHeap(events) {
  pinned = events;
  const out = {};
  if (typeof Verifier === "function") {
    // Measured before end(): end() may release state, and a live stream's verifier has not
    // reached it. This is the state a long-lived verifier carries at the end of the run.
    out.ours = await retainedBy(() => {
      const verifier = new Verifier();
      for (const e of pinned) verifier.verify(e);
      return verifier;
    });
  }
  // The operator's state lives in the closure created by verifyEvents()(source$), which the
  // returned observable keeps alive; the finished subscription itself is released.
  out.upstream = await retainedBy(() => {
    const observable = verifyEvents()(from(pinned));
    observable.subscribe({ next() {}, error() {} });
    return observable;
  });
  pinned = undefined;
  return out;
}

const fmtRate = (evPerSec) =>
  evPerSec >= 1e6 ? `${(evPerSec / 1e6).toFixed(2)}M` : `${(evPerSec / 1e3).toFixed(0)}k`;
const fmtInt = (n) => n.toLocaleString("en-US");
const fmtBytes = (b) =>
  b === undefined ? "n/a" : `${b < 0 ? "-" : ""}${(Math.abs(b) / 1024 / 1024).toFixed(2)} MiB`;

const RUNS = { agentic: agenticRun, chat: chatRun, tool: toolRun };
const selected = args.only ? [args.only] : Object.keys(RUNS);

console.log(
  `ag-ui-verify verify bench — node ${process.version}, ${os.platform()} ${os.arch()}, ` +
    `${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), gc ${gc ? "exposed" : "unavailable"}`,
);
console.log(
  `${selected.length} run(s) of >= ${fmtInt(N_EVENTS)} events; >= ${WARMUP} warm-up passes ` +
    `(>= ${WARMUP_MS / 1000} s) + ${ROUNDS} alternating rounds each; median ms per pass\n`,
);

/**
 * Pre-parse as a client would: each event goes through JSON text (its SSE `data:` line) and
 * JSON.parse, so ids and deltas are separate string instances per event, as on the wire.
 */
const preParsed = (gen) => gen(N_EVENTS).map((e) => JSON.parse(JSON.stringify(e)));

const rows = [];
const started = performance.now();
for (const name of selected) {
  const gen = RUNS[name];
  if (!gen) fail(`unknown run "${name}"`);
  collect(); // drop the previous run's garbage before this run is timed
  const events = preParsed(gen);

  const ours = oursVerdict(events);
  if (ours) fail(`ag-ui-verify rejected the valid "${name}" run: ${ours}`);
  const upstream = upstreamVerdict(events);
  if (upstream) fail(`@ag-ui/client verifyEvents rejected the valid "${name}" run: ${upstream}`);
  const bad = corrupted(events);
  if (bad) {
    if (!oursVerdict(bad)) fail(`ag-ui-verify accepted a corrupted "${name}" run`);
    if (!upstreamVerdict(bad)) fail(`@ag-ui/client accepted a corrupted "${name}" run`);
  }

  // Warm up both (alternating, until each has had WARMUP_MS and at least WARMUP passes: the
  // first rounds are noisy while V8 tiers up and the heap settles), then size repetitions so
  // that a sample is long enough to time.
  let oursMs = 0;
  let upMs = 0;
  const warmStart = performance.now();
  for (let i = 0; i < WARMUP || performance.now() - warmStart < WARMUP_MS; i++) {
    oursMs = sample(passOurs, events, 1);
    upMs = sample(passUpstream, events, 1);
  }
  const oursReps = Math.max(1, Math.ceil(MIN_SAMPLE_MS / oursMs));
  const upReps = Math.max(1, Math.ceil(MIN_SAMPLE_MS / upMs));

  const oursSamples = [];
  const upSamples = [];
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2 === 0) {
      oursSamples.push(sample(passOurs, events, oursReps));
      upSamples.push(sample(passUpstream, events, upReps));
    } else {
      upSamples.push(sample(passUpstream, events, upReps));
      oursSamples.push(sample(passOurs, events, oursReps));
    }
  }
  if (args.verbose) {
    const fmt = (xs) => xs.map((x) => x.toFixed(1)).join(" ");
    console.log(`${name} samples (ms) ours: ${fmt(oursSamples)} | official: ${fmt(upSamples)}`);
  }
  const oursMed = median(oursSamples);
  const upMed = median(upSamples);
  const floorSamples = [];
  const floorReps = Math.max(1, Math.ceil(MIN_SAMPLE_MS / sample(passFloor, events, 1)));
  for (let r = 0; r < ROUNDS; r++) floorSamples.push(sample(passFloor, events, floorReps));
  const floorMed = median(floorSamples);
  const taggedSamples = [];
  const taggedReps = Math.max(1, Math.ceil(MIN_SAMPLE_MS / sample(passFloorTagged, events, 1)));
  for (let r = 0; r < ROUNDS; r++) taggedSamples.push(sample(passFloorTagged, events, taggedReps));
  const taggedMed = median(taggedSamples);
  const readSamples = [];
  const readReps = Math.max(1, Math.ceil(MIN_SAMPLE_MS / sample(passRead, events, 1)));
  for (let r = 0; r < ROUNDS; r++) readSamples.push(sample(passRead, events, readReps));
  const readMed = median(readSamples);
  // Right after a full GC (a long-lived page's first stream after a quiet minute): each
  // pass, and the floor's, once the collector has run; then ours with the input read first.
  const gcRounds = gc ? ROUNDS : 0;
  const after = gc
    ? {
        ours: afterGc(passOurs, events, gcRounds),
        upstream: afterGc(passUpstream, events, gcRounds),
        floor: afterGc(passFloor, events, gcRounds),
        oursTouched: afterGc(passOurs, events, gcRounds, true),
      }
    : undefined;
  rows.push({
    name,
    n: events.length,
    oursMed,
    upMed,
    floorMed,
    taggedMed,
    readMed,
    after,
    oursReps,
    upReps,
  });
}

// Heap last, after all timing: the forced GCs it needs would disturb the samples.
if (gc) for (const row of rows) row.heap = await retainedHeap(preParsed(RUNS[row.name]));

const header = ["run", "events", "ag-ui-verify", "@ag-ui/client", "ratio (ours / official)"];
const table = rows.map((r) => [
  r.name,
  fmtInt(r.n),
  `${fmtRate(r.n / (r.oursMed / 1000))} ev/s (${r.oursMed.toFixed(2)} ms)`,
  `${fmtRate(r.n / (r.upMed / 1000))} ev/s (${r.upMed.toFixed(1)} ms)`,
  `${(r.upMed / r.oursMed).toFixed(1)}x`,
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
const line = (cells) =>
  cells
    .map((c, i) => c.padEnd(widths[i]))
    .join("  ")
    .trimEnd();
console.log(line(header));
console.log(line(widths.map((w) => "-".repeat(w))));
for (const row of table) console.log(line(row));

console.log(
  "\nper event (ns), steady state: ours; reading each event's type and ids, nothing else; the " +
    "floor (a type switch and one Map look-up, no checks); the floor with rule 9's owner " +
    "look-up for events that name a subagent; ours beyond the floor; the official client; " +
    "what 10x the client's speed allows (the goal); and the floors' own ratios to the client, " +
    "which bound ours",
);
const fHeader = [
  "run",
  "ag-ui-verify",
  "read",
  "floor",
  "floor, tagged",
  "ours - floor",
  "@ag-ui/client",
  "10x allows",
  "floors' ratios",
];
const ns = (ms, n) => ((ms * 1e6) / n).toFixed(1);
const fRows = rows.map((r) => [
  r.name,
  ns(r.oursMed, r.n),
  ns(r.readMed, r.n),
  ns(r.floorMed, r.n),
  ns(r.taggedMed, r.n),
  ns(r.oursMed - r.floorMed, r.n),
  ns(r.upMed, r.n),
  ns(r.upMed / 10, r.n),
  `${(r.upMed / r.floorMed).toFixed(1)}x, ${(r.upMed / r.taggedMed).toFixed(1)}x`,
]);
printTable(fHeader, fRows);

if (gc) {
  console.log(
    "\nright after a full GC (median of one pass after each of " +
      `${ROUNDS} collections), as a multiple of the same pass in steady state (goal: ours <= 1.3x):\n` +
      "ours, the official client, the floor, and ours when the events were read once after " +
      "the collection",
  );
  const gHeader = ["run", "ag-ui-verify", "@ag-ui/client", "floor", "ours, input read first"];
  const x = (after, steady) => `${(after / steady).toFixed(2)}x (${after.toFixed(2)} ms)`;
  const gRows = rows.map((r) => [
    r.name,
    x(r.after.ours, r.oursMed),
    x(r.after.upstream, r.upMed),
    x(r.after.floor, r.floorMed),
    x(r.after.oursTouched, r.oursMed),
  ]);
  printTable(gHeader, gRows);
}

function printTable(header, body) {
  const w = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const fmt = (cells) =>
    cells
      .map((c, i) => c.padEnd(w[i]))
      .join("  ")
      .trimEnd();
  console.log(fmt(header));
  for (const row of body) console.log(fmt(row));
}

if (gc) {
  console.log(
    "\nretained heap: verifier state after the whole run, before end()\n" +
      "(GC'd heap with it alive minus without it; about +-0.1 MiB of noise)",
  );
  const hHeader = ["run", "ag-ui-verify", "@ag-ui/client"];
  const hRows = rows.map((r) => [r.name, fmtBytes(r.heap?.ours), fmtBytes(r.heap?.upstream)]);
  printTable(hHeader, hRows);
}
if (readSink === 0) fail("the read pass read nothing");
if (tagSink === 0 && rows.some((r) => r.name === "agentic")) fail("the tagged floor saw no tag");
console.log(`\ntotal ${((performance.now() - started) / 1000).toFixed(1)} s`);
