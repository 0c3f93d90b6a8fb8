// SPEC §12: chunk boundaries never change what is decoded. Random SSE inputs (LF, CR and
// CRLF mixed, comments, BOM, multi-byte UTF-8, multi-line data, other fields) are decoded
// whole and under random splits, as bytes and as strings; the values, and where the
// decoding core says each message starts and what is safe to release, must equal an
// independent reading of the whole input (a regex line split, as the WHATWG grammar reads).
// With a small maxBufferSize, SSE_BUFFER_OVERFLOW is one of those values: the reference
// measures each message (or line outside one) from the whole input's lines.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SseDecodeFailure } from "../src/index.ts";
import { SseDecoder } from "../src/sse/decoder.ts";
import { SsePositionDecoder } from "../src/sse/positions.ts";
import { SseReleaseDecoder } from "../src/sse/release.ts";

const utf8 = new TextEncoder();

interface Decoded {
  values: unknown[];
  /**
   * Per value: where its message starts (for SSE_BUFFER_OVERFLOW: the message or line that
   * outgrew the limit), and `safe` when it was emitted.
   */
  starts: { line: number; offset: number }[];
  safes: number[];
  /** `safe` after each chunk. */
  finalSafe: number;
  end: { line: number; offset: number };
}

function decode(chunks: readonly (Uint8Array | string)[], maxBufferSize?: number): Decoded {
  const out: Decoded = {
    values: [],
    starts: [],
    safes: [],
    finalSafe: 0,
    end: { line: 0, offset: 0 },
  };
  const decoder: SsePositionDecoder = new SsePositionDecoder(
    (value) => {
      const failure = value instanceof SseDecodeFailure ? value.code : undefined;
      out.values.push(failure === undefined ? value : { failure });
      // Where the command reports an overflow.
      out.starts.push(
        failure === "SSE_BUFFER_OVERFLOW"
          ? (decoder.unfinished ?? decoder.position)
          : decoder.messageStart,
      );
      out.safes.push(decoder.safe);
    },
    { maxBufferSize },
  );
  for (const chunk of chunks) decoder.push(chunk);
  decoder.finish();
  out.finalSafe = decoder.safe;
  out.end = decoder.position;
  return out;
}

interface Line {
  text: string;
  /** Where the line starts, where its line end starts, and where the next line starts. */
  offset: number;
  end: number;
  next: number;
}

/** The values alone, from a decoder that does not track positions. */
function decodeValues(chunks: readonly (Uint8Array | string)[], maxBufferSize?: number): unknown[] {
  const values: unknown[] = [];
  const decoder = new SseDecoder(
    (value) => {
      values.push(value instanceof SseDecodeFailure ? { failure: value.code } : value);
    },
    { maxBufferSize },
  );
  for (const chunk of chunks) decoder.push(chunk);
  decoder.finish();
  return values;
}

/**
 * The lines of the whole input, found by their own scan: code units split with a regex, or
 * bytes split at CR and LF bytes (each line decoded on its own: CR and LF are ASCII, so no
 * character spans a line end). A leading BOM is skipped; the last piece, which no line end
 * closes, is not a line but `rest` (if not empty).
 */
function linesOf(input: string | Uint8Array): { lines: Line[]; rest: Line | undefined } {
  const lines: Line[] = [];
  if (typeof input === "string") {
    const start = input.startsWith("\ufeff") ? 1 : 0;
    const pieces = input.slice(start).split(/(\r\n|\r|\n)/);
    let offset = start;
    for (let k = 0; k + 1 < pieces.length; k += 2) {
      const text = pieces[k] ?? "";
      const next = offset + text.length + (pieces[k + 1] ?? "").length;
      lines.push({ text, offset, end: offset + text.length, next });
      offset = next;
    }
    const last = pieces[pieces.length - 1] ?? "";
    const rest = { text: last, offset, end: input.length, next: input.length };
    return { lines, rest: last === "" ? undefined : rest };
  }
  const utf8 = new TextDecoder();
  const start = input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf ? 3 : 0;
  let offset = start;
  for (let i = start; i < input.length; i++) {
    const b = input[i];
    if (b !== 10 && b !== 13) continue;
    const next = b === 13 && input[i + 1] === 10 ? i + 2 : i + 1;
    lines.push({ text: utf8.decode(input.subarray(offset, i)), offset, end: i, next });
    offset = next;
    i = next - 1;
  }
  const rest = {
    text: utf8.decode(input.subarray(offset)),
    offset,
    end: input.length,
    next: input.length,
  };
  return { lines, rest: offset < input.length ? rest : undefined };
}

