/**
 * Proxy benchmark (SPEC §16): consuming `verifyResponse(upstream).body` against the unverified
 * floor, in one process, over the SAME pre-built byte chunks:
 *
 * (a) floor: `body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream())`
 *     and `JSON.parse(event.data)` in the reading loop; decoding only, nothing verified.
 * (p) `verifyResponse(new Response(body)).body` from ../dist/index.js, read to its end
 *     (`lineEnds: "keep"`, the default: the upstream's own bytes).
 * (l) the same with `lineEnds: "lf"` (what `verifyingFetch` uses by default).
 * (s) the bound: the same decoding core and verifier over the same chunks, called in a plain
 *     loop with no stream at all (UTF-8 decoding, eventsource-parser, JSON.parse, verify).
 *     No proxy built on these parts can run faster, so (s)/(a) is the most the proxy could
 *     reach on this machine; (p)/(s) is what the streams and the byte release cost on top.
 *
 * Inputs: the chat, tool and agentic runs of bench/runs.mjs, written as `data: <json>\n\n`,
 * and a "mixed" one: the agentic run written with CRLF line ends, a `: ping` heartbeat, an
 * `id:` and an `event:` line before every event. Each is cut into chunks of log-uniform
 * sizes from 1 B to 64 KiB (a seeded PRNG; cuts fall anywhere, also inside characters).
 * Every pass reads a fresh pull-based body that enqueues one chunk per pull. Before timing,
 * (a) must read every event, (p) and (l) must pass every byte through (converted for lf),
 * and (p) must cut a corrupted copy short; otherwise the script exits 1. Ratios are printed,
 * never asserted (goal, issue 28: (p) >= 1.3x the floor's speed on every run, which (s)/(a)
 * bounds).
 *
 * Then a memory check: a long run streams through (p) from a GENERATING source (one encoded
 * segment replayed, its message and tool-call ids re-opened each time, never held whole),
 * sampling the heap after a forced GC every 100k events.
 *
 * Run with `npm run bench` (builds first), or `node bench/proxy.bench.mjs` after a build.
 * Options: --events=N (default 50000), --rounds=N (default 5), --budget=S (seconds of timed
 * rounds per input, default 6), --only=chat|tool|agentic|mixed, --memory-events=N (default
 * 1000000), --no-memory, --verbose, --quick (20000 events, 3 rounds, 2 s, 200k memory events).
 */
import os from "node:os";
import { parseArgs } from "node:util";
import { bodyOf, floor, noStream } from "./floor.mjs";
import { exposeGc } from "./gc.mjs";
import { agenticRun, chatRun, corrupted, createRng, toolRun } from "./runs.mjs";

