// SPEC §12: chunk boundaries never change what is decoded. Random SSE inputs (LF, CR and
// CRLF mixed, comments, BOM, multi-byte UTF-8, multi-line data, other fields) are decoded
// whole and under random splits, as bytes and as strings; the values, and where the
// decoding core says each message starts and what is safe to release, must equal an
// independent reading of the whole input (a regex line split, as the WHATWG grammar reads).

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SseDecodeFailure } from "../src/index.ts";
import { SseDecoder } from "../src/sse-decoder.ts";
import { SsePositionDecoder } from "../src/sse-positions.ts";

const utf8 = new TextEncoder();

interface Decoded {
  values: unknown[];
  /** Per value: where its message starts, and `safe` when it was emitted. */
  starts: { line: number; offset: number }[];
  safes: number[];
  /** `safe` after each chunk. */
  finalSafe: number;
  end: { line: number; offset: number };
}

function decode(chunks: readonly (Uint8Array | string)[]): Decoded {
  const out: Decoded = {
    values: [],
    starts: [],
    safes: [],
    finalSafe: 0,
    end: { line: 0, offset: 0 },
  };
  const decoder: SsePositionDecoder = new SsePositionDecoder((value) => {
    out.values.push(value instanceof SseDecodeFailure ? { failure: value.code } : value);
    out.starts.push(decoder.messageStart);
    out.safes.push(decoder.safe);
  });
  for (const chunk of chunks) decoder.push(chunk);
  decoder.finish();
  out.finalSafe = decoder.safe;
  out.end = decoder.position;
  return out;
}

interface Line {
  text: string;
  /** Where the line starts, and where the next one starts. */
  offset: number;
  next: number;
}

/** The values alone, from a decoder that does not track positions. */
function decodeValues(chunks: readonly (Uint8Array | string)[]): unknown[] {
  const values: unknown[] = [];
  const decoder = new SseDecoder((value) => {
    values.push(value instanceof SseDecodeFailure ? { failure: value.code } : value);
  });
  for (const chunk of chunks) decoder.push(chunk);
  decoder.finish();
  return values;
}

/**
 * The lines of the whole input, found by their own scan: code units split with a regex, or
 * bytes split at CR and LF bytes (each line decoded on its own: CR and LF are ASCII, so no
 * character spans a line end). A leading BOM is skipped; the last piece, which no line end
 * closes, is not a line.
 */
function linesOf(input: string | Uint8Array): { lines: Line[]; partial: boolean; start: number } {
  const lines: Line[] = [];
  if (typeof input === "string") {
    const start = input.startsWith("\ufeff") ? 1 : 0;
    const pieces = input.slice(start).split(/(\r\n|\r|\n)/);
    let offset = start;
    for (let k = 0; k + 1 < pieces.length; k += 2) {
      const text = pieces[k] ?? "";
      const next = offset + text.length + (pieces[k + 1] ?? "").length;
      lines.push({ text, offset, next });
      offset = next;
    }
    return { lines, partial: (pieces[pieces.length - 1] ?? "") !== "", start };
  }
  const utf8 = new TextDecoder();
  const start = input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf ? 3 : 0;
  let offset = start;
  for (let i = start; i < input.length; i++) {
    const b = input[i];
    if (b !== 10 && b !== 13) continue;
    const next = b === 13 && input[i + 1] === 10 ? i + 2 : i + 1;
    lines.push({ text: utf8.decode(input.subarray(offset, i)), offset, next });
    offset = next;
    i = next - 1;
  }
  return { lines, partial: offset < input.length, start };
}

/** The reference: the whole input, decoded by the WHATWG algorithm written plainly. */
function reference(input: string | Uint8Array): Decoded {
  const out: Decoded = {
    values: [],
    starts: [],
    safes: [],
    finalSafe: 0,
    end: { line: 0, offset: 0 },
  };
  const { lines, partial } = linesOf(input);
  let data: string[] = [];
  let start: { line: number; offset: number } | undefined;
  let safe = 0;
  for (const [k, line] of lines.entries()) {
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
    line: partial || lines.length === 0 ? lines.length + 1 : lines.length,
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

function splitBytes(bytes: Uint8Array, points: readonly number[]): Uint8Array[] {
  const cuts = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const c of cuts) {
    out.push(bytes.subarray(from, c));
    from = c;
  }
  out.push(bytes.subarray(from));
  return out;
}

function splitString(text: string, points: readonly number[]): string[] {
  const cuts = [...new Set(points.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const c of cuts) {
    out.push(text.slice(from, c));
    from = c;
  }
  out.push(text.slice(from));
  return out;
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
function expectLikeReference(input: Uint8Array | string, cuts: readonly number[]): void {
  const want = reference(input);
  const chunkings =
    typeof input === "string"
      ? [[input], splitString(input, cuts), input.split("")]
      : [[input], splitBytes(input, cuts), Array.from(input, (b) => Uint8Array.of(b))];
  for (const chunks of chunkings) {
    const got = decode(chunks);
    expect(got.values).toEqual(want.values);
    expect(decodeValues(chunks)).toEqual(want.values);
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
