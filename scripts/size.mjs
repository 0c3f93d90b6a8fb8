/**
 * Bundle size: what a browser user downloads for `verifiedEvents`. Bundles a virtual entry
 * `export { verifiedEvents } from "./dist/index.js"` with esbuild (bundle, minify, platform
 * browser, ESM; eventsource-parser included) and prints raw, gzip (level 9) and brotli
 * (quality 11) bytes. For comparison: the whole library (`export *`) and the official
 * client's `verifyEvents` alone (@ag-ui/client 1.0.0, with what it pulls in).
 *
 * Run with `npm run size` (builds first). With --check, exits 1 when the verifiedEvents
 * bundle is over the gzip target; otherwise it only reports.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import * as esbuild from "esbuild";

const TARGET_GZIP = 5_000; // bytes (5 kB) for the verifiedEvents bundle, gzipped
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const check = process.argv.includes("--check");

const ENTRIES = [
  { name: "verifiedEvents", code: 'export { verifiedEvents } from "./dist/index.js";' },
  { name: "verifyResponse", code: 'export { verifyResponse } from "./dist/index.js";' },
  { name: "whole library (export *)", code: 'export * from "./dist/index.js";' },
  {
    name: "ag-ui-verify/conform (export *)",
    code: 'export * from "./dist/conform/index.js";',
  },
  { name: "ag-ui-verify/proto (export *)", code: 'export * from "./dist/proto/index.js";' },
  { name: "ag-ui-verify/lint (export *)", code: 'export * from "./dist/lint/index.js";' },
  { name: "ag-ui-verify/testing (export *)", code: 'export * from "./dist/testing/index.js";' },
  { name: "@ag-ui/client verifyEvents", code: 'export { verifyEvents } from "@ag-ui/client";' },
];

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

const rows = [];
for (const entry of ENTRIES) rows.push(await measure(entry));

const fmt = (n) => n.toLocaleString("en-US");
const header = ["bundle (minified, browser, esm)", "raw", "gzip -9", "brotli"];
const cells = rows.map((r) => [
  r.warnings > 0 ? `${r.name} (${r.warnings} esbuild warnings)` : r.name,
  fmt(r.raw),
  fmt(r.gzip),
  fmt(r.brotli),
]);
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
const within = ours.gzip <= TARGET_GZIP;
console.log(
  `\nverifiedEvents: ${fmt(ours.gzip)} B gzipped, ${within ? "within" : "OVER"} the ` +
    `${fmt(TARGET_GZIP)} B (5 kB) target (${within ? `${fmt(TARGET_GZIP - ours.gzip)} B to spare` : `${fmt(ours.gzip - TARGET_GZIP)} B over`})`,
);
if (check && !within) process.exit(1);
