/**
 * `npm run bench`: runs every benchmark in turn (each in its own process, so one cannot warm
 * up or slow down the next), shows their output as it comes, and writes docs/benchmarks.md:
 * the machine, each benchmark's method (the comment at the top of its file) and the figures
 * it printed. The figures in that file are therefore always a real run's, never retyped.
 *
 * Options: --only=verify,pipeline,… (a subset; docs/benchmarks.md is then left alone), and any
 * other flag is passed to every benchmark (e.g. --quick where a benchmark supports it).
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";

const BENCHES = [
  ["verify", "Verifying parsed events"],
  ["pipeline", "Bytes to verified events"],
  ["proxy", "The proxy: verifyResponse"],
  ["schema", "The schema check: agUiSchema"],
  ["conform", "The 1.1 pipeline: conformingEvents"],
  ["proto", "The protobuf transport: verifiedEvents with { protobuf }"],
  ["corpus", "The command on a corpus"],
  ["lint", "Linting real captures against the verifier alone"],
  ["hostile", "Hostile chunking: trickles and buffered bodies"],
  ["memory", "Retained state at maxIds"],
  ["size", "Bundle sizes"],
];

const args = process.argv.slice(2);
const only = args
  .find((a) => a.startsWith("--only="))
  ?.slice("--only=".length)
  .split(",");
const passOn = args.filter((a) => !a.startsWith("--only="));

/** Runs one benchmark, echoing its output; resolves with what it printed. */
function run(name) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`bench/${name}.bench.mjs`, ...passOn], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (s) => {
      out += s;
      process.stdout.write(s);
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`bench/${name}.bench.mjs exited ${code}`)),
    );
  });
}

/** The comment at the top of a benchmark's file, as plain text. */
function method(name) {
  const source = readFileSync(`bench/${name}.bench.mjs`, "utf8");
  const comment = /^\/\*\*([\s\S]*?)\*\//.exec(source)?.[1] ?? "";
  return comment
    .split("\n")
    .map((line) => line.replace(/^\s*\* ?/, ""))
    .join("\n")
    .trim();
}

const chosen = BENCHES.filter(([name]) => only === undefined || only.includes(name));
const sections = [];
for (const [name, title] of chosen) {
  const output = await run(name);
  sections.push(
    `## ${title} (\`bench/${name}.bench.mjs\`)\n\n${method(name)}\n\n\`\`\`text\n${output.trimEnd()}\n\`\`\`\n`,
  );
}

if (only === undefined) {
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const doc = `# Benchmarks

Written by \`npm run bench\` (bench/all.mjs) on ${new Date().toISOString().slice(0, 10)}:
Node ${process.version}, ${os.platform()} ${os.arch()}, ${os.cpus().length} × ${cpu.trim()},
${Math.round(os.totalmem() / 2 ** 30)} GiB. Every figure below is that run's output, unedited.
Each benchmark times the candidates in one process over the same inputs, in alternating
rounds, and prints ratios side by side; the ratios are never asserted by tests, because the
machines are shared and noisy. Run it again to see your own machine's figures.

${sections.join("\n")}`;
  writeFileSync("docs/benchmarks.md", doc);
  console.log("\nwrote docs/benchmarks.md");
}
