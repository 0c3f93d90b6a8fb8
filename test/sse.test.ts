// SSE decoding (SPEC §12) and the verifiedEvents pipeline (§11, §12).
//
// Every fixture below is a byte sequence replayed three ways — whole, one byte per chunk, and
// at random split points (fast-check) — through SseDecoderStream (the decoded values) and
// through verifiedEvents (the verdict). All three replays must give the fixture's expected
// values and verdict. Only web-standard APIs are used: this file also runs in edge-runtime.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  SseDecodeFailure,
  SseDecoderStream,
  VerifyError,
  VerifyingTransformStream,
  verifiedEvents,
} from "../src/index.ts";
import { type Collected, collect, concat, fromChunks } from "./support/streams.ts";

// ---------------------------------------------------------------------------------------------
// Helpers

const encoder = new TextEncoder();

/** Concatenates UTF-8 encoded strings and raw byte lists. */
function bytes(...parts: (string | readonly number[])[]): Uint8Array {
  return concat(parts.map((p) => (typeof p === "string" ? encoder.encode(p) : Uint8Array.from(p))));
}

/** Splits at the given (sorted, unique, in 1..length-1) points. */
function splitAt(data: Uint8Array, points: readonly number[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const p of points) {
    chunks.push(data.slice(from, p));
    from = p;
  }
  chunks.push(data.slice(from));
  return chunks;
}

function oneBytePerChunk(data: Uint8Array): Uint8Array[] {
  return Array.from(data, (b) => Uint8Array.of(b));
}

/** Random split points for a byte sequence of the given length (few or many cuts). */
function splitPoints(length: number): fc.Arbitrary<number[]> {
  if (length < 2) return fc.constant([]);
  const point = fc.integer({ min: 1, max: length - 1 });
  const few = fc.uniqueArray(point, { minLength: 1, maxLength: Math.min(length - 1, 6) });
  const many = fc.uniqueArray(point, { maxLength: Math.min(length - 1, 200) });
  return fc.oneof(few, many).map((ps) => [...ps].sort((a, b) => a - b));
}

/** A decoder output made comparable: failures become plain descriptions. */
type Decoded = unknown;
interface FailureShape {
  failure: "INVALID_JSON" | "SSE_BUFFER_OVERFLOW";
  data: string | undefined;
}
function failure(code: FailureShape["failure"], data?: string): FailureShape {
  return { failure: code, data };
}
function normalize(values: readonly unknown[]): Decoded[] {
  return values.map((v) => (v instanceof SseDecodeFailure ? failure(v.code, v.data) : v));
}

type Verdict = "valid" | { code: string; index: number } | { notAVerifyError: string };
function verdictOf(result: Collected<unknown>): Verdict {
  if (!result.errored) return "valid";
  const e = result.error;
  if (!(e instanceof VerifyError)) return { notAVerifyError: String(e) };
  return { code: e.code, index: e.index };
}

// ---------------------------------------------------------------------------------------------
// Events

