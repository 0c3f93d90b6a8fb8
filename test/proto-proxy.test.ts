// verifyResponse and verifyingFetch on a protobuf body (SPEC §21.3): frame-exact for an
// accepted stream under every chunking, a frame released only once verified, and on a
// violation the frames before it, then the error or a marked RUN_ERROR frame under §16's
// phase rule. Web-standard only.

import { decode } from "@ag-ui/proto";
import { describe, expect, it } from "vitest";
import { verifyingFetch, verifyResponse } from "../src/index.ts";
import { encodeFrame, PROTO_MEDIA_TYPE, protobuf } from "../src/proto/index.ts";
import { joinBytes, protoBody } from "./support/proto-events.ts";
import { collect, fromChunks } from "./support/streams.ts";

type Rec = Record<string, unknown>;

const RUN: Rec[] = [
  { type: "RUN_STARTED", threadId: "t", runId: "r" },
  { type: "TEXT_MESSAGE_START", messageId: "m", role: "assistant" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "héllo 🚀" },
  { type: "TEXT_MESSAGE_END", messageId: "m" },
  { type: "RUN_FINISHED", threadId: "t", runId: "r" },
];

function upstream(chunks: readonly Uint8Array[], type = PROTO_MEDIA_TYPE): Response {
  return new Response(fromChunks(chunks), { headers: { "content-type": type } });
}

/** `bytes` in pieces of `size`. */
function pieces(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.slice(at, at + size));
  return out;
}

/** The frames of a body, decoded with @ag-ui/proto. */
function framesOf(bytes: Uint8Array): Rec[] {
  const out: Rec[] = [];
  let at = 0;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  while (at < bytes.length) {
    const length = view.getUint32(at);
    out.push(decode(bytes.subarray(at + 4, at + 4 + length)) as unknown as Rec);
    at += 4 + length;
  }
  return out;
}

async function served(response: Response) {
  const got = await collect(response.body ?? new ReadableStream());
  return { bytes: joinBytes(got.values as Uint8Array[]), error: got.error };
}

