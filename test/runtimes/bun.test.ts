// The runtime cases under Bun (the npm `bun` binary): spawns `bun test ./test/bun` against the
// local agent server, then reports one vitest test per case from Bun's output.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AgentServer, startAgentServer } from "../server/agent-server.ts";
import { bunStatuses, bunSummary, caseNames, type RunResult, root, run } from "./engine.ts";

const RUNTIME = "Bun";
const BUN = `${root}node_modules/.bin/bun`;
/** test/bun/runtime.test.ts adds one test of its own: that the engine is Bun. */
const EXTRA = ["engine is Bun"];

let server: AgentServer;
let result: RunResult;
let statuses: Map<string, string>;

beforeAll(async () => {
  server = await startAgentServer();
  // "./" makes it a path rather than a file-name filter; with no argument, bun would also pick
  // up the vitest files and test/deno.
  result = await run(BUN, ["test", "--timeout=15000", "./test/bun"], { AGENT_URL: server.url });
  statuses = bunStatuses(result.output);
});

afterAll(async () => {
  await server?.close();
});

describe("Bun", () => {
  it("exits 0 and reports every test passed", () => {
    const expected = caseNames.length + EXTRA.length;
    expect(
      { code: result.code, summary: bunSummary(result.output) },
      `bun test output:\n${result.output}`,
    ).toEqual({ code: 0, summary: { passed: expected, failed: 0 } });
  });

  it.each([...EXTRA, ...caseNames])("%s", (name) => {
    const status = statuses.get(name);
    const why =
      status === undefined
        ? `${RUNTIME} reported no result for this test (exit code ${result.code}); its output is in the first test`
        : `bun test output:\n${result.output}`;
    expect(status, why).toBe("pass");
  });
});