const RS = { type: "RUN_STARTED", threadId: "t1", runId: "r1" };
const TMS = { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" };
const tmc = (delta: string) => ({ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta });
const TME = { type: "TEXT_MESSAGE_END", messageId: "m1" };
const RF = { type: "RUN_FINISHED", threadId: "t1", runId: "r1" };
const j = (v: unknown) => JSON.stringify(v);

// ---------------------------------------------------------------------------------------------
// Fixtures

interface Fixture {
  name: string;
  input: Uint8Array;
  /** What SseDecoderStream produces (decode failures as `failure(...)`); it then closes. */
  decoded: Decoded[];
  /** What verifiedEvents concludes. */
  verdict: "valid" | { code: string; index: number };
  options?: { maxBufferSize?: number; protocol?: "1.1" | "draft" };
}

const HELLO = tmc("hello");

const FIXTURES: Fixture[] = [
  {
    name: "LF line endings",
    input: bytes(`data: ${j(RS)}\n\ndata: ${j(TMS)}\n\ndata: ${j(HELLO)}\n\n`),
    decoded: [RS, TMS, HELLO],
    verdict: { code: "STREAM_ENDED_BEFORE_RUN_CLOSED", index: 3 },
  },
  {
    name: "LF line endings, complete run",
    input: bytes(
      `data: ${j(RS)}\n\ndata: ${j(TMS)}\n\ndata: ${j(HELLO)}\n\ndata: ${j(TME)}\n\ndata: ${j(RF)}\n\n`,
    ),
    decoded: [RS, TMS, HELLO, TME, RF],
    verdict: "valid",
  },
  {
    name: "CRLF line endings",
    input: bytes(
      `data: ${j(RS)}\r\n\r\ndata: ${j(TMS)}\r\n\r\ndata: ${j(HELLO)}\r\n\r\ndata: ${j(TME)}\r\n\r\ndata: ${j(RF)}\r\n\r\n`,
    ),
    decoded: [RS, TMS, HELLO, TME, RF],
    verdict: "valid",
  },
  {
    name: "bare CR line endings; the final event, ended by \\r\\r at end of input, is delivered",
    input: bytes(`data: ${j(RS)}\r\rdata: ${j(TMS)}\r\rdata: ${j(RF)}\r\r`),
    decoded: [RS, TMS, RF],
    verdict: { code: "OPEN_AT_RUN_FINISHED", index: 2 },
  },
  {
    name: "bare CR line endings: RUN_FINISHED ended by \\r\\r then end of input is a valid run",
    input: bytes(`data: ${j(RS)}\r\rdata: ${j(RF)}\r\r`),
    decoded: [RS, RF],
    verdict: "valid",
  },
  {
    name: "bare CR: a lone RUN_FINISHED line ended by \\r\\r",
    input: bytes(
      `:hi\rdata: ${j(RS)}\r\r:x\rdata: ${j(TMS)}\r\rdata: ${j(TME)}\r\rdata: ${j(RF)}\r\r`,
    ),
    decoded: [RS, TMS, TME, RF],
    verdict: "valid",
  },
  {
    name: "mixed line endings (LF, CR, CRLF, and CR followed by LF-blank)",
    input: bytes(
      `data: ${j(RS)}\n\r`,
      `data: ${j(TMS)}\r\n\n`,
      `data: ${j(HELLO)}\r\r\n`,
      `data: ${j(TME)}\n\r\n`,
      `data: ${j(RF)}\r\n\r`,
    ),
    decoded: [RS, TMS, HELLO, TME, RF],
    verdict: "valid",
  },
  {
    name: "a CRLF is one line end, not two",
    // "\r\n" is ONE line end: "data: x\r\n" + "data: y\r\n\r\n" gives one message "x\ny".
    input: bytes(`data: ${j(RS)}\r\n\r\ndata: {"type":\r\ndata: "RUN_FINISHED"}\r\n\r\n`),
    decoded: [RS, { type: "RUN_FINISHED" }],
    verdict: "valid",
  },
  {
    name: "a BOM (EF BB BF) at the start is ignored",
    input: bytes([0xef, 0xbb, 0xbf], `data: ${j(RS)}\n\ndata: ${j(RF)}\n\n`),
    decoded: [RS, RF],
    verdict: "valid",
  },
  {
    name: "only one leading BOM is ignored: a second one makes the first field unknown",
    input: bytes([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], `data: ${j(RS)}\n\ndata: ${j(RF)}\n\n`),
    decoded: [RF],
    verdict: { code: "EVENT_BEFORE_RUN_STARTED", index: 0 },
  },
  {
    name: "a BOM that is not at the start is not ignored",
    input: bytes(`data: ${j(RS)}\n\n`, [0xef, 0xbb, 0xbf], `data: ${j(TMS)}\n\ndata: ${j(RF)}\n\n`),
    decoded: [RS, RF],
    verdict: "valid",
  },
  {
    name: "the characters U+00EF U+00BB U+00BF at the start are not a BOM",
    // WHATWG: the first line is the field "ï»¿data", unknown, so the message has no data.
    input: bytes("\u00ef\u00bb\u00bf", `data: ${j(TMS)}\n\ndata: ${j(RS)}\n\ndata: ${j(RF)}\n\n`),
    decoded: [RS, RF],
    verdict: "valid",
  },
  {
    name: "comments and heartbeats",
    input: bytes(
      ": connected\n\n",
      ":\n",
      `data: ${j(RS)}\n`,
      ": in the middle of a message\n",
      "\n",
      ":heartbeat\n\n:heartbeat\n\n\n\n",
      `data: ${j(RF)}\n\n`,
      ": after\n\n",
    ),
    decoded: [RS, RF],
    verdict: "valid",
  },
  {
    name: "data: with and without the space (and with two spaces)",
    input: bytes(
      `data:${j(RS)}\n\n`,
      `data: ${j(TMS)}\n\n`,
      `data:  ${j(HELLO)}\n\n`,
      `data:${j(TME)}\r\n\r\n`,
      `data:${j(RF)}\r\r`,
    ),
    decoded: [RS, TMS, HELLO, TME, RF],
    verdict: "valid",
  },
  {
    name: "multi-line data is joined with LF (JSON split over data lines; `data` without a colon is an empty line)",
    input: bytes(
      `data: {"type":\ndata: "RUN_STARTED",\ndata:"threadId":"t1",\ndata\ndata: "runId":"r1"}\n\n`,
      `data: {"type":"TEXT_MESSAGE_START",\r\ndata:  "messageId":"m1","role":"assistant"}\r\n\r\n`,
      `data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"a\\nb"\rdata: }\r\r`,
      `data: ${j(TME)}\ndata:\n\n`,
      `data: ${j(RF)}\n\n`,
    ),
    decoded: [RS, TMS, tmc("a\nb"), TME, RF],
    verdict: "valid",
  },
  {
    name: "event:, id:, retry: and unknown fields are ignored",
    input: bytes(
      `event: foo\nid: 1\nretry: 1000\ndata: ${j(RS)}\n\n`,
      `event: RUN_FINISHED\nid:\nfoo: bar\ndata: ${j(TMS)}\nbaz\n\n`,
      `event\nid\nretry\nx-custom:1\ndata: ${j(HELLO)}\nevent: TEXT_MESSAGE_END\n\n`,
      `event:message\ndata: ${j(TME)}\n\n`,
      `data: ${j(RF)}\nevent: RUN_ERROR\n\n`,
    ),
    decoded: [RS, TMS, HELLO, TME, RF],
    verdict: "valid",
  },
  {
    name: "`event: foo` changes nothing, not even in a message with only an event line",
    input: bytes(`event: foo\n\ndata: ${j(RS)}\n\nevent: foo\n\ndata: ${j(RF)}\n\n`),
    decoded: [RS, RF],
    verdict: "valid",
  },
  {
    name: "`retry: abc` (invalid retry) does not stop decoding",
    input: bytes(
      `retry: abc\n\ndata: ${j(RS)}\nretry: -1\nretry: 1.5\n\nretry: abc\ndata: ${j(RF)}\n\n`,
    ),
    decoded: [RS, RF],
    verdict: "valid",
  },
  {
    name: "unknown fields do not stop decoding",
    input: bytes(
      `unknown: 1\n\n${"x".repeat(30)}: long unknown field\ndata: ${j(RS)}\n\nbogus\n\ndata: ${j(RF)}\n\n`,
    ),
    decoded: [RS, RF],
    verdict: "valid",
  },
  {
    name: "an id: containing NUL is ignored and decoding continues",
    input: bytes(`id: a\u0000b\ndata: ${j(RS)}\n\nid: \u0000\n\ndata: ${j(RF)}\nid: x\u0000\n\n`),
    decoded: [RS, RF],
    verdict: "valid",
  },
  {
    name: "multi-byte UTF-8 (2-, 3-, 4-byte chars, emoji) is decoded",
    input: bytes(
      `data: ${j(RS)}\n\ndata: ${j(TMS)}\n\n`,
      `data: ${j(tmc("é ß € 中文 𐍈 😀 👩‍👩‍👧 🇫🇷"))}\n\n`,
      `data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"\\u00e9😀"}\n\n`,
      `data: ${j(TME)}\n\ndata: ${j(RF)}\n\n`,
    ),
    decoded: [RS, TMS, tmc("é ß € 中文 𐍈 😀 👩‍👩‍👧 🇫🇷"), tmc("é😀"), TME, RF],
    verdict: "valid",
  },
  {
    name: "invalid UTF-8 bytes inside a JSON string become U+FFFD",
    input: bytes(
      `data: ${j(RS)}\n\ndata: ${j(TMS)}\n\n`,
      `data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"a`,
      // lone continuation, invalid byte, truncated 2-byte, truncated 3-byte, overlong "/"
      [0x80, 0x62, 0xff, 0x63, 0xc3, 0x64, 0xe2, 0x82, 0x65, 0xc0, 0xaf],
      `z"}\n\n`,
      `data: ${j(TME)}\n\ndata: ${j(RF)}\n\n`,
      // a truncated sequence at the very end of input, after the run, in no message
      [0xf0, 0x9f, 0x98],
    ),
    decoded: [RS, TMS, tmc("a\ufffdb\ufffdc\ufffdd\ufffde\ufffd\ufffdz"), TME, RF],
    verdict: "valid",
  },
  {
    name: "a final message without its blank line is discarded (LF)",
    input: bytes(`data: ${j(RS)}\n\ndata: ${j(RF)}\n`),
    decoded: [RS],
    verdict: { code: "STREAM_ENDED_BEFORE_RUN_CLOSED", index: 1 },
  },
  {
    name: "a final message without any line end is discarded",
    input: bytes(`data: ${j(RS)}\n\ndata: ${j(RF)}`),
    decoded: [RS],
    verdict: { code: "STREAM_ENDED_BEFORE_RUN_CLOSED", index: 1 },
  },
  {
    name: "a final message with one CRLF and no blank line is discarded",
    input: bytes(`data: ${j(RS)}\r\n\r\ndata: ${j(RF)}\r\n`),
    decoded: [RS],
    verdict: { code: "STREAM_ENDED_BEFORE_RUN_CLOSED", index: 1 },
  },
  {
    name: "a final message with one CR and no blank line is discarded",
    input: bytes(`data: ${j(RS)}\r\rdata: ${j(RF)}\r`),
    decoded: [RS],
    verdict: { code: "STREAM_ENDED_BEFORE_RUN_CLOSED", index: 1 },
  },
  {
    name: "empty input",
    input: bytes(""),
    decoded: [],
    verdict: { code: "STREAM_ENDED_BEFORE_RUN_STARTED", index: 0 },
  },
  {
    name: "only comments and blank lines",
    input: bytes(":a\n\n\r\n\r:b\r\n"),
    decoded: [],
    verdict: { code: "STREAM_ENDED_BEFORE_RUN_STARTED", index: 0 },
  },
  {
    name: "non-JSON data: INVALID_JSON after every earlier event, and nothing more",
    input: bytes(
      `data: ${j(RS)}\n\ndata: ${j(TMS)}\n\ndata: not json\n\ndata: ${j(TME)}\n\ndata: ${j(RF)}\n\n`,
    ),
    decoded: [RS, TMS, failure("INVALID_JSON", "not json")],
    verdict: { code: "INVALID_JSON", index: 2 },
  },
  {
    name: "empty data (`data:`): INVALID_JSON",
    input: bytes(`data: ${j(RS)}\n\ndata:\n\ndata: ${j(RF)}\n\n`),
    decoded: [RS, failure("INVALID_JSON", "")],
    verdict: { code: "INVALID_JSON", index: 1 },
  },
  {
    name: "empty data (`data` without a colon): INVALID_JSON",
    input: bytes(`data: ${j(RS)}\r\n\r\ndata\r\n\r\ndata: ${j(RF)}\r\n\r\n`),
    decoded: [RS, failure("INVALID_JSON", "")],
    verdict: { code: "INVALID_JSON", index: 1 },
  },
  {
    name: "[DONE]: INVALID_JSON",
    input: bytes(`data: ${j(RS)}\n\ndata: ${j(RF)}\n\ndata: [DONE]\n\n`),
    decoded: [RS, RF, failure("INVALID_JSON", "[DONE]")],
    verdict: { code: "INVALID_JSON", index: 2 },
  },
  {
    name: "a multi-line non-JSON message: INVALID_JSON with the joined data",
    input: bytes(`data: ${j(RS)}\r\rdata: {"type":\rdata: oops\r\r`),
    decoded: [RS, failure("INVALID_JSON", '{"type":\noops')],
    verdict: { code: "INVALID_JSON", index: 1 },
  },
  {
    name: "any JSON value is passed on; the verifier judges it",
    input: bytes(`data: ${j(RS)}\n\ndata: 42\n\ndata: ${j(RF)}\n\n`),
    decoded: [RS, 42, RF],
    verdict: { code: "EVENT_NOT_OBJECT", index: 1 },
  },
];

// ---------------------------------------------------------------------------------------------
// Replay

/** Expected values read from verifiedEvents before it errors (or all, when valid). */
function verifiedPrefix(f: Fixture): unknown[] {
  return f.verdict === "valid" ? f.decoded : f.decoded.slice(0, f.verdict.index);
}

async function replay(f: Fixture, chunks: Uint8Array[]): Promise<void> {
  const decoded = await collect(fromChunks(chunks).pipeThrough(new SseDecoderStream(f.options)));
  expect(decoded.errored, String(decoded.error)).toBe(false);
  expect(normalize(decoded.values)).toEqual(f.decoded);

  const verified = await collect(verifiedEvents(fromChunks(chunks), f.options));
  expect(verdictOf(verified)).toEqual(f.verdict);
  expect(verified.values).toEqual(verifiedPrefix(f));

  // verifiedEvents behaves as the two stream stages piped together (SPEC §12).
  const piped = await collect(
    fromChunks(chunks)
      .pipeThrough(new SseDecoderStream(f.options))
      .pipeThrough(new VerifyingTransformStream(f.options)),
  );
  expect(verdictOf(piped)).toEqual(f.verdict);
  expect(piped.values).toEqual(verifiedPrefix(f));
}

describe("SseDecoderStream and verifiedEvents: each fixture, replayed three ways", () => {
  describe.each(FIXTURES)("$name", (f) => {
    it("whole", async () => {
      await replay(f, f.input.length === 0 ? [] : [f.input.slice()]);
    });
    it("one byte per chunk", async () => {
      await replay(f, oneBytePerChunk(f.input));
    });
    it("at random split points", async () => {
      await fc.assert(
        fc.asyncProperty(splitPoints(f.input.length), async (points) => {
          await replay(f, splitAt(f.input, points));
        }),
        { numRuns: 50 },
      );
    });
  });

  it("an empty chunk between bytes changes nothing", async () => {
    const input = bytes(`data: ${j(RS)}\r\n\r\ndata: ${j(RF)}\r\n\r\n`);
    const chunks = splitAt(input, [1, 20]).flatMap((c) => [new Uint8Array(0), c]);
    const f: Fixture = { name: "", input, decoded: [RS, RF], verdict: "valid" };
    await replay(f, chunks);
  });
});

describe("targeted splits", () => {
  it("a CRLF split across chunks is one line end (every CR|LF cut, alone and together)", async () => {
    const crlf = bytes(`data: ${j(RS)}\r\n\r\ndata: ${j(RF)}\r\n\r\n`);
    const cuts: number[] = [];
    crlf.forEach((b, i) => {
      if (b === 0x0d) cuts.push(i + 1);
    });
    expect(cuts).toHaveLength(4);
    const f: Fixture = { name: "", input: crlf, decoded: [RS, RF], verdict: "valid" };
    for (const at of cuts) await replay(f, splitAt(crlf, [at]));
    await replay(f, splitAt(crlf, cuts));
  });

  it("a CR|CR cut at the very end of a bare-CR stream still delivers the last event", async () => {
    const input = bytes(`data: ${j(RS)}\r\rdata: ${j(RF)}\r\r`);
    const f: Fixture = { name: "", input, decoded: [RS, RF], verdict: "valid" };
    await replay(f, splitAt(input, [input.length - 1]));
    await replay(f, splitAt(input, [input.length - 2, input.length - 1]));
  });

  it("a BOM split across chunks (EF|BB BF, EF BB|BF, EF|BB|BF) is ignored", async () => {
    const input = bytes([0xef, 0xbb, 0xbf], `data: ${j(RS)}\n\ndata: ${j(RF)}\n\n`);
    const f: Fixture = { name: "", input, decoded: [RS, RF], verdict: "valid" };
    await replay(f, splitAt(input, [1]));
    await replay(f, splitAt(input, [2]));
    await replay(f, splitAt(input, [1, 2]));
    await replay(f, splitAt(input, [1, 2, 3]));
    await replay(f, [new Uint8Array(0), ...splitAt(input, [1, 2, 3])]);
  });

  it("every split of a 4-byte emoji inside a JSON string", async () => {
    const text = `data: ${j(RS)}\n\ndata: ${j(TMS)}\n\ndata: ${j(tmc("😀"))}\n\ndata: ${j(TME)}\n\ndata: ${j(RF)}\n\n`;
    const input = bytes(text);
    const start = input.indexOf(0xf0);
    const f: Fixture = {
      name: "",
      input,
      decoded: [RS, TMS, tmc("😀"), TME, RF],
      verdict: "valid",
    };
    for (const cuts of [[1], [2], [3], [1, 2], [1, 3], [2, 3], [1, 2, 3]]) {
      await replay(
        f,
        splitAt(
          input,
          cuts.map((c) => start + c),
        ),
      );
    }
  });
});

// ---------------------------------------------------------------------------------------------
// String input

describe("string input", () => {
  async function decodeStrings(chunks: string[]): Promise<Decoded[]> {
    const r = await collect(fromChunks(chunks).pipeThrough(new SseDecoderStream()));
    expect(r.errored, String(r.error)).toBe(false);
    return normalize(r.values);
  }
  const text = `data: ${j(RS)}\r\n\r\ndata: ${j(tmc("é😀"))}\r\rdata: ${j(RF)}\n\n`;
  const expected = [RS, tmc("é😀"), RF];

  it("is decoded whole and one UTF-16 unit per chunk", async () => {
    expect(await decodeStrings([text])).toEqual(expected);
    expect(await decodeStrings(text.split(""))).toEqual(expected);
  });

  it("a leading BOM in string input is ignored (whole, alone in the first chunk, after an empty chunk)", async () => {
    expect(await decodeStrings([`\ufeff${text}`])).toEqual(expected);
    expect(await decodeStrings(["\ufeff", text])).toEqual(expected);
    expect(await decodeStrings(["", "\ufeff", text])).toEqual(expected);
    expect(await decodeStrings(`\ufeff${text}`.split(""))).toEqual(expected);
  });

  it("only one leading BOM is ignored in string input", async () => {
    expect(await decodeStrings([`\ufeff\ufeff${text}`])).toEqual([tmc("é😀"), RF]);
  });

  it("non-JSON data in string input is an INVALID_JSON failure", async () => {
    expect(
      await decodeStrings([`data: ${j(RS)}\n\n`, "data: [DONE]\n\n", `data: ${j(RF)}\n\n`]),
    ).toEqual([RS, failure("INVALID_JSON", "[DONE]")]);
  });
});

// ---------------------------------------------------------------------------------------------
// Decode failures

describe("decode failures", () => {
  it("an INVALID_JSON failure is an SseDecodeFailure carrying the raw data and a cause", async () => {
    const r = await collect(
      fromChunks([bytes(`data: ${j(RS)}\n\ndata: [DONE]\n\n`)]).pipeThrough(new SseDecoderStream()),
    );
    expect(r.errored).toBe(false);
    expect(r.values).toHaveLength(2);
    const f = r.values[1];
    expect(f).toBeInstanceOf(SseDecodeFailure);
    expect((f as SseDecodeFailure).code).toBe("INVALID_JSON");
    expect((f as SseDecodeFailure).data).toBe("[DONE]");
    expect((f as SseDecodeFailure).cause).toBeDefined();
  });

  it("verifiedEvents errors with the VerifyError itself, holding the failure as its event", async () => {
    const r = await collect(
      verifiedEvents(fromChunks([bytes(`data: ${j(RS)}\n\ndata: ${j(TMS)}\n\ndata: nope\n\n`)])),
    );
    expect(r.values).toEqual([RS, TMS]);
    expect(r.error).toBeInstanceOf(VerifyError);
    const e = r.error as VerifyError;
    expect(e.code).toBe("INVALID_JSON");
    expect(e.index).toBe(2);
    expect(e.rule).toBe(0);
    expect(e.event).toBeInstanceOf(SseDecodeFailure);
    expect((e.event as SseDecodeFailure).data).toBe("nope");
  });

  it("verifiedEvents(null) errors with STREAM_ENDED_BEFORE_RUN_STARTED at index 0", async () => {
    const r = await collect(verifiedEvents(null));
    expect(r.values).toEqual([]);
    expect(r.error).toBeInstanceOf(VerifyError);
    expect(verdictOf(r)).toEqual({ code: "STREAM_ENDED_BEFORE_RUN_STARTED", index: 0 });
  });

  it("a truncated stream errors with STREAM_ENDED_BEFORE_RUN_CLOSED after every event", async () => {
    const r = await collect(
      verifiedEvents(
        fromChunks([bytes(`data: ${j(RS)}\n\ndata: ${j(TMS)}\n\ndata: ${j(HELLO)}\n\n`)]),
      ),
    );
    expect(r.values).toEqual([RS, TMS, HELLO]);
    expect(r.error).toBeInstanceOf(VerifyError);
    expect(verdictOf(r)).toEqual({ code: "STREAM_ENDED_BEFORE_RUN_CLOSED", index: 3 });
  });

  it("a network error from the body reaches the reader unchanged, after the events before it", async () => {
    const network = new Error("connection reset");
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulls++ === 0) controller.enqueue(bytes(`data: ${j(RS)}\n\ndata: ${j(TMS)}\n\n`));
        else controller.error(network);
      },
    });
    const r = await collect(verifiedEvents(body));
    expect(r.values).toEqual([RS, TMS]);
    expect(r.error).toBe(network);
  });

  it("verifiedEvents accepts several runs with no option, and passes protocol on", async () => {
    const input = bytes(`data: ${j(RS)}\n\ndata: ${j(RF)}\n\ndata: ${j(RS)}\n\ndata: ${j(RF)}\n\n`);
    expect(verdictOf(await collect(verifiedEvents(fromChunks([input]))))).toBe("valid");
    // Protocol draft compares a RUN_FINISHED's runId with its run's (§9.14).
    const other = { ...RF, runId: "r2" };
    const mismatch = bytes(`data: ${j(RS)}\n\ndata: ${j(other)}\n\n`);
    expect(verdictOf(await collect(verifiedEvents(fromChunks([mismatch]))))).toBe("valid");
    expect(
      verdictOf(await collect(verifiedEvents(fromChunks([mismatch]), { protocol: "draft" }))),
    ).toEqual({ code: "RUN_ID_MISMATCH", index: 1 });
  });
});

