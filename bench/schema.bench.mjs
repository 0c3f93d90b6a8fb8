/**
 * Schema benchmark: `agUiSchema` from ../dist/schema.js against `EventSchema.safeParse` of
 * `@ag-ui/core` 1.0.0 (zod 4, which compiles its object checks), in one process, over the same
 * pre-parsed arrays of events (bench/runs.mjs). Run with `npm run bench` (builds first).
 *
 * Options: --events=N (default 100000), --rounds=N (default 9), --only=agentic|chat|tool,
 * --verbose (print every sample).
 *
 * Before timing, every event must be accepted by both, and a damaged copy of each run
 * (one field of a wrong type per event) rejected by both at the same path: a guard against
 * timing a no-op. Otherwise the script exits 1. The ratio is printed, never asserted.
 */
import os from "node:os";
import { EventSchema } from "@ag-ui/core/schemas";
import { agenticRun, chatRun, toolRun } from "./runs.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, "").split("=");
    return [k, v ?? "true"];
  }),
);
const N_EVENTS = Number(args.events ?? 100_000);
const ROUNDS = Number(args.rounds ?? 9);
const WARMUP = 5; // at least this many warm-up passes of each
const WARMUP_MS = 1500; // and at least this long
const MIN_SAMPLE_MS = 40; // each timed sample repeats a pass until it lasts at least this long

function fail(message) {
  console.error(`\nBENCH ABORTED: ${message}\n`);
  process.exit(1);
}

let agUiSchema;
try {
  ({ agUiSchema } = await import("../dist/schema.js"));
} catch (err) {
  fail(`cannot import ../dist/schema.js (run \`npm run build\` first): ${err?.message ?? err}`);
}
const validate = agUiSchema["~standard"].validate;

/** One pass of each over the events; returns the number accepted, so no work is dead. */
function passOurs(events) {
  let ok = 0;
  for (const event of events) if (validate(event).issues === undefined) ok++;
  return ok;
}
function passZod(events) {
  let ok = 0;
  for (const event of events) if (EventSchema.safeParse(event).success) ok++;
  return ok;
}

/** ms per pass, over `reps` repetitions; samples run back to back, alternating. */
function sample(pass, events, reps) {
  let sink = 0;
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) sink += pass(events);
  const ms = (performance.now() - t0) / reps;
  if (sink !== events.length * reps) fail("a timed pass rejected a valid event");
  return ms;
}

/**
 * Samples (ms per pass) of each pass over `events`: warm-up first (V8 tiers up, the heap
 * settles), then ROUNDS rounds in which the order of the passes alternates.
 */
function race(passes, events) {
  const reps = passes.map(() => 1);
  const warmStart = performance.now();
  for (let i = 0; i < WARMUP || performance.now() - warmStart < WARMUP_MS; i++) {
    for (const [k, pass] of passes.entries()) {
      reps[k] = Math.max(1, Math.ceil(MIN_SAMPLE_MS / sample(pass, events, 1)));
    }
  }
  const samples = passes.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? passes.keys() : [...passes.keys()].reverse();
    for (const k of order) samples[k].push(sample(passes[k], events, reps[k]));
  }
  return samples;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** The run with one field per event given a wrong type: a number where a string is. */
function damaged(events) {
  return events.map((event) => {
    const key = Object.keys(event).find((k) => k !== "type" && typeof event[k] === "string");
    return key === undefined ? { ...event, type: 1 } : { ...event, [key]: 1 };
  });
}

/** Both must accept every event, and reject every damaged one at the same path. */
function guard(name, events) {
  for (const [i, event] of events.entries()) {
    const ours = validate(event);
    const zod = EventSchema.safeParse(event);
    if (ours.issues !== undefined || !zod.success) {
      fail(
        `"${name}" event ${i} (${event.type}) rejected: ${ours.issues?.[0]?.message ?? zod.error}`,
      );
    }
  }
  for (const [i, event] of damaged(events).entries()) {
    const ours = validate(event);
    const zod = EventSchema.safeParse(event);
    if (ours.issues === undefined || zod.success) fail(`damaged "${name}" event ${i} accepted`);
    const a = JSON.stringify(ours.issues[0].path);
    const b = JSON.stringify(zod.error.issues[0].path);
    if (a !== b) fail(`damaged "${name}" event ${i}: path ${a}, zod ${b}`);
  }
}

const fmtRate = (evPerSec) =>
  evPerSec >= 1e6 ? `${(evPerSec / 1e6).toFixed(2)}M` : `${(evPerSec / 1e3).toFixed(0)}k`;
const fmtInt = (n) => n.toLocaleString("en-US");

const RUNS = { agentic: agenticRun, chat: chatRun, tool: toolRun };
const selected = args.only ? [args.only] : Object.keys(RUNS);

console.log(
  `ag-ui-verify schema bench — node ${process.version}, ${os.platform()} ${os.arch()}, ` +
    `${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"})`,
);
console.log(
  `${selected.length} run(s) of >= ${fmtInt(N_EVENTS)} events; >= ${WARMUP} warm-up passes ` +
    `(>= ${WARMUP_MS / 1000} s) + ${ROUNDS} alternating rounds each; median ms per pass\n`,
);

const rows = [];
const started = performance.now();
for (const name of selected) {
  const gen = RUNS[name];
  if (!gen) fail(`unknown run "${name}"`);
  // As a client would have them: each event through its JSON text and JSON.parse.
  const events = gen(N_EVENTS).map((e) => JSON.parse(JSON.stringify(e)));
  guard(name, events);

  const [oursSamples, zodSamples] = race([passOurs, passZod], events);
  if (args.verbose) {
    const fmt = (xs) => xs.map((x) => x.toFixed(2)).join(" ");
    console.log(`${name} samples (ms) agUiSchema: ${fmt(oursSamples)} | zod: ${fmt(zodSamples)}`);
  }
  rows.push({ name, n: events.length, ours: median(oursSamples), zod: median(zodSamples) });
}

const header = ["run", "events", "agUiSchema", "zod EventSchema.safeParse", "ratio (zod / ours)"];
const table = rows.map((r) => [
  r.name,
  fmtInt(r.n),
  `${fmtRate(r.n / (r.ours / 1000))} ev/s (${r.ours.toFixed(2)} ms, ${((r.ours / r.n) * 1e6).toFixed(0)} ns/ev)`,
  `${fmtRate(r.n / (r.zod / 1000))} ev/s (${r.zod.toFixed(2)} ms, ${((r.zod / r.n) * 1e6).toFixed(0)} ns/ev)`,
  `${(r.zod / r.ours).toFixed(1)}x`,
]);
const widths = header.map((_, i) => Math.max(...[header, ...table].map((row) => row[i].length)));
const dashes = widths.map((w) => "-".repeat(w));
for (const row of [header, dashes, ...table]) {
  console.log(
    row
      .map((cell, i) => cell.padEnd(widths[i]))
      .join("  ")
      .trimEnd(),
  );
}
console.log(`\ntotal ${((performance.now() - started) / 1000).toFixed(1)} s`);
