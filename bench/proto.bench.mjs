/**
 * The protobuf transport (SPEC §21.1), in one process, on the frames of generated runs
 * (bench/runs.mjs, three shapes), each encoded once with `encodeFrame` of
 * ../dist/proto/index.js (the bytes `@ag-ui/proto` writes):
 *
 * (a) `decode` of `@ag-ui/proto` 1.0.0 alone, frame by frame (the frames already cut out:
 *     it has no framing of its own);
 * (b) `verifiedEvents(response, { protobuf })` of ../dist/index.js: framing, decoding and
 *     verifying the whole body, handed over in 64 KiB network chunks. The goal is b at
 *     ≥ 1.5× the speed of a;
 * (c) a shorter run of the same shape one byte per chunk, against (d) the same body in one chunk plus the cost
 *     of passing those 1-byte chunks through an empty `TransformStream` (the floor no
 *     decoder can beat). The goal is c ≤ 2× d.
 *
 * Before timing, every pipeline must deliver every event. Medians of alternating rounds;
 * the ratios are printed, never asserted. Run with `npm run bench`, or
 * `node bench/proto.bench.mjs` after `npm run build`. Options: --events=N (default 50000),
 * --rounds=N (default 7), --trickle=N (events in the 1-byte run, default 2000).
 */
import { decode } from "@ag-ui/proto";
import { agenticRun, chatRun, toolRun } from "./runs.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, "").split("=");
    return [k, v ?? "true"];
  }),
);
const N_EVENTS = Number(args.events ?? 50_000);
const ROUNDS = Number(args.rounds ?? 7);
const TRICKLE = Number(args.trickle ?? 2_000);
const CHUNK = 64 * 1024;
const MEDIA = "application/vnd.ag-ui.event+proto";

const { verifiedEvents } = await import("../dist/index.js");
const { encodeFrame, protobuf } = await import("../dist/proto/index.js");

function join(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function bodyOf(bytes, size) {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) controller.close();
      else {
        controller.enqueue(bytes.subarray(at, at + size));
        at += size;
      }
    },
  });
}

const responseOf = (body) => new Response(body, { headers: { "content-type": MEDIA } });

async function drain(stream) {
  let n = 0;
  const reader = stream.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) n++;
  return n;
}

function decodeAll(payloads) {
  let n = 0;
  for (const p of payloads) if (decode(p).type !== undefined) n++;
  return n;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rate = (events, ms) =>
  `${Math.round((events / ms) * 1000)
    .toLocaleString("en-US")
    .padStart(9)} ev/s`;

async function timed(run) {
  const t = performance.now();
  const n = await run();
  return { ms: performance.now() - t, n };
}

console.log(`${N_EVENTS} events per shape, ${ROUNDS} alternating rounds, medians`);
console.log("shape     @ag-ui/proto decode   verifiedEvents+protobuf   ratio (>= 1.5)");
const trickleRows = [];
for (const [shape, make] of [
  ["agentic", agenticRun],
  ["chat", chatRun],
  ["tool", toolRun],
]) {
  const events = make(N_EVENTS);
  const frames = events.map(encodeFrame);
  const payloads = frames.map((f) => f.subarray(4));
  const bytes = join(frames);
  const pipelines = {
    decode: () => decodeAll(payloads),
    ours: () => drain(verifiedEvents(responseOf(bodyOf(bytes, CHUNK)), { protobuf })),
  };
  for (const [name, run] of Object.entries(pipelines)) {
    const n = await run();
    if (n !== events.length) {
      console.error(`${shape} ${name}: ${n} of ${events.length} events`);
      process.exit(1);
    }
  }
  const times = { decode: [], ours: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const k of r % 2 === 0 ? ["decode", "ours"] : ["ours", "decode"]) {
      times[k].push((await timed(pipelines[k])).ms);
    }
  }
  const a = median(times.decode);
  const b = median(times.ours);
  console.log(
    `${shape.padEnd(8)} ${rate(events.length, a)}       ${rate(events.length, b)}          ${(a / b).toFixed(2)}`,
  );

  // One byte per chunk, on a shorter run: against one chunk plus the empty-stream floor.
  const small = join(make(TRICKLE).map(encodeFrame));
  const trickle = {
    bytewise: () => drain(verifiedEvents(responseOf(bodyOf(small, 1)), { protobuf })),
    whole: () => drain(verifiedEvents(responseOf(bodyOf(small, small.length)), { protobuf })),
    floor: () => drain(bodyOf(small, 1).pipeThrough(new TransformStream())),
  };
  const t = { bytewise: [], whole: [], floor: [] };
  for (let r = 0; r < Math.max(3, Math.ceil(ROUNDS / 2)); r++) {
    for (const k of Object.keys(trickle)) t[k].push((await timed(trickle[k])).ms);
  }
  trickleRows.push([shape, small.length, median(t.bytewise), median(t.whole), median(t.floor)]);
}

console.log("");
console.log(`${TRICKLE} events one byte per chunk, against one chunk + an empty TransformStream`);
console.log("shape       bytes   1-byte chunks   one chunk   empty floor   ratio (<= 2)");
for (const [shape, size, bytewise, whole, floor] of trickleRows) {
  console.log(
    `${shape.padEnd(8)} ${String(size).padStart(8)}   ${bytewise.toFixed(0).padStart(10)} ms   ${whole.toFixed(1).padStart(6)} ms   ${floor.toFixed(0).padStart(8)} ms     ${(bytewise / (whole + floor)).toFixed(2)}`,
  );
}
