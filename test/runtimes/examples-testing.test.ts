// examples/testing/ (SPEC §19's helpers in a backend's own Vitest suite) run as its users
// run it, so it cannot rot: its own Vitest project (`vitest run --root examples/testing`,
// importing the built package by its name) passes, with the broken agent's case failing as
// expected, and its TypeScript project type-checks. Needs a build (`npm run build`).
//
// The example is its own npm project (examples/testing/package.json). Here the package is
// linked into its node_modules (as `npm link` would), and its other dependencies resolve to
// the repository's; scripts/check-examples.mjs, run by .ci/run, installs it from scratch
// instead, from the packed tarball and the registry.

import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const EXAMPLE = fileURLToPath(new URL("../../examples/testing/", import.meta.url));
const json = (path: string) => JSON.parse(readFileSync(path, "utf8"));

beforeAll(() => {
  const modules = `${EXAMPLE}node_modules`;
  rmSync(modules, { recursive: true, force: true });
  mkdirSync(modules);
  symlinkSync(REPO, `${modules}/ag-ui-verify`, "dir");
  return () => rmSync(modules, { recursive: true, force: true });
});
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

it("examples/testing pins what the repository tests with, and rxjs as @ag-ui/client pins it", () => {
  // A second rxjs next to the client's (npm i rxjs gives the newest) makes two Observable
  // types, and `tsc` rejects the agent's run() (TS2416): the example pins the client's.
  const example = json(`${EXAMPLE}package.json`).devDependencies;
  const root = json(`${REPO}/package.json`);
  const client = json(`${REPO}/node_modules/@ag-ui/client/package.json`);
  expect(example.rxjs).toBe(client.dependencies.rxjs);
  for (const name of ["@ag-ui/client", "rxjs", "typescript"])
    expect(example[name], name).toBe(root.devDependencies[name]);
  expect(example.vitest).toBe(`^${root.devDependencies.vitest}`);
  expect(example["ag-ui-verify"]).toBe(`^${root.version}`);
  // The README's install line installs the same pins.
  const readme = readFileSync(`${EXAMPLE}README.md`, "utf8");
  const installs = [...readme.matchAll(/`npm i(?:nstall)? ([^`]*)`/g)].map((m) => m[1] ?? "");
  expect(installs.length).toBeGreaterThan(0);
  for (const line of installs.filter((l) => /\brxjs\b/.test(l)))
    expect(line).toContain(`rxjs@${client.dependencies.rxjs}`);
});