// ---------------------------------------------------------------------------------------------
// Large messages and the buffer bound

const MiB = 1024 * 1024;
const CHUNK = 64 * 1024;

function chunked(data: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < data.length; at += size) chunks.push(data.subarray(at, at + size));
  return chunks;
}

describe("large messages", () => {
  const delta = "x".repeat(20 * 1000 * 1000);
  const big = () =>
    bytes(
      `data: ${j(RS)}\n\ndata: ${j(TMS)}\n\n`,
      `data: ${j(tmc(delta))}\n\n`,
      `data: ${j(TME)}\n\ndata: ${j(RF)}\n\n`,
    );

  it("a 20 MB event under maxBufferSize 32 MiB, fed in 64 KB chunks, is delivered intact", async () => {
    const input = big();
    const options = { maxBufferSize: 32 * MiB };

    const decoded = await collect(
      fromChunks(chunked(input, CHUNK)).pipeThrough(new SseDecoderStream(options)),
    );
    expect(decoded.errored).toBe(false);
    expect(decoded.values).toHaveLength(5);
    const content = decoded.values[2] as { type: string; delta: string };
    expect(content.type).toBe("TEXT_MESSAGE_CONTENT");
    expect(content.delta.length).toBe(delta.length);
    expect(content.delta === delta).toBe(true);

    const verified = await collect(verifiedEvents(fromChunks(chunked(input, CHUNK)), options));
    expect(verdictOf(verified)).toBe("valid");
    expect(verified.values).toHaveLength(5);
    expect(verified.values[2]?.delta === delta).toBe(true);
  }, 30_000);

  it("comment lines outside a message are measured one by one: 2 MiB of heartbeats pass a 1 MiB limit", async () => {
    const heartbeats = ": ping\n".repeat((2 * MiB) / 7 + 1);
    const input = bytes(`data: ${j(RS)}\n\n`, heartbeats, `data: ${j(RF)}\n\n`);
    const verified = await collect(
      verifiedEvents(fromChunks(chunked(input, CHUNK)), { maxBufferSize: MiB }),
    );
    expect(verdictOf(verified)).toBe("valid");
    expect(verified.values).toEqual([RS, RF]);
  });

  it("the same 20 MB event overflows the default 10 MiB buffer", async () => {
    const verified = await collect(verifiedEvents(fromChunks(chunked(big(), CHUNK))));
    expect(verified.values).toEqual([RS, TMS]);
    expect(verified.error).toBeInstanceOf(VerifyError);
    expect(verdictOf(verified)).toEqual({ code: "SSE_BUFFER_OVERFLOW", index: 2 });
  }, 30_000);
});

