// The linter and the test helpers on protobuf input (SPEC §21.3): with { protobuf }, frames
// are linted as SSE messages are, each finding placed at its frame (line counts frames,
// offset is the frame's first byte). Web-standard only.

import { describe, expect, it } from "vitest";
import { lintStream } from "../src/lint/index.ts";
import { PROTO_MEDIA_TYPE, protobuf } from "../src/proto/index.ts";
import { lintText } from "../src/report/lint-text.ts";
import { assertValidStream } from "../src/testing/index.ts";
import { protoBody } from "./support/proto-events.ts";

type Rec = Record<string, unknown>;

const RUN: Rec[] = [
  { type: "RUN_STARTED", threadId: "t", runId: "r" },
  { type: "TEXT_MESSAGE_START", messageId: "m", role: "assistant" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "hi" },
  { type: "TEXT_MESSAGE_END", messageId: "m" },
  { type: "RUN_FINISHED", threadId: "t", runId: "r" },
];

describe("lintStream on protobuf frames", () => {
  it("lints bytes that start with a frame, and a protobuf Response, given { protobuf }", async () => {
    const bytes = protoBody(RUN);
    const report = await lintStream(bytes, { protobuf });
    expect(report).toMatchObject({ valid: true, errors: 0, events: 5 });
    expect(report.input).toEqual({ format: "proto", bytes: bytes.length });
    const response = new Response(bytes, { headers: { "content-type": PROTO_MEDIA_TYPE } });
    expect(await lintStream(response, { protobuf })).toMatchObject({ valid: true, events: 5 });
  });

  it("places each finding at its frame: line counts frames, offset is the frame's first byte", async () => {
    const broken = [
      ...RUN.slice(0, 2),
      { type: "TOOL_CALL_END", toolCallId: "c" },
      ...RUN.slice(2),
    ];
    const report = await lintStream(protoBody(broken), { protobuf });
    const error = report.findings.find((f) => f.severity === "error");
    expect(error).toMatchObject({
      code: "TOOL_CALL_NOT_OPEN",
      index: 2,
      line: 3,
      offset: protoBody(broken.slice(0, 2)).length,
    });
    const text = lintText({ name: "run.pb", report });
    expect(text).toContain("frame 3");
    expect(text).toContain(
      `At frame 3, byte offset ${protoBody(broken.slice(0, 2)).length}, where the offending frame starts.`,
    );
  });

  it("reports a body cut inside a frame, and warns of a frame it drops", async () => {
    const bytes = protoBody(RUN);
    const cut = await lintStream(bytes.slice(0, bytes.length - 2), { protobuf });
    expect(cut.findings).toContainEqual(
      expect.objectContaining({ code: "PROTO_TRUNCATED", index: 4, line: 5 }),
    );
    const future = Uint8Array.of(0, 0, 0, 3, 0x9a, 0x06, 0);
    const withFuture = new Uint8Array([
      ...protoBody(RUN.slice(0, 1)),
      ...future,
      ...protoBody(RUN.slice(1)),
    ]);
    const report = await lintStream(withFuture, { protobuf });
    expect(report.valid).toBe(true);
    expect(report.findings).toEqual([
      expect.objectContaining({
        code: "UNKNOWN_EVENT_DROPPED",
        severity: "warning",
        index: 1,
        line: 2,
      }),
    ]);
  });

  it("without { protobuf }, rejects a protobuf Response saying what to pass, and reads bare bytes as SSE", async () => {
    const response = new Response(protoBody(RUN), {
      headers: { "content-type": PROTO_MEDIA_TYPE },
    });
    await expect(lintStream(response)).rejects.toThrow(
      "the input is protobuf frames: pass { protobuf } from ag-ui-verify/proto to lint it",
    );
    const report = await lintStream(protoBody(RUN));
    expect(report.input?.format).toBe("sse");
    expect(report.valid).toBe(false);
  });

  it("rejects a value it cannot read with a TypeError naming it (a Node.js stream)", async () => {
    const readable = { pipe() {}, on() {} };
    await expect(lintStream(readable as never)).rejects.toThrow(
      /lintStream reads a ReadableStream, a Response, a string or a Uint8Array; got a Node\.js stream/,
    );
  });
});

describe("the test helpers on protobuf bodies", () => {
  it("pass a valid protobuf Response and fail a broken one with the report", async () => {
    const ok = new Response(protoBody(RUN), { headers: { "content-type": PROTO_MEDIA_TYPE } });
    await expect(assertValidStream(ok, { protobuf })).resolves.toMatchObject({
      valid: true,
      events: 5,
    });
    const broken = new Response(protoBody(RUN.slice(0, 3)), {
      headers: { "content-type": PROTO_MEDIA_TYPE },
    });
    await expect(assertValidStream(broken, { protobuf })).rejects.toThrow(
      /STREAM_ENDED_BEFORE_RUN_CLOSED/,
    );
  });
});