/**
 * The reference: the whole input, decoded by the WHATWG algorithm written plainly, and
 * measured against `maxBufferSize` (DecoderOptions): a message from its first line that is
 * not a comment to the end of its last line, a line outside a message alone; lengths in
 * UTF-16 code units of the decoded text, line ends included between lines. The last piece
 * of the input, which no line end closes, is measured too.
 */
function reference(input: string | Uint8Array, maxBufferSize = Number.POSITIVE_INFINITY): Decoded {
  const out: Decoded = {
    values: [],
    starts: [],
    safes: [],
    finalSafe: 0,
    end: { line: 0, offset: 0 },
  };
  const { lines, rest } = linesOf(input);
  let data: string[] = [];
  let start: { line: number; offset: number } | undefined;
  let safe = 0;
  /** Code units of the decoded text (BOM left out) before the line, and where the message or line being measured starts. */
  let units = 0;
  let from = { units: 0, line: 0, offset: 0 };
  for (const [k, line] of [...lines, ...(rest === undefined ? [] : [rest])].entries()) {
    const lineUnits = units;
    units += line.text.length + line.next - line.end;
    if (line.text !== "") {
      if (start === undefined) from = { units: lineUnits, line: k + 1, offset: line.offset };
      if (lineUnits + line.text.length - from.units > maxBufferSize) {
        out.values.push({ failure: "SSE_BUFFER_OVERFLOW" });
        out.starts.push({ line: from.line, offset: from.offset });
        out.safes.push(safe);
        break;
      }
    }
    if (line === rest) break;
    if (line.text === "") {
      if (data.length > 0) {
        let value: unknown;
        try {
          value = JSON.parse(data.join("\n"));
        } catch {
          value = { failure: "INVALID_JSON" };
        }
        out.values.push(value);
        out.starts.push(start ?? { line: 0, offset: -1 });
        out.safes.push(safe);
        if (stopped(out)) break;
      }
      data = [];
      start = undefined;
      safe = line.next;
      continue;
    }
    if (line.text.startsWith(":")) {
      if (start === undefined) safe = line.next;
      continue;
    }
    start ??= { line: k + 1, offset: line.offset };
    const colon = line.text.indexOf(":");
    const field = colon === -1 ? line.text : line.text.slice(0, colon);
    let value = colon === -1 ? "" : line.text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
  }
  out.finalSafe = safe;
  out.end = {
    line: rest !== undefined || lines.length === 0 ? lines.length + 1 : lines.length,
    offset: input.length,
  };
  return out;
}

// Inputs ------------------------------------------------------------------------------------

const lineEnd = fc.constantFrom("\n", "\r", "\r\n");
// A long run of three-byte characters puts a line end far (more than 64 bytes) past where
// its code units alone would.
const word = fc.constantFrom(
  "a",
  "é",
  "中文",
  "😀",
  "x y",
  "\u00ef\u00bb\u00bf",
  "",
  "中".repeat(40),
);
const json = fc
  .record({ type: fc.constantFrom("RAW", "CUSTOM"), text: fc.array(word, { maxLength: 3 }) })
  .map((r) => JSON.stringify({ type: r.type, text: r.text.join("") }));

/** One block: field and comment lines, then (usually) a blank line. */
const block = fc
  .tuple(
    fc.array(
      fc.oneof(
        { weight: 5, arbitrary: json.map((j) => `data: ${j}`) },
        { weight: 1, arbitrary: json.map((j) => `data:${j}`) },
        // A value that starts with a space: the field's one space is dropped, not this one.
        { weight: 1, arbitrary: json.map((j) => `data:  ${j}`) },
        {
          weight: 1,
          // JSON split over two data lines: joined with LF, still JSON.
          arbitrary: json.map((j) => `data: ${j.slice(0, 8)}\u0000data: ${j.slice(8)}`),
        },
        { weight: 2, arbitrary: word.map((w) => `: ${w}`) },
        {
          weight: 1,
          arbitrary: fc.constantFrom("id: 7", "event: x", "retry: 10", "foo: bar", "data", "data:"),
        },
        { weight: 1, arbitrary: fc.constant("data: [DONE]") },
      ),
      { maxLength: 4 },
    ),
    fc.boolean(),
  )
  .map(([lines, blank]) => ({ lines: lines.flatMap((l) => l.split("\u0000")), blank }));