const { values: flags } = parseArgs({
  options: {
    events: { type: "string", default: "50000" },
    rounds: { type: "string", default: "5" },
    budget: { type: "string", default: "6" },
    only: { type: "string" },
    "memory-events": { type: "string", default: "1000000" },
    "no-memory": { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
    quick: { type: "boolean", default: false },
  },
});
const QUICK = flags.quick;
const N_EVENTS = QUICK ? 20_000 : Number(flags.events);
const ROUNDS = QUICK ? 3 : Number(flags.rounds);
const BUDGET_MS = (QUICK ? 2 : Number(flags.budget)) * 1000;
const MEMORY_EVENTS = QUICK ? 200_000 : Number(flags["memory-events"]);
const MEMORY = !flags["no-memory"];
const MEMORY_EVERY = 100_000;
const WARMUP_PASSES = 3;
const WARMUP_MS = 1500;
const MAX_CHUNK = 64 * 1024;

const stop = (message) => {
  console.error(`\nBENCH ABORTED: ${message}\n`);
  process.exit(1);
};
if (!(N_EVENTS > 0) || !(ROUNDS > 0)) stop("bad --events or --rounds");
if (MEMORY && !(MEMORY_EVENTS >= 2 * MEMORY_EVERY)) stop("--memory-events must be >= 200000");

const { verifyResponse, Verifier } = await import("../dist/index.js").catch((err) =>
  stop(`cannot import ../dist/index.js (run \`npx tsup\` first): ${err?.message ?? err}`),
);
// Internal, but built as a module of its own: the decoding core every pipeline uses.
const { SseDecoder } = await import("../dist/sse/decoder.js");
const gc = exposeGc();

// ---------------------------------------------------------------------------------------
// Inputs

const encoder = new TextEncoder();
const plain = (event) => `data: ${JSON.stringify(event)}\n\n`;
/** A heartbeat, an id and an event name before every event, CRLF line ends. */
const mixed = (event, i) =>
  `: ping\r\nid: ${i}\r\nevent: agui\r\ndata: ${JSON.stringify(event)}\r\n\r\n`;
const encode = (events, write) => encoder.encode(events.map(write).join(""));

/** Views of `bytes` in chunks of log-uniform sizes, 1 B to 64 KiB. */
function logUniformChunks(bytes, seed) {
  const rng = createRng(seed);
  const chunks = [];
  for (let at = 0; at < bytes.length; ) {
    const size = Math.floor(Math.exp(rng.next() * Math.log(MAX_CHUNK + 1)));
    chunks.push(bytes.subarray(at, Math.min(bytes.length, at + Math.max(1, size))));
    at += Math.max(1, size);
  }
  return chunks;
}

function lfOnly(bytes) {
  return encoder.encode(new TextDecoder().decode(bytes).replace(/\r\n?/g, "\n"));
}

// ---------------------------------------------------------------------------------------
// The pipelines. (a) resolves to the number of events read; (p) and (l) to the bytes read.

const SSE_HEADERS = { "content-type": "text/event-stream" };

async function proxied(body, options) {
  const response = verifyResponse(new Response(body, { headers: SSE_HEADERS }), options);
  const reader = response.body.getReader();
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return bytes;
    bytes += value.length;
  }
}

/** (s): decodes and verifies the chunks in a loop; resolves to the number of events. */
const bound = (_body, chunks) => noStream(chunks, { Verifier, SseDecoder });

const PIPELINES = [
  { key: "a", label: "(a) floor: decode+parse", run: floor },
  { key: "p", label: "(p) verifyResponse", run: (body) => proxied(body, {}) },
  { key: "l", label: '(l) lineEnds "lf"', run: (body) => proxied(body, { lineEnds: "lf" }) },
  { key: "s", label: "(s) bound: no stream", run: bound },
];

async function time(run, chunks, expected) {
  const t0 = performance.now();
  const got = await run(bodyOf(chunks), chunks);
  const ms = performance.now() - t0;
  if (got !== expected) stop(`a timed pass read ${got}, expected ${expected}`);
  return ms;
}

/** The middle sample (the rounds are odd in number). */
const middle = (xs) => xs.toSorted((a, b) => a - b)[xs.length >> 1];

// ---------------------------------------------------------------------------------------
// Formatting

const int = new Intl.NumberFormat("en-US");
const rate = (perSecond) => `${int.format(Math.round(perSecond / 1000))}k`;
const mib = (bytes) => `${bytes < 0 ? "-" : "+"}${(Math.abs(bytes) / 2 ** 20).toFixed(2)} MiB`;

/** Prints rows under a header, each column as wide as its widest cell; numbers right-aligned. */
function printColumns(header, rows) {
  const width = header.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c].length)));
  const print = (row) =>
    console.log(
      row
        .map((cell, c) =>
          c > 0 && /^[\d.+-]/.test(cell) ? cell.padStart(width[c]) : cell.padEnd(width[c]),
        )
        .join("  ")
        .trimEnd(),
    );
  print(header);
  console.log(width.map((w) => "-".repeat(w)).join("  "));
  for (const row of rows) print(row);
}

// ---------------------------------------------------------------------------------------
// Throughput

const RUNS = {
  chat: () => ({ events: chatRun(N_EVENTS), write: plain }),
  tool: () => ({ events: toolRun(N_EVENTS), write: plain }),
  agentic: () => ({ events: agenticRun(N_EVENTS), write: plain }),
  mixed: () => ({ events: agenticRun(N_EVENTS), write: mixed }),
};
const selected = flags.only ? [flags.only] : Object.keys(RUNS);
for (const name of selected) if (!RUNS[name]) stop(`unknown run "${name}"`);

