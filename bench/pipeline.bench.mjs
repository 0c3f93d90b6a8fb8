/**
 * Pipeline benchmark: SSE bytes in, verified events out. In one process, over the SAME
 * pre-built byte chunks, it times three pipelines:
 *
 * (a) floor: `body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream())`
 *     and `JSON.parse(event.data)` in the reading loop; decoding only, no verification.
 * (b) the official client (@ag-ui/client 1.0.0) as `HttpAgent.run` and `runAgent` chain it:
 *     `runHttpRequest` (here over a fake fetch that resolves to a `Response` wrapping the
 *     body) → `transformHttpEventStream` (its SSE parser) → `transformChunks` →
 *     `verifyEvents`, counted in an rxjs subscriber. `runAgent` also runs `enforceEvents`
 *     (a zod parse of every event) before `transformChunks`; that is schema validation, not
 *     ordering verification, so it is left out unless `--enforce` is passed.
 * (c) `verifiedEvents(body)` from ../dist/index.js.
 * (d) `verifiedEvents(body, { schema: agUiSchema })`: the same, also checking every field of
 *     every event (../dist/schema.js); d/c is what the schema check costs in the pipeline.
 *
 * And two parts of (c) timed alone, which bound it: (s) the same decoding core and verifier
 * over the same chunks in a plain loop, no stream at all; (q) the stream alone, one
 * `ReadableStream` passing the run's (already parsed) events to a reader, as many per pull as
 * (c) enqueues per chunk. (c) does both, so a/(s+q) is about the most c/a can reach here
 * (and b/(s+q) the most c/b can): the floor's per-event cost is mostly the same stream
 * machinery (c) needs for its output.
 *
 * Inputs: the three run shapes of bench/runs.mjs, encoded as SSE (`data: <json>\n\n` per
 * event, UTF-8), cut into chunks of each size (cuts fall anywhere, also inside multi-byte
 * characters). Every pass reads a fresh pull-based `ReadableStream` that enqueues one chunk
 * per pull. Before timing, all three must yield every event of every input, and (b) and (c)
 * must reject a corrupted copy; otherwise the script exits 1. Ratios are printed, never
 * asserted.
 *
 * Then a memory check: a long run streams through `verifiedEvents` from a GENERATING source
 * (the run is never held in memory), sampling the heap after a forced GC every 100k events.
 *
 * Run with `npm run bench` (builds first). Options: --events=N (default 50000), --rounds=N
 * (default 5), --chunks=16,512,4096,65536, --only=agentic|chat|tool, --memory-events=N
 * (default 1000000), --budget=S (seconds of timed rounds per input, default 6: fewer
 * rounds for tiny chunks), --no-memory, --enforce, --verbose, --quick (a smoke run: 20000
 * events, up to 3 rounds in 2 s per input, chunks 512,65536, a 200k-event memory run).
 * The default run takes about 2 minutes on 2 cores.
 */
import os from "node:os";
import {
  enforceEvents,
  runHttpRequest,
  transformChunks,
  transformHttpEventStream,
  verifyEvents,
} from "@ag-ui/client";
import { bodyOf, floor, noStream } from "./floor.mjs";
import { exposeGc } from "./gc.mjs";
import { agenticRun, chatRun, corrupted, toolRun } from "./runs.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, "").split("=");
    return [k, v ?? "true"];
  }),
);
const QUICK = args.quick === "true";
const N_EVENTS = Number(args.events ?? (QUICK ? 20_000 : 50_000));
const ROUNDS = Number(args.rounds ?? (QUICK ? 3 : 5));
const CHUNK_SIZES = String(args.chunks ?? (QUICK ? "512,65536" : "16,512,4096,65536"))
  .split(",")
  .map(Number);
const MEMORY_EVENTS = Number(args["memory-events"] ?? (QUICK ? 200_000 : 1_000_000));
const MEMORY = args["no-memory"] !== "true";
const ENFORCE = args.enforce === "true";
const WARMUP_PASSES = 3; // passes of each pipeline per input before timing (checking pass included)
const WARMUP_MS = 1500; // …or fewer, once a round of warm-up passes lasted this long
const BUDGET_MS = Number(args.budget ?? (QUICK ? 2 : 6)) * 1000; // timed rounds per input
const MEMORY_EVERY = 100_000;
const SEGMENT_EVENTS = 5_000; // the generating source builds the run this many events at a time

if (!(N_EVENTS > 0) || !(ROUNDS > 0) || CHUNK_SIZES.some((n) => !(n >= 1))) {
  fail("bad --events, --rounds or --chunks");
}
if (MEMORY && !(MEMORY_EVENTS >= 2 * MEMORY_EVERY)) fail("--memory-events must be >= 200000");

