// Stream-level tests (SPEC §2, §10.1, §11, §12): the SSE decoder, the verifying transform,
// their fusion in verifiedEvents, and the SSE encoder. Every test here goes through WHATWG
// streams only (no Node built-ins), so the file runs unchanged under Node and edge-runtime.
//
// Two pipelines are tested side by side: `verifiedEvents(body)` and the composition SPEC §12
// says it is equivalent to, `body.pipeThrough(new SseDecoderStream()).pipeThrough(new
// VerifyingTransformStream())`. SSE grammar edge cases live in sse.test.ts, not here.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AgUiEvent,
  custom,
  isVerifyError,
  raw,
  reasoningEnd,
  reasoningMessageContent,
  reasoningMessageEnd,
  reasoningMessageStart,
  reasoningStart,
  runError,
  runFinished,
  runStarted,
  SseDecodeFailure,
  SseDecoderStream,
  SseEncoderStream,
  stateDelta,
  stateSnapshot,
  stepFinished,
  stepStarted,
  textMessageChunk,
  textMessageContent,
  textMessageEnd,
  textMessageStart,
  toolCallArgs,
  toolCallEnd,
  toolCallResult,
  toolCallStart,
  VerifyError,
  VerifyingTransformStream,
  verifiedEvents,
  verifyAll,
} from "../src/index.ts";
import {
  type Collected,
  type CollectPacing,
  collect,
  concat,
  tick,
  ticks,
} from "./support/streams.ts";
import { finishedRun, sequentialRuns, validRun, validStream } from "./support/valid-run.ts";

// ---------------------------------------------------------------------------------------
// Helpers

const encoder = new TextEncoder();
const decoder = new TextDecoder();

type Options = NonNullable<Parameters<typeof verifiedEvents>[1]>;
type Pipeline = (body: ReadableStream<Uint8Array>, options?: Options) => ReadableStream<AgUiEvent>;

const PIPELINES: [string, Pipeline][] = [
  ["verifiedEvents", (body, options) => verifiedEvents(body, options)],
  [
    "SseDecoderStream + VerifyingTransformStream",
    (body, options) =>
      body
        .pipeThrough(new SseDecoderStream(options))
        .pipeThrough(new VerifyingTransformStream(options)),
  ],
];

/** The SSE framing the encoder is specified to write: one `data:` line per event. */
function frame(events: readonly unknown[]): string {
  return events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("");
}

function bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

function isUint8Array(value: unknown): value is Uint8Array {
  // Cross-realm safe: edge-runtime's globals may come from another realm.
  return Object.prototype.toString.call(value) === "[object Uint8Array]";
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Splits `data` at the given cut points (any integers; reduced modulo the length + 1). */
function splitAt(data: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (data.length + 1)))].sort((x, y) => x - y);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const p of [...points, data.length]) {
    out.push(data.slice(from, p)); // empty chunks included on purpose
    from = p;
  }
  return out;
}

/** Waits (a bounded number of macrotasks) until `condition()` holds; returns whether it did. */
async function until(condition: () => boolean, maxTicks = 50): Promise<boolean> {
  for (let i = 0; i < maxTicks; i++) {
    if (condition()) return true;
    await tick();
  }
  return condition();
}

/** The VerifyError a collection ended with; fails the test if it ended otherwise. */
function verifyErrorOf(result: Collected<unknown>): VerifyError {
  expect(result.errored).toBe(true);
  expect(result.error).toBeInstanceOf(VerifyError);
  return result.error as VerifyError;
}

/** A stream of the given values, enqueued up front, then closed. */
function readableOf<T>(values: readonly T[]): ReadableStream<T> {
  return new ReadableStream<T>({
    start(controller) {
      for (const v of values) controller.enqueue(v);
      controller.close();
    },
  });
}

interface Source {
  stream: ReadableStream<Uint8Array>;
  readonly pulls: number;
  readonly cancelled: unknown[];
}

/**
 * A body that hands out one chunk per pull, then closes (or, with `stall`, stays open
 * forever). Records pulls and cancel reasons.
 */
function sourceOf(chunks: readonly (Uint8Array | string)[], stall = false): Source {
  let pulls = 0;
  const cancelled: unknown[] = [];
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[pulls];
      pulls += 1;
      if (chunk !== undefined) {
        controller.enqueue(typeof chunk === "string" ? bytes(chunk) : chunk);
      } else if (!stall) {
        controller.close();
      }
    },
    cancel(reason) {
      cancelled.push(reason);
    },
  });
  return {
    stream,
    get pulls() {
      return pulls;
    },
    cancelled,
  };
}

/** An endless body: a long valid run, `perChunk` events per pulled chunk. */
function endlessSource(perChunk: number): Source {
  let pulls = 0;
  const cancelled: unknown[] = [];
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulls += 1;
      const events: AgUiEvent[] =
        pulls === 1 ? [runStarted({ threadId: "t", runId: "r" }), textMessageStart("m1")] : [];
      for (let i = 0; i < perChunk; i++) events.push(textMessageContent("m1", `p${pulls}.${i}`));
      controller.enqueue(bytes(frame(events)));
    },
    cancel(reason) {
      cancelled.push(reason);
    },
  });
  return {
    stream,
    get pulls() {
      return pulls;
    },
    cancelled,
  };
}

