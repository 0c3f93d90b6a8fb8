// AG-UI over protobuf (SPEC §21): the wire tables generated from @ag-ui/proto 1.0.0, the
// differential against its encode and decode, and the framing of ProtoDecoderStream.

import { readFileSync } from "node:fs";
import { decode, encode } from "@ag-ui/proto";
import { describe, expect, it, vi } from "vitest";
import { generate, OUTPUT } from "../scripts/gen-proto.mjs";
import { isVerifyError, VerifyingTransformStream } from "../src/index.ts";
import { decodeEvent, encodeEvent } from "../src/proto/events.ts";
import {
  encodeFrame,
  ProtoDecodeFailure,
  ProtoDecoderStream,
  ProtoEncoderStream,
} from "../src/proto/index.ts";
import { PROTO_TYPES, protoBody, protoEvents } from "./support/proto-events.ts";
import { collect, fromChunks } from "./support/streams.ts";

type Rec = Record<string, unknown>;

/** @ag-ui/proto's encode and decode, their warnings (a part without a wire form) silenced. */
function quietly<T>(run: () => T): T {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  try {
    return run();
  } finally {
    warn.mockRestore();
  }
}

describe("the wire tables", () => {
  it("are what scripts/gen-proto.mjs writes from the installed @ag-ui/proto (npm run gen:proto)", () => {
    expect(readFileSync(OUTPUT, "utf8")).toBe(generate());
  });
});

describe("against @ag-ui/proto 1.0.0 (SPEC §21.1: the same bytes, the same objects)", () => {
  const events = protoEvents(2026, 12_000);

  it("generates every type protobuf carries", () => {
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(PROTO_TYPES));
    expect(PROTO_TYPES).toHaveLength(31);
  });

  // 12,000 events through both libraries: 2-4 s on an idle machine, several times that on a
  // busy one, so it gets its own bound rather than the 5 s default.
  it("writes the bytes its encode writes, and reads its bytes as its decode does, on 12,000 events", {
    timeout: 60_000,
  }, () => {
    quietly(() => {
      for (const event of events) {
        const theirs = encode(event as never);
        const ours = encodeEvent(event);
        expect(Buffer.from(ours).equals(Buffer.from(theirs)), JSON.stringify(event)).toBe(true);
        expect(decodeEvent(theirs), JSON.stringify(event)).toEqual(decode(theirs));
      }
    });
  });

  it("frames each event as a 4-byte big-endian length and the Event message", () => {
    const event = events[0] as Rec;
    const frame = encodeFrame(event);
    const message = encodeEvent(event);
    expect(new DataView(frame.buffer).getUint32(0)).toBe(message.length);
    expect([...frame.subarray(4)]).toEqual([...message]);
  });
});

/** `bytes` cut at `cuts` (sorted offsets). */
function cut(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let from = 0;
  for (const at of [...cuts, bytes.length]) {
    out.push(bytes.slice(from, at));
    from = at;
  }
  return out;
}

const RUN: Rec[] = [
  { type: "RUN_STARTED", threadId: "t", runId: "r" },
  { type: "TEXT_MESSAGE_START", messageId: "m", role: "assistant" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "héllo 🚀" },
  { type: "TEXT_MESSAGE_END", messageId: "m" },
  { type: "RUN_FINISHED", threadId: "t", runId: "r" },
];

async function decoded(chunks: readonly Uint8Array[], options = {}) {
  return collect(fromChunks(chunks).pipeThrough(new ProtoDecoderStream(options)));
}

