// Issue 27 row 13 (a) and (b): `--help` fits one screen (usage, the most used options, where
// the rest is) and `--help-all` is the whole help; a misspelt flag, reporter or code gets
// the closest known one suggested, only when one is close.

import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli } from "./cli-run.ts";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const cli = (args: readonly string[]) => runCli(args, { cwd: REPO });

/** The long flags a help text names. */
const flagsOf = (text: string) => new Set(text.match(/(?<![\w-])--[a-z][a-z-]*/g));

describe("--help and --help-all", () => {
  it("--help fits one screen: at most 24 lines of at most 80 columns", async () => {
    const { code, stdout, stderr } = await cli(["--help"]);
    expect(code).toBe(0);
    expect(stderr).toBe("");
    const lines = stdout.trimEnd().split("\n");
    expect(lines.length).toBeLessThanOrEqual(24);
    expect(lines.filter((line) => line.length > 80)).toEqual([]);
    expect((await cli(["-h"])).stdout).toBe(stdout);
  });

  it("--help has the usage, the most used options, the rule pages and a pointer to --help-all", async () => {
    const { stdout } = await cli(["--help"]);
    for (const text of [
      "Usage:",
      "ag-ui-verify [options] <capture>...",
      "--url <url>",
      "--strict",
      "--reporter <name>",
      "--output <file>",
      "--fail-on <level>",
      "--severity <CODE=level>",
      "docs/rules.md#<code in lower case>",
      "ag-ui-verify --help-all",
    ]) {
      expect(stdout).toContain(text);
    }
  });

  it("--help-all is the whole help: every flag of --help and the rest, the rules, the exit status", async () => {
    const short = (await cli(["--help"])).stdout;
    const all = await cli(["--help-all"]);
    expect(all.code).toBe(0);
    expect(all.stdout.split("\n").length).toBeGreaterThan(100);
    const flags = flagsOf(all.stdout);
    expect([...flagsOf(short)].filter((flag) => !flags.has(flag))).toEqual([]);
    for (const flag of ["--ext", "--format", "--jobs", "--max-ids", "--max-buffer-size"]) {
      expect(flags).toContain(flag);
    }
    expect(all.stdout).toContain("Exit status:");
    expect(all.stdout).toContain("  13. Every started subagent");
    // As with --help: an unknown flag is still a usage error; other arguments are ignored.
    expect((await cli(["--help-all", "--bogus-later"])).code).toBe(2);
    expect((await cli(["nope.sse", "--help-all"])).stdout).toBe(all.stdout);
  });
});

describe("a misspelt flag: did you mean …?", () => {
  it.each([
    [["--reportr", "sarif", "x.sse"], '"--reportr": did you mean --reporter?'],
    [["--reportr=sarif", "x.sse"], '"--reportr": did you mean --reporter?'],
    [["--strcit", "x.sse"], '"--strcit": did you mean --strict?'],
    [["--jsn", "x.sse"], '"--jsn": did you mean --json?'],
    [["--help-al"], '"--help-al": did you mean --help-all?'],
    [["--no-colour", "x.sse"], '"--no-colour": did you mean --no-color?'],
    [["--ouput", "o.txt", "x.sse"], '"--ouput": did you mean --output?'],
    [["-reporter", "sarif", "x.sse"], '"-reporter": did you mean --reporter?'],
    [["--fail", "warning", "x.sse"], '"--fail": did you mean --fail-on?'],
  ])("%j", async (args, message) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`ag-ui-verify: unknown option ${message} (see --help)\n`);
  });

  it.each([
    ["--verbose", "--verbose"],
    ["--zzz", "--zzz"],
    ["-x", "-x"],
    ["a flag of 100,000 characters", `--${"a".repeat(100_000)}`],
  ])("%s is far from every flag: no suggestion", async (_name, flag) => {
    const r = await cli([flag, "x.sse"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^ag-ui-verify: unknown option "[^"]*" \(see --help\)\n$/);
  });

  it("names the closest reporter and code too, and --json carries the suggestion", async () => {
    const reporter = await cli(["--reporter", "sarf", "x.sse"]);
    expect(reporter.stderr).toContain(
      'unknown reporter "sarf"; expected one of text, ndjson, junit, sarif, github, html: did you mean sarif?',
    );
    const code = await cli(["--severity", "RUN_ID_MISMTACH=off", "x.sse"]);
    expect(code.stderr).toContain(
      '--severity "RUN_ID_MISMTACH=off": unknown code "RUN_ID_MISMTACH"; did you mean RUN_ID_MISMATCH?',
    );
    const far = await cli(["--severity", "BOGUS=off", "x.sse"]);
    expect(far.stderr).toContain('unknown code "BOGUS"; the codes are in docs/rules.md');
    const json = await cli(["--json", "--strcit", "x.sse"]);
    expect(JSON.parse(json.stdout)).toEqual({
      valid: false,
      usageError: 'unknown option "--strcit": did you mean --strict? (see --help)',
    });
  });
});