const T = { threadId: "t1", runId: "r1" };

/** N valid events that open a run and leave it open: RUN_STARTED, TEXT_MESSAGE_START, contents. */
function openPrefix(n: number): AgUiEvent[] {
  const out: AgUiEvent[] = [runStarted(T)];
  if (n > 1) out.push(textMessageStart("m1"));
  for (let i = 2; i < n; i++) out.push(textMessageContent("m1", `delta ${i}`));
  return out.slice(0, n);
}

/** A complete valid run. */
function completeRun(): AgUiEvent[] {
  return [
    runStarted(T),
    textMessageStart("m1"),
    textMessageContent("m1", "Hello"),
    textMessageEnd("m1"),
    runFinished(T),
  ];
}

// A violation at any point of openPrefix(n): TEXT_MESSAGE_NOT_OPEN (rule 3).
const VIOLATION = textMessageEnd("ghost");
// What follows a violation in the same input; none of it may be delivered.
const AFTERMATH = [textMessageContent("m1", "after"), textMessageEnd("m1"), runFinished(T)];

const PACINGS: [string, CollectPacing][] = [
  ["eager reader", {}],
  ["reader that starts late", { before: 10 }],
  ["slow reader", { before: 3, between: 2 }],
];

// ---------------------------------------------------------------------------------------
// 1. Nothing lost before an error

describe.each(PIPELINES)(
  "%s: every accepted event reaches the reader before the error",
  (_, pipe) => {
    describe.each(PACINGS)("%s", (_p, pacing) => {
      it.each([1, 2, 5, 40])(
        "violation in the same network chunk as %i valid events",
        async (n) => {
          const prefix = openPrefix(n);
          const source = sourceOf([bytes(frame([...prefix, VIOLATION, ...AFTERMATH]))]);
          const result = await collect(pipe(source.stream), pacing);
          expect(result.values).toEqual(prefix);
          const error = verifyErrorOf(result);
          expect([error.code, error.index, error.rule]).toEqual(["TEXT_MESSAGE_NOT_OPEN", n, 3]);
          expect(error.eventType).toBe("TEXT_MESSAGE_END");
          expect(error.event).toEqual(VIOLATION);
        },
      );

      it.each([1, 5, 40])("violation in a later chunk than %i valid events", async (n) => {
        const prefix = openPrefix(n);
        const source = sourceOf([frame(prefix), frame([VIOLATION, ...AFTERMATH])]);
        const result = await collect(pipe(source.stream), pacing);
        expect(result.values).toEqual(prefix);
        const error = verifyErrorOf(result);
        expect([error.code, error.index]).toEqual(["TEXT_MESSAGE_NOT_OPEN", n]);
      });

      it("violation with the input cut into 7-byte chunks (splitting multi-byte characters)", async () => {
        const prefix = [...openPrefix(6), textMessageContent("m1", "héllo 😀 ünïcödé — “quotes”")];
        const all = bytes(frame([...prefix, VIOLATION, ...AFTERMATH]));
        const chunks = splitAt(
          all,
          Array.from({ length: Math.ceil(all.length / 7) }, (_c, i) => i * 7),
        );
        const result = await collect(pipe(sourceOf(chunks).stream), pacing);
        expect(result.values).toEqual(prefix);
        const error = verifyErrorOf(result);
        expect([error.code, error.index]).toEqual(["TEXT_MESSAGE_NOT_OPEN", prefix.length]);
      });

      it.each([1, 5, 40])(
        "a decode failure (data: [DONE]) in the same chunk as %i valid events",
        async (n) => {
          const prefix = openPrefix(n);
          const text = `${frame(prefix)}data: [DONE]\n\n${frame(AFTERMATH)}`;
          const result = await collect(pipe(sourceOf([text]).stream), pacing);
          expect(result.values).toEqual(prefix);
          const error = verifyErrorOf(result);
          expect([error.code, error.index, error.rule]).toEqual(["INVALID_JSON", n, 0]);
          expect(error.eventType).toBeUndefined();
          expect(error.event).toBeInstanceOf(SseDecodeFailure);
          const failure = error.event as SseDecodeFailure;
          expect(failure.code).toBe("INVALID_JSON");
          expect(failure.data).toBe("[DONE]");
        },
      );

      it("a decode failure in a later chunk", async () => {
        const prefix = openPrefix(5);
        const result = await collect(
          pipe(sourceOf([frame(prefix), "data: [DONE]\n\n", frame(AFTERMATH)]).stream),
          pacing,
        );
        expect(result.values).toEqual(prefix);
        const error = verifyErrorOf(result);
        expect([error.code, error.index]).toEqual(["INVALID_JSON", 5]);
      });

      it.each([1, 5, 40])(
        "truncation: %i valid events, then the input ends inside a message",
        async (n) => {
          const prefix = openPrefix(n);
          // The final message lacks its blank line: discarded (§12), then the end check fires.
          const text = `${frame(prefix)}data: ${JSON.stringify(runFinished(T))}\n`;
          const result = await collect(pipe(sourceOf([text]).stream), pacing);
          expect(result.values).toEqual(prefix);
          const error = verifyErrorOf(result);
          expect([error.code, error.index, error.rule]).toEqual([
            "STREAM_ENDED_BEFORE_RUN_CLOSED",
            n,
            2,
          ]);
          expect(error.event).toBeUndefined();
          expect(error.eventType).toBeUndefined();
        },
      );

      it("a complete run closes normally and delivers every event", async () => {
        const run = completeRun();
        const result = await collect(pipe(sourceOf([frame(run)]).stream), pacing);
        expect(result.errored).toBe(false);
        expect(result.values).toEqual(run);
      });
    });
  },
);

