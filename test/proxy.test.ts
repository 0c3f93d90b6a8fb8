// verifyResponse and verifyingFetch (SPEC §16), through WHATWG streams only, so the file runs
// under Node and edge-runtime alike.
//
// The inputs are generated valid runs (test/support/valid-run.ts) written as SSE with every
// framing a producer may use: a BOM, heartbeat comments between messages and comments inside
// them, `id:`, `event:` and `retry:` lines, blocks without data, multi-line data, LF, CR and
// CRLF line ends (mixed too), and a comment that the end of input cuts short. The writer
// records where each message's first field line starts, so the expected output of every
// case is computed from the input's own layout and a `Verifier` run over the values, never
// from the proxy. The output is also parsed by a small SSE reader written here.
//
// SPEC version 4 (AG-UI 1.1): in "run-error" mode the proxy appends its RUN_ERROR wherever
// 1.1 lets one stand (before any run, in a run, after RUN_FINISHED), never after a
// RUN_ERROR, and marks it as its own: code "AG_UI_VERIFY_…", message "ag-ui-verify rejected
// the stream: …". A response that is not an event stream passes through untouched.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type FetchFunction,
  isVerifyError,
  SseDecodeFailure,
  Verifier,
  type VerifyError,
  type VerifyResponseOptions,
  verifyAll,
  verifyingFetch,
  verifyResponse,
} from "../src/index.ts";
import { SsePositionDecoder } from "../src/sse/positions.ts";
import { concat } from "./support/streams.ts";
import { buildRun, validRun } from "./support/valid-run.ts";

const utf8 = new TextEncoder();
const text = new TextDecoder();
const LF = 10;
const CR = 13;

// ---------------------------------------------------------------------------------------
// Writing runs as SSE

/** What a message carries: an event (written as JSON), or data written as it is. */
type Item = { event: unknown } | { data: string };

interface Framed {
  bytes: Uint8Array;
  bom: boolean;
  /** Per item: the offset of its message's first field line, and of its blank line. */
  starts: number[];
  ends: number[];
  /** The length of a last line that no line end closes (a comment the input cut short). */
  unterminated: number;
}

/** A small seeded PRNG (xorshift32), so that one fast-check integer picks a whole framing. */
function prng(seed: number): (n: number) => number {
  let x = seed >>> 0 || 0x9e3779b9;
  return (n) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x % n;
  };
}

const ENDS = ["\n", "\r\n", "\r"] as const;
const HEARTBEATS = [": ping", ":", ":keep-alive ☕", ": 東京"];
const DATALESS = ["id: 7", "event: ping", "retry: 1500", "id:"];

/** Writes `items` as SSE, with a framing chosen by `seed`. */
function frame(items: readonly Item[], seed: number): Framed {
  const pick = prng(seed);
  // One line-end style per stream, or a different end on every line.
  const style = pick(4);
  const pieces: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  let offset = 0;
  let previous = "\n";
  const put = (s: string) => {
    pieces.push(s);
    offset += utf8.encode(s).length;
  };
  const line = (content: string) => {
    let end: string = ENDS[style < 3 ? style : pick(3)] ?? "\n";
    // A blank line written as LF right after a CR would be read as one CRLF line end.
    if (content === "" && previous === "\r" && end === "\n") end = "\r";
    put(content + end);
    previous = end;
  };
  const bom = pick(4) === 0;
  if (bom) put("\ufeff");
  for (const [i, item] of items.entries()) {
    for (let k = pick(4); k > 0; k--) {
      const before = pick(4);
      if (before === 0) line(HEARTBEATS[pick(HEARTBEATS.length)] ?? ":");
      else if (before === 1) line("");
      else if (before === 2) {
        line(DATALESS[pick(DATALESS.length)] ?? "id: 1");
        line("");
      }
    }
    starts.push(offset);
    if (pick(3) === 0) line(`id: ${i}`);
    if (pick(4) === 0) line("event: message");
    const json = "event" in item ? JSON.stringify(item.event) : item.data;
    const form = pick(5);
    if (form === 0) line(`data:${json}`);
    else if (form === 1 && "event" in item) {
      // Multi-line data: the lines of pretty-printed JSON, which SSE joins with LF.
      for (const part of JSON.stringify(item.event, null, 1).split("\n")) line(`data: ${part}`);
    } else if (form === 2) {
      line(`data: ${json}`);
      line(": a comment inside the message");
    } else line(`data: ${json}`);
    if (pick(6) === 0) line("retry: 2000");
    ends.push(offset);
    line("");
  }
  const tail = pick(5);
  if (tail === 0) line(": bye");
  else if (tail === 1) line("");
  // A comment line that the end of input cuts short.
  const unterminated = tail === 2 ? ": cut sh" : "";
  put(unterminated);
  return {
    bytes: utf8.encode(pieces.join("")),
    bom,
    starts,
    ends,
    unterminated: unterminated.length,
  };
}

const asItems = (events: readonly unknown[]): Item[] => events.map((event) => ({ event }));

// ---------------------------------------------------------------------------------------
// Chunkings

function cutAt(bytes: Uint8Array, points: readonly number[]): Uint8Array[] {
  const cuts = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const cut of cuts) {
    chunks.push(bytes.subarray(from, cut));
    from = cut;
  }
  chunks.push(bytes.subarray(from));
  return chunks;
}

const byteByByte = (bytes: Uint8Array) => Array.from(bytes, (b) => Uint8Array.of(b));

// ---------------------------------------------------------------------------------------
// Running the proxy

/** An upstream body that hands out `chunks` one per pull and records its cancellation. */
function upstreamOf(chunks: readonly Uint8Array[]) {
  const state = { pulls: 0, cancelled: false, reason: undefined as unknown };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = chunks[state.pulls++];
        // Copies: the proxy may hand out views of the chunks it was given.
        if (chunk === undefined) controller.close();
        else controller.enqueue(chunk.slice());
      },
      cancel(reason) {
        state.cancelled = true;
        state.reason = reason;
      },
    },
    // Read only when asked, like a network body, so that a cancel finds it still open.
    { highWaterMark: 0 },
  );
  return { body, state };
}

interface Output {
  bytes: Uint8Array;
  /** Every chunk the body handed out. */
  chunks: Uint8Array[];
  errored: boolean;
  error: unknown;
}

async function drain(body: ReadableStream<Uint8Array> | null): Promise<Output> {
  const chunks: Uint8Array[] = [];
  const done = (errored: boolean, error: unknown) => ({
    bytes: concat(chunks),
    chunks,
    errored,
    error,
  });
  if (body === null) return done(false, undefined);
  const reader = body.getReader();
  try {
    for (;;) {
      const result = await reader.read();
      if (result.done) return done(false, undefined);
      chunks.push(result.value);
    }
  } catch (error) {
    return done(true, error);
  }
}

