// The size check CI runs (`npm run size:check`, issue 28): every bundle of bench/size-budgets.json
// within its budget passes; one byte over, or a bundle with no budget, fails. Needs a build.

import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const budgets: Record<string, number> = JSON.parse(
  readFileSync(path.join(ROOT, "bench/size-budgets.json"), "utf8"),
);

function sizeCheck(budgetFile?: string): Promise<{ code: number; output: string }> {
  const args = ["bench/size.bench.mjs", "--check"];
  if (budgetFile !== undefined) args.push(`--budgets=${budgetFile}`);
  return new Promise((done) => {
    execFile(process.execPath, args, { cwd: ROOT }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
      done({ code, output: stdout + stderr });
    });
  });
}

const withBudgets = (b: Record<string, number>) => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "size-")), "budgets.json");
  writeFileSync(file, JSON.stringify(b));
  return file;
};

/** The gzip bytes the check printed for `name`. */
const gzipOf = (output: string, name: string) => {
  const row = output.split("\n").find((l) => l.startsWith(`${name} `)) ?? "";
  return Number(
    row
      .trim()
      .split(/\s{2,}/)[2]
      ?.replaceAll(",", ""),
  );
};

describe("npm run size:check", () => {
  it("passes with the budgets of the repository, naming every bundle of ours", async () => {
    const { code, output } = await sizeCheck();
    expect(output).not.toMatch(/OVER BUDGET|NO BUDGET/);
    expect(code).toBe(0);
    for (const name of Object.keys(budgets))
      expect(gzipOf(output, name)).toBeLessThanOrEqual(budgets[name] ?? 0);
  });

  it("fails when a bundle is one byte over its budget, naming it", async () => {
    const first = await sizeCheck();
    const size = gzipOf(first.output, "{ verifiedEvents }");
    expect(size).toBeGreaterThan(1000);
    const { code, output } = await sizeCheck(
      withBudgets({ ...budgets, "{ verifiedEvents }": size - 1 }),
    );
    expect(output).toContain(
      `OVER BUDGET: { verifiedEvents } is ${size.toLocaleString("en-US")} B`,
    );
    expect(code).toBe(1);
  });

  it("fails when a bundle has no budget", async () => {
    const { "{ verifyAll }": _dropped, ...rest } = budgets;
    const { code, output } = await sizeCheck(withBudgets(rest));
    expect(output).toContain("NO BUDGET: { verifyAll }");
    expect(code).toBe(1);
  });
});
