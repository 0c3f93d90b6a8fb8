/**
 * Keeps the transcripts in docs/cli.md true: every code block that starts with
 * `$ npx ag-ui-verify …` and shows its exit status (`$ echo $?`), or ends in `| tail -n 1`,
 * is run again with dist/cli.js (`npx tsup` first) from the repository's root, without
 * colour, and its output written back. Other blocks (commands against hosts that do not
 * exist here) are left as they are.
 *
 * `node scripts/cli-doc.mjs` rewrites the file; `--check` only compares, ignoring timings,
 * and exits 1 naming the first block that differs. Imported, it exports `transcripts()`.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DOC = fileURLToPath(new URL("../docs/cli.md", import.meta.url));
const BLOCK = /```\n(\$ npx ag-ui-verify ([^\n]*))\n([\s\S]*?)```/g;

/** Splits a shell-like argument string (no quotes are used in the doc's commands). */
const words = (text) => text.split(" ").filter((word) => word !== "");

/** The command's output for a transcript's command line, as the doc shows it. */
function transcript(commandLine, args) {
  const tail = args.endsWith(" | tail -n 1");
  const argv = words(tail ? args.slice(0, -" | tail -n 1".length) : args);
  const env = { ...process.env, NO_COLOR: "1" };
  delete env.FORCE_COLOR;
  const run = spawnSync(process.execPath, ["dist/cli.js", ...argv], {
    cwd: ROOT,
    env,
    encoding: "utf8",
  });
  if (tail) return `${commandLine}\n${run.stdout.trimEnd().split("\n").pop()}\n`;
  const output = `${run.stdout}${run.stderr}`;
  return `${commandLine}\n${output.endsWith("\n") ? output : `${output}\n`}$ echo $?\n${run.status}\n`;
}

/** Each transcript block of the doc: what it says now, and what the command says. */
export function transcripts(text = readFileSync(DOC, "utf8")) {
  const out = [];
  for (const match of text.matchAll(BLOCK)) {
    const [block, commandLine, args, body] = match;
    if (!body.includes("$ echo $?\n") && !args.endsWith("| tail -n 1")) continue;
    out.push({
      block,
      documented: `${commandLine}\n${body}`,
      actual: transcript(commandLine, args),
    });
  }
  return out;
}

/** Durations and speeds, which change from run to run. */
export const steady = (text) =>
  text
    .replace(/\d[\d,.]* (ms|s)\b/g, "T")
    .replace(/\([\d.]+ MiB\/s\)/g, "(R)")
    .replace(/"durationMs":[\d.]+/g, '"durationMs":T')
    .replace(/"durationMs": [\d.]+/g, '"durationMs": T');

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = readFileSync(DOC, "utf8");
  const blocks = transcripts(text);
  if (process.argv.includes("--check")) {
    const stale = blocks.find((b) => steady(b.documented) !== steady(b.actual));
    if (stale !== undefined) {
      console.error(`docs/cli.md is stale at:\n${stale.documented.split("\n")[0]}`);
      process.exit(1);
    }
    console.log(`docs/cli.md: ${blocks.length} transcripts match the command`);
  } else {
    let next = text;
    for (const { block, actual } of blocks) next = next.replace(block, `\`\`\`\n${actual}\`\`\``);
    writeFileSync(DOC, next);
    console.log(`docs/cli.md: ${blocks.length} transcripts written`);
  }
}
