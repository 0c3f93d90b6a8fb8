/**
 * Bundle size: what a browser user downloads. Bundles one virtual entry per row (e.g.
 * `export { verifiedEvents } from "./dist/index.js"`) with esbuild (bundle, minify, platform
 * browser, ESM; dependencies included) and prints raw, gzip (level 9) and brotli (quality 11)
 * bytes: `{ verifiedEvents }` and `{ verifyAll }` as an application imports them, the main
 * entry and each subpath whole (`export *`), and the official client's `verifyEvents` alone
 * (@ag-ui/client 1.0.0, with what it pulls in) for comparison.
 *
 * Each of ours has a gzip budget in bench/size-budgets.json: `npm run size:check` (in CI)
 * exits 1 when a bundle grows past its budget. Budgets are today's sizes, lowered as the
 * size work lands; the goal for `{ verifiedEvents }` is 5,000 B. Options: --check,
 * --budgets=FILE (another budget file).
 *
 * Then the parts `{ verifiedEvents }` is made of, each bundled alone (no budgets): the
 * verifier (`{ Verifier }`), the SSE decoding core (internal `SseDecoder`, with
 * eventsource-parser) and eventsource-parser alone, which show what bounds the goal.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import * as esbuild from "esbuild";

const TARGET_GZIP = 5_000; // bytes: the goal for { verifiedEvents }, gzipped
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const check = process.argv.includes("--check");
const budgetFile =
  process.argv.find((a) => a.startsWith("--budgets="))?.slice("--budgets=".length) ??
  path.join(root, "bench/size-budgets.json");

/** [name, entry code]; the budget file names the same rows. */
const ENTRIES = [
  ["{ verifiedEvents }", 'export { verifiedEvents } from "./dist/index.js";'],
  ["{ verifyAll }", 'export { verifyAll } from "./dist/index.js";'],
  ["{ verifyResponse }", 'export { verifyResponse } from "./dist/index.js";'],
  ["ag-ui-verify (export *)", 'export * from "./dist/index.js";'],
  ["ag-ui-verify/schema (export *)", 'export * from "./dist/schema.js";'],
  ["ag-ui-verify/conform (export *)", 'export * from "./dist/conform/index.js";'],
  ["ag-ui-verify/proto (export *)", 'export * from "./dist/proto/index.js";'],
  ["ag-ui-verify/lint (export *)", 'export * from "./dist/lint/index.js";'],
  ["ag-ui-verify/testing (export *)", 'export * from "./dist/testing/index.js";'],
  ["@ag-ui/client verifyEvents", 'export { verifyEvents } from "@ag-ui/client";'],
].map(([name, code]) => ({ name, code }));

async function measure({ name, code }) {
  let result;
  try {
    result = await esbuild.build({
      stdin: { contents: code, resolveDir: root, sourcefile: "size-entry.js", loader: "js" },
      bundle: true,
      minify: true,
      platform: "browser",
      format: "esm",
      write: false,
      logLevel: "silent",
    });
  } catch (err) {
    console.error(`cannot bundle ${name} (run \`npm run build\` first?): ${err?.message ?? err}`);
    process.exit(1);
  }
  const bytes = result.outputFiles[0].contents;
  return {
    name,
    raw: bytes.length,
    gzip: zlib.gzipSync(bytes, { level: 9 }).length,
    brotli: zlib.brotliCompressSync(bytes, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }).length,
    warnings: result.warnings.length,
  };
}

/** The parts of `{ verifiedEvents }`, for what bounds its size; no budgets. */
const PARTS = [
  ["{ Verifier }: the rules and messages", 'export { Verifier } from "./dist/index.js";'],
  ["SseDecoder: SSE decoding (internal)", 'export { SseDecoder } from "./dist/sse/decoder.js";'],
  ["eventsource-parser alone", 'export { createParser } from "eventsource-parser";'],
].map(([name, code]) => ({ name, code }));

const rows = [];
for (const entry of ENTRIES) rows.push(await measure(entry));
const parts = [];
for (const entry of PARTS) parts.push(await measure(entry));

let budgets;
try {
  budgets = JSON.parse(readFileSync(budgetFile, "utf8"));
} catch (err) {
  console.error(`cannot read the size budgets ${budgetFile}: ${err?.message ?? err}`);
  process.exit(2);
}

const fmt = (n) => n.toLocaleString("en-US");
const header = ["bundle (minified, browser, esm)", "raw", "gzip -9", "brotli", "gzip budget"];
const over = [];
const cells = rows.map((r) => {
  const budget = budgets[r.name];
  if (budget !== undefined && r.gzip > budget) over.push(r);
  return [
    r.warnings > 0 ? `${r.name} (${r.warnings} esbuild warnings)` : r.name,
    fmt(r.raw),
    fmt(r.gzip),
    fmt(r.brotli),
    budget === undefined ? "" : `${fmt(budget)}${r.gzip > budget ? " OVER" : ""}`,
  ];
});
const missing = ENTRIES.slice(0, -1).filter((e) => budgets[e.name] === undefined);
const widths = header.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i].length)));
const line = (row) =>
  row
    .map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
    .join("  ")
    .trimEnd();
console.log(`${line(header)}   (bytes)`);
console.log(line(widths.map((w) => "-".repeat(w))));
for (const row of cells) console.log(line(row));

const ours = rows[0];
const client = rows.at(-1);
console.log(
  `\n{ verifiedEvents }: ${fmt(ours.gzip)} B gzipped, ${(client.gzip / ours.gzip).toFixed(1)}x ` +
    `smaller than the official client's verifyEvents; the goal is ${fmt(TARGET_GZIP)} B ` +
    `(${ours.gzip <= TARGET_GZIP ? "reached" : `${fmt(ours.gzip - TARGET_GZIP)} B to go`}).`,
);
console.log("\nits parts, each bundled alone (they share a little: errors, the verifier's types)");
const partCells = parts.map((r) => [r.name, fmt(r.raw), fmt(r.gzip), fmt(r.brotli)]);
const pWidths = header
  .slice(0, 4)
  .map((h, i) => Math.max(h.length, ...partCells.map((row) => row[i].length)));
for (const row of partCells) {
  console.log(
    row
      .map((c, i) => (i === 0 ? c.padEnd(pWidths[i]) : c.padStart(pWidths[i])))
      .join("  ")
      .trimEnd(),
  );
}
for (const r of over)
  console.log(
    `OVER BUDGET: ${r.name} is ${fmt(r.gzip)} B gzipped, its budget ${fmt(budgets[r.name])} B`,
  );
for (const e of missing) console.log(`NO BUDGET: ${e.name} (add it to ${budgetFile})`);
if (check && (over.length > 0 || missing.length > 0)) process.exit(1);