console.log(
  `ag-ui-verify proxy bench — node ${process.version}, ${os.platform()} ${os.arch()}, ` +
    `${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), gc ${gc ? "exposed" : "unavailable"}`,
);
console.log(
  `SSE bytes → consumer; ${selected.length} run(s) of >= ${int.format(N_EVENTS)} events; chunks of ` +
    `log-uniform sizes 1 B–64 KiB; warm-up, then up to ${ROUNDS} alternating rounds (as many as ` +
    `fit ${BUDGET_MS / 1000} s per input; column n); median per pass; MB = 10^6 bytes\n`,
);

const started = performance.now();
const rows = [];
const ratios = { p: [], l: [], s: [] };
for (const name of selected) {
  const { events, write } = RUNS[name]();
  const n = events.length;
  const bytes = encode(events, write);
  const chunks = logUniformChunks(bytes, 0x5eed);
  const expected = { a: n, p: bytes.length, l: lfOnly(bytes).length, s: n };

  // Guard against timing a no-op: the proxy must cut a corrupted copy short.
  const bad = corrupted(events);
  if (bad) {
    const badBytes = encode(bad, write);
    const got = await proxied(bodyOf(logUniformChunks(badBytes, 1)), {}).catch(() => -1);
    if (got === badBytes.length) stop(`(p) passed a corrupted "${name}" run through whole`);
  }

  let roundMs = 0;
  for (const p of PIPELINES) {
    const t0 = performance.now();
    const got = await Promise.resolve()
      .then(() => p.run(bodyOf(chunks), chunks))
      .catch((err) => `${err?.code ?? err}`);
    roundMs += performance.now() - t0;
    if (got !== expected[p.key]) {
      stop(`${p.label} read ${got}, expected ${expected[p.key]} ("${name}")`);
    }
  }
  for (let w = 1; w < WARMUP_PASSES && roundMs < WARMUP_MS; w++) {
    roundMs = 0;
    for (const p of PIPELINES) roundMs += await time(p.run, chunks, expected[p.key]);
  }
  let rounds = Math.max(1, Math.min(ROUNDS, Math.floor(BUDGET_MS / roundMs)));
  if (rounds % 2 === 0) rounds--;

  const samples = Object.fromEntries(PIPELINES.map((p) => [p.key, []]));
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < PIPELINES.length; k++) {
      const p = PIPELINES[(r + k) % PIPELINES.length];
      samples[p.key].push(await time(p.run, chunks, expected[p.key]));
    }
  }
  if (flags.verbose) {
    const all = PIPELINES.map(
      (p) => `${p.key}: ${samples[p.key].map((x) => x.toFixed(1)).join(" ")}`,
    );
    console.log(`${name} samples (ms) ${all.join(" | ")}`);
  }
  const ms = Object.fromEntries(PIPELINES.map((p) => [p.key, middle(samples[p.key])]));
  const speed = (k) =>
    `${rate(n / (ms[k] / 1000))} ev/s ${(bytes.length / 1e3 / ms[k]).toFixed(0).padStart(4)} MB/s`;
  ratios.p.push(ms.a / ms.p);
  ratios.l.push(ms.a / ms.l);
  ratios.s.push(ms.a / ms.s);
  const size = [int.format(n), (bytes.length / 1e6).toFixed(1), int.format(chunks.length)];
  const ratio = (k) => `${(ms.a / ms[k]).toFixed(2)}x`;
  rows.push([
    name,
    ...size,
    String(rounds),
    ...PIPELINES.map((p) => speed(p.key)),
    ratio("p"),
    ratio("l"),
    ratio("s"),
  ]);
}

const labels = PIPELINES.map((p) => p.label);
printColumns(["run", "events", "MB", "chunks", "n", ...labels, "p/a", "l/a", "s/a"], rows);
const range = (xs) => `${Math.min(...xs).toFixed(2)}x–${Math.max(...xs).toFixed(2)}x`;
console.log(
  `\nspeed of (p) vs the floor (a): ${range(ratios.p)} (goal >= 1.3x); (l): ${range(ratios.l)}`,
);
console.log(
  `the bound (s), decoding and verifying with no stream at all, vs (a): ${range(ratios.s)}`,
);
console.log(`throughput section ${((performance.now() - started) / 1000).toFixed(1)} s`);

