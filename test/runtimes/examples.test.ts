// The command-line examples, run as their users run them, against the local agent server:
// examples/node/print-run.mjs (Node, importing the built package by its name) and
// examples/deno/print-run.ts (the npm `deno` binary, importing src/).
// The browser example runs in test/runtimes/chromium.test.ts, the Worker in workerd.test.ts.

import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VIOLATION_PREFIX, validRun } from "../runtime/cases.ts";
import { type AgentServer, startAgentServer } from "../server/agent-server.ts";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const DENO = fileURLToPath(new URL("../../node_modules/.bin/deno", import.meta.url));

/** What print-run prints for `events`: each message's text on its own line. */
function printed(events: readonly { type: string }[]): string {
  let out = "";
  for (const event of events as { type: string; delta?: string }[]) {
    if (event.type === "TEXT_MESSAGE_CONTENT") out += event.delta;
    if (event.type === "TEXT_MESSAGE_END") out += "\n";
  }
  return out;
}

type Outcome = { code: number; stdout: string; stderr: string };

function run(command: string, args: string[]): Promise<Outcome> {
  return new Promise((done) => {
    execFile(
      command,
      args,
      { cwd: REPO, env: { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        // `deno run --check` reports `Check <file>` on stderr when it type-checks.
        done({ code, stdout, stderr: stderr.replace(/^Check .*\n/gm, "") });
      },
    );
  });
}

let server: AgentServer;
beforeAll(async () => {
  server = await startAgentServer();
});
afterAll(() => server?.close());

const scripts: [string, (url: string) => Promise<Outcome>][] = [
  [
    "examples/node/print-run.mjs",
    (url) => run(process.execPath, ["examples/node/print-run.mjs", url]),
  ],
  [
    "examples/deno/print-run.ts",
    (url) =>
      run(DENO, ["run", "--check", "--allow-net=127.0.0.1", "examples/deno/print-run.ts", url]),
  ],
];

describe.each(scripts)("%s", (_, printRun) => {
  it("prints a run's text as it streams", async () => {
    const result = await printRun(`${server.url}/run/valid?chunk=32&delay=2`);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(printed(validRun()));
    expect(result.code).toBe(0);
  });

  it("prints the text before a violation, then the VerifyError, and fails", async () => {
    const result = await printRun(`${server.url}/run/violation`);
    // m1 ended just before the violation: its line is complete.
    expect(result.stdout.trim()).toBe(printed(validRun().slice(0, VIOLATION_PREFIX)).trim());
    expect(result.stderr).toMatch(/broken stream: VerifyError.*TEXT_MESSAGE_CONTENT/s);
    expect(result.code).toBe(1);
  });

  it("fails on an HTTP error", async () => {
    const result = await printRun(`${server.url}/status/502`);
    expect(result.stdout.trim()).toBe("");
    expect(result.stderr).toContain("failed: HttpError: POST");
    expect(result.stderr).toContain("502");
    expect(result.code).toBe(1);
  });
});
