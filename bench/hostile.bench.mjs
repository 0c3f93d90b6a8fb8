/**
 * Hostile chunking benchmark (SPEC §17.3): what the same bytes cost each bytes-in stage when
 * the network cuts them badly, against the same bytes in 64 KiB chunks. Stages, all from
 * ../dist/index.js: `verifiedEvents`, the proxy (`verifyResponse(...).body` read to its end),
 * `SseDecoderStream` piped into `VerifyingTransformStream`, and the command's reader (the
 * `InputReader` of src/report/, which lints, bundled on the fly with esbuild). Each time is the median of
 * alternating rounds in one process; the ratios are printed side by side, never asserted.
 *
 * (1) Trickle: one 64 KiB message sent one byte per chunk, the proxy against `verifiedEvents`
 *     on the same chunks (target: the proxy within 3x).
 * (2) One chunk: 50,000 small messages as one chunk (a buffered body, `new Response(text)`)
 *     against the same bytes in 64 KiB chunks, for LF and for CR-only framing (target: each
 *     stage within 1.5x).
 *
 * Run with `npm run bench` (builds first), or `node bench/hostile.bench.mjs` after a build.
 * Options: --rounds=N (default 5), --messages=N (default 50000), --trickle=BYTES (default 65536).
 */
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const arg = (name, fallback) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found === undefined ? fallback : Number(found.slice(name.length + 3));
};
const ROUNDS = arg("rounds", 5);
const MESSAGES = arg("messages", 50_000);
const TRICKLE = arg("trickle", 65_536);

const lib = await import(join(ROOT, "dist/index.js"));
const checkSource = await esbuild.build({
  entryPoints: [join(ROOT, "src/report/input-reader.ts")],
  bundle: true,
  format: "esm",
  platform: "neutral",
  write: false,
  logLevel: "silent",
  mainFields: ["module", "main"],
});
const { InputReader } = await import(
  `data:text/javascript;base64,${Buffer.from(checkSource.outputFiles[0].text).toString("base64")}`
);

const utf8 = new TextEncoder();
const RS = '{"type":"RUN_STARTED","threadId":"t","runId":"r"}';
const RF = '{"type":"RUN_FINISHED","threadId":"t","runId":"r"}';

function sse(values, end) {
  return utf8.encode(values.map((v) => `data: ${v}${end}${end}`).join(""));
}

/** The same bytes cut into `size`-byte chunks. */
function cut(bytes, size) {
  const chunks = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return chunks;
}

function body(chunks) {
  let i = 0;
  return new ReadableStream(
    {
      pull(c) {
        const chunk = chunks[i++];
        if (chunk === undefined) c.close();
        else c.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
}

async function drain(stream) {
  const reader = stream.getReader();
  let n = 0;
  for (;;) {
    const r = await reader.read();
    if (r.done) return n;
    n++;
  }
}

const STAGES = {
  verifiedEvents: (chunks) => drain(lib.verifiedEvents(body(chunks))),
  proxy: (chunks) => drain(lib.verifyResponse(new Response(body(chunks))).body),
  "SseDecoderStream+Verifying": (chunks) =>
    drain(
      body(chunks)
        .pipeThrough(new lib.SseDecoderStream())
        .pipeThrough(new lib.VerifyingTransformStream()),
    ),
  "command's reader": async (chunks) => {
    const reader = new InputReader({});
    for (const chunk of chunks) reader.push(chunk);
    const { report } = reader.finish();
    if (!report.valid) throw new Error(report.findings[0]?.message);
  },
};

/** Median ms of each candidate, in alternating rounds (after one warm-up each). */
async function race(candidates) {
  const times = candidates.map(() => []);
  for (const [, run] of candidates) await run();
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? candidates.map((_, i) => i) : candidates.map((_, i) => i).reverse();
    for (const i of order) {
      const start = performance.now();
      await candidates[i][1]();
      times[i].push(performance.now() - start);
    }
  }
  return times.map((t) => t.sort((a, b) => a - b)[t.length >> 1]);
}

const ms = (t) => `${t.toFixed(1)} ms`.padStart(10);
console.log(
  `ag-ui-verify hostile chunking bench — node ${process.version}, ${os.platform()} ${os.arch()}, ` +
    `${os.cpus().length} CPUs; ${ROUNDS} alternating rounds, medians`,
);

// (1) The trickle.
const trickled = sse(
  [RS, `{"type":"CUSTOM","name":"n","value":"${"a".repeat(TRICKLE)}"}`, RF],
  "\n",
);
const bytes = cut(trickled, 1);
const [ve, px] = await race([
  ["verifiedEvents", () => STAGES.verifiedEvents(bytes)],
  ["proxy", () => STAGES.proxy(bytes)],
]);
console.log(
  `\n(1) one ${TRICKLE.toLocaleString("en-US")}-byte message, 1 byte per chunk (${bytes.length.toLocaleString("en-US")} chunks)`,
);
console.log(
  `  verifiedEvents ${ms(ve)}   proxy ${ms(px)}   proxy / verifiedEvents ${(px / ve).toFixed(2)}x (target <= 3x)`,
);

// (2) One chunk against 64 KiB chunks.
console.log(
  `\n(2) ${MESSAGES.toLocaleString("en-US")} small messages: one chunk against 64 KiB chunks`,
);
console.log(
  "  framing  stage                         one chunk   64 KiB     ratio (target <= 1.5x)",
);
const worst = [];
for (const [framing, end] of [
  ["LF", "\n"],
  ["CR", "\r"],
]) {
  const values = [RS];
  for (let i = 0; i < MESSAGES; i++) values.push(`{"type":"CUSTOM","name":"n","value":${i}}`);
  values.push(RF);
  const all = sse(values, end);
  const whole = [all];
  const chunks = cut(all, 64 * 1024);
  for (const [name, stage] of Object.entries(STAGES)) {
    const [one, many] = await race([
      ["one", () => stage(whole)],
      ["64k", () => stage(chunks)],
    ]);
    worst.push(one / many);
    console.log(
      `  ${framing.padEnd(8)} ${name.padEnd(28)} ${ms(one)} ${ms(many)}   ${(one / many).toFixed(2)}x`,
    );
  }
}
console.log(`\nworst one-chunk ratio: ${Math.max(...worst).toFixed(2)}x (target <= 1.5x)`);