// ---------------------------------------------------------------------------------------
// 2. The error is the VerifyError itself, and it sticks

describe.each(PIPELINES)("%s: the error read from the stream", (_, pipe) => {
  it("is the VerifyError instance, and every later read rejects with the same one", async () => {
    const prefix = openPrefix(3);
    const reader = pipe(sourceOf([frame([...prefix, VIOLATION])]).stream).getReader();
    for (const event of prefix) expect(await reader.read()).toEqual({ done: false, value: event });
    let first: unknown;
    try {
      await reader.read();
    } catch (e) {
      first = e;
    }
    expect(first).toBeInstanceOf(VerifyError);
    expect(isVerifyError(first)).toBe(true);
    const error = first as VerifyError;
    expect(error.name).toBe("VerifyError");
    expect([error.code, error.index]).toEqual(["TEXT_MESSAGE_NOT_OPEN", 3]);
    expect(error.message).toContain("[TEXT_MESSAGE_NOT_OPEN, rule 3]");
    await expect(reader.read()).rejects.toBe(error);
    await expect(reader.read()).rejects.toBe(error);
    await expect(reader.closed).rejects.toBe(error);
  });

  it("matches what verifyAll reports for the same events", async () => {
    const events = [...openPrefix(4), textMessageStart("m1")];
    let expected: unknown;
    try {
      verifyAll(events);
    } catch (e) {
      expected = e;
    }
    expect(expected).toBeInstanceOf(VerifyError);
    const error = verifyErrorOf(await collect(pipe(sourceOf([frame(events)]).stream)));
    const want = expected as VerifyError;
    expect([error.code, error.index, error.field, error.message]).toEqual([
      want.code,
      want.index,
      want.field,
      want.message,
    ]);
  });

  it("after an error, the body is cancelled with that error (the connection is released)", async () => {
    const source = sourceOf([frame([...openPrefix(2), VIOLATION])], true);
    const result = await collect(pipe(source.stream));
    const error = verifyErrorOf(result);
    expect(await until(() => source.cancelled.length > 0)).toBe(true);
    expect(source.cancelled).toHaveLength(1);
    expect(source.cancelled[0]).toBe(error);
  });

  it("after a decode failure, the body is cancelled too", async () => {
    const source = sourceOf([`${frame(openPrefix(2))}data: [DONE]\n\n`], true);
    const result = await collect(pipe(source.stream));
    expect(verifyErrorOf(result).code).toBe("INVALID_JSON");
    expect(await until(() => source.cancelled.length > 0)).toBe(true);
    expect(source.cancelled).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------------------
// 3. Cancellation reaches the body with the same reason

describe.each(PIPELINES)("%s: cancelling the reader", (_, pipe) => {
  it("cancels the body with the same reason, after some events were read", async () => {
    const source = sourceOf([frame(openPrefix(5))], true);
    const reader = pipe(source.stream).getReader();
    expect((await reader.read()).value).toEqual(runStarted(T));
    const reason = new Error("user navigated away");
    await reader.cancel(reason);
    expect(await until(() => source.cancelled.length > 0)).toBe(true);
    expect(source.cancelled).toHaveLength(1);
    expect(source.cancelled[0]).toBe(reason);
    // No end-of-input check: the reader sees a closed stream, not a VerifyError.
    await expect(reader.closed).resolves.toBeUndefined();
  });

  it("cancels the body with the same reason before anything was read", async () => {
    const source = sourceOf([frame(openPrefix(5))], true);
    const reader = pipe(source.stream).getReader();
    const reason = { why: "not needed" };
    await reader.cancel(reason);
    expect(await until(() => source.cancelled.length > 0)).toBe(true);
    expect(source.cancelled).toEqual([reason]);
    expect(source.cancelled[0]).toBe(reason);
  });

  it("cancels an endless body with the same reason", async () => {
    const source = endlessSource(1);
    const reader = pipe(source.stream).getReader();
    for (let i = 0; i < 3; i++) await reader.read();
    const reason = "enough";
    await reader.cancel(reason);
    expect(await until(() => source.cancelled.length > 0)).toBe(true);
    expect(source.cancelled).toEqual([reason]);
  });
});

// ---------------------------------------------------------------------------------------
// 4. Backpressure

describe.each(PIPELINES)("%s: backpressure", (_, pipe) => {
  it.each([1, 3])(
    "a slow reader makes the pipeline pull a bounded amount (%i events per chunk)",
    async (perChunk) => {
      const source = endlessSource(perChunk);
      const reader = pipe(source.stream).getReader();
      const first = await reader.read();
      expect(first.value).toEqual(runStarted({ threadId: "t", runId: "r" }));
      await ticks(10);
      const settled = source.pulls;
      expect(settled).toBeGreaterThanOrEqual(1);
      expect(settled).toBeLessThanOrEqual(5);
      await ticks(20);
      expect(source.pulls).toBe(settled);
      // Reading more pulls more: the bound is backpressure, not a stall.
      for (let i = 0; i < 4 * (perChunk + 1); i++) expect((await reader.read()).done).toBe(false);
      await ticks(10);
      const later = source.pulls;
      expect(later).toBeGreaterThan(settled);
      await ticks(20);
      expect(source.pulls).toBe(later);
      await reader.cancel("done");
    },
  );

  it("reading 5 events then stopping keeps pulls bounded", async () => {
    const source = endlessSource(1);
    const reader = pipe(source.stream).getReader();
    for (let i = 0; i < 5; i++) await reader.read();
    await ticks(10);
    const settled = source.pulls;
    // 4 chunks were needed (the first holds 2 events); a few more may be read ahead.
    expect(settled).toBeGreaterThanOrEqual(4);
    expect(settled).toBeLessThanOrEqual(4 + 4);
    await ticks(20);
    expect(source.pulls).toBe(settled);
    await reader.cancel("done");
  });
});

// ---------------------------------------------------------------------------------------
// 5. Upstream errors arrive unchanged

describe.each(PIPELINES)("%s: an upstream error", (_, pipe) => {
  it("arrives unchanged after the events read before it", async () => {
    const networkDown = new Error("network down");
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
        c.enqueue(bytes(frame(openPrefix(4))));
      },
    });
    const reader = pipe(body).getReader();
    const values: unknown[] = [];
    for (let i = 0; i < 4; i++) values.push((await reader.read()).value);
    expect(values).toEqual(openPrefix(4));
    controller?.error(networkDown);
    await expect(reader.read()).rejects.toBe(networkDown);
    await expect(reader.read()).rejects.toBe(networkDown);
  });

  it("arrives unchanged when it comes right after a chunk (earlier events: an in-order prefix)", async () => {
    const networkDown = new Error("network down");
    const prefix = openPrefix(4);
    const source = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes(frame(prefix)));
      },
      pull(c) {
        c.error(networkDown);
      },
    });
    const result = await collect(pipe(source));
    expect(result.errored).toBe(true);
    expect(result.error).toBe(networkDown);
    expect(isVerifyError(result.error)).toBe(false);
    // WHATWG streams may discard queued values when a stream errors (SPEC §12); what did
    // arrive is an in-order prefix of what was sent.
    expect(result.values).toEqual(prefix.slice(0, result.values.length));
  });

  it("arrives unchanged when the body errors before sending anything", async () => {
    const networkDown = new Error("network down");
    const source = new ReadableStream<Uint8Array>({
      start(c) {
        c.error(networkDown);
      },
    });
    const result = await collect(pipe(source));
    expect(result.values).toEqual([]);
    expect(result.error).toBe(networkDown);
  });
});