const input = fc
  .tuple(
    fc.boolean(),
    fc.array(block, { maxLength: 6 }),
    fc.array(lineEnd, { minLength: 64, maxLength: 64 }),
  )
  .map(([bom, blocks, ends]) => {
    let n = 0;
    const end = () => ends[n++ % ends.length] ?? "\n";
    let text = bom ? "\ufeff" : "";
    for (const b of blocks) {
      for (const l of b.lines) text += l + end();
      if (b.blank) text += end();
    }
    return text;
  });

function stopped(d: Decoded): boolean {
  return d.values.some((v) => typeof v === "object" && v !== null && "failure" in v);
}

/** Cuts `whole` at the given points (taken modulo its length + 1). */
function split<T>(
  whole: T & { length: number },
  points: readonly number[],
  slice: (from: number, to?: number) => T,
): T[] {
  const cuts = [...new Set(points.map((p) => p % (whole.length + 1)))].sort((a, b) => a - b);
  const out: T[] = [];
  let from = 0;
  for (const c of cuts) {
    out.push(slice(from, c));
    from = c;
  }
  out.push(slice(from));
  return out;
}

function splitBytes(bytes: Uint8Array, points: readonly number[]): Uint8Array[] {
  return split(bytes, points, (from, to) => bytes.subarray(from, to));
}

function splitString(text: string, points: readonly number[]): string[] {
  return split(text, points, (from, to) => text.slice(from, to));
}

const points = fc.array(fc.nat(), { maxLength: 12 });

/** Bytes that are not UTF-8 (a lone continuation, 0xFF, a truncated sequence), at positions. */
const junk = fc.array(
  fc.tuple(fc.nat(), fc.constantFrom([0x80], [0xff], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xc3])),
  { maxLength: 3 },
);

function withInvalidBytes(
  bytes: Uint8Array,
  junk: readonly (readonly [number, readonly number[]])[],
): Uint8Array {
  let out = Array.from(bytes);
  for (const [at, bad] of junk) {
    const i = at % (out.length + 1);
    out = [...out.slice(0, i), ...bad, ...out.slice(i)];
  }
  return Uint8Array.from(out);
}

/**
 * The input decoded whole, cut at `cuts`, and one byte (code unit) at a time: the values and
 * positions must be the reference's.
 */
function expectLikeReference(
  input: Uint8Array | string,
  cuts: readonly number[],
  maxBufferSize?: number,
): void {
  const want = reference(input, maxBufferSize);
  const chunkings =
    typeof input === "string"
      ? [[input], splitString(input, cuts), input.split("")]
      : [[input], splitBytes(input, cuts), Array.from(input, (b) => Uint8Array.of(b))];
  for (const chunks of chunkings) {
    const got = decode(chunks, maxBufferSize);
    expect(got.values).toEqual(want.values);
    expect(decodeValues(chunks, maxBufferSize)).toEqual(want.values);
    expect(got.starts).toEqual(want.starts);
    expect(got.safes).toEqual(want.safes);
    expect(got.finalSafe).toEqual(want.finalSafe);
    if (!stopped(want)) expect(got.end).toEqual(want.end);
  }
}