let dist;
try {
  dist = await import("../dist/index.js");
} catch (err) {
  fail(`cannot import ../dist/index.js (run \`npm run build\` first): ${err?.message ?? err}`);
}
const { verifiedEvents } = dist;
if (typeof verifiedEvents !== "function") fail("dist/index.js does not export verifiedEvents");
const { agUiSchema } = await import("../dist/schema.js");
const { Verifier } = dist;
// Internal, but built as a module of its own: the decoding core every pipeline of ours uses.
const { SseDecoder } = await import("../dist/sse/decoder.js");

// A real GC for the memory samples, without re-spawning node (as in verify.bench.mjs).
const gc = exposeGc();

function fail(message) {
  console.error(`\nBENCH ABORTED: ${message}\n`);
  process.exit(1);
}

// ---------------------------------------------------------------------------------------
// Inputs

const encoder = new TextEncoder();
const sseOf = (event) => `data: ${JSON.stringify(event)}\n\n`;
const encodeRun = (events) => encoder.encode(events.map(sseOf).join(""));

/** Views of `bytes`, `size` bytes each (the last one shorter). */
function chunksOf(bytes, size) {
  const chunks = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return chunks;
}

// ---------------------------------------------------------------------------------------
// The three pipelines. Each consumes one body and resolves to the number of events read
// (values with a string `type`: every loop touches what it counts).

const SSE_HEADERS = { "content-type": "text/event-stream" };

/** (b) the official client's HTTP/SSE transform, chunk transform and verifier. */
function official(body) {
  // What HttpAgent.run does, with a fetch that answers at once with this body.
  const response = new Response(body, { status: 200, headers: SSE_HEADERS });
  const events$ = transformHttpEventStream(runHttpRequest(() => Promise.resolve(response)));
  const verified$ = ENFORCE
    ? events$.pipe(enforceEvents(), transformChunks(), verifyEvents())
    : events$.pipe(transformChunks(), verifyEvents());
  return new Promise((resolve, reject) => {
    let n = 0;
    verified$.subscribe({
      next: (event) => {
        if (typeof event.type === "string") n++;
      },
      error: reject,
      complete: () => resolve(n),
    });
  });
}

/** (c) ag-ui-verify, and (d) with the schema check. */
async function ours(body, options) {
  const reader = verifiedEvents(body, options).getReader();
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return n;
    if (typeof value.type === "string") n++;
  }
}

/** (s) decodes and verifies the chunks in a plain loop, no stream; resolves to the count. */
const decodeAndVerify = (_body, chunks) => noStream(chunks, { Verifier, SseDecoder });

/** (q) the run's parsed events through one ReadableStream, one pull per chunk. */
async function streamOnly(_body, chunks, events) {
  const perPull = Math.ceil(events.length / chunks.length);
  let at = 0;
  const reader = new ReadableStream({
    pull(controller) {
      const end = Math.min(events.length, at + perPull);
      while (at < end) controller.enqueue(events[at++]);
      if (at === events.length) controller.close();
    },
  }).getReader();
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return n;
    if (typeof value.type === "string") n++;
  }
}

const PIPELINES = [
  { key: "a", label: "(a) floor: decode+parse", run: floor },
  { key: "b", label: `(b) @ag-ui/client${ENFORCE ? " +enforce" : ""}`, run: official },
  { key: "c", label: "(c) verifiedEvents", run: ours },
  { key: "d", label: "(d) + agUiSchema", run: (body) => ours(body, { schema: agUiSchema }) },
  { key: "s", label: "(s) no stream", run: decodeAndVerify },
  { key: "q", label: "(q) stream only", run: streamOnly },
];

/** Runs one pass; resolves to the count, or to the error's description. */
async function outcome(run, chunks, events) {
  try {
    return { count: await run(bodyOf(chunks), chunks, events) };
  } catch (err) {
    return { error: `${err?.code ?? err?.name ?? "Error"}: ${err?.message ?? err}` };
  }
}

