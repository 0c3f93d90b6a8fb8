// The command on protobuf captures (SPEC §21.3): a .pb file told by its first byte, --format
// proto, and a HAR entry whose response is application/vnd.ag-ui.event+proto (its body
// base64, as browsers record binary bodies). The built command (dist/cli.js).

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeFrame } from "../../src/proto/index.ts";
import { runCli } from "./cli-run.ts";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ag-ui-verify-proto-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Ev = Record<string, unknown>;

const frames = (events: readonly Ev[]) => Buffer.concat(events.map(encodeFrame));

const RUN: Ev[] = [
  { type: "RUN_STARTED", threadId: "t", runId: "r" },
  { type: "TEXT_MESSAGE_START", messageId: "m", role: "assistant" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "hi" },
  { type: "TEXT_MESSAGE_END", messageId: "m" },
  { type: "RUN_FINISHED", threadId: "t", runId: "r" },
];

describe("the command on protobuf captures", () => {
  it("reads a .pb file by its first byte, and names frames in the text report", async () => {
    await writeFile(join(dir, "ok.pb"), frames(RUN));
    const ok = await runCli(["ok.pb"], { cwd: dir });
    expect(ok.code, ok.stderr).toBe(0);
    const broken = [...RUN.slice(0, 2), { type: "TOOL_CALL_END", toolCallId: "c" }];
    await writeFile(join(dir, "broken.bin"), frames(broken));
    const bad = await runCli(["broken.bin"], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain("frame 3");
    expect(bad.stdout).toContain("TOOL_CALL_NOT_OPEN");
    // A directory walk picks .pb and .bin files up by default.
    const walk = await runCli(["--reporter", "ndjson", "."], { cwd: dir });
    const inputs = walk.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((l) => l.input !== undefined);
    expect(inputs.map((i) => [i.name, i.input.format]).sort()).toEqual([
      ["broken.bin", "proto"],
      ["ok.pb", "proto"],
    ]);
  });

  it("reads --format proto, and reports a cut frame as PROTO_TRUNCATED", async () => {
    const bytes = frames(RUN);
    await writeFile(join(dir, "cut.data"), bytes.subarray(0, bytes.length - 3));
    const run = await runCli(["--format", "proto", "--reporter", "ndjson", "cut.data"], {
      cwd: dir,
    });
    const first = JSON.parse(run.stdout.split("\n")[0] ?? "{}");
    // The linter reads on after an error: the cut frame, then the run left open at the end.
    expect(first.findings.map((f: { code: string; line: number }) => [f.code, f.line])).toEqual([
      ["PROTO_TRUNCATED", 5],
      ["STREAM_ENDED_BEFORE_RUN_CLOSED", 6],
    ]);
    const wrong = await runCli(["--format", "xml", "cut.data"], { cwd: dir });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("expected sse, jsonl or proto");
  });

  it("reads a HAR entry whose response is protobuf, its body base64", async () => {
    const entry = (events: readonly Ev[], at: string) => ({
      startedDateTime: at,
      request: { method: "POST", url: "https://agent.test/run" },
      response: {
        status: 200,
        headers: [{ name: "Content-Type", value: "application/vnd.ag-ui.event+proto" }],
        content: {
          mimeType: "application/vnd.ag-ui.event+proto",
          size: frames(events).length,
          encoding: "base64",
          text: frames(events).toString("base64"),
        },
      },
    });
    const har = {
      log: {
        version: "1.2",
        entries: [
          entry(RUN, "2026-01-01T00:00:00.000Z"),
          entry(RUN.slice(0, 3), "2026-01-01T00:01:00.000Z"),
        ],
      },
    };
    await writeFile(join(dir, "session.har"), JSON.stringify(har));
    const run = await runCli(["--reporter", "ndjson", "session.har"], { cwd: dir });
    const lines = run.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    lines.pop();
    expect(
      lines.map((l) => [l.input.format, l.valid, l.findings.map((f: { code: string }) => f.code)]),
    ).toEqual([
      ["proto", true, []],
      ["proto", false, ["STREAM_ENDED_BEFORE_RUN_CLOSED"]],
    ]);
  });
});
