// Issue 27 row 13 (c), (d), (e), (f): the command's reports for CI, and its summary of a
// corpus by folder. `--reporter github` appends a
// Markdown table of the inputs to $GITHUB_STEP_SUMMARY when it is set; JUnit classes each
// input by its folder; SARIF locates an absolute path below the working directory relative
// to it (SPEC §18.3) and any other as a file: URI.

import { mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./cli-run.ts";

let root: string;
/** The working directory of the runs, and a folder outside it. */
let work: string;
let outside: string;

const RUN = { type: "RUN_STARTED", threadId: "t", runId: "r" };
const END = { type: "RUN_FINISHED", threadId: "t", runId: "r" };
const sse = (events: readonly unknown[]) =>
  events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("");
const VALID = sse([RUN, END]);
const INVALID = sse([RUN, { type: "TEXT_MESSAGE_END", messageId: "m" }, END]);

async function write(path: string, text: string): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
  return path;
}

/** The command in the working directory, without $GITHUB_STEP_SUMMARY unless `env` sets it. */
function cli(args: readonly string[], env: Record<string, string> = {}) {
  const saved = process.env.GITHUB_STEP_SUMMARY;
  delete process.env.GITHUB_STEP_SUMMARY;
  try {
    return runCli(args, { cwd: work, env });
  } finally {
    if (saved !== undefined) process.env.GITHUB_STEP_SUMMARY = saved;
  }
}

beforeAll(async () => {
  // The real path: the command's working directory is one (macOS's /var is a link).
  root = await realpath(await mkdtemp(join(tmpdir(), "ag-ui-verify-ci-")));
  work = join(root, "work");
  outside = join(root, "outside");
  await write(join(work, "captures/langgraph/a.sse"), VALID);
  await write(join(work, "captures/langgraph/b.sse"), INVALID);
  await write(join(work, "captures/crewai/c.sse"), INVALID);
  await write(join(work, "top.sse"), VALID);
  await write(join(outside, "d.sse"), INVALID);
});