// ---------------------------------------------------------------------------------------
// 6. VerifyingTransformStream on its own

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

describe("VerifyingTransformStream", () => {
  it("enqueues the very same objects it was given, unmodified", async () => {
    const events = [
      runStarted({
        ...T,
        input: {
          ...T,
          messages: [{ id: "u1", role: "user", content: "hi" }],
          tools: [],
          context: [],
        },
      }),
      custom("c", { nested: [1, { x: null }] }),
      textMessageStart("m1"),
      textMessageContent("m1", "a"),
      textMessageEnd("m1"),
      runFinished(T),
    ].map(deepFreeze);
    const snapshot = JSON.stringify(events);
    const result = await collect(readableOf(events).pipeThrough(new VerifyingTransformStream()));
    expect(result.errored).toBe(false);
    expect(result.values).toHaveLength(events.length);
    result.values.forEach((v, i) => {
      expect(v).toBe(events[i]);
    });
    expect(JSON.stringify(events)).toBe(snapshot);
  });

  it("errors with the VerifyError whose event is the offending object itself", async () => {
    const bad = { type: "TEXT_MESSAGE_CONTENT", messageId: "nope", delta: "x" };
    const events = [runStarted(T), bad, runFinished(T)];
    const result = await collect(readableOf(events).pipeThrough(new VerifyingTransformStream()));
    expect(result.values).toHaveLength(1);
    expect(result.values[0]).toBe(events[0]);
    const error = verifyErrorOf(result);
    expect(error.event).toBe(bad);
    expect([error.code, error.index]).toEqual(["TEXT_MESSAGE_NOT_OPEN", 1]);
  });

  it("judges any value, and passes a decode failure as a rule 0 error at its index", async () => {
    const failure = new SseDecodeFailure("SSE_BUFFER_OVERFLOW");
    const result = await collect(
      readableOf<unknown>([runStarted(T), failure]).pipeThrough(new VerifyingTransformStream()),
    );
    const error = verifyErrorOf(result);
    expect([error.code, error.index, error.rule]).toEqual(["SSE_BUFFER_OVERFLOW", 1, 0]);
    expect(error.event).toBe(failure);

    const notObject = verifyErrorOf(
      await collect(
        readableOf<unknown>([runStarted(T), null]).pipeThrough(new VerifyingTransformStream()),
      ),
    );
    expect([notObject.code, notObject.index]).toEqual(["EVENT_NOT_OBJECT", 1]);
  });

  it("flush runs the end-of-input check", async () => {
    const open = verifyErrorOf(
      await collect(readableOf(openPrefix(3)).pipeThrough(new VerifyingTransformStream())),
    );
    expect([open.code, open.index]).toEqual(["STREAM_ENDED_BEFORE_RUN_CLOSED", 3]);
    const empty = verifyErrorOf(
      await collect(readableOf<unknown>([]).pipeThrough(new VerifyingTransformStream())),
    );
    expect([empty.code, empty.index]).toEqual(["STREAM_ENDED_BEFORE_RUN_STARTED", 0]);
    // Unknown types are not a stream's first event (§9.2): only them is no run at all.
    const unknownOnly = verifyErrorOf(
      await collect(
        readableOf<unknown>([{ type: "SOME_FUTURE_EVENT" }]).pipeThrough(
          new VerifyingTransformStream(),
        ),
      ),
    );
    expect([unknownOnly.code, unknownOnly.index]).toEqual(["STREAM_ENDED_BEFORE_RUN_STARTED", 1]);
    // RAW may not come first (rule 1): the transform errors before flush.
    const rawFirst = verifyErrorOf(
      await collect(readableOf([raw({})]).pipeThrough(new VerifyingTransformStream())),
    );
    expect([rawFirst.code, rawFirst.index]).toEqual(["EVENT_BEFORE_RUN_STARTED", 0]);
    // A stream that reports a failure before any run ends well (§9.7, §9.8).
    const failedFirst = await collect(
      readableOf([runError("no model")]).pipeThrough(new VerifyingTransformStream()),
    );
    expect(failedFirst.errored).toBe(false);
    expect(failedFirst.values).toEqual([runError("no model")]);
  });

  it("aborting the writable side runs no end-of-input check; the reason arrives unchanged", async () => {
    const stream = new VerifyingTransformStream();
    const writer = stream.writable.getWriter();
    const reader = stream.readable.getReader();
    const first = runStarted(T);
    void writer.write(first).catch(() => {});
    expect((await reader.read()).value).toBe(first);
    const reason = new Error("aborted upstream");
    await writer.abort(reason);
    await expect(reader.read()).rejects.toBe(reason);
  });

  it("cancelling the readable side runs no end-of-input check", async () => {
    const stream = new VerifyingTransformStream();
    const writer = stream.writable.getWriter();
    const reader = stream.readable.getReader();
    const reason = new Error("not interested");
    await reader.cancel(reason);
    // The writable side is errored with the cancel reason, not with a VerifyError.
    await expect(writer.closed).rejects.toBe(reason);
  });

  it("uses the default queuing strategies: writable high-water mark 1, readable 0", async () => {
    const stream = new VerifyingTransformStream();
    const writer = stream.writable.getWriter();
    const reader = stream.readable.getReader();
    expect(writer.desiredSize).toBe(1);
    const event = runStarted(T);
    let written = false;
    void writer.write(event).then(() => {
      written = true;
    });
    expect(writer.desiredSize).toBe(0);
    // With a readable high-water mark of 0, nothing is transformed until someone reads.
    await ticks(5);
    expect(written).toBe(false);
    const read = await reader.read();
    expect(read.value).toBe(event);
    expect(await until(() => written)).toBe(true);
  });

  it("ignores strategy arguments", async () => {
    const Ctor = VerifyingTransformStream as unknown as new (
      ...args: unknown[]
    ) => VerifyingTransformStream;
    const stream = new Ctor(undefined, { highWaterMark: 100 }, { highWaterMark: 100 });
    const writer = stream.writable.getWriter();
    expect(writer.desiredSize).toBe(1);
    let written = false;
    void writer.write(runStarted(T)).then(() => {
      written = true;
    });
    await ticks(5);
    expect(written).toBe(false);
  });

  it("has one verifier per instance", async () => {
    const a = new VerifyingTransformStream();
    const b = new VerifyingTransformStream();
    const ra = collect(readableOf(openPrefix(3)).pipeThrough(a));
    const rb = collect(readableOf(completeRun()).pipeThrough(b));
    expect((await rb).errored).toBe(false);
    expect(verifyErrorOf(await ra).code).toBe("STREAM_ENDED_BEFORE_RUN_CLOSED");
  });
});