const SSE = { "content-type": "text/event-stream" };

async function proxy(chunks: readonly Uint8Array[], options?: VerifyResponseOptions) {
  const upstream = upstreamOf(chunks);
  const output = await drain(
    verifyResponse(new Response(upstream.body, { headers: SSE }), options).body,
  );
  return { ...output, upstream: upstream.state };
}

// ---------------------------------------------------------------------------------------
// The expected output, from the input's layout and a Verifier

/** The value a message's data decodes to (SPEC §12). */
function decodedValue(item: Item): unknown {
  if ("event" in item) return item.event;
  try {
    return JSON.parse(item.data);
  } catch (cause) {
    return new SseDecodeFailure("INVALID_JSON", item.data, cause);
  }
}

/** Where a stream stands after its verified events (SPEC §5), as the test tracks it. */
type Phase = "before any run" | "running" | "finished" | "failed";

interface Verdict {
  /** How many values were verified before the violation (all of them when valid). */
  verified: number;
  error: VerifyError | undefined;
  /** Where the stream stood after the verified values. */
  phase: Phase;
}

function verdictOf(values: readonly unknown[]): Verdict {
  const verifier = new Verifier();
  let phase: Phase = "before any run";
  for (const [i, value] of values.entries()) {
    try {
      verifier.verify(value);
    } catch (error) {
      if (!isVerifyError(error)) throw error;
      return { verified: i, error, phase };
    }
    const type = typeof value === "object" && value !== null && Reflect.get(value, "type");
    if (type === "RUN_STARTED") phase = "running";
    if (type === "RUN_FINISHED") phase = "finished";
    if (type === "RUN_ERROR") phase = "failed";
  }
  try {
    verifier.end();
  } catch (error) {
    if (!isVerifyError(error)) throw error;
    return { verified: values.length, error, phase };
  }
  return { verified: values.length, error: undefined, phase };
}

/** The RUN_ERROR the proxy appends for a VerifyError: marked as its own (SPEC §16). */
function markedRunError(error: VerifyError) {
  return {
    type: "RUN_ERROR",
    message: `ag-ui-verify rejected the stream: ${error.message}`,
    code: `AG_UI_VERIFY_${error.code}`,
  };
}

/** Every CR and CRLF written as LF (the bytes are UTF-8: CR and LF never occur inside a character). */
function lfOnly(bytes: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] ?? 0;
    if (b !== CR) out.push(b);
    else {
      out.push(LF);
      if (bytes[i + 1] === LF) i++;
    }
  }
  return Uint8Array.from(out);
}

/**
 * What the proxy must write for `framed` when the first `values.length` of its messages
 * arrive (the rest cut off): the input up to the first field line of the first message not
 * verified (all of it when every message is), line ends converted for `lf`, then in
 * run-error mode the marked RUN_ERROR, unless the last verified event was a RUN_ERROR. A
 * BOM alone is not released: it is neither a message nor a line.
 */
function expected(framed: Framed, values: readonly unknown[], options: VerifyResponseOptions) {
  const verdict = verdictOf(values);
  let upTo = framed.starts[verdict.verified] ?? framed.bytes.length;
  if (framed.bom && upTo === 3) upTo = 0;
  let released = framed.bytes.subarray(0, upTo);
  if (options.lineEnds === "lf") released = lfOnly(released);
  const error = verdict.error;
  let events = values.slice(0, verdict.verified);
  if (error !== undefined && options.onViolation === "run-error" && verdict.phase !== "failed") {
    const runError = markedRunError(error);
    released = concat([released, runErrorMessage(released, runError)]);
    events = [...events, runError];
  }
  return { bytes: released, events, verdict };
}

function runErrorMessage(released: Uint8Array, event: unknown): Uint8Array {
  const last = released[released.length - 1];
  const lineStart = released.length === 0 || last === LF || last === CR;
  return utf8.encode(`${lineStart ? "" : "\n"}data: ${JSON.stringify(event)}\n\n`);
}

/** Fails unless the bytes are equal, showing both as JSON strings (CR and LF visible). */
function expectBytes(actual: Uint8Array, wanted: Uint8Array): void {
  if (actual.length === wanted.length && actual.every((b, i) => b === wanted[i])) return;
  expect(JSON.stringify(text.decode(actual))).toBe(JSON.stringify(text.decode(wanted)));
  expect(actual).toEqual(wanted);
}

// ---------------------------------------------------------------------------------------
// An SSE reader, written plainly from the WHATWG grammar, for the output

function readSse(bytes: Uint8Array): unknown[] {
  let input = text.decode(bytes);
  if (input.startsWith("\ufeff")) input = input.slice(1);
  const lines = input.split(/\r\n|\r|\n/);
  lines.pop(); // the piece after the last line end is not a line
  const values: unknown[] = [];
  let data: string[] | undefined;
  for (const line of lines) {
    if (line === "") {
      if (data !== undefined) values.push(JSON.parse(data.join("\n")));
      data = undefined;
      continue;
    }
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== "data") continue;
    const value = colon === -1 ? "" : line.slice(colon + 1);
    data ??= [];
    data.push(value.startsWith(" ") ? value.slice(1) : value);
  }
  return values;
}

// ---------------------------------------------------------------------------------------
// Arbitraries

/** One value of `arbitrary`, the same on every run. */
function sample<T>(arbitrary: fc.Arbitrary<T>): T {
  const [value] = fc.sample(arbitrary, { seed: 42, numRuns: 1 });
  if (value === undefined) throw new Error("no sample");
  return value;
}

const seed = fc.integer();
const cuts = fc.array(fc.nat(), { maxLength: 16 });
/** Short runs, for byte-by-byte chunking. */
const shortRun = fc
  .array(fc.nat({ max: 0x7fffffff }), { maxLength: 40 })
  .map((xs) => buildRun(xs, { ending: "either" }));
const modes = fc.constantFrom<VerifyResponseOptions>(
  {},
  { onViolation: "run-error" },
  { lineEnds: "lf" },
  { onViolation: "run-error", lineEnds: "lf" },
);

// ---------------------------------------------------------------------------------------