describe("SPEC §12: chunk boundaries never change what is decoded", () => {
  it.each([
    [["data: 1\r\r", ":"], [1]],
    [["data: 1\r\r", "data: 2"], [1]],
    [['data: {"a":\r', "data: 1}\r\r", "x"], [{ a: 1 }]],
  ])("the required cases: %j gives %j, as strings and as bytes", (chunks, expected) => {
    expect(decode(chunks).values).toEqual(expected);
    expect(decode(chunks.map((c) => utf8.encode(c))).values).toEqual(expected);
    expect(decodeValues(chunks)).toEqual(expected);
    expect(decodeValues(chunks.map((c) => utf8.encode(c)))).toEqual(expected);
  });

  // The usual message (one data line, then a blank line) is told from its data alone: these
  // are the shapes next to it, where a miscount would land on another line end.
  it.each([
    "data:1\n\n\n",
    "data: 1\r\n\r\n\r\n",
    "data: 1\r\r\r",
    "data: 1\n\r\n",
    "data:  1\n\n",
    "data:\n\n",
    "data\n\n",
    "data: [1,\ndata: 2]\n\n\n\n\n\n",
    "data: 1\nid: 2\n\n\n",
    "event: x\r\ndata: 1\r\n\r\n",
    ": ping\ndata: 1\n\n: ping\n",
    `data: "${"中".repeat(40)}😀"\n\ndata: 2\n\n`,
    "\ufeffdata: 1\n\n",
  ])("%j, cut anywhere, gives the reference values and positions", (text) => {
    const bytes = utf8.encode(text);
    for (let cut = 0; cut <= bytes.length; cut++) expectLikeReference(bytes, [cut]);
    for (let cut = 0; cut <= text.length; cut++) expectLikeReference(text, [cut]);
  });

  it("bytes: whole, byte by byte and random splits give the reference values and positions", () => {
    fc.assert(
      fc.property(input, points, junk, (text, cuts, junk) => {
        expectLikeReference(withInvalidBytes(utf8.encode(text), junk), cuts);
      }),
      { numRuns: 300 },
    );
  });

  it("strings: whole, one code unit at a time and random splits give the reference values and positions", () => {
    fc.assert(
      fc.property(input, points, (text, cuts) => {
        expectLikeReference(text, cuts);
      }),
      { numRuns: 300 },
    );
  });
});

describe("SPEC §12: maxBufferSize gives the same verdict, at the same place, whatever the chunking", () => {
  const limit = fc.integer({ min: 1, max: 200 });

  it("bytes: whole, byte by byte and random splits, under a small limit, give the reference", () => {
    fc.assert(
      fc.property(input, points, junk, limit, (text, cuts, junk, max) => {
        expectLikeReference(withInvalidBytes(utf8.encode(text), junk), cuts, max);
      }),
      { numRuns: 300 },
    );
  });

  it("strings: whole, one code unit at a time and random splits, under a small limit, give the reference", () => {
    fc.assert(
      fc.property(input, points, limit, (text, cuts, max) => {
        expectLikeReference(text, cuts, max);
      }),
      { numRuns: 300 },
    );
  });

  // The edges of the rule: a message exactly as long as the limit passes, one more fails.
  it.each([
    ["data: 123\n\n", 9, [123]],
    ["data: 123\n\n", 8, [{ failure: "SSE_BUFFER_OVERFLOW" }]],
    // Two lines and the line end between them: 9 + 2 + 8.
    ["data: [1,\r\ndata: 2]\r\n\r\n", 19, [[1, 2]]],
    ["data: [1,\r\ndata: 2]\r\n\r\n", 18, [{ failure: "SSE_BUFFER_OVERFLOW" }]],
    // Each message on its own: a blank line ends one.
    ["data: 1\n\ndata: 2\n\n", 7, [1, 2]],
    // A comment before the message is measured alone (9, then 7); one inside is part of it
    // (9 + 1 + 11 + 1 + 8).
    [": comment\ndata: 1\n\n", 9, [1]],
    [": comment\ndata: 1\n\n", 8, [{ failure: "SSE_BUFFER_OVERFLOW" }]],
    ["data: [1,\n: a comment\ndata: 2]\n\n", 30, [[1, 2]]],
    ["data: [1,\n: a comment\ndata: 2]\n\n", 29, [{ failure: "SSE_BUFFER_OVERFLOW" }]],
    // Messages before the long one come out first; a message the input never ends counts.
    ["data: 1\n\ndata: 22\n\n", 7, [1, { failure: "SSE_BUFFER_OVERFLOW" }]],
    ["data: 1\n\ndata: 22", 7, [1, { failure: "SSE_BUFFER_OVERFLOW" }]],
  ])("%j under maxBufferSize %i gives %j, cut anywhere", (text, max, expected) => {
    expect(reference(text, max).values).toEqual(expected);
    const bytes = utf8.encode(text);
    for (let cut = 0; cut <= bytes.length; cut++) expectLikeReference(bytes, [cut], max);
    for (let cut = 0; cut <= text.length; cut++) expectLikeReference(text, [cut], max);
  });

  it("a blank line that ends a chunk ends the message measured before it", () => {
    // The first chunk is measured line by line (21 > 20 characters since the last blank
    // line), and ends inside a message; the second ends it. The comment after is not part
    // of a message: 17 and 7, not 25.
    const text = ": comment\ndata: 12345" + "6\n\n" + ": another comment\ndata: 7\n\n";
    expect(reference(text, 20).values).toEqual([123456, 7]);
    expectLikeReference(text, [21, 24], 20);
    expectLikeReference(utf8.encode(text), [21, 24], 20);
    // A message right after it is measured from its first line: 11 + 1 + 10.
    const next = ": comment\ndata: 12345" + "6\n\n" + "data: [100,\ndata: 200]\n\n";
    expect(reference(next, 20).values).toEqual([123456, { failure: "SSE_BUFFER_OVERFLOW" }]);
    expectLikeReference(next, [21, 24], 20);
    expectLikeReference(utf8.encode(next), [21, 24], 20);
  });

  it("a message past the limit fails fed whole and in 64 KiB chunks; one of many short data lines too", () => {
    const kib = 1024;
    const long = `data: ${JSON.stringify("x".repeat(200 * kib))}\n\n`;
    const lines = `${Array.from({ length: 20 * kib }, () => "data: 1234567").join("\n")}\n\n`;
    for (const text of [long, lines]) {
      const input = utf8.encode(`data: 1\n\n${text}data: 2\n\n`);
      const expected = [1, { failure: "SSE_BUFFER_OVERFLOW" }];
      expect(decodeValues([input], 100 * kib)).toEqual(expected);
      expect(decodeValues(splitBytes(input, [64 * kib, 128 * kib, 192 * kib]), 100 * kib)).toEqual(
        expected,
      );
      expect(decode([input], 100 * kib).values).toEqual(expected);
    }
  });
});

