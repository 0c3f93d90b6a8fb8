/**
 * Writes docs/upstream.md: the rows of SPEC §13 ("Where upstream differs") as observed, from
 * the data in test/support/upstream-rows.ts, which test/upstream-table.test.ts replays
 * against this library and the real @ag-ui/client 1.0.0.
 *
 * `node scripts/upstream-table.mjs` rewrites the file; `--check` only compares and exits 1
 * when the file is stale; `--print` writes the page to stdout instead. The rows module is
 * TypeScript with no runtime imports: esbuild (a devDependency) strips its types in memory.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const ROWS = fileURLToPath(new URL("../test/support/upstream-rows.ts", import.meta.url));
const DOC = fileURLToPath(new URL("../docs/upstream.md", import.meta.url));

/** The page's text, as test/support/upstream-rows.ts renders it. */
export async function render() {
  const built = await esbuild.build({
    entryPoints: [ROWS],
    bundle: true,
    format: "esm",
    platform: "neutral",
    write: false,
    logLevel: "silent",
  });
  const code = built.outputFiles[0]?.text ?? "";
  const url = `data:text/javascript;base64,${Buffer.from(code).toString("base64")}`;
  const rows = await import(url);
  return rows.renderUpstreamDoc();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await render();
  if (process.argv.includes("--print")) {
    process.stdout.write(text);
  } else if (process.argv.includes("--check")) {
    let current = "";
    try {
      current = readFileSync(DOC, "utf8");
    } catch {}
    if (current !== text) {
      process.stdout.write("docs/upstream.md is stale: run node scripts/upstream-table.mjs\n");
      process.exitCode = 1;
    }
  } else {
    writeFileSync(DOC, text);
  }
}