describe("verifyResponse with { protobuf }", () => {
  it("re-serves an accepted stream's bytes exactly, whatever the chunking, with its content type byte for byte", async () => {
    const bytes = protoBody(RUN);
    for (const size of [1, 2, 3, 5, 8, 13, bytes.length]) {
      const type = "application/vnd.ag-ui.event+proto; charset=binary";
      const response = verifyResponse(upstream(pieces(bytes, size), type), { protobuf });
      expect(response.headers.get("content-type")).toBe(type);
      const out = await served(response);
      expect(out.error).toBeUndefined();
      expect([...out.bytes]).toEqual([...bytes]);
    }
  });

  it("releases a frame only once it is whole and verified", async () => {
    const bytes = protoBody(RUN);
    const first = encodeFrame(RUN[0] as Rec).length;
    let push: ((b: Uint8Array) => void) | undefined;
    const source = new ReadableStream<Uint8Array>({
      start(c) {
        push = (b) => c.enqueue(b);
      },
    });
    const response = verifyResponse(
      new Response(source, { headers: { "content-type": PROTO_MEDIA_TYPE } }),
      { protobuf },
    );
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    // The first frame and half the second: only the first comes out.
    push?.(bytes.slice(0, first + 5));
    const out = await reader.read();
    expect(out.value?.length).toBe(first);
    void reader.cancel();
  });

  it("ends a broken stream at the last verified frame, then errors (default) or appends a marked RUN_ERROR frame", async () => {
    const broken = [
      ...RUN.slice(0, 2),
      { type: "TEXT_MESSAGE_CONTENT", messageId: "x", delta: "?" },
      ...RUN.slice(2),
    ];
    const bytes = protoBody(broken);
    const before = protoBody(broken.slice(0, 2));
    for (const size of [1, 7, bytes.length]) {
      const plain = await served(verifyResponse(upstream(pieces(bytes, size)), { protobuf }));
      expect([...plain.bytes]).toEqual([...before]);
      expect(plain.error).toMatchObject({
        name: "VerifyError",
        code: "TEXT_MESSAGE_NOT_OPEN",
        index: 2,
      });
      const marked = await served(
        verifyResponse(upstream(pieces(bytes, size)), { protobuf, onViolation: "run-error" }),
      );
      expect(marked.error).toBeUndefined();
      const frames = framesOf(marked.bytes);
      expect(frames.slice(0, 2)).toEqual(broken.slice(0, 2));
      expect(frames[2]).toMatchObject({
        type: "RUN_ERROR",
        code: "AG_UI_VERIFY_TEXT_MESSAGE_NOT_OPEN",
      });
      expect(String(frames[2]?.message)).toMatch(
        /^ag-ui-verify rejected the stream: TEXT_MESSAGE_CONTENT at index 2/,
      );
      expect(frames).toHaveLength(3);
    }
  });

  it("turns a body cut inside a frame, or between frames mid-run, into a failed run", async () => {
    const bytes = protoBody(RUN);
    const four = protoBody(RUN.slice(0, 4)).length;
    for (const end of [four, four + 2, four + 7]) {
      const out = await served(
        verifyResponse(upstream([bytes.slice(0, end)]), { protobuf, onViolation: "run-error" }),
      );
      const frames = framesOf(out.bytes);
      expect(frames.slice(0, 4)).toEqual(RUN.slice(0, 4));
      expect(frames[4]).toMatchObject({
        type: "RUN_ERROR",
        code:
          end === four
            ? "AG_UI_VERIFY_STREAM_ENDED_BEFORE_RUN_CLOSED"
            : "AG_UI_VERIFY_PROTO_TRUNCATED",
      });
    }
  });

  it("appends nothing after the producer's own RUN_ERROR (SPEC §16's phase rule)", async () => {
    const failed = [
      RUN[0] as Rec,
      { type: "RUN_ERROR", message: "boom" },
      { type: "STEP_STARTED", stepName: "after" },
    ];
    const out = await served(
      verifyResponse(upstream([protoBody(failed)]), { protobuf, onViolation: "run-error" }),
    );
    expect(framesOf(out.bytes)).toEqual(failed.slice(0, 2));
  });

  it("returns a protobuf response untouched without { protobuf }, as any other content type", () => {
    const response = upstream([protoBody(RUN)]);
    expect(verifyResponse(response)).toBe(response);
  });

  it("bounds the appended RUN_ERROR frame, whatever the message", async () => {
    const id = "x".repeat(100_000);
    const broken = [RUN[0] as Rec, { type: "TEXT_MESSAGE_END", messageId: id }];
    const out = await served(
      verifyResponse(upstream([protoBody(broken)]), { protobuf, onViolation: "run-error" }),
    );
    const all = framesOf(out.bytes);
    expect(all[1]).toMatchObject({ type: "RUN_ERROR" });
    expect(out.bytes.length - encodeFrame(RUN[0] as Rec).length).toBeLessThanOrEqual(4096);
  });
});

describe("verifyingFetch with { protobuf }", () => {
  it("verifies protobuf responses and hands others back untouched", async () => {
    const broken = [RUN[0] as Rec, { type: "TEXT_MESSAGE_END", messageId: "m" }];
    const fetch = verifyingFetch({ protobuf, fetch: async () => upstream([protoBody(broken)]) });
    const out = await served(await fetch("https://agent.test/run"));
    expect(framesOf(out.bytes)[1]).toMatchObject({ code: "AG_UI_VERIFY_TEXT_MESSAGE_NOT_OPEN" });
    const json = new Response("{}", { headers: { "content-type": "application/json" } });
    expect(
      await verifyingFetch({ protobuf, fetch: async () => json })("https://agent.test/run"),
    ).toBe(json);
  });
});