describe("maxBufferSize over long inputs (the decoder measures lazily past 256 KiB)", () => {
  // Past 256 KiB of text without a chunk that ends at a blank line, the decoder moves its
  // measure to the last blank line it kept; a message that started before must still count
  // whole, in every framing.
  const kib = 1024;
  const limit = 300 * kib;
  /** About 700 KiB of short messages, one of `size` characters (line included), more after. */
  function stream(eol: string, size: number): string {
    const short = (i: number) => `: ping${eol}data: {"i":${i}}${eol}${eol}`;
    const before = Array.from({ length: 12_000 }, (_, i) => short(i)).join("");
    const payload = "x".repeat(size - `data: ""`.length);
    return `${before}data: "${payload}"${eol}${eol}${short(-1)}`;
  }
  function logUniformCuts(length: number, seed: number): number[] {
    const rng = fc.sample(fc.integer({ min: 0, max: 2 ** 31 - 1 }), { numRuns: 1, seed })[0] ?? 1;
    const cuts: number[] = [];
    let state = rng;
    for (let at = 0; at < length; ) {
      state = (Math.imul(state, 48271) + 11) % 2147483647;
      at += Math.max(1, Math.floor(Math.exp(((state >>> 0) / 2147483647) * Math.log(64 * kib))));
      cuts.push(at);
    }
    return cuts;
  }

  it.each(["\n", "\r\n", "\r"])(
    "%j: a message just within the limit passes, one just past fails",
    (eol) => {
      for (const [size, fails] of [
        [limit, false],
        [limit + 1, true],
      ] as const) {
        const bytes = utf8.encode(stream(eol, size));
        const chunkings = [
          [bytes],
          splitBytes(
            bytes,
            Array.from({ length: 40 }, (_, i) => (i + 1) * 64 * kib),
          ),
          splitBytes(bytes, logUniformCuts(bytes.length, size)),
        ];
        for (const chunks of chunkings) {
          const values = decodeValues(chunks, limit);
          expect(values).toHaveLength(fails ? 12_001 : 12_002);
          expect(values.at(-1)).toEqual(fails ? { failure: "SSE_BUFFER_OVERFLOW" } : { i: -1 });
        }
      }
    },
  );
});