describe("a never-ending line", () => {
  /** Yields `prefix` then 64 KB chunks of "a" forever; counts pulls; records cancellation. */
  function endless(prefix: string) {
    const state = { pulls: 0, cancelled: false };
    const filler = new Uint8Array(CHUNK).fill(0x61);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        state.pulls++;
        if (state.pulls === 1 && prefix !== "") controller.enqueue(bytes(prefix));
        // A guard so that a decoder that never stops fails the test instead of hanging.
        else if (state.pulls > 1000) controller.error(new Error("pulled more than 1000 times"));
        else controller.enqueue(filler.slice());
      },
      cancel() {
        state.cancelled = true;
      },
    });
    return { state, stream };
  }

  async function settle(state: { cancelled: boolean }): Promise<void> {
    for (let i = 0; i < 200 && !state.cancelled; i++) {
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }

  it("SseDecoderStream: SSE_BUFFER_OVERFLOW after a bounded number of pulls, then closes; the source is cancelled", async () => {
    const { state, stream } = endless(`data: ${j(RS)}\n\ndata: `);
    const r = await collect(stream.pipeThrough(new SseDecoderStream({ maxBufferSize: MiB })));
    expect(r.errored, String(r.error)).toBe(false);
    expect(normalize(r.values)).toEqual([RS, failure("SSE_BUFFER_OVERFLOW", undefined)]);
    expect(r.values[1]).toBeInstanceOf(SseDecodeFailure);
    await settle(state);
    expect(state.cancelled).toBe(true);
    expect(state.pulls).toBeLessThan(40);
  });

  it("SseDecoderStream: also when the line is not a data line", async () => {
    const { state, stream } = endless("");
    const r = await collect(stream.pipeThrough(new SseDecoderStream({ maxBufferSize: MiB })));
    expect(normalize(r.values)).toEqual([failure("SSE_BUFFER_OVERFLOW", undefined)]);
    await settle(state);
    expect(state.cancelled).toBe(true);
    expect(state.pulls).toBeLessThan(40);
  });

  it("verifiedEvents: VerifyError SSE_BUFFER_OVERFLOW at the right index; the source is cancelled", async () => {
    const { state, stream } = endless(`data: ${j(RS)}\n\n:\n\ndata: ${j(TMS)}\n\ndata: `);
    const r = await collect(verifiedEvents(stream, { maxBufferSize: MiB }));
    expect(r.values).toEqual([RS, TMS]);
    expect(r.error).toBeInstanceOf(VerifyError);
    expect(verdictOf(r)).toEqual({ code: "SSE_BUFFER_OVERFLOW", index: 2 });
    expect((r.error as VerifyError).event).toBeInstanceOf(SseDecodeFailure);
    await settle(state);
    expect(state.cancelled).toBe(true);
    expect(state.pulls).toBeLessThan(40);
  });

  it("many data lines in one never-ending message also overflow", async () => {
    const state = { pulls: 0, cancelled: false };
    const line = bytes(`data: ${"b".repeat(CHUNK - 7)}\n`);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        state.pulls++;
        if (state.pulls > 1000) controller.error(new Error("pulled more than 1000 times"));
        else controller.enqueue(line.slice());
      },
      cancel() {
        state.cancelled = true;
      },
    });
    const r = await collect(verifiedEvents(stream, { maxBufferSize: MiB }));
    expect(verdictOf(r)).toEqual({ code: "SSE_BUFFER_OVERFLOW", index: 0 });
    await settle(state);
    expect(state.cancelled).toBe(true);
    expect(state.pulls).toBeLessThan(40);
  });
});