describe("verifyResponse: the upstream's own bytes", () => {
  it("a valid run comes out byte for byte, whole and in random chunks", async () => {
    await fc.assert(
      fc.asyncProperty(validRun, seed, cuts, async (events, s, points) => {
        const framed = frame(asItems(events), s);
        for (const chunks of [[framed.bytes], cutAt(framed.bytes, points)]) {
          const out = await proxy(chunks);
          expect(out.errored).toBe(false);
          expectBytes(out.bytes, framed.bytes);
          expect(readSse(out.bytes)).toEqual(events);
          expect(out.upstream.cancelled).toBe(false);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("a valid run comes out byte for byte, one byte per chunk", async () => {
    await fc.assert(
      fc.asyncProperty(shortRun, seed, async (events, s) => {
        const framed = frame(asItems(events), s);
        const out = await proxy(byteByByte(framed.bytes));
        expect(out.errored).toBe(false);
        expectBytes(out.bytes, framed.bytes);
      }),
      { numRuns: 100 },
    );
  });

  it('lineEnds "lf": every CR and CRLF becomes LF, nothing else changes', async () => {
    await fc.assert(
      fc.asyncProperty(validRun, seed, cuts, async (events, s, points) => {
        const framed = frame(asItems(events), s);
        const want = lfOnly(framed.bytes);
        for (const chunks of [[framed.bytes], cutAt(framed.bytes, points)]) {
          const out = await proxy(chunks, { lineEnds: "lf" });
          expect(out.errored).toBe(false);
          expectBytes(out.bytes, want);
          expect(out.bytes.includes(CR)).toBe(false);
        }
      }),
      { numRuns: 100 },
    );
    const framed = frame(asItems(sample(validRun)), 3);
    const out = await proxy(byteByByte(framed.bytes), { lineEnds: "lf" });
    expectBytes(out.bytes, lfOnly(framed.bytes));
  });

  it.each([
    ["CR", "\r"],
    ["CRLF", "\r\n"],
  ])("a %s-framed stream, split inside every line end, comes out whole", async (_, end) => {
    const events = [
      { type: "RUN_STARTED", threadId: "t", runId: "r" },
      { type: "RUN_FINISHED", threadId: "t", runId: "r" },
    ];
    const input = utf8.encode(events.map((e) => `data: ${JSON.stringify(e)}${end}${end}`).join(""));
    const points = [...input.keys()].filter((i) => input[i] === CR).map((i) => i + 1);
    for (const lineEnds of ["keep", "lf"] as const) {
      const out = await proxy(cutAt(input, points), { lineEnds });
      expect(out.bytes).toEqual(lineEnds === "keep" ? input : lfOnly(input));
    }
  });

  it("releases bytes per network chunk, not per event", async () => {
    const events = sample(validRun);
    const whole = utf8.encode(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(""));
    const out = await proxy([whole]);
    expect(out.chunks).toHaveLength(1);
    expect(out.chunks[0]).toEqual(whole);
  });
});

// ---------------------------------------------------------------------------------------
// Violations

/**
 * Items that break a rule wherever they are put into a valid stream (the Verifier says
 * which). A second RUN_STARTED is not one since version 4: after a run closes it is a new run.
 */
const BAD_ITEMS: Item[] = [
  { event: { type: "TEXT_MESSAGE_CONTENT", messageId: "never-opened", delta: "x" } },
  { event: { type: "TOOL_CALL_END", toolCallId: "never-opened" } },
  { event: { type: "TEXT_MESSAGE_START", role: "assistant" } },
  { data: "[DONE]" },
  { data: "42" },
];

const violating = fc
  .tuple(validRun, fc.nat(), fc.constantFrom(...BAD_ITEMS))
  .map(([events, at, bad]) => {
    const items = asItems(events);
    items.splice(at % (items.length + 1), 0, bad);
    return items;
  });

/** Checks the proxy's output against {@link expected}, in the mode `options` names. */
async function expectProxied(
  chunks: readonly Uint8Array[],
  framed: Framed,
  values: readonly unknown[],
  options: VerifyResponseOptions,
) {
  const want = expected(framed, values, options);
  const out = await proxy(chunks, options);
  expectBytes(out.bytes, want.bytes);
  expect(readSse(out.bytes)).toEqual(want.events);
  const error = want.verdict.error;
  if (error === undefined || options.onViolation === "run-error") {
    expect(out.errored).toBe(false);
  } else {
    expect(out.errored).toBe(true);
    expect(isVerifyError(out.error) && [out.error.code, out.error.index]).toEqual([
      error.code,
      error.index,
    ]);
    expect(out.error).toBeInstanceOf(Error);
  }
  return { out, want };
}

describe("verifyResponse: violations", () => {
  it("the output ends at the last verified message, then errors or ends with RUN_ERROR", async () => {
    await fc.assert(
      fc.asyncProperty(violating, seed, cuts, modes, async (items, s, points, options) => {
        const framed = frame(items, s);
        const values = items.map(decodedValue);
        for (const chunks of [[framed.bytes], cutAt(framed.bytes, points)]) {
          const { out, want } = await expectProxied(chunks, framed, values, options);
          expect(want.verdict.error).toBeDefined();
          // The upstream is cancelled with the VerifyError, in both modes, unless it had
          // ended (a final CR only ends its line at the end of input).
          const ended = out.upstream.pulls > chunks.length;
          expect(out.upstream.cancelled || ended).toBe(true);
          if (!ended)
            expect(isVerifyError(out.upstream.reason) && out.upstream.reason.code).toBe(
              want.verdict.error?.code,
            );
          // In every phase, what a run-error body carries is a stream 1.1 accepts.
          if (options.onViolation === "run-error") {
            expect(() => verifyAll(readSse(out.bytes))).not.toThrow();
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it("a violation one byte at a time", async () => {
    await fc.assert(
      fc.asyncProperty(shortRun, fc.nat(), seed, modes, async (events, at, s, options) => {
        const items = asItems(events);
        items.splice(at % (items.length + 1), 0, BAD_ITEMS[at % BAD_ITEMS.length] ?? { data: "" });
        const framed = frame(items, s);
        await expectProxied(byteByByte(framed.bytes), framed, items.map(decodedValue), options);
      }),
      { numRuns: 50 },
    );
  });

  it("a stream cut off inside a message ends at the message before it", async () => {
    await fc.assert(
      fc.asyncProperty(validRun, fc.nat(), fc.nat(), seed, cuts, modes, async (...args) => {
        const [events, which, where, s, points, options] = args;
        const framed = frame(asItems(events), s);
        const i = which % events.length;
        const start = framed.starts[i] ?? 0;
        const end = framed.ends[i] ?? 0;
        // Anywhere from the message's first field line to the start of its blank line.
        const input = framed.bytes.subarray(0, start + (where % (end - start + 1)));
        const { want } = await expectProxied(
          cutAt(input, points),
          framed,
          events.slice(0, i),
          options,
        );
        // Cut after a run closed (a stream may hold several, or a late RUN_ERROR), the
        // partial message is all that is lost: no violation, a clean end.
        const closed = want.verdict.phase === "finished" || want.verdict.phase === "failed";
        if (closed) expect(want.verdict.error).toBeUndefined();
        else expect(want.verdict.error?.code).toMatch(/^STREAM_ENDED_BEFORE_RUN_/);
      }),
      { numRuns: 150 },
    );
  });

  it("a run that never closes: every message and the comment after it, then RUN_ERROR", async () => {
    await fc.assert(
      fc.asyncProperty(validRun, seed, cuts, modes, async (events, s, points, options) => {
        // Everything before the first RUN_FINISHED or RUN_ERROR: the first run, left open.
        const close = events.findIndex((e) => e.type === "RUN_FINISHED" || e.type === "RUN_ERROR");
        const open = events.slice(0, close === -1 ? -1 : close);
        const framed = frame(asItems(open), s);
        const { want } = await expectProxied(cutAt(framed.bytes, points), framed, open, options);
        expect(want.verdict.error?.code).toMatch(/^STREAM_ENDED_BEFORE_RUN_/);
      }),
      { numRuns: 100 },
    );
  });

  it("a RUN_ERROR after a comment the input cut short starts on a new line", async () => {
    const start = `data: ${JSON.stringify({ type: "RUN_STARTED", threadId: "t", runId: "r" })}\n\n`;
    const out = await proxy([utf8.encode(`${start}: cut sh`)], { onViolation: "run-error" });
    const body = text.decode(out.bytes);
    expect(body.startsWith(`${start}: cut sh\ndata: {"type":"RUN_ERROR",`)).toBe(true);
    expect(body.endsWith(`"code":"AG_UI_VERIFY_STREAM_ENDED_BEFORE_RUN_CLOSED"}\n\n`)).toBe(true);
  });

  it("mid-stream, a line that starts with U+FEFF keeps it: no BOM to drop there", async () => {
    // The proxy finds where a violation leaves the output by decoding the bytes it kept
    // again, from the last release. Here they start with U+FEFF, which makes "\ufeffdata"
    // an unknown field (a block with no event); read as a BOM, it would become a second
    // RUN_STARTED and move the cut.
    const started = `data: ${JSON.stringify({ type: "RUN_STARTED", threadId: "t", runId: "r" })}\n\n`;
    const odd = `\ufeff${started}`;
    const bad = `data: ${JSON.stringify({ type: "TEXT_MESSAGE_END", messageId: "m" })}\n\n`;
    for (const rest of [odd + bad, `${odd}: ping\n${bad}`]) {
      const out = await proxy([utf8.encode(started), utf8.encode(rest)]);
      expect(text.decode(out.bytes)).toBe(started + rest.slice(0, rest.indexOf(bad)));
      expect(isVerifyError(out.error) && out.error.code).toBe("TEXT_MESSAGE_NOT_OPEN");
    }
  });

  it("passes several runs in one stream; passes maxBufferSize on", async () => {
    const run = [
      { type: "RUN_STARTED", threadId: "t", runId: "r" },
      { type: "RUN_FINISHED", threadId: "t", runId: "r" },
    ];
    const one = utf8.encode(run.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(""));
    const two = concat([one, one]);
    for (const onViolation of ["error", "run-error"] as const) {
      const both = await proxy([two], { onViolation });
      expectBytes(both.bytes, two);
      expect(both.errored).toBe(false);
    }
    const small = await proxy(cutAt(one, [4, 8, 12, 16, 20]), { maxBufferSize: 16 });
    expect(small.bytes).toHaveLength(0);
    expect(isVerifyError(small.error) && small.error.code).toBe("SSE_BUFFER_OVERFLOW");
  });
});

const message = (event: unknown) => `data: ${JSON.stringify(event)}\n\n`;
const STARTED = message({ type: "RUN_STARTED", threadId: "t", runId: "r" });
const MSG_START = message({ type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" });
const FINISHED = message({ type: "RUN_FINISHED", threadId: "t", runId: "r" });

describe("verifyResponse: a schema (SPEC §14)", () => {
  /** A Standard Schema that wants every TEXT_MESSAGE_START to have role "assistant". */
  const assistantOnly = {
    "~standard": {
      version: 1 as const,
      vendor: "test",
      validate: (value: unknown) =>
        typeof value === "object" &&
        value !== null &&
        Reflect.get(value, "type") === "TEXT_MESSAGE_START" &&
        Reflect.get(value, "role") !== "assistant"
          ? { issues: [{ message: "role must be assistant", path: ["role"] }] }
          : { value },
    },
  };
  const robot = message({ type: "TEXT_MESSAGE_START", messageId: "m1", role: "robot" });

  it("a schema mismatch is a violation like any other", async () => {
    const input = utf8.encode(`${STARTED}: ping\n${robot}${FINISHED}`);
    const strict = await proxy([input], { schema: assistantOnly });
    expect(text.decode(strict.bytes)).toBe(`${STARTED}: ping\n`);
    expect(isVerifyError(strict.error) && [strict.error.code, strict.error.field]).toEqual([
      "SCHEMA_MISMATCH",
      "role",
    ]);
    const ended = await proxy([input], { schema: assistantOnly, onViolation: "run-error" });
    expect(readSse(ended.bytes).at(-1)).toMatchObject({
      type: "RUN_ERROR",
      code: "AG_UI_VERIFY_SCHEMA_MISMATCH",
    });
    const valid = await proxy([utf8.encode(STARTED + MSG_START)], { schema: assistantOnly });
    expect(isVerifyError(valid.error) && valid.error.code).toBe("STREAM_ENDED_BEFORE_RUN_CLOSED");
  });

  it("a schema that validates asynchronously errors the body with the verifier's TypeError", async () => {
    const promised = {
      "~standard": {
        version: 1 as const,
        vendor: "test",
        validate: async (value: unknown) => ({ value }),
      },
    };
    for (const onViolation of ["error", "run-error"] as const) {
      const out = await proxy([utf8.encode(STARTED)], { schema: promised, onViolation });
      expect(out.bytes).toHaveLength(0);
      expect(out.error).toBeInstanceOf(TypeError);
      expect(out.upstream.cancelled).toBe(true);
    }
  });
});

// ---------------------------------------------------------------------------------------
// Where the appended RUN_ERROR stands (AG-UI 1.1's lifecycle), and how it is marked

describe("verifyResponse: the appended RUN_ERROR, by phase (SPEC §16, version 4)", () => {
  const PRODUCER_ERROR = { type: "RUN_ERROR", message: "model overloaded", code: "E" };
  const OWN = message(PRODUCER_ERROR);
  const FUTURE = message({ type: "FUTURE" });
  /** Breaks a rule in every phase: never opened, so not open in a run; no event after one. */
  const BAD = message({ type: "TEXT_MESSAGE_CONTENT", messageId: "m9", delta: "x" });

  /** Where the stream stands when BAD arrives, what came before it, and BAD's code there. */
  const phases: [string, string, string][] = [
    ["before any run", "", "EVENT_BEFORE_RUN_STARTED"],
    [
      "before any run, after an unknown event and a heartbeat",
      `${FUTURE}: ping\n`,
      "EVENT_BEFORE_RUN_STARTED",
    ],
    ["while a run is open", STARTED + MSG_START, "TEXT_MESSAGE_NOT_OPEN"],
    ["after RUN_FINISHED (a late failure)", STARTED + FINISHED, "EVENT_AFTER_RUN_CLOSED"],
    ["while the second run is open", STARTED + FINISHED + STARTED, "TEXT_MESSAGE_NOT_OPEN"],
    [
      "after a failed run, the next one finished",
      STARTED + OWN + STARTED + FINISHED,
      "EVENT_AFTER_RUN_CLOSED",
    ],
  ];

  it.each(phases)("%s: run-error appends the marked RUN_ERROR", async (_, before, code) => {
    for (const chunks of [[before + BAD], [before, BAD]]) {
      const out = await proxy(
        chunks.filter((c) => c !== "").map((c) => utf8.encode(c)),
        { onViolation: "run-error" },
      );
      expect(out.errored).toBe(false);
      expect(out.upstream.cancelled).toBe(true);
      const body = text.decode(out.bytes);
      expect(body.startsWith(before)).toBe(true);
      const appended = readSse(utf8.encode(body.slice(before.length)));
      expect(appended).toEqual([
        {
          type: "RUN_ERROR",
          message: expect.stringMatching(/^ag-ui-verify rejected the stream: \S/),
          code: `AG_UI_VERIFY_${code}`,
        },
      ]);
      // The output is a stream 1.1 accepts: after RUN_FINISHED, a late RUN_ERROR fails the
      // run that reported success.
      expect(() => verifyAll(readSse(out.bytes))).not.toThrow();
    }
  });

  it.each(phases)('%s: "error" errors the body with the VerifyError', async (_, before, code) => {
    const out = await proxy([utf8.encode(before + BAD)]);
    expect(text.decode(out.bytes)).toBe(before);
    expect(isVerifyError(out.error) && out.error.code).toBe(code);
    expect(out.upstream.cancelled).toBe(true);
  });

  // After RUN_ERROR the run already failed, and 1.1 accepts no second RUN_ERROR.
  const failed: [string, string][] = [
    ["after the producer's RUN_ERROR", STARTED + MSG_START + OWN],
    ["after a RUN_ERROR before any run", OWN],
    ["after a late RUN_ERROR", STARTED + FINISHED + OWN],
    ["after the second run failed", STARTED + FINISHED + STARTED + OWN],
  ];

  it.each(failed)("%s: run-error just closes the body", async (_, before) => {
    const out = await proxy([utf8.encode(before + BAD + FINISHED)], { onViolation: "run-error" });
    expect(out.errored).toBe(false);
    expect(text.decode(out.bytes)).toBe(before);
    expect(out.upstream.cancelled).toBe(true);
    expect(() => verifyAll(readSse(out.bytes))).not.toThrow();
    const strict = await proxy([utf8.encode(before + BAD)]);
    expect(text.decode(strict.bytes)).toBe(before);
    expect(isVerifyError(strict.error) && strict.error.code).toBe("EVENT_AFTER_RUN_CLOSED");
  });

  it("the end of input before any run, or inside one, is a violation there too", async () => {
    for (const [input, code] of [
      ["", "STREAM_ENDED_BEFORE_RUN_STARTED"],
      [`${FUTURE}: bye\n`, "STREAM_ENDED_BEFORE_RUN_STARTED"],
      [STARTED + FINISHED + STARTED, "STREAM_ENDED_BEFORE_RUN_CLOSED"],
    ] as const) {
      const out = await proxy(input === "" ? [] : [utf8.encode(input)], {
        onViolation: "run-error",
      });
      expect(text.decode(out.bytes).startsWith(input)).toBe(true);
      expect(readSse(out.bytes).at(-1)).toMatchObject({ code: `AG_UI_VERIFY_${code}` });
      expect(() => verifyAll(readSse(out.bytes))).not.toThrow();
    }
  });

  // 1.1 on a consumer that rejects a stream and the producer's own RUN_ERROR: "A consumer
  // MUST NOT present one as the other." The proxy marks its own, and leaves the
  // producer's as it came.
  it('marks its RUN_ERROR: code "AG_UI_VERIFY_" + the VerifyError\'s code, message "ag-ui-verify rejected the stream: " + its message', async () => {
    const input = STARTED + MSG_START + BAD;
    const strict = await proxy([utf8.encode(input)]);
    const error = strict.error;
    if (!isVerifyError(error)) throw new Error("expected a VerifyError");
    const ended = await proxy([utf8.encode(input)], { onViolation: "run-error" });
    const last = readSse(ended.bytes).at(-1);
    expect(last).toEqual({
      type: "RUN_ERROR",
      message: `ag-ui-verify rejected the stream: ${error.message}`,
      code: `AG_UI_VERIFY_${error.code}`,
    });
    expect(last).toEqual(markedRunError(error));
  });

  it("passes the producer's own RUN_ERROR through byte for byte, its code unmarked", async () => {
    const own = `id: 9\r\ndata: ${JSON.stringify(PRODUCER_ERROR)}\r\n\r\n`;
    for (const before of ["", STARTED, STARTED + FINISHED]) {
      const input = utf8.encode(before + own);
      const out = await proxy([input], { onViolation: "run-error" });
      expect(out.errored).toBe(false);
      expectBytes(out.bytes, input);
      const events = readSse(out.bytes);
      expect(events.at(-1)).toEqual(PRODUCER_ERROR);
      expect(
        events.filter((e) => String(Reflect.get(Object(e), "code")).startsWith("AG_UI_VERIFY_")),
      ).toEqual([]);
    }
  });
});

// ---------------------------------------------------------------------------------------
// An upstream the test drives by hand

function manualUpstream() {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let onPull = () => {};
  const state = { cancelled: false, reason: undefined as unknown };
  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      pull() {
        onPull();
      },
      cancel(reason) {
        state.cancelled = true;
        state.reason = reason;
      },
    },
    { highWaterMark: 0 },
  );
  return {
    body,
    state,
    /** Resolves when the proxy next asks the upstream for bytes. */
    nextPull(): Promise<"pulled"> {
      return new Promise((resolve) => {
        onPull = () => resolve("pulled");
      });
    },
    send(chunk: string) {
      controller?.enqueue(utf8.encode(chunk));
    },
    end() {
      controller?.close();
    },
    fail(error: unknown) {
      controller?.error(error);
    },
  };
}

type Upstream = ReturnType<typeof manualUpstream>;

/**
 * The proxy's body, read without pause into `text`. `settle(chunk)` sends a chunk and
 * resolves once the proxy asks the upstream for more: by then everything it released from
 * the chunk has been read.
 */
function pumped(upstream: Upstream, options?: VerifyResponseOptions) {
  const body = verifyResponse(new Response(upstream.body, { headers: SSE }), options).body;
  if (body === null) throw new Error("no body");
  const reader = body.getReader();
  const state = { text: "", reader };
  const done = (async () => {
    for (;;) {
      const result = await reader.read();
      if (result.done) return;
      state.text += text.decode(result.value);
    }
  })();
  return {
    state,
    done,
    async settle(chunk: string): Promise<string> {
      const pulled = upstream.nextPull();
      upstream.send(chunk);
      await pulled;
      return state.text;
    },
  };
}

describe("verifyResponse: when bytes are released", () => {
  it("a heartbeat reaches the client while the agent is silent; a partial message never", async () => {
    const upstream = manualUpstream();
    const proxy = pumped(upstream);
    expect(await proxy.settle(STARTED)).toBe(STARTED);
    expect(await proxy.settle(": ping\n")).toBe(`${STARTED}: ping\n`);
    const before = `${STARTED}: ping\n:\r\n\r\n`;
    expect(await proxy.settle(":\r\n\r\n")).toBe(before);
    expect(await proxy.settle(MSG_START.slice(0, 20))).toBe(before);
    // A whole field line, then a comment inside the message: still no message to release.
    expect(await proxy.settle(MSG_START.slice(20, -1))).toBe(before);
    expect(await proxy.settle(": inside\n")).toBe(before);
    // The blank line completes it: released with the comment inside it, then a heartbeat.
    expect(await proxy.settle("\n: ping\n")).toBe(
      `${before}${MSG_START.slice(0, -1)}: inside\n\n: ping\n`,
    );
    await proxy.state.reader.cancel("done");
    await proxy.done;
  });

  it("a message is not released before it is verified, nor after it failed", async () => {
    const upstream = manualUpstream();
    const proxy = pumped(upstream);
    expect(await proxy.settle(STARTED + FINISHED.slice(0, -1))).toBe(STARTED);
    // Its blank line completes RUN_FINISHED; a TEXT_MESSAGE_START in the same chunk breaks
    // rule 2, and none of its bytes come out.
    upstream.send(`\n${MSG_START}`);
    const error = await proxy.done.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(proxy.state.text).toBe(STARTED + FINISHED);
    expect(isVerifyError(error) && error.code).toBe("EVENT_AFTER_RUN_CLOSED");
    expect(upstream.state.cancelled).toBe(true);
    expect(upstream.state.reason).toBe(error);
  });

  it("cancelling the body cancels the upstream with the same reason", async () => {
    const upstream = manualUpstream();
    const proxy = pumped(upstream);
    expect(await proxy.settle(STARTED)).toBe(STARTED);
    await proxy.state.reader.cancel("client went away");
    await proxy.done;
    expect(upstream.state).toEqual({ cancelled: true, reason: "client went away" });
  });
});

// ---------------------------------------------------------------------------------------
// Upstream failures

/** Sends `chunk` and waits until the proxy has read it and asks for more. */
async function sendAll(upstream: Upstream, chunk: string): Promise<void> {
  const pulled = upstream.nextPull();
  upstream.send(chunk);
  await pulled;
}

describe("verifyResponse: an upstream network error", () => {
  const reset = () => new TypeError("terminated");
  const partial = MSG_START.slice(0, 25);
  const PRODUCER_ERROR = message({ type: "RUN_ERROR", message: "model overloaded", code: "E" });
  /** The words the proxy puts before the runtime's own text. */
  const FAILED_BODY =
    "ag-ui-verify rejected the stream: the agent's response body failed before the stream ended";

  /** The proxy over an upstream that sends `before`, then fails with `error`. */
  async function broken(before: string, error: unknown, options?: VerifyResponseOptions) {
    const upstream = manualUpstream();
    const response = verifyResponse(new Response(upstream.body, { headers: SSE }), options);
    const output = drain(response.body);
    if (before !== "") await sendAll(upstream, before);
    upstream.fail(error);
    return output;
  }

  // Before any run (nothing, a heartbeat, an event of a type 1.1 does not know) and while
  // a run is open, the stream is incomplete: a failure the client must see.
  const FUTURE = message({ type: "FUTURE" });
  /** Where the stream stands, what the upstream sent, and what of it is verified. */
  const incomplete: [string, string, string][] = [
    ["before any byte", "", ""],
    ["before any run, after a heartbeat", ": ping\n", ": ping\n"],
    ["before any run, after an unknown event", FUTURE + partial, FUTURE],
    ["while a run is open", STARTED + MSG_START + partial, STARTED + MSG_START],
    ["in the second run", STARTED + FINISHED + STARTED, STARTED + FINISHED + STARTED],
  ];
  for (const [where, before, released] of incomplete) {
    it(`${where}: "error" errors the body with the upstream error`, async () => {
      const error = reset();
      const out = await broken(before, error);
      expect(text.decode(out.bytes)).toBe(released);
      expect(out.error).toBe(error);
    });

    it(`${where}: "run-error" appends RUN_ERROR AG_UI_VERIFY_UPSTREAM_ERROR`, async () => {
      const out = await broken(before, reset(), { onViolation: "run-error" });
      expect(out.errored).toBe(false);
      const runError = {
        type: "RUN_ERROR",
        message: `${FAILED_BODY}: terminated`,
        code: "AG_UI_VERIFY_UPSTREAM_ERROR",
      };
      expect(text.decode(out.bytes)).toBe(released + message(runError));
      expect(() => verifyAll(readSse(out.bytes))).not.toThrow();
    });
  }

  it('"run-error" keeps CRLF framing or writes LF, then the RUN_ERROR', async () => {
    for (const lineEnds of ["keep", "lf"] as const) {
      const head = STARTED.replaceAll("\n", "\r\n");
      const out = await broken(head + MSG_START + partial, reset(), {
        onViolation: "run-error",
        lineEnds,
      });
      const runError = {
        type: "RUN_ERROR",
        message: `${FAILED_BODY}: terminated`,
        code: "AG_UI_VERIFY_UPSTREAM_ERROR",
      };
      const want = (lineEnds === "keep" ? head : STARTED) + MSG_START + message(runError);
      expect(text.decode(out.bytes)).toBe(want);
    }
  });

  it("the appended message names the failure even when the runtime gives no text", async () => {
    const unreadable = new Error("hidden");
    Object.defineProperty(unreadable, "message", {
      get() {
        throw new Error("no message for you");
      },
    });
    for (const error of [new TypeError(""), unreadable]) {
      const out = await broken(STARTED, error, { onViolation: "run-error" });
      expect(readSse(out.bytes).at(-1)).toEqual({
        type: "RUN_ERROR",
        message: FAILED_BODY,
        code: "AG_UI_VERIFY_UPSTREAM_ERROR",
      });
    }
    const plain = await broken(STARTED, "socket hang up", { onViolation: "run-error" });
    expect(readSse(plain.bytes).at(-1)).toMatchObject({
      message: `${FAILED_BODY}: socket hang up`,
    });
  });

  // After RUN_FINISHED or RUN_ERROR every run the stream carried is whole: the reset loses
  // nothing, and the body ends as if the upstream had closed. A partial message or a
  // heartbeat after the close changes nothing.
  const closed: [string, string][] = [
    ["after RUN_FINISHED", STARTED + FINISHED],
    ["after RUN_FINISHED and a heartbeat", `${STARTED + FINISHED}: ping\n`],
    ["after the producer's RUN_ERROR", STARTED + PRODUCER_ERROR],
    ["after a RUN_ERROR before any run", PRODUCER_ERROR],
    ["after a late RUN_ERROR", STARTED + FINISHED + PRODUCER_ERROR],
    ["after the second run finished", STARTED + PRODUCER_ERROR + STARTED + FINISHED],
  ];
  for (const [where, before] of closed) {
    it.each(["error", "run-error"] as const)(
      `${where}: the body just closes, nothing appended (%s)`,
      async (onViolation) => {
        for (const tail of ["", partial]) {
          const out = await broken(before + tail, reset(), { onViolation });
          expect(out.errored).toBe(false);
          expect(text.decode(out.bytes)).toBe(before);
        }
      },
    );
  }
});

// ---------------------------------------------------------------------------------------
// Status and headers

describe("verifyResponse: status and headers", () => {
  const body = STARTED + FINISHED;

  it("keeps the status and the headers, except five that describe the connection", async () => {
    const upstream = new Response(body, {
      status: 201,
      statusText: "Created",
      headers: [
        ["content-type", "text/event-stream; charset=utf-8"],
        ["cache-control", "no-store"],
        ["access-control-allow-origin", "https://app.example"],
        ["access-control-expose-headers", "x-request-id"],
        ["x-request-id", "req-42"],
        ["set-cookie", "a=1; Path=/"],
        ["set-cookie", "b=2; Path=/"],
        ["etag", '"v1"'],
        ["content-length", "999"],
        ["content-encoding", "gzip"],
        ["transfer-encoding", "chunked"],
        ["connection", "keep-alive"],
        ["keep-alive", "timeout=5"],
      ],
    });
    const response = verifyResponse(upstream);
    expect(response.status).toBe(201);
    expect(response.statusText).toBe("Created");
    const headers = response.headers;
    expect(headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(headers.get("cache-control")).toBe("no-store");
    expect(headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(headers.get("access-control-expose-headers")).toBe("x-request-id");
    expect(headers.get("x-request-id")).toBe("req-42");
    expect(headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(headers.get("etag")).toBe('"v1"');
    for (const name of [
      "content-length",
      "content-encoding",
      "transfer-encoding",
      "connection",
      "keep-alive",
    ]) {
      expect(headers.has(name)).toBe(false);
    }
    expect(await response.text()).toBe(body);
  });

  it("adds content-type and cache-control when absent", async () => {
    const stream = new Blob([body]).stream();
    const response = verifyResponse(new Response(stream, { headers: { "x-other": "1" } }));
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(response.headers.get("x-other")).toBe("1");
    expect(await response.text()).toBe(body);
  });

  it.each([204, 205, 304])("a %i passes through without a body, headers kept", (status) => {
    const response = verifyResponse(
      new Response(null, { status, headers: { etag: '"v1"', "content-length": "0" } }),
    );
    expect(response.status).toBe(status);
    expect(response.body).toBeNull();
    expect(response.headers.get("etag")).toBe('"v1"');
    expect(response.headers.has("content-length")).toBe(false);
  });

  it("a 200 without a body is empty input", async () => {
    const failed = await drain(verifyResponse(new Response(null)).body);
    expect(failed.bytes).toHaveLength(0);
    expect(isVerifyError(failed.error) && failed.error.code).toBe(
      "STREAM_ENDED_BEFORE_RUN_STARTED",
    );
    // Before any run a RUN_ERROR may stand (1.1: a stream may begin with one).
    const closed = await drain(
      verifyResponse(new Response(null), { onViolation: "run-error" }).body,
    );
    expect(closed.errored).toBe(false);
    expect(readSse(closed.bytes)).toEqual([
      {
        type: "RUN_ERROR",
        message: `ag-ui-verify rejected the stream: ${isVerifyError(failed.error) && failed.error.message}`,
        code: "AG_UI_VERIFY_STREAM_ENDED_BEFORE_RUN_STARTED",
      },
    ]);
  });

  // Version 4: an agent that answers with something other than an event stream (a JSON
  // error, an HTML error page) sends no events, and a client reads none from it.
  const notStreams: [string, () => Response][] = [
    ["a JSON 200", () => Response.json({ error: "quota", detail: "☕ 東京" })],
    [
      "an HTML 200",
      () =>
        new Response("<!doctype html><p>Bad gateway\r\n</p>", {
          headers: { "content-type": "text/html; charset=utf-8", "content-length": "35" },
        }),
    ],
    [
      "a JSON 500",
      () =>
        new Response('{"error":"boom"}', {
          status: 500,
          headers: { "content-type": "application/json" },
        }),
    ],
    [
      "a text/plain 200",
      () => new Response("data: {}\n\n", { headers: { "content-type": "text/plain" } }),
    ],
  ];

  it.each(notStreams)("%s passes through untouched, body byte for byte", async (_, make) => {
    for (const onViolation of ["error", "run-error"] as const) {
      const upstream = make();
      const bytes = new Uint8Array(await make().arrayBuffer());
      const response = verifyResponse(upstream, { onViolation, lineEnds: "lf" });
      expect(response).toBe(upstream);
      expect(response.status).toBe(upstream.status);
      expect([...response.headers]).toEqual([...make().headers]);
      const out = await drain(response.body);
      expect(out.errored).toBe(false);
      expectBytes(out.bytes, bytes);
    }
  });

  it("a content type naming an event stream in any case, with parameters, is verified", async () => {
    for (const type of ["TEXT/Event-Stream", " text/event-stream ; charset=utf-8"]) {
      const upstream = new Response(STARTED + MSG_START, { headers: { "content-type": type } });
      const response = verifyResponse(upstream, { onViolation: "run-error" });
      expect(response).not.toBe(upstream);
      const events = readSse(new Uint8Array(await response.arrayBuffer()));
      expect(events.at(-1)).toMatchObject({
        code: "AG_UI_VERIFY_STREAM_ENDED_BEFORE_RUN_CLOSED",
      });
    }
  });
});

// ---------------------------------------------------------------------------------------
// verifyingFetch

describe("verifyingFetch", () => {
  const CRLF_RUN = (STARTED + FINISHED).replaceAll("\n", "\r\n");

  /** A fetch that answers with `make()` and records its calls. */
  function answering(make: () => Response) {
    const calls: [RequestInfo | URL, RequestInit | undefined][] = [];
    const fetch: FetchFunction = async (input, init) => {
      calls.push([input, init]);
      return make();
    };
    return { fetch, calls };
  }

  it('verifies a 2xx event stream: "run-error" and "lf" by default', async () => {
    const { fetch, calls } = answering(
      () => new Response(CRLF_RUN + MSG_START, { status: 200, headers: SSE }),
    );
    const init = { method: "POST", body: "{}" };
    const response = await verifyingFetch({ fetch })("https://agent.test/run", init);
    expect(calls).toEqual([["https://agent.test/run", init]]);
    const body = new Uint8Array(await response.arrayBuffer());
    expect(body.includes(CR)).toBe(false);
    const events = readSse(body);
    // After RUN_FINISHED, the violation fails the run that reported success (1.1's late
    // RUN_ERROR), so the client does not take it for one.
    expect(events).toEqual([
      { type: "RUN_STARTED", threadId: "t", runId: "r" },
      { type: "RUN_FINISHED", threadId: "t", runId: "r" },
      {
        type: "RUN_ERROR",
        message: expect.stringMatching(/^ag-ui-verify rejected the stream: /),
        code: "AG_UI_VERIFY_EVENT_AFTER_RUN_CLOSED",
      },
    ]);
    expect(() => verifyAll(events)).not.toThrow();
    const strict = await verifyingFetch({ fetch, onViolation: "error", lineEnds: "keep" })("x");
    const out = await drain(strict.body);
    expect(text.decode(out.bytes)).toBe(CRLF_RUN);
    expect(isVerifyError(out.error) && out.error.code).toBe("EVENT_AFTER_RUN_CLOSED");
  });

  it("a run cut off comes back as RUN_ERROR", async () => {
    const { fetch } = answering(() => new Response(STARTED + MSG_START, { headers: SSE }));
    const response = await verifyingFetch({ fetch })("https://agent.test/run");
    const events = readSse(new Uint8Array(await response.arrayBuffer()));
    expect(events.at(-1)).toMatchObject({
      type: "RUN_ERROR",
      code: "AG_UI_VERIFY_STREAM_ENDED_BEFORE_RUN_CLOSED",
    });
    expect(() => verifyAll(events)).not.toThrow();
  });

  it("a 2xx response without a content type is read as SSE, as verifyResponse reads it", async () => {
    const original = new Response(new Blob([STARTED]).stream());
    const response = await verifyingFetch({ fetch: async () => original })("https://agent.test");
    expect(response).not.toBe(original);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const events = readSse(new Uint8Array(await response.arrayBuffer()));
    expect(events.at(-1)).toMatchObject({ code: "AG_UI_VERIFY_STREAM_ENDED_BEFORE_RUN_CLOSED" });
  });

  it.each([
    ["a 500", () => new Response("boom", { status: 500, headers: SSE })],
    ["a 404 event stream", () => new Response(STARTED + MSG_START, { status: 404, headers: SSE })],
    ["a 204 without a content type", () => new Response(null, { status: 204 })],
    ["a JSON 200", () => Response.json({ ok: true, text: "東京" })],
    [
      "an HTML 200",
      () => new Response("<p>hi</p>\r\n", { headers: { "content-type": "text/html" } }),
    ],
  ])("%s comes back untouched, the same object, its body byte for byte", async (_, make) => {
    const original = make();
    const bytes = new Uint8Array(await make().arrayBuffer());
    const response = await verifyingFetch({ fetch: async () => original })("https://agent.test");
    expect(response).toBe(original);
    expectBytes(new Uint8Array(await response.arrayBuffer()), bytes);
  });

  it("a thrown error comes back untouched", async () => {
    const error = new TypeError("fetch failed");
    const wrapped = verifyingFetch({
      fetch: async () => {
        throw error;
      },
    });
    expect(await wrapped("https://agent.test").catch((e: unknown) => e)).toBe(error);
  });

  it("looks up the global fetch at each call", async () => {
    const wrapped = verifyingFetch();
    const original = globalThis.fetch;
    const seen: string[] = [];
    try {
      for (const name of ["first", "second"]) {
        globalThis.fetch = async () => {
          seen.push(name);
          return new Response(name, { status: 418 });
        };
        expect(await (await wrapped("https://agent.test")).text()).toBe(name);
      }
    } finally {
      globalThis.fetch = original;
    }
    expect(seen).toEqual(["first", "second"]);
  });
});

// ---------------------------------------------------------------------------------------
// The decoding core's contract, as the proxy uses it

describe("SseDecoder positions, as the proxy reads them", () => {
  it("during emit, safe is where the message's first field line starts (or 0 after a lone BOM)", () => {
    fc.assert(
      fc.property(validRun, seed, cuts, (events, s, points) => {
        const framed = frame(asItems(events), s);
        const safes: number[] = [];
        const decoder: SsePositionDecoder = new SsePositionDecoder(() => safes.push(decoder.safe));
        for (const chunk of cutAt(framed.bytes, points)) decoder.push(chunk);
        decoder.finish();
        const starts = framed.starts.map((start) => (framed.bom && start === 3 ? 0 : start));
        expect(safes).toEqual(starts);
        // After the end: everything, but a comment line that no line end closed.
        expect(decoder.safe).toBe(framed.bytes.length - framed.unterminated);
      }),
      { numRuns: 100 },
    );
  });
});
