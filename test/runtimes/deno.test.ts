// The runtime cases under Deno (the npm `deno` binary): spawns `deno test test/deno/` against
// the local agent server, then reports one vitest test per case from Deno's output.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AgentServer, startAgentServer } from "../server/agent-server.ts";
import { caseNames, denoStatuses, denoSummary, type RunResult, root, run } from "./engine.ts";

const RUNTIME = "Deno";
const DENO = `${root}node_modules/.bin/deno`;
/** test/deno/runtime.test.ts adds one test of its own: that the engine is Deno. */
const EXTRA = ["engine is Deno"];

let server: AgentServer;
let result: RunResult;
let statuses: Map<string, string>;

beforeAll(async () => {
  server = await startAgentServer();
  result = await run(
    DENO,
    ["test", "--allow-net=127.0.0.1", "--allow-env=AGENT_URL", "test/deno/"],
    { AGENT_URL: server.url },
  );
  statuses = denoStatuses(result.output);
});

afterAll(async () => {
  await server?.close();
});

describe("Deno", () => {
  it("type-checks, exits 0 and reports every test passed", () => {
    const expected = caseNames.length + EXTRA.length;
    expect(
      { code: result.code, summary: denoSummary(result.output) },
      `deno test output:\n${result.output}`,
    ).toEqual({ code: 0, summary: { passed: expected, failed: 0 } });
  });

  it.each([...EXTRA, ...caseNames])("%s", (name) => {
    const status = statuses.get(name);
    const why =
      status === undefined
        ? `${RUNTIME} reported no result for this test (exit code ${result.code}); its output is in the first test`
        : `deno test output:\n${result.output}`;
    expect(status, why).toBe("ok");
  });
});
