// examples/testing/ (SPEC §19's helpers in a backend's own Vitest suite) run as its users
// run it, so it cannot rot: its own Vitest project (`vitest run --root examples/testing`,
// importing the built package by its name) passes, with the broken agent's case failing as
// expected, and its TypeScript project type-checks. Needs a build (`npm run build`).

import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const bin = (path: string) => fileURLToPath(new URL(`../../node_modules/${path}`, import.meta.url));

function run(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    const env = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", CI: "1" };
    execFile(process.execPath, args, { cwd: REPO, env }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
      done({ code, output: stdout + stderr });
    });
  });
}

it("examples/testing: its Vitest suite passes, the broken agent's case failing as expected", async () => {
  const { code, output } = await run([
    bin("vitest/vitest.mjs"),
    "run",
    "--root",
    "examples/testing",
    "--reporter",
    "verbose",
  ]);
  expect(output).toMatch(/Tests {2}3 passed \| 1 expected fail \(4\)/);
  expect(output).toContain("fails when a tool call's arguments come after its end");
  expect(code).toBe(0);
});

it("examples/testing: its TypeScript project type-checks (the matcher is typed)", async () => {
  expect(await run([bin("typescript/bin/tsc"), "-p", "examples/testing"])).toEqual({
    code: 0,
    output: "",
  });
});