describe("SseReleaseDecoder: the proxy's safe offset, found per chunk", () => {
  /**
   * `safe` after every chunk, from SsePositionDecoder and from SseReleaseDecoder, up to a
   * decode failure (after which the proxy takes its offsets from SsePositionDecoder).
   */
  function safesAfterEachChunk(chunks: readonly Uint8Array[], maxBufferSize?: number) {
    const walked = new SsePositionDecoder(() => {}, { maxBufferSize });
    const looked = new SseReleaseDecoder(() => {}, { maxBufferSize });
    const want: number[] = [];
    const got: number[] = [];
    for (const chunk of chunks) {
      walked.push(chunk);
      looked.push(chunk);
      expect(looked.stopped).toBe(walked.stopped);
      if (walked.stopped) break;
      want.push(walked.safe);
      got.push(looked.safe);
    }
    return { want, got };
  }

  function expectSameSafes(bytes: Uint8Array, cuts: readonly number[], maxBufferSize?: number) {
    const chunkings = [
      [bytes],
      splitBytes(bytes, cuts),
      Array.from(bytes, (b) => Uint8Array.of(b)),
      // Empty chunks between the pieces change nothing either.
      splitBytes(bytes, cuts).flatMap((c) => [c, new Uint8Array(0)]),
    ];
    for (const chunks of chunkings) {
      const { want, got } = safesAfterEachChunk(chunks, maxBufferSize);
      expect(got).toEqual(want);
    }
  }

  it.each([
    "data: 1\r\n\r\n: ping\r\n",
    "data: 1\r\r: ping\rdata: 2\r",
    ": a\n: b\n\ndata: 1\n: c\n\n",
    "\ufeff: hi\n\ufeff: not a BOM\n\n",
    "\ufeff\ndata: 1\n\n",
    "id: 1\n\n: ping\nevent: x\n: inside\ndata: 2\n\n",
    `data: "${"中".repeat(30)}"\r\n\r\n: ${"😀".repeat(20)}\r\n`,
  ])(
    "%j, cut anywhere, gives SsePositionDecoder's safe after every chunk",
    (text) => {
      const bytes = utf8.encode(text);
      const step = Math.ceil(bytes.length / 16);
      for (let a = 0; a <= bytes.length; a++) {
        for (let b = a; b <= bytes.length; b += step) expectSameSafes(bytes, [a, b]);
      }
      // Every pair of cuts, each also byte by byte: about 5 s for the longest text on a busy
      // 2-core machine, so the bound is the work's, not vitest's 5 s default.
    },
    60_000,
  );

  it("a CR, then the bytes of a character over several chunks, then an LF: a lone CR", () => {
    const bytes = Uint8Array.from([
      ...utf8.encode("data: 1\n\r"),
      0xe2,
      0x0a,
      ...utf8.encode("\n"),
    ]);
    const chunks = [bytes.subarray(0, 9), bytes.subarray(9, 10), bytes.subarray(10)];
    const { want, got } = safesAfterEachChunk(chunks);
    expect(got).toEqual(want);
    expect(got.at(-1)).toBe(bytes.length);
  });

  it("random inputs (invalid bytes too), whole, byte by byte and at random splits", () => {
    fc.assert(
      fc.property(input, points, junk, (text, cuts, junk) => {
        expectSameSafes(withInvalidBytes(utf8.encode(text), junk), cuts);
      }),
      { numRuns: 400 },
    );
  });

  it("under a small maxBufferSize too", () => {
    fc.assert(
      fc.property(input, points, fc.integer({ min: 1, max: 120 }), (text, cuts, max) => {
        expectSameSafes(utf8.encode(text), cuts, max);
      }),
      { numRuns: 200 },
    );
  });

  it("reads bytes only", () => {
    expect(() => new SseReleaseDecoder(() => {}).push("data: 1\n\n")).toThrow(TypeError);
  });
});

describe("SsePositionDecoder.unfinished: a last message with no blank line after it", () => {
  const head = 'data: {"type":"X"}\n\n';
  const start = { line: 3, offset: head.length };
  it.each<[string, { line: number; offset: number } | undefined, string]>([
    ['data: {"a":1', start, "its only line has no line end either"],
    ['data: {"a":1}\n', start, "one line, ended"],
    ['data: {"a":1}\ndata: 2', start, "two lines, the last one open"],
    [": c\ndata: x", { line: 4, offset: head.length + 4 }, "after a comment"],
    ["id: 7", start, "a field that is not data"],
    [": only a comment", undefined, "a comment is no message"],
    ["", undefined, "nothing after the blank line"],
  ])("%j: %j (%s), whatever the chunks", (tail, expected) => {
    const bytes = new TextEncoder().encode(head + tail);
    for (const size of [1, 2, 7, bytes.length]) {
      const decoder = new SsePositionDecoder(() => {});
      for (let i = 0; i < bytes.length; i += size) decoder.push(bytes.subarray(i, i + size));
      decoder.finish();
      expect(decoder.unfinished, `chunks of ${size}`).toEqual(expected);
    }
  });
});