afterAll(async () => {
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

describe("the text summary of a corpus", () => {
  it("groups the inputs by folder, with counts and the codes of each", async () => {
    const r = await cli(["captures", "top.sse"]);
    expect(r.code).toBe(1);
    const from = r.stdout.indexOf("By folder");
    expect(from).toBeGreaterThan(-1);
    expect(r.stdout.slice(from, r.stdout.indexOf("\n\n", from)).split("\n")).toEqual([
      "By folder (each code: the inputs that have it)",
      "  captures/crewai  1 input: 0 valid, 1 invalid",
      "    ✘ TEXT_MESSAGE_NOT_OPEN 1",
      "  captures/langgraph  2 inputs: 1 valid, 1 invalid",
      "    ✘ TEXT_MESSAGE_NOT_OPEN 1",
      "  .  1 input: 1 valid, 0 invalid",
    ]);
  });
});

describe("--reporter junit", () => {
  it("classes each test case by its folder", async () => {
    const r = await cli(["--reporter", "junit", "captures", "top.sse"]);
    expect(r.code).toBe(1);
    const cases = [...r.stdout.matchAll(/<testcase name="([^"]*)" classname="([^"]*)"/g)];
    expect(cases.map((m) => [m[1], m[2]])).toEqual([
      ["captures/crewai/c.sse", "captures/crewai"],
      ["captures/langgraph/a.sse", "captures/langgraph"],
      ["captures/langgraph/b.sse", "captures/langgraph"],
      ["top.sse", "."],
    ]);
  });
});

describe("--reporter sarif", () => {
  it("writes an absolute path below the working directory relative to it, others as file: URIs", async () => {
    const inside = join(work, "captures/crewai/c.sse");
    const away = join(outside, "d.sse");
    const r = await cli(["--reporter", "sarif", inside, away, "captures/langgraph/b.sse"]);
    expect(r.code).toBe(1);
    const log = JSON.parse(r.stdout);
    const uris = log.runs[0].results.map(
      (result: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }) =>
        result.locations[0]?.physicalLocation.artifactLocation.uri,
    );
    expect(uris).toEqual([
      "captures/crewai/c.sse",
      pathToFileURL(away).href,
      "captures/langgraph/b.sse",
    ]);
  });
});

describe("--reporter github and $GITHUB_STEP_SUMMARY", () => {
  const PREVIOUS = "## An earlier step's summary\n";

  it("appends a Markdown table of the inputs, after what earlier steps wrote", async () => {
    const file = await write(join(root, "summary-1.md"), PREVIOUS);
    const plain = await cli(["--reporter", "github", "captures", "top.sse"]);
    const r = await cli(["--reporter", "github", "captures", "top.sse"], {
      GITHUB_STEP_SUMMARY: file,
    });
    expect(r.code).toBe(1);
    // The annotations and the summary on stdout are the same as without it.
    expect(r.stdout.replace(/\d[\d,.]* (ms|s)\b.*$/m, "")).toBe(
      plain.stdout.replace(/\d[\d,.]* (ms|s)\b.*$/m, ""),
    );
    expect(r.stderr).toBe(plain.stderr);
    const text = await readFile(file, "utf8");
    expect(text).toBe(
      [
        PREVIOUS.trimEnd(),
        "",
        "### ag-ui-verify: 2 of 4 inputs invalid",
        "",
        "| Input | Verdict | Errors | Warnings |",
        "| :-- | :-- | --: | --: |",
        "| captures\\/crewai\\/c\\.sse | ✘ invalid | 1 | 0 |",
        "| captures\\/langgraph\\/a\\.sse | ✔ valid | 0 | 0 |",
        "| captures\\/langgraph\\/b\\.sse | ✘ invalid | 1 | 0 |",
        "| top\\.sse | ✔ valid | 0 | 0 |",
        "",
        "4 inputs: 2 valid, 2 invalid, 0 unreadable; 2 errors, 0 warnings.",
        "",
      ].join("\n"),
    );
  });

  it("appends for one input too, and an unreadable input is a row", async () => {
    const file = await write(join(root, "summary-2.md"), "");
    await cli(["--reporter", "github", "top.sse"], { GITHUB_STEP_SUMMARY: file });
    await cli(["--reporter", "github", "top.sse", "nope.sse"], { GITHUB_STEP_SUMMARY: file });
    const text = await readFile(file, "utf8");
    expect(text.match(/^### ag-ui-verify: .*$/gm)).toEqual([
      "### ag-ui-verify: the input is valid",
      "### ag-ui-verify: 1 of 2 inputs unreadable",
    ]);
    expect(text).toContain("| nope\\.sse | ! unreadable | – | – |\n");
  });

  it("writes nothing when it is unset or empty, or for another reporter", async () => {
    const file = await write(join(root, "summary-3.md"), PREVIOUS);
    await cli(["--reporter", "github", "top.sse"], { GITHUB_STEP_SUMMARY: "" });
    await cli(["top.sse"], { GITHUB_STEP_SUMMARY: file });
    await cli(["--reporter", "sarif", "top.sse"], { GITHUB_STEP_SUMMARY: file });
    expect(await readFile(file, "utf8")).toBe(PREVIOUS);
    await cli(["--reporter", "github", "top.sse"]);
    await expect(stat(join(work, "undefined"))).rejects.toThrow();
  });

  it("a step summary that cannot be written is an I/O problem: one line, exit 2, the report still out", async () => {
    const r = await cli(["--reporter", "github", "top.sse", "captures"], {
      GITHUB_STEP_SUMMARY: join(root, "no-such-folder", "summary.md"),
    });
    expect(r.code).toBe(2);
    expect(r.stdout).toContain("Checked 4 inputs");
    expect(r.stderr).toContain(
      `ag-ui-verify: cannot append to $GITHUB_STEP_SUMMARY ${JSON.stringify(join(root, "no-such-folder", "summary.md"))}: no such file\n`,
    );
  });
});