// ---------------------------------------------------------------------------------------
// 8. Empty and missing bodies

describe("verifiedEvents with no input", () => {
  it("a null body errors with STREAM_ENDED_BEFORE_RUN_STARTED at index 0", async () => {
    const result = await collect(verifiedEvents(null));
    expect(result.values).toEqual([]);
    const error = verifyErrorOf(result);
    expect([error.code, error.index, error.rule]).toEqual([
      "STREAM_ENDED_BEFORE_RUN_STARTED",
      0,
      1,
    ]);
    expect(error.event).toBeUndefined();
    expect(error.eventType).toBeUndefined();
  });

  it("a null body with options still errors the same way", async () => {
    const error = verifyErrorOf(
      await collect(verifiedEvents(null, { protocol: "draft", maxBufferSize: 16 })),
    );
    expect([error.code, error.index]).toEqual(["STREAM_ENDED_BEFORE_RUN_STARTED", 0]);
  });
});

describe.each(PIPELINES)("%s: bodies without events", (_, pipe) => {
  it.each([
    ["an empty body", [] as string[]],
    ["a body of empty chunks", ["", ""]],
    ["a body of comments only", [": keep-alive\n\n", ":\n\n"]],
  ])("%s errors with STREAM_ENDED_BEFORE_RUN_STARTED at index 0", async (_n, chunks) => {
    const result = await collect(pipe(sourceOf(chunks).stream));
    expect(result.values).toEqual([]);
    const error = verifyErrorOf(result);
    expect([error.code, error.index]).toEqual(["STREAM_ENDED_BEFORE_RUN_STARTED", 0]);
  });

  it("a valid run, one chunk per event, closes normally", async () => {
    const run = completeRun();
    const result = await collect(pipe(sourceOf(run.map((e) => frame([e]))).stream));
    expect(result.errored).toBe(false);
    expect(result.values).toEqual(run);
  });

  it("passes maxBufferSize to the decoder", async () => {
    // The parser buffers only an unfinished line; 300 characters of one are left pending
    // at the end of the second chunk.
    const big = frame([textMessageContent("m1", "x".repeat(500)), runFinished(T)]);
    const prefix = openPrefix(2);
    const chunks = [frame(prefix), big.slice(0, 300), big.slice(300)];
    const result = await collect(pipe(sourceOf(chunks).stream, { maxBufferSize: 100 }));
    expect(result.values).toEqual(prefix);
    const error = verifyErrorOf(result);
    expect([error.code, error.index, error.rule]).toEqual(["SSE_BUFFER_OVERFLOW", 2, 0]);
    expect(error.event).toBeInstanceOf(SseDecodeFailure);
  });
});