async function time(run, chunks, events) {
  const expected = events.length;
  const body = bodyOf(chunks);
  const t0 = performance.now();
  const n = await run(body, chunks, events);
  const ms = performance.now() - t0;
  if (n !== expected) fail(`a timed pass read ${n} of ${expected} events`);
  return ms;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// ---------------------------------------------------------------------------------------
// Formatting

const fmtInt = (n) => n.toLocaleString("en-US");
const fmtRate = (evPerSec) =>
  evPerSec >= 1e6 ? `${(evPerSec / 1e6).toFixed(2)}M` : `${(evPerSec / 1e3).toFixed(0)}k`;
const fmtChunk = (n) => (n >= 1024 && n % 1024 === 0 ? `${n / 1024} KiB` : `${n} B`);
const fmtMiB = (b) => `${b < 0 ? "-" : "+"}${(Math.abs(b) / 1024 / 1024).toFixed(2)} MiB`;

function printTable(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) =>
    cells
      .map((c, i) => (i > 0 && /^[\d.+-]/.test(c) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  console.log(line(header));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const row of rows) console.log(line(row));
}

// ---------------------------------------------------------------------------------------
// Throughput

const RUNS = { agentic: agenticRun, chat: chatRun, tool: toolRun };
const selected = args.only ? [args.only] : Object.keys(RUNS);
for (const name of selected) if (!RUNS[name]) fail(`unknown run "${name}"`);

console.log(
  `ag-ui-verify pipeline bench — node ${process.version}, ${os.platform()} ${os.arch()}, ` +
    `${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), gc ${gc ? "exposed" : "unavailable"}`,
);
console.log(
  `SSE bytes → events; ${selected.length} run(s) of >= ${fmtInt(N_EVENTS)} events; chunks of ` +
    `${CHUNK_SIZES.map(fmtChunk).join(", ")}; warm-up, then up to ${ROUNDS} alternating rounds ` +
    `(as many as fit ${BUDGET_MS / 1000} s per input; column n); median per pass; MB = 10^6 bytes\n`,
);

const started = performance.now();
const rows = [];
const ratios = { ca: [], cb: [], dc: [], bound: [], boundB: [] };
const parseRates = [];
for (const name of selected) {
  const events = RUNS[name](N_EVENTS);
  const bytes = encodeRun(events);
  const n = events.length;

  // A reference no pipeline can beat: JSON.parse of each event's data alone, no streams.
  const datas = events.map((e) => JSON.stringify(e));
  const parseMs = [];
  for (let r = 0; r < 7; r++) {
    const t0 = performance.now();
    let k = 0;
    for (const d of datas) if (typeof JSON.parse(d).type === "string") k++;
    parseMs.push(performance.now() - t0);
    if (k !== n) fail("JSON.parse reference lost events");
  }
  parseRates.push(`${name} ${fmtRate(n / (median(parseMs.slice(2)) / 1000))} ev/s`);

  // Guard against timing a no-op: a corrupted copy must be rejected by both verifiers.
  const bad = corrupted(events);
  if (bad) {
    const badChunks = chunksOf(encodeRun(bad), 4096);
    for (const p of PIPELINES.filter((p) => "bcd".includes(p.key))) {
      const result = await outcome(p.run, badChunks, bad);
      if (result.error === undefined) fail(`${p.label} accepted a corrupted "${name}" run`);
    }
  }

  for (const size of CHUNK_SIZES) {
    const chunks = chunksOf(bytes, size);
    // Every pipeline must read every event; (b) and (c) must accept the run. This checking
    // pass is also the first warm-up pass.
    let roundMs = 0;
    for (const p of PIPELINES) {
      const t0 = performance.now();
      const result = await outcome(p.run, chunks, events);
      roundMs += performance.now() - t0;
      if (result.error !== undefined) {
        fail(`${p.label} rejected the valid "${name}" run (chunks of ${size}): ${result.error}`);
      }
      if (result.count !== n) {
        fail(`${p.label} read ${result.count} of ${n} events ("${name}", chunks of ${size})`);
      }
    }
    // More warm-up rounds, until WARMUP_PASSES passes each or a round lasting WARMUP_MS; then
    // as many alternating rounds as fit the input's time budget (at least 1, at most ROUNDS,
    // an odd number): tiny chunks make every pass slow.
    for (let w = 1; w < WARMUP_PASSES && roundMs < WARMUP_MS; w++) {
      roundMs = 0;
      for (const p of PIPELINES) roundMs += await time(p.run, chunks, events);
    }
    let rounds = Math.max(1, Math.min(ROUNDS, Math.floor(BUDGET_MS / roundMs)));
    if (rounds % 2 === 0) rounds--;

    const samples = Object.fromEntries(PIPELINES.map((p) => [p.key, []]));
    for (let r = 0; r < rounds; r++) {
      // Rotate the order each round, so no pipeline always runs right after another.
      for (let k = 0; k < PIPELINES.length; k++) {
        const p = PIPELINES[(r + k) % PIPELINES.length];
        samples[p.key].push(await time(p.run, chunks, events));
      }
    }
    if (args.verbose) {
      const fmt = (xs) => xs.map((x) => x.toFixed(1)).join(" ");
      const all = PIPELINES.map((p) => `${p.key}: ${fmt(samples[p.key])}`).join(" | ");
      console.log(`${name} ${fmtChunk(size)} samples (ms) ${all}`);
    }
    const ms = Object.fromEntries(PIPELINES.map((p) => [p.key, median(samples[p.key])]));
    const cell = (k) =>
      `${fmtRate(n / (ms[k] / 1000))} ev/s ${(bytes.length / 1e3 / ms[k]).toFixed(0).padStart(4)} MB/s`;
    ratios.ca.push(ms.a / ms.c);
    ratios.cb.push(ms.b / ms.c);
    ratios.dc.push(ms.c / ms.d);
    ratios.bound.push(ms.a / (ms.s + ms.q));
    ratios.boundB.push(ms.b / (ms.s + ms.q));
    rows.push([
      name,
      fmtInt(n),
      (bytes.length / 1e6).toFixed(1),
      fmtChunk(size),
      String(rounds),
      cell("a"),
      cell("b"),
      cell("c"),
      cell("d"),
      `${(ms.a / ms.c).toFixed(1)}x`,
      `${(ms.b / ms.c).toFixed(1)}x`,
      `${(ms.c / ms.d).toFixed(2)}x`,
      `${(ms.s + ms.q).toFixed(1)} ms`,
      `${(ms.a / (ms.s + ms.q)).toFixed(1)}x`,
    ]);
  }
}
if (args.verbose) console.log("");

printTable(
  [
    "run",
    "events",
    "MB",
    "chunk",
    "n",
    PIPELINES[0].label,
    PIPELINES[1].label,
    PIPELINES[2].label,
    PIPELINES[3].label,
    "c/a",
    "c/b",
    "d vs c",
    "s+q",
    "a/(s+q)",
  ],
  rows,
);
const range = (xs) => `${Math.min(...xs).toFixed(1)}x–${Math.max(...xs).toFixed(1)}x`;
console.log(
  `\nspeed ratios of (c): vs (a) ${range(ratios.ca)} (goal >= 1.2x; the bound a/(s+q): ` +
    `${range(ratios.bound)}); vs (b) ${range(ratios.cb)} (goal >= 2x; the bound b/(s+q): ` +
    `${range(ratios.boundB)})`,
);
console.log(
  `speed of (d), with the schema check, as a share of (c): ${ratios.dc.map((x) => x.toFixed(2)).join(", ")} ` +
    `(min ${Math.min(...ratios.dc).toFixed(2)}x; target >= 0.85x)`,
);
console.log(`reference, no streams: JSON.parse of each event alone: ${parseRates.join(", ")}`);
console.log(`throughput section ${((performance.now() - started) / 1000).toFixed(1)} s`);

// ---------------------------------------------------------------------------------------
// Memory: a long run from a generating source, never materialised.

/**
 * The events of one long run, built SEGMENT_EVENTS at a time: the RUN_STARTED of the first
 * segment, then the inside of segment 0, 1, 2, … (each generated with its own seed, complete
 * and closed, so their concatenation is valid), then one RUN_FINISHED. `rewrite` may change
 * each event in place.
 */
function* longRun(gen, total, rewrite = () => {}) {
  let finished;
  let emitted = 0;
  for (let k = 0; emitted < total - 1; k++) {
    const segment = gen(SEGMENT_EVENTS, { seed: 0x5eed + k });
    if (k === 0) {
      rewrite(segment[0]);
      yield segment[0];
      emitted++;
      finished = segment[segment.length - 1];
    }
    for (let i = 1; i < segment.length - 1; i++) {
      rewrite(segment[i]);
      yield segment[i];
      emitted++;
    }
  }
  yield finished;
}

const ID_FIELDS = [
  "messageId",
  "toolCallId",
  "parentMessageId",
  "stepName",
  "subagentRunId",
  "parentSubagentRunId",
  "entityId",
];

/**
 * Distinct ids (values of ID_FIELDS, and the ids of RUN_STARTED's input messages) seen by
 * each MEMORY_EVERY-th event: a pre-pass over the same deterministic run, done before the
 * measured pass so that its Set is not on the heap being measured.
 */
function distinctIdsAt(makeRun) {
  const seen = new Set();
  const at = [0];
  let n = 0;
  for (const event of makeRun()) {
    for (const field of ID_FIELDS) if (typeof event[field] === "string") seen.add(event[field]);
    if (event.type === "RUN_STARTED") for (const m of event.input?.messages ?? []) seen.add(m.id);
    if (++n % MEMORY_EVERY === 0) at.push(seen.size);
  }
  return { at, total: seen.size, events: n };
}

/** A body whose pull() encodes the next few events of `iterator`, on demand. */
function generatingBody(iterator, eventsPerChunk = 64) {
  return new ReadableStream({
    pull(controller) {
      let text = "";
      for (let i = 0; i < eventsPerChunk; i++) {
        const next = iterator.next();
        if (next.done) {
          if (text !== "") controller.enqueue(encoder.encode(text));
          controller.close();
          return;
        }
        text += sseOf(next.value);
      }
      controller.enqueue(encoder.encode(text));
    },
  });
}

/** Heap after a full GC, a macrotask later (see verify.bench.mjs). */
const settledHeap = async () => {
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

async function memoryRun(makeRun) {
  // The memory runs measure growth with distinct ids, so they lift the id limit (SPEC §17.1).
  const reader = verifiedEvents(generatingBody(makeRun()), {
    maxIds: Number.POSITIVE_INFINITY,
  }).getReader();
  const samples = [await settledHeap()];
  let n = 0;
  for (;;) {
    let next;
    try {
      next = await reader.read();
    } catch (err) {
      fail(`verifiedEvents rejected the memory run at event ${n}: ${err?.code} ${err?.message}`);
    }
    if (next.done) break;
    if (typeof next.value.type !== "string") fail("verifiedEvents passed on a non-event");
    if (++n % MEMORY_EVERY === 0) samples.push(await settledHeap());
  }
  return { n, samples };
}

const MEMORY_RUNS = [
  {
    // Few ids: a long chat whose messages take turns reusing four ids (re-opening an id
    // that ended is valid), so the verifier's state should not grow at all.
    name: "chat, 4 reused message ids",
    makeRun: () => {
      let opened = 0;
      let current;
      return longRun(chatRun, MEMORY_EVENTS, (event) => {
        if (event.type === "TEXT_MESSAGE_START") current = `msg_${opened++ % 4}`;
        if (event.type.startsWith("TEXT_MESSAGE_")) event.messageId = current;
      });
    },
  },
  {
    // The per-id case: a fresh id for every message, tool call and tool result. The
    // verifier remembers owners and ended calls (as the rules require), so it grows with
    // the number of distinct ids, and only with that.
    name: "tool, fresh ids throughout",
    makeRun: () => longRun(toolRun, MEMORY_EVENTS),
  },
];

if (MEMORY && !gc) console.log("\nmemory: skipped (no way to force a GC in this runtime)");
if (MEMORY && gc) {
  const memStarted = performance.now();
  console.log(
    `\nmemory: >= ${fmtInt(MEMORY_EVENTS)} events through verifiedEvents from a generating ` +
      `source (built ${fmtInt(SEGMENT_EVENTS)} events at a time, never held whole), read and ` +
      `discarded;\nheapUsed after a forced GC, in MiB, before the first read and every ` +
      `${fmtInt(MEMORY_EVERY)} events; growth from the first ${fmtInt(MEMORY_EVERY)} events to the end`,
  );
  const memRows = [];
  for (const { name, makeRun } of MEMORY_RUNS) {
    const ids = distinctIdsAt(makeRun);
    const { n, samples } = await memoryRun(makeRun);
    if (n !== ids.events) fail(`the memory run "${name}" read ${n} of ${ids.events} events`);
    const last = samples.length - 1;
    const growth = samples[last] - samples[1];
    const newIds = ids.at[last] - ids.at[1];
    console.log(
      `\n${name}: ${fmtInt(n)} events, ${fmtInt(ids.total)} distinct ids\n` +
        `  heap      ${samples.map((b) => (b / 1024 / 1024).toFixed(1)).join(" ")}\n` +
        `  ids seen  ${ids.at.map((k) => (k >= 1000 ? `${Math.round(k / 1000)}k` : String(k))).join(" ")}`,
    );
    memRows.push([
      name,
      fmtInt(n),
      fmtInt(ids.total),
      fmtMiB(growth),
      `${(growth / (n - MEMORY_EVERY)).toFixed(2)} B`,
      newIds > 0 ? `${(growth / newIds).toFixed(0)} B` : "n/a (no new ids)",
    ]);
  }
  console.log("");
  printTable(["run", "events", "distinct ids", "heap growth", "per event", "per new id"], memRows);
  console.log(`memory section ${((performance.now() - memStarted) / 1000).toFixed(1)} s`);
}
console.log(`\ntotal ${((performance.now() - started) / 1000).toFixed(1)} s`);
