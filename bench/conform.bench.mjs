/**
 * The 1.1 pipeline (SPEC §20.3): `conformingEvents` of ../dist/conform/index.js against
 * `verifiedEvents` with `schema: agUiSchema` of ../dist/index.js, on the same SSE bytes
 * (bench/runs.mjs, three shapes), in one process: each run handed over as one body of
 * 64 KiB network chunks, the events read to the end. The goal is a ratio of at least 0.75
 * (conformingEvents does more: stripping, chunk expansion). Before timing, both must deliver
 * every event, with no warning from the 1.1 pipeline; the ratio is printed, never asserted.
 *
 * Run with `npm run bench`, or `node bench/conform.bench.mjs` after `npm run build`.
 * Options: --events=N (default 50000), --rounds=N (default 7).
 */
import { agenticRun, chatRun, toolRun } from "./runs.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, "").split("=");
    return [k, v ?? "true"];
  }),
);
const N_EVENTS = Number(args.events ?? 50_000);
const ROUNDS = Number(args.rounds ?? 7);
const CHUNK = 64 * 1024;

const { verifiedEvents } = await import("../dist/index.js");
const { agUiSchema } = await import("../dist/schema.js");
const { conformingEvents } = await import("../dist/conform/index.js");

function bodyOf(bytes) {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) controller.close();
      else {
        controller.enqueue(bytes.subarray(at, at + CHUNK));
        at += CHUNK;
      }
    },
  });
}

async function drain(stream) {
  let n = 0;
  const reader = stream.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) n++;
  return n;
}

const PIPELINES = {
  schema: (bytes) => verifiedEvents(bodyOf(bytes), { schema: agUiSchema }),
  conform: (bytes, onWarning) => conformingEvents(bodyOf(bytes), { onWarning }),
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`${N_EVENTS} events per shape, ${ROUNDS} alternating rounds, medians (64 KiB chunks)`);
console.log("shape     verifiedEvents+schema   conformingEvents   ratio (>= 0.75)");
for (const [shape, make] of [
  ["agentic", agenticRun],
  ["chat", chatRun],
  ["tool", toolRun],
]) {
  const events = make(N_EVENTS);
  const bytes = new TextEncoder().encode(
    events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(""),
  );
  let warnings = 0;
  const a = await drain(PIPELINES.schema(bytes));
  const b = await drain(PIPELINES.conform(bytes, () => warnings++));
  if (a !== events.length || b !== events.length || warnings > 0) {
    console.error(`${shape}: ${a} and ${b} of ${events.length} events, ${warnings} warnings`);
    process.exit(1);
  }
  const times = { schema: [], conform: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const k of r % 2 === 0 ? ["schema", "conform"] : ["conform", "schema"]) {
      const t = performance.now();
      await drain(PIPELINES[k](bytes, () => {}));
      times[k].push(performance.now() - t);
    }
  }
  const s = median(times.schema);
  const c = median(times.conform);
  const rate = (ms) => `${((events.length / ms) * 1000).toFixed(0).padStart(9)} ev/s`;
  console.log(`${shape.padEnd(9)} ${rate(s)}          ${rate(c)}     ${(s / c).toFixed(2)}`);
}