// ---------------------------------------------------------------------------------------
// 9. SseEncoderStream

async function encode(events: readonly unknown[]): Promise<Uint8Array[]> {
  const result = await collect(readableOf(events).pipeThrough(new SseEncoderStream()));
  expect(result.errored).toBe(false);
  return result.values;
}

describe("SseEncoderStream", () => {
  it("writes exactly `data: <json>\\n\\n` per event, as UTF-8 bytes", async () => {
    const chunks = await encode([textMessageContent("m1", "hi")]);
    expect(chunks.length).toBeGreaterThan(0);
    for (const c of chunks) expect(isUint8Array(c)).toBe(true);
    expect(decoder.decode(concat(chunks))).toBe(
      'data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"hi"}\n\n',
    );
  });

  it("writes several events back to back", async () => {
    const run = completeRun();
    const out = concat(await encode(run));
    expect(sameBytes(out, bytes(frame(run)))).toBe(true);
    expect(decoder.decode(out)).toBe(
      'data: {"type":"RUN_STARTED","threadId":"t1","runId":"r1"}\n\n' +
        'data: {"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}\n\n' +
        'data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hello"}\n\n' +
        'data: {"type":"TEXT_MESSAGE_END","messageId":"m1"}\n\n' +
        'data: {"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}\n\n',
    );
  });

  it("keeps an event with newlines and CRs in its strings on one data line", async () => {
    const event = textMessageContent("m1", "line 1\nline 2\r\nline 3\r\n\ndata: fake\n\n");
    const text = decoder.decode(concat(await encode([event])));
    expect(text).toBe(`data: ${JSON.stringify(event)}\n\n`);
    expect(text.split("\n")).toEqual([`data: ${JSON.stringify(event)}`, "", ""]);
    expect(text.includes("\r")).toBe(false);
    expect(text.match(/data:/g)).toHaveLength(2); // the prefix, and the literal inside the JSON string
    expect(text.startsWith("data: {")).toBe(true);
  });

  it("encodes non-ASCII text as UTF-8", async () => {
    const event = textMessageContent("m1", "é😀\u2028");
    const out = concat(await encode([event]));
    expect(sameBytes(out, bytes(`data: ${JSON.stringify(event)}\n\n`))).toBe(true);
  });

  it("writes nothing for no events", async () => {
    expect(concat(await encode([])).length).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------
// 10. Several runs in one stream (SPEC §9.6): no option needed

const TWO_RUNS = [
  runStarted(T),
  runFinished(T),
  { type: "SOME_FUTURE_EVENT", note: "between runs" },
  runStarted({ threadId: "t1", runId: "r2" }),
  runError("boom"),
];

const LATE_FAILURE = [
  runError("failed before it began"),
  runStarted(T),
  runFinished(T),
  runError("failed after all"),
  runStarted({ threadId: "t1", runId: "r2" }),
  runFinished({ threadId: "t1", runId: "r2" }),
];

describe.each(PIPELINES)("%s: several runs", (_, pipe) => {
  it("every run is delivered and the stream closes, with no option", async () => {
    const result = await collect(pipe(sourceOf([frame(TWO_RUNS)]).stream));
    expect(result.errored).toBe(false);
    expect(result.values).toEqual(TWO_RUNS);
  });

  it("a stream may open with RUN_ERROR, and a finished run may fail once, late", async () => {
    const result = await collect(pipe(sourceOf([frame(LATE_FAILURE)]).stream));
    expect(result.errored).toBe(false);
    expect(result.values).toEqual(LATE_FAILURE);
  });

  it("RAW between runs is EVENT_AFTER_RUN_CLOSED, after the events before it", async () => {
    const events = [runStarted(T), runFinished(T), raw({ note: "between runs" }), runStarted(T)];
    const result = await collect(pipe(sourceOf([frame(events)]).stream));
    expect(result.values).toEqual(events.slice(0, 2));
    const error = verifyErrorOf(result);
    expect([error.code, error.index]).toEqual(["EVENT_AFTER_RUN_CLOSED", 2]);
  });

  it("the index keeps counting across runs", async () => {
    const events = [...TWO_RUNS.slice(0, 4), VIOLATION];
    const result = await collect(pipe(sourceOf([frame(events)]).stream));
    expect(result.values).toEqual(events.slice(0, 4));
    const error = verifyErrorOf(result);
    expect([error.code, error.index]).toEqual(["TEXT_MESSAGE_NOT_OPEN", 4]);
  });

  it("with protocol draft, a second run on another thread is THREAD_ID_MISMATCH", async () => {
    const events = [runStarted(T), runFinished(T), runStarted({ threadId: "t2", runId: "r2" })];
    const ok = await collect(pipe(sourceOf([frame(events)]).stream));
    expect(ok.errored).toBe(true); // ends inside the second run
    expect(verifyErrorOf(ok).code).toBe("STREAM_ENDED_BEFORE_RUN_CLOSED");
    const draft = await collect(pipe(sourceOf([frame(events)]).stream, { protocol: "draft" }));
    expect(draft.values).toEqual(events.slice(0, 2));
    const error = verifyErrorOf(draft);
    expect([error.code, error.index]).toEqual(["THREAD_ID_MISMATCH", 2]);
  });
});

describe("VerifyingTransformStream: several runs", () => {
  it("passes every run through, the same objects, with no option", async () => {
    const on = await collect(readableOf(TWO_RUNS).pipeThrough(new VerifyingTransformStream()));
    expect(on.errored).toBe(false);
    on.values.forEach((v, i) => {
      expect(v).toBe(TWO_RUNS[i]);
    });
    expect(on.values).toHaveLength(TWO_RUNS.length);
  });
});

// ---------------------------------------------------------------------------------------
// 7. Round trip: encode → re-chunk → decode → verify → encode is the identity on bytes

const NASTY = [
  "\n",
  "\r",
  "\r\n",
  "\n\n",
  '"',
  "\\",
  "\u2028",
  "\u2029",
  "\u0000",
  "\u007f",
  "\u0085",
  "😀",
  "👩‍👩‍👧",
  "é",
  "\uFEFF",
  "data: x\n\n",
  ": comment\n",
  "\ud800", // lone surrogates: JSON.stringify escapes them
  "\udfff",
  "[DONE]",
  "",
];

const text: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.string({ unit: "binary", maxLength: 6 }),
      fc.string({ unit: "grapheme", maxLength: 4 }),
      fc.constantFrom(...NASTY),
    ),
    { maxLength: 4 },
  )
  .map((parts) => parts.join(""));

const json = fc.jsonValue({ maxDepth: 3 });

/** A self-contained piece of a run, built for position `n` (ids made unique by `n`). */
type Segment = (n: number) => AgUiEvent[];

const segment: fc.Arbitrary<Segment> = fc.oneof(
  fc.record({ id: text, deltas: fc.array(text, { maxLength: 4 }) }).map(
    ({ id, deltas }): Segment =>
      (n) => {
        const m = `m${n}:${id}`;
        return [
          textMessageStart(m),
          ...deltas.map((d) => textMessageContent(m, d)),
          textMessageEnd(m),
        ];
      },
  ),
  fc
    .record({
      id: text,
      name: text,
      args: fc.array(text, { maxLength: 3 }),
      result: fc.option(text),
    })
    .map(
      ({ id, name, args, result }): Segment =>
        (n) => {
          const c = `c${n}:${id}`;
          const out: AgUiEvent[] = [
            toolCallStart(c, name),
            ...args.map((a) => toolCallArgs(c, a)),
            toolCallEnd(c),
          ];
          if (result !== null) out.push(toolCallResult(c, `tool${n}`, result));
          return out;
        },
    ),
  fc.record({ id: text, deltas: fc.array(text, { maxLength: 3 }) }).map(
    ({ id, deltas }): Segment =>
      (n) => {
        const r = `r${n}:${id}`;
        return [
          reasoningStart(r),
          reasoningMessageStart(r),
          ...deltas.map((d) => reasoningMessageContent(r, d)),
          reasoningMessageEnd(r),
          reasoningEnd(r),
        ];
      },
  ),
  fc.record({ name: text, value: json }).map(
    ({ name, value }): Segment =>
      (n) => [stepStarted(`s${n}:${name}`), custom(name, value), stepFinished(`s${n}:${name}`)],
  ),
  json.map(
    (v): Segment =>
      () => [custom("c", v)],
  ),
  json.map(
    (v): Segment =>
      () => [stateSnapshot(v)],
  ),
  json.map(
    (v): Segment =>
      () => [raw(v, { source: "test" })],
  ),
  json.map(
    (v): Segment =>
      () => [stateDelta([{ op: "add", path: "/x", value: v }])],
  ),
  fc.record({ id: text, delta: text }).map(
    ({ id, delta }): Segment =>
      () => [textMessageChunk({ messageId: id, delta })],
  ),
);

/**
 * A valid run from the factories: events of unknown types first (RAW and CUSTOM may not
 * come before the run, §7 rule 1), RUN_STARTED, segments, a close: RUN_ERROR, or
 * RUN_FINISHED perhaps followed by one late RUN_ERROR (§9.8).
 */
const factoryRun: fc.Arbitrary<AgUiEvent[]> = fc
  .record({
    leading: fc.array(
      json.map((v): AgUiEvent => ({ type: "SOME_FUTURE_EVENT", value: v })),
      { maxLength: 2 },
    ),
    threadId: text,
    runId: text,
    segments: fc.array(segment, { maxLength: 8 }),
    error: fc.option(text),
    late: fc.option(text),
  })
  .map(({ leading, threadId, runId, segments, error, late }) => [
    ...leading,
    runStarted({ threadId, runId }),
    ...segments.flatMap((s, n) => s(n)),
    ...(error !== null
      ? [runError(error)]
      : late === null
        ? [runFinished({ threadId, runId })]
        : [runFinished({ threadId, runId }), runError(late)]),
  ]);

const cuts = fc.array(fc.nat(), { maxLength: 12 });

interface RoundTripOutcome {
  inputBytes: Uint8Array;
  outputBytes: Uint8Array;
  redecoded: unknown[];
}

async function roundTrip(
  pipe: Pipeline,
  events: readonly unknown[],
  cutPoints: readonly number[],
  options?: Options,
): Promise<RoundTripOutcome> {
  const inputBytes = concat(await encode(events));
  const chunks = splitAt(inputBytes, cutPoints);
  const out = await collect(
    pipe(sourceOf(chunks).stream, options).pipeThrough(new SseEncoderStream()),
  );
  if (out.errored) throw out.error;
  const outputBytes = concat(out.values);
  const again = await collect(sourceOf([outputBytes]).stream.pipeThrough(new SseDecoderStream()));
  if (again.errored) throw again.error;
  return { inputBytes, outputBytes, redecoded: again.values };
}

function checkRoundTrip(events: readonly unknown[], r: RoundTripOutcome): void {
  // The encoder writes the specified framing...
  expect(decoder.decode(r.inputBytes)).toBe(frame(events));
  // ...and the whole pipeline reproduces it byte for byte.
  expect(decoder.decode(r.outputBytes)).toBe(decoder.decode(r.inputBytes));
  expect(sameBytes(r.outputBytes, r.inputBytes)).toBe(true);
  expect(JSON.stringify(r.redecoded)).toBe(JSON.stringify(events));
}

describe.each(PIPELINES)("%s: round trip through SseEncoderStream", (_, pipe) => {
  it("factory-built runs survive encode → re-chunk → decode → verify → encode exactly", async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(factoryRun, cuts, async (events, cutPoints) => {
        verifyAll(events); // the generator makes valid runs only
        checkRoundTrip(events, await roundTrip(pipe, events, cutPoints));
        runs += 1;
      }),
      { numRuns: 150 },
    );
    expect(runs).toBeGreaterThanOrEqual(150);
  });

  it("model-built streams (subagents, tags, snapshots, several runs) survive the round trip", async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(validRun, finishedRun, validStream),
        cuts,
        async (events, cutPoints) => {
          checkRoundTrip(events, await roundTrip(pipe, events, cutPoints));
          runs += 1;
        },
      ),
      { numRuns: 60 },
    );
    expect(runs).toBeGreaterThanOrEqual(60);
  });

  it("runs back to back survive the round trip, with unknown types between them and no option", async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(sequentialRuns, cuts, async (list, cutPoints) => {
        const between = (i: number) => ({ type: "SOME_FUTURE_EVENT", between: i });
        const events = list.flatMap((run, i) => (i === 0 ? run : [between(i), ...run]));
        checkRoundTrip(events, await roundTrip(pipe, events, cutPoints));
        runs += 1;
      }),
      { numRuns: 40 },
    );
    expect(runs).toBeGreaterThanOrEqual(40);
  });

  it("one-byte chunks round-trip too", async () => {
    const events = [
      runStarted(T),
      textMessageStart("m1"),
      textMessageContent("m1", "é😀👩‍👩‍👧\r\n\u2028\"'\\"),
      textMessageEnd("m1"),
      runFinished(T),
    ];
    const all = concat(await encode(events));
    const r = await roundTrip(
      pipe,
      events,
      Array.from({ length: all.length }, (_c, i) => i),
    );
    checkRoundTrip(events, r);
  });
});
