// The command's request checks (SPEC §18.5, "(request)"): it reads each HAR entry's request
// body as the run's RunAgentInput and lints the entry's stream against it. The built
// command (dist/cli.js), run as a user runs it, on HAR files written here.

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./cli-run.ts";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ag-ui-verify-har-request-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Ev = Record<string, unknown>;

const sse = (events: readonly Ev[]) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("");

/** A HAR entry: a POST whose body is `request` (a string is sent as it is), answered by `events`. */
function entry(request: unknown, events: readonly Ev[], at: string) {
  return {
    startedDateTime: at,
    request: {
      method: "POST",
      url: "https://agent.test/run",
      ...(request === undefined
        ? {}
        : {
            postData: {
              mimeType: "application/json",
              text: typeof request === "string" ? request : JSON.stringify(request),
            },
          }),
    },
    response: {
      status: 200,
      headers: [{ name: "Content-Type", value: "text/event-stream" }],
      content: { mimeType: "text/event-stream", size: 1, text: sse(events) },
    },
  };
}

async function har(name: string, entries: readonly unknown[]): Promise<string> {
  await writeFile(join(dir, name), JSON.stringify({ log: { version: "1.2", entries } }));
  return name;
}

const input = (fields: Record<string, unknown>) => ({
  threadId: "t1",
  runId: "r1",
  state: {},
  messages: [],
  tools: [],
  context: [],
  forwardedProps: {},
  ...fields,
});

/** A run that calls `confirm`, answers it, and patches `/total`, on `threadId`/`runId`. */
const run = (threadId: string, runId: string): Ev[] => [
  { type: "RUN_STARTED", threadId, runId },
  { type: "STATE_DELTA", delta: [{ op: "replace", path: "/total", value: 2 }] },
  { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "confirm" },
  { type: "TOOL_CALL_END", toolCallId: "c1" },
  { type: "TOOL_CALL_RESULT", toolCallId: "c1", messageId: "tm1", content: "yes" },
  { type: "RUN_FINISHED", threadId, runId },
];

/** Each input's findings as [code, index, line] from the command's NDJSON report. */
async function findings(file: string): Promise<Array<Array<[string, number, number]>>> {
  const { code, stdout, stderr } = await runCli(["--reporter", "ndjson", file], { cwd: dir });
  expect(code, stderr).toBe(0);
  const lines = stdout
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));
  lines.pop(); // the summary
  return lines.map((i: { findings: Array<{ code: string; index: number; line: number }> }) =>
    i.findings.map((f) => [f.code, f.index, f.line]),
  );
}

describe("the command reads each HAR entry's request body (SPEC §18.5)", () => {
  it("checks each stream against its own request: frontend tools, baseline state, thread and run ids", async () => {
    const file = await har("requests.har", [
      // The producer answers its client's `confirm`, patches a state the request does not have.
      entry(
        input({
          state: { count: 1 },
          tools: [{ name: "confirm", description: "", parameters: {} }],
        }),
        run("t1", "r1"),
        "2026-01-01T00:00:00.000Z",
      ),
      // Another thread and run than the request's; no frontend tool, a state that fits.
      entry(
        input({ runId: "r2", state: { total: 1 } }),
        run("t9", "r1"),
        "2026-01-01T00:01:00.000Z",
      ),
    ]);
    expect(await findings(file)).toEqual([
      [
        ["STATE_DELTA_WRONG_BASELINE", 1, 3],
        ["FRONTEND_TOOL_ANSWERED", 4, 9],
      ],
      [
        ["THREAD_ID_MISMATCH", 0, 1],
        ["REQUESTED_RUN_ID_MISMATCH", 0, 1],
        ["THREAD_ID_MISMATCH", 5, 11],
      ],
    ]);
  });

  it("runs no request check for an entry without a JSON object body, nor for a stream that keeps its request", async () => {
    const file = await har("none.har", [
      entry(undefined, run("t1", "r1"), "2026-01-01T00:00:00.000Z"),
      entry("not json", run("t1", "r1"), "2026-01-01T00:01:00.000Z"),
      entry("[1,2]", run("t1", "r1"), "2026-01-01T00:02:00.000Z"),
      entry(input({ state: { total: 1 } }), run("t1", "r1"), "2026-01-01T00:03:00.000Z"),
    ]);
    expect(await findings(file)).toEqual([[], [], [], []]);
  });

  it("prints the request checks in the text report, like every other warning", async () => {
    const file = await har("text.har", [
      entry(input({ runId: "r2" }), run("t1", "r1"), "2026-01-01T00:00:00.000Z"),
    ]);
    const { code, stdout } = await runCli([file], { cwd: dir });
    expect(code).toBe(0);
    expect(stdout).toContain("REQUESTED_RUN_ID_MISMATCH  1 input (warning)");
    expect(stdout).toContain("The stream's last run is not the run the request asked for.");
    expect(stdout).toMatch(
      / {4}line 1 {2}text\.har: POST https:\/\/agent\.test\/run 2026-01-01T00:00:00\.000Z {2}\(runId\)/,
    );
  });
});