// ---------------------------------------------------------------------------------------
// Memory: one encoded segment, replayed, through (p), read and discarded.

/**
 * A body of one run of at least `total` events: RUN_STARTED, then the inside of `segment`
 * (a complete run's events, closed, so its ids can open again) over and over, then
 * RUN_FINISHED; each copy cut into the same log-uniform chunks.
 */
function replayingBody(segment, write, total) {
  const inside = encode(segment.slice(1, -1), write);
  const pieces = logUniformChunks(inside, 7);
  const head = encode([segment[0]], write);
  const tail = encode([segment[segment.length - 1]], write);
  const copies = Math.ceil((total - 2) / (segment.length - 2));
  let copy = -1;
  let i = 0;
  const body = new ReadableStream({
    pull(controller) {
      if (copy === -1) {
        controller.enqueue(head);
        copy = 0;
      } else if (copy === copies) {
        controller.enqueue(tail);
        controller.close();
      } else {
        controller.enqueue(pieces[i++]);
        if (i === pieces.length) {
          i = 0;
          copy++;
        }
      }
    },
  });
  return { body, events: 2 + copies * (segment.length - 2) };
}

const settledHeap = async () => {
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

async function memoryRun(segment, write) {
  const { body, events } = replayingBody(segment, write, MEMORY_EVENTS);
  const eventBytes = encode(segment.slice(1, -1), write).length / (segment.length - 2);
  const reader = verifyResponse(new Response(body, { headers: SSE_HEADERS })).body.getReader();
  const samples = [await settledHeap()];
  let bytes = 0;
  let next = MEMORY_EVERY * eventBytes;
  for (;;) {
    let result;
    try {
      result = await reader.read();
    } catch (err) {
      stop(`the memory run errored after ${int.format(bytes)} bytes: ${err?.code} ${err?.message}`);
    }
    if (result.done) break;
    bytes += result.value.length;
    // About every MEMORY_EVERY events (events are counted by their average size).
    if (bytes >= next) {
      samples.push(await settledHeap());
      next += MEMORY_EVERY * eventBytes;
    }
  }
  return { events, bytes, samples };
}

const MEMORY_RUNS = [
  { name: "chat, LF", segment: () => chatRun(5_000), write: plain },
  { name: "tool, mixed framing", segment: () => toolRun(5_000), write: mixed },
];

if (MEMORY && !gc) console.log("\nmemory: skipped (no way to force a GC in this runtime)");
if (MEMORY && gc) {
  const memStarted = performance.now();
  console.log(
    `\nmemory: >= ${int.format(MEMORY_EVENTS)} events through verifyResponse from a generating ` +
      "source (a 5,000-event segment replayed, its ids re-opened), read and discarded;\n" +
      `heapUsed after a forced GC, in MiB, before the first read and about every ` +
      `${int.format(MEMORY_EVERY)} events; growth from the first sample after reading to the end`,
  );
  const memRows = [];
  for (const { name, segment, write } of MEMORY_RUNS) {
    const { events, bytes, samples } = await memoryRun(segment(), write);
    const growth = samples[samples.length - 1] - samples[1];
    console.log(
      `\n${name}: ${int.format(events)} events, ${(bytes / 1e6).toFixed(0)} MB\n` +
        `  heap  ${samples.map((b) => (b / 1024 / 1024).toFixed(1)).join(" ")}`,
    );
    memRows.push([
      name,
      int.format(events),
      mib(growth),
      `${(growth / (events - MEMORY_EVERY)).toFixed(3)} B`,
    ]);
  }
  console.log("");
  printColumns(["run", "events", "heap growth", "per event"], memRows);
  console.log(`memory section ${((performance.now() - memStarted) / 1000).toFixed(1)} s`);
}
console.log(`\ntotal ${((performance.now() - started) / 1000).toFixed(1)} s`);