describe("ProtoDecoderStream", () => {
  // 1.1 basic/transports/http-protobuf: "A consumer MUST tolerate frames split across
  // transport chunks and multiple frames within one chunk."
  it("gives the same events however the body is cut: one chunk, a byte at a time, at random", async () => {
    const bytes = protoBody(RUN);
    const whole = await decoded([bytes]);
    expect(whole.values).toEqual(RUN.map((e) => decodeEvent(encodeEvent(e))));
    const bytewise = await decoded(
      cut(
        bytes,
        Array.from({ length: bytes.length - 1 }, (_, i) => i + 1),
      ),
    );
    expect(bytewise.values).toEqual(whole.values);
    for (let seed = 1; seed < 50; seed++) {
      const cuts = [
        ...new Set(Array.from({ length: 5 }, (_, i) => (seed * 7919 * (i + 1)) % bytes.length)),
      ]
        .filter((c) => c > 0)
        .sort((a, b) => a - b);
      expect((await decoded(cut(bytes, cuts))).values).toEqual(whole.values);
    }
  });

  // 1.1: "A body that ends mid-frame is a truncated run."
  it("reports a body that ends inside a frame, at every byte offset of it, as PROTO_TRUNCATED after the frames before", async () => {
    const bytes = protoBody(RUN);
    const last = encodeFrame(RUN[4] as Rec).length;
    const start = bytes.length - last;
    for (let end = start + 1; end < bytes.length; end++) {
      const got = await decoded([bytes.slice(0, end)]);
      expect(got.values.slice(0, 4)).toEqual(
        RUN.slice(0, 4).map((e) => decodeEvent(encodeEvent(e))),
      );
      const failure = got.values[4];
      expect(failure).toBeInstanceOf(ProtoDecodeFailure);
      expect(failure).toMatchObject({ code: "PROTO_TRUNCATED", offset: start });
      expect((failure as ProtoDecodeFailure).text).toContain(
        end - start < 4
          ? `(${end - start} of its 4 bytes arrived)`
          : `(${end - start - 4} of its ${last - 4} bytes arrived)`,
      );
      expect(got.values).toHaveLength(5);
    }
  });

  it("reports a frame longer than maxFrameSize as soon as its length arrives, before buffering any of it", async () => {
    const stream = new ProtoDecoderStream({ maxFrameSize: 64 });
    const writer = stream.writable.getWriter();
    const reader = stream.readable.getReader();
    void writer.write(protoBody(RUN.slice(0, 1)));
    expect((await reader.read()).value).toMatchObject({ type: "RUN_STARTED" });
    // A frame declaring 1,000 bytes: only its length is sent, and the body never ends.
    void writer.write(Uint8Array.of(0, 0, 3, 232));
    const failure = (await reader.read()).value;
    expect(failure).toBeInstanceOf(ProtoDecodeFailure);
    expect(failure).toMatchObject({
      code: "PROTO_FRAME_TOO_LARGE",
      offset: protoBody(RUN.slice(0, 1)).length,
    });
    expect((failure as ProtoDecodeFailure).text).toContain(
      "declares 1,000 bytes, more than maxFrameSize allows (64",
    );
    expect(() => new ProtoDecoderStream({ maxFrameSize: 3 })).toThrow(TypeError);
  });

  // 1.1: "A frame whose bytes do not decode as a message is malformed transport material
  // and fatal to the stream."
  it("reports a frame that is not an Event as PROTO_DECODE_FAILED, and reads nothing after it", async () => {
    const garbage = Uint8Array.of(0, 0, 0, 3, 0xff, 0xff, 0xff);
    const got = await decoded([protoBody(RUN.slice(0, 1)), garbage, protoBody(RUN.slice(1))]);
    expect(got.values).toHaveLength(2);
    expect(got.values[1]).toMatchObject({
      code: "PROTO_DECODE_FAILED",
      offset: protoBody(RUN.slice(0, 1)).length,
    });
  });

  it("fails an envelope with two different events, a base type that contradicts the arm, an empty frame", async () => {
    const start = encodeEvent(RUN[0] as Rec);
    const end = encodeEvent(RUN[4] as Rec);
    const two = new Uint8Array([...start, ...end]);
    // RUN_STARTED's arm (12) holding a base event that says RUN_FINISHED (12 in EventType).
    const lying = encodeEvent({ type: "RUN_STARTED", threadId: "t", runId: "r" });
    const base = lying.indexOf(0x08); // the base event's type tag
    const liar = lying.slice();
    liar[base + 1] = 12;
    for (const payload of [two, liar, new Uint8Array(0)]) {
      const frame = new Uint8Array(payload.length + 4);
      new DataView(frame.buffer).setUint32(0, payload.length);
      frame.set(payload, 4);
      const got = await decoded([frame]);
      expect(got.values[0]).toMatchObject({ code: "PROTO_DECODE_FAILED" });
    }
  });

  // 1.1: "An *event* whose envelope arm this build predates carries no type string to hand
  // onward, so the binding drops the frame with a warning"; "A *field* this build's wire
  // schema predates is skipped by protobuf decoding itself, silently".
  it("drops a frame that sets only an Event variant it does not know, with a warning, and ignores an unknown field beside a known one", async () => {
    const warnings: unknown[] = [];
    // Field 99, length-delimited, holding a well-formed message (field 1 = "x").
    const future = Uint8Array.of(0, 0, 0, 6, 0x9a, 0x06, 3, 0x0a, 1, 0x78);
    const known = encodeEvent(RUN[0] as Rec);
    const beside = new Uint8Array([...known, 0x9a, 0x06, 0]);
    const frame = new Uint8Array(beside.length + 4);
    new DataView(frame.buffer).setUint32(0, beside.length);
    frame.set(beside, 4);
    const got = await decoded([frame, future, protoBody(RUN.slice(1))], {
      onWarning: (w: unknown) => warnings.push(w),
    });
    expect(got.values).toEqual(RUN.map((e) => decodeEvent(encodeEvent(e))));
    expect(warnings).toEqual([
      expect.objectContaining({ code: "UNKNOWN_EVENT_DROPPED", index: 1, path: "" }),
    ]);
  });

  it("hands its failures to the verifier, which fails with the code at the frame's index", async () => {
    const bytes = protoBody(RUN);
    const got = await collect(
      fromChunks([bytes.slice(0, bytes.length - 3)])
        .pipeThrough(new ProtoDecoderStream())
        .pipeThrough(new VerifyingTransformStream()),
    );
    expect(got.values).toHaveLength(4);
    expect(isVerifyError(got.error)).toBe(true);
    expect(got.error).toMatchObject({ code: "PROTO_TRUNCATED", index: 4, rule: 0 });
    expect((got.error as Error).message).toMatch(
      /^frame at index 4: the body ends inside the frame at byte offset \d+ \(\d+ of its \d+ bytes arrived\); expected the body to end between frames\. \[PROTO_TRUNCATED, rule 0\]$/,
    );
  });
});

