// Issue 27 row 13 (a): `--help` fits one screen (usage, the most used options, where the
// rest is) and `--help-all` is the whole help.

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