describe("ProtoEncoderStream", () => {
  it("writes one frame per event, and errors on an event protobuf cannot carry", async () => {
    const frames = await collect(fromChunks(RUN).pipeThrough(new ProtoEncoderStream()));
    expect(frames.values.map((f) => [...f])).toEqual(RUN.map((e) => [...encodeFrame(e)]));
    const bad = await collect(
      fromChunks([{ type: "THINKING_START" }]).pipeThrough(new ProtoEncoderStream()),
    );
    expect(bad.error).toBeInstanceOf(TypeError);
    expect(String(bad.error)).toContain("THINKING_START has no protobuf form");
  });
});

// SPEC §21.1: what protobuf cannot carry, each shown (README "AG-UI over protobuf").
describe("what protobuf cannot carry", () => {
  const roundTrip = (event: Rec) => decodeEvent(encodeEvent(event));

  it("a required field left out arrives as its default: an empty string, an empty list", () => {
    expect(roundTrip({ type: "TEXT_MESSAGE_CONTENT", messageId: "m" })).toEqual({
      type: "TEXT_MESSAGE_CONTENT",
      messageId: "m",
      delta: "",
    });
    expect(roundTrip({ type: "MESSAGES_SNAPSHOT" })).toEqual({
      type: "MESSAGES_SNAPSHOT",
      messages: [],
    });
  });

  it("a null in an optional field is absence; in a required string, the empty string; as a JSON value it stays null", () => {
    expect(roundTrip({ type: "TEXT_MESSAGE_START", messageId: "m", role: null })).toEqual({
      type: "TEXT_MESSAGE_START",
      messageId: "m",
    });
    expect(roundTrip({ type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: null })).toMatchObject({
      delta: "",
    });
    expect(roundTrip({ type: "STATE_SNAPSHOT", snapshot: null })).toEqual({
      type: "STATE_SNAPSHOT",
      snapshot: null,
    });
    expect(roundTrip({ type: "CUSTOM", name: "n", value: { a: null } })).toEqual({
      type: "CUSTOM",
      name: "n",
      value: { a: null },
    });
  });

  it("a wrong JSON type is refused by the encoder, naming the field", () => {
    expect(() => encodeEvent({ type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: 42 })).toThrow(
      "TextMessageContentEvent.delta is the number 42; protobuf carries a string there",
    );
    expect(() => encodeEvent({ type: "STEP_STARTED", stepName: "s", timestamp: 1.5 })).toThrow(
      "BaseEvent.timestamp is the number 1.5; protobuf carries a safe integer there",
    );
    expect(() =>
      encodeEvent({
        type: "RUN_FINISHED",
        threadId: "t",
        runId: "r",
        usage: [{ inputTokens: "3" }],
      }),
    ).toThrow("Usage.inputTokens is a string; protobuf carries a safe integer there");
  });

  it("an unknown or retired event type has no variant: the encoder refuses it", () => {
    for (const type of ["THINKING_START", "FUTURE_EVENT"]) {
      expect(() => encodeEvent({ type })).toThrow(`${type} has no protobuf form`);
    }
  });

  it("a property the .proto does not name is left out", () => {
    expect(roundTrip({ type: "RUN_STARTED", threadId: "t", runId: "r", mood: "happy" })).toEqual({
      type: "RUN_STARTED",
      threadId: "t",
      runId: "r",
    });
  });
});
