// The test helpers of SPEC §19 in this project's own Vitest, as a backend's tests use them:
// the registered matcher (pass, fail with the report, `.not`), every input kind, failOn,
// inputs that error (never a pass, also under `.not`), the options passed on, and a real
// AbstractAgent of @ag-ui/client 1.0.0 passed as `agent.run(input)`. Web APIs only: the file
// runs in the node and edge projects.

import "../src/testing/vitest.ts";
import { AbstractAgent, type BaseEvent, type RunAgentInput } from "@ag-ui/client";
import { concat, from, Observable, throwError } from "rxjs";
import { describe, expect, it } from "vitest";
import { lint } from "../src/lint/index.ts";
import { lintText } from "../src/report/lint-text.ts";
import {
  AgUiStreamAssertionError,
  type AssertOptions,
  agUiMatchers,
  assertValidStream,
  type StreamInput,
} from "../src/testing/index.ts";

type Ev = { type: string } & Record<string, unknown>;

const RS: Ev = { type: "RUN_STARTED", threadId: "t1", runId: "r1" };
const RF: Ev = { type: "RUN_FINISHED", threadId: "t1", runId: "r1" };
const VALID: Ev[] = [
  RS,
  { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Hello" },
  { type: "TEXT_MESSAGE_END", messageId: "m1" },
  RF,
];
/** A content event for a message that was never opened (index 1). */
const BROKEN: Ev[] = [RS, { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Hi" }, RF];
/** Valid, with one warning: the tool call's arguments are not JSON (index 3). */
const WARNED: Ev[] = [
  RS,
  { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "weather" },
  { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '{"city":' },
  { type: "TOOL_CALL_END", toolCallId: "c1" },
  // The call is left to the application, and named so (no PENDING_TOOL_CALL_IDS_OMITTED).
  { ...RF, outcome: { type: "success", pendingToolCallIds: ["c1"] } },
];

const utf8 = new TextEncoder();
const sse = (events: readonly Ev[]) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("");
const jsonl = (events: readonly Ev[]) => events.map((e) => `${JSON.stringify(e)}\n`).join("");

/** A stream of the given chunks, in order. */
function streamOf<T>(chunks: readonly T[]): ReadableStream<T> {
  let i = 0;
  return new ReadableStream<T>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++] as T);
      else controller.close();
    },
  });
}

/** `bytes` cut into pieces of `size` bytes. */
function pieces(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.slice(i, i + size));
  return out;
}

/** A stream of the given chunks, then an error (pulled: an error discards what is queued). */
function breakingStream<T>(chunks: readonly T[], error: unknown): ReadableStream<T> {
  let i = 0;
  return new ReadableStream<T>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++] as T);
      else controller.error(error);
    },
  });
}

/** An Observable-like object (no library) that emits the events asynchronously. */
function observableLike(events: readonly Ev[], teardown: "object" | "function") {
  const seen = { unsubscribed: 0 };
  const source = {
    subscribe(observer: { next(v: unknown): void; complete(): void }) {
      void (async () => {
        for (const e of events) {
          await Promise.resolve();
          observer.next(e);
        }
        observer.complete();
        // Late values, after the end, are not read.
        observer.next({ type: "TEXT_MESSAGE_CONTENT", messageId: "late", delta: "x" });
      })();
      const unsubscribe = () => {
        seen.unsubscribed++;
      };
      return teardown === "function" ? unsubscribe : { unsubscribe };
    },
  };
  return { source, seen };
}

/** Each input kind of SPEC §19, made from events; its `report.input` format, if text. */
const KINDS: [string, (events: readonly Ev[]) => StreamInput, "sse" | "jsonl" | undefined][] = [
  ["an array", (events) => [...events], undefined],
  ["a Set", (events) => new Set(events), undefined],
  [
    "a generator",
    (events) =>
      (function* () {
        yield* events;
      })(),
    undefined,
  ],
  [
    "an async generator",
    (events) =>
      (async function* () {
        for (const e of events) yield await Promise.resolve(e);
      })(),
    undefined,
  ],
  ["a ReadableStream of events", (events) => streamOf(events), undefined],
  [
    "an async generator of SSE bytes",
    (events) =>
      (async function* () {
        yield* pieces(utf8.encode(sse(events)), 11);
      })(),
    "sse",
  ],
  [
    "a ReadableStream of SSE bytes",
    (events) => streamOf(pieces(utf8.encode(sse(events)), 7)),
    "sse",
  ],
  [
    "a ReadableStream of SSE strings",
    (events) => streamOf(events.map((e) => `data: ${JSON.stringify(e)}\n\n`)),
    "sse",
  ],
  ["a Response", (events) => new Response(sse(events)), "sse"],
  ["an SSE string", (events) => sse(events), "sse"],
  ["a JSON Lines string", (events) => jsonl(events), "jsonl"],
  ["SSE bytes", (events) => utf8.encode(sse(events)), "sse"],
  ["an Observable-like object", (events) => observableLike(events, "object").source, undefined],
  ["an rxjs Observable", (events) => from(events), undefined],
];

/** The rejection of `promise` (fails when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail("expected a rejection"),
    (error: unknown) => error,
  );
}

async function assertionError(promise: Promise<unknown>): Promise<AgUiStreamAssertionError> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(AgUiStreamAssertionError);
  return error as AgUiStreamAssertionError;
}

/** What the matcher's failure message is: the matcher's failure (a Vitest assertion error). */
async function matcherMessage(promise: Promise<unknown>): Promise<string> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(Error);
  return (error as Error).message;
}

describe.each(KINDS)("%s", (_, make, format) => {
  it("passes when valid", async () => {
    await expect(make(VALID)).toBeValidAgUiStream();
    const report = await assertValidStream(make(VALID));
    expect(report).toMatchObject({ valid: true, errors: 0, events: VALID.length });
    expect(report.input?.format).toBe(format);
  });

  it("fails when broken, with the finding where it is", async () => {
    await expect(make(BROKEN)).not.toBeValidAgUiStream();
    const error = await assertionError(assertValidStream(make(BROKEN)));
    expect(error.report.findings[0]).toMatchObject({ code: "TEXT_MESSAGE_NOT_OPEN", index: 1 });
    expect(error.report.input?.format).toBe(format);
    // Text has lines: the content event is the second SSE message, or the second line.
    expect(error.report.findings[0]?.line).toBe(
      format === undefined ? undefined : format === "sse" ? 3 : 2,
    );
    expect(error.cause).toBeUndefined();
  });
});

describe("the failure message", () => {
  it("is one line of what was expected, then the text report", async () => {
    const message = await matcherMessage(expect(BROKEN).toBeValidAgUiStream());
    const [first, header, ...rest] = message.split("\n");
    expect(first).toBe("expected the stream to be a valid AG-UI stream (no error)");
    expect(header).toBe("✘ invalid  the stream (events): 1 error, 0 warnings");
    expect(rest.join("\n")).toContain("TEXT_MESSAGE_NOT_OPEN");
    expect(rest.join("\n")).toContain("docs/rules.md#text_message_not_open");
    expect(message).toBe(`${first}\n${lintText({ name: "the stream", report: lint(BROKEN) })}`);
    // No colour.
    expect(message).not.toContain("\u001b[");
  });

  it("is the same from assertValidStream, and places text findings by line", async () => {
    const error = await assertionError(assertValidStream(sse(BROKEN)));
    const lines = error.message.split("\n");
    expect(lines[0]).toBe("expected the stream to be a valid AG-UI stream (no error)");
    expect(lines[1]).toMatch(/^✘ invalid {2}the stream \(SSE\): 1 error, 0 warnings$/);
    expect(error.message).toContain("line 3  ");
    expect(error.name).toBe("AgUiStreamAssertionError");
    expect(error.message).toBe(await matcherMessage(expect(sse(BROKEN)).toBeValidAgUiStream()));
  });

  it("under .not, says the stream is valid", async () => {
    const message = await matcherMessage(expect(VALID).not.toBeValidAgUiStream());
    const [first, header] = message.split("\n");
    expect(first).toBe("expected the stream not to be a valid AG-UI stream (no error), but it is");
    expect(header).toBe("✔ valid  the stream (events): 0 errors, 0 warnings");
  });
});

describe("failOn", () => {
  it('"error" (the default) passes a stream with only a warning', async () => {
    await expect(WARNED).toBeValidAgUiStream();
    await expect(WARNED).toBeValidAgUiStream({ failOn: "error" });
    const report = await assertValidStream(sse(WARNED));
    expect(report.findings.map((f) => [f.code, f.severity])).toEqual([
      ["TOOL_CALL_ARGS_NOT_JSON", "warning"],
    ]);
  });

  it('"warning" fails it, and says so', async () => {
    const options: AssertOptions = { failOn: "warning" };
    await expect(WARNED).not.toBeValidAgUiStream(options);
    await expect(VALID).toBeValidAgUiStream(options);
    const error = await assertionError(assertValidStream(WARNED, options));
    expect(error.report).toMatchObject({ valid: true, errors: 0, warnings: 1 });
    const [first, header] = error.message.split("\n");
    expect(first).toBe("expected the stream to be a valid AG-UI stream (no error or warning)");
    expect(header).toBe("✔ valid  the stream (events): 0 errors, 1 warning");
    expect(error.message).toContain("TOOL_CALL_ARGS_NOT_JSON");
  });

  it("rejects a value it does not know", async () => {
    const bad = { failOn: "none" } as unknown as AssertOptions;
    await expect(assertValidStream(VALID, bad)).rejects.toThrow(TypeError);
    await expect(expect(VALID).toBeValidAgUiStream(bad)).rejects.toThrow(/failOn/);
  });
});

describe("the options are the linter's", () => {
  const twoRuns = [...VALID, { ...RS, runId: "r2" }, { ...RF, runId: "r2" }];

  it("protocol: a replayed thread passes; the draft rejects a run id that changes", async () => {
    // SPEC §9.6: several runs are always accepted.
    await expect(twoRuns).toBeValidAgUiStream();
    await expect(sse(twoRuns)).toBeValidAgUiStream();
    const mismatch = [RS, { ...RF, runId: "another" }];
    // AG-UI 1.1: a warning only (it asks it of producers); the draft: an error (SPEC §9.14).
    await expect(mismatch).toBeValidAgUiStream();
    await expect(mismatch).not.toBeValidAgUiStream({ failOn: "warning" });
    await expect(mismatch).not.toBeValidAgUiStream({ protocol: "draft" });
    await expect(sse(mismatch)).not.toBeValidAgUiStream({ protocol: "draft" });
  });

  it("severity overrides, before failOn", async () => {
    await expect(BROKEN).toBeValidAgUiStream({ severity: { TEXT_MESSAGE_NOT_OPEN: "warning" } });
    await expect(BROKEN).not.toBeValidAgUiStream({
      severity: { TEXT_MESSAGE_NOT_OPEN: "warning" },
      failOn: "warning",
    });
    await expect(WARNED).not.toBeValidAgUiStream({
      severity: { TOOL_CALL_ARGS_NOT_JSON: "error" },
    });
    await expect(WARNED).toBeValidAgUiStream({
      severity: { TOOL_CALL_ARGS_NOT_JSON: "off" },
      failOn: "warning",
    });
  });

  it("maxFindings, and what the linter throws passes through unwrapped", async () => {
    const error = await assertionError(assertValidStream(BROKEN, { maxFindings: 0 }));
    expect(error.report).toMatchObject({ findings: [], errors: 1, omitted: 1 });
    await expect(assertValidStream(VALID, { maxFindings: -1 })).rejects.toThrow(TypeError);
    const thrown = new Error("schema blew up");
    const schema = {
      "~standard": {
        version: 1 as const,
        vendor: "test",
        validate: () => {
          throw thrown;
        },
      },
    };
    const { source, seen } = observableLike(VALID, "object");
    expect(await rejection(assertValidStream(source, { schema }))).toBe(thrown);
    expect(seen.unsubscribed).toBe(1);
    const cancelled: unknown[] = [];
    const stream = new ReadableStream({
      pull: (c) => c.enqueue(RS),
      cancel: (reason) => {
        cancelled.push(reason);
      },
    });
    expect(await rejection(assertValidStream(stream, { schema }))).toBe(thrown);
    expect(cancelled).toHaveLength(1);
    let closed = false;
    const generator = (async function* () {
      try {
        for (;;) yield RS;
      } finally {
        closed = true;
      }
    })();
    expect(await rejection(assertValidStream(generator, { schema }))).toBe(thrown);
    expect(closed).toBe(true);
  });
});

describe("an input that errors", () => {
  const boom = new Error("connection reset");

  /** Inputs that give `events` and then error with `boom`. */
  const ERRORING: [string, (events: readonly Ev[]) => StreamInput][] = [
    [
      "a generator",
      (events) =>
        (function* () {
          yield* events;
          throw boom;
        })(),
    ],
    [
      "an async generator",
      (events) =>
        (async function* () {
          yield* events;
          throw boom;
        })(),
    ],
    [
      "an rxjs Observable",
      (events) =>
        concat(
          from(events),
          throwError(() => boom),
        ),
    ],
    ["a ReadableStream of events", (events) => breakingStream(events, boom)],
    [
      "a Response whose body breaks",
      (events) => new Response(breakingStream(pieces(utf8.encode(sse(events)), 50), boom)),
    ],
  ];

  describe.each(ERRORING)("%s", (_, make) => {
    it("rejects assertValidStream with the error as cause and the report so far", async () => {
      // Every event before the error is valid: ignoring the error would pass.
      const error = await assertionError(assertValidStream(make(VALID)));
      expect(error.cause).toBe(boom);
      expect(error.report.events).toBe(VALID.length);
      expect(error.message.split("\n")[0]).toBe(
        "expected the stream to be read to its end, but it errored: Error: connection reset",
      );
      const partial = await assertionError(assertValidStream(make([RS])));
      expect(partial.cause).toBe(boom);
      expect(partial.report.events).toBe(1);
    });

    it("never passes the matcher, with or without .not", async () => {
      const message = await matcherMessage(expect(make(VALID)).toBeValidAgUiStream());
      expect(message).toContain("it errored: Error: connection reset");
      // A cut-off run is invalid: ignoring the error, `.not` would pass.
      const not = await matcherMessage(expect(make([RS])).not.toBeValidAgUiStream());
      expect(not).toContain("it errored: Error: connection reset");
    });
  });

  it("also when the error is no Error, or the stream breaks at once", async () => {
    const error = await assertionError(assertValidStream(throwError(() => "nope")));
    expect(error.cause).toBe("nope");
    expect(error.message.split("\n")[0]).toBe(
      "expected the stream to be read to its end, but it errored: nope",
    );
    const early = new ReadableStream({ start: (c) => c.error(boom) });
    expect((await assertionError(assertValidStream(early))).cause).toBe(boom);
  });

  it("a text stream with a chunk that is not text errors", async () => {
    const error = await assertionError(assertValidStream(streamOf<unknown>([sse([RS]), 42])));
    expect(error.cause).toBeInstanceOf(TypeError);
    expect(error.message.split("\n")[0]).toMatch(/it errored: TypeError: a text stream/);
  });

  it("is no stream input at all: a TypeError, from both", async () => {
    await expect(assertValidStream(42 as unknown as StreamInput)).rejects.toThrow(TypeError);
    await expect(expect(null).toBeValidAgUiStream()).rejects.toThrow(/not a stream input/);
    await expect(expect(null).not.toBeValidAgUiStream()).rejects.toThrow(/not a stream input/);
  });
});

describe("Observables are unsubscribed", () => {
  it.each(["object", "function"] as const)(
    "after they complete (subscription %s)",
    async (teardown) => {
      const { source, seen } = observableLike(VALID, teardown);
      const report = await assertValidStream(source);
      expect(report.events).toBe(VALID.length);
      expect(seen.unsubscribed).toBe(1);
    },
  );

  it("also when they complete or error inside subscribe()", async () => {
    for (const end of ["complete", "error"] as const) {
      let unsubscribed = 0;
      const source = {
        subscribe(o: { next(v: unknown): void; error(e: unknown): void; complete(): void }) {
          for (const e of VALID) o.next(e);
          if (end === "complete") o.complete();
          else o.error(new Error("gone"));
          return {
            unsubscribe: () => {
              unsubscribed++;
            },
          };
        },
      };
      const settled = assertValidStream(source).then(
        () => "passed",
        (e: unknown) => (e as Error).message.split("\n")[0],
      );
      expect(await settled).toBe(
        end === "complete"
          ? "passed"
          : "expected the stream to be read to its end, but it errored: Error: gone",
      );
      expect(unsubscribed).toBe(1);
    }
  });

  it("rxjs: the teardown runs once the stream is read", async () => {
    let torn = 0;
    const source = new Observable<Ev>((subscriber) => {
      let i = 0;
      const tick = () => {
        if (i < VALID.length) subscriber.next(VALID[i++] as Ev);
        else subscriber.complete();
        if (!subscriber.closed) queueMicrotask(tick);
      };
      queueMicrotask(tick);
      return () => {
        torn++;
      };
    });
    await expect(source).toBeValidAgUiStream();
    expect(torn).toBe(1);
  });
});

describe("agUiMatchers, without a runner", () => {
  it("returns pass and the message; `isNot` in `this` only changes the message", async () => {
    const failed = await agUiMatchers.toBeValidAgUiStream(BROKEN);
    expect(failed.pass).toBe(false);
    expect(failed.message().split("\n")[0]).toBe(
      "expected the stream to be a valid AG-UI stream (no error)",
    );
    const passed = await agUiMatchers.toBeValidAgUiStream.call({ isNot: true }, VALID);
    expect(passed.pass).toBe(true);
    expect(passed.message().split("\n")[0]).toMatch(/^expected the stream not to be/);
  });

  it("gives an errored input the pass that fails under the context's isNot", async () => {
    const broken = () => throwError(() => new Error("x"));
    expect((await agUiMatchers.toBeValidAgUiStream(broken())).pass).toBe(false);
    const not = await agUiMatchers.toBeValidAgUiStream.call({ isNot: true }, broken());
    expect(not.pass).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------
// A real agent of @ag-ui/client 1.0.0, as a backend's tests would hold one.

/** A small local agent: answers every run with one text message, or (broken) forgets to open it. */
class EchoAgent extends AbstractAgent {
  readonly #broken: boolean;
  constructor(broken = false) {
    super({ threadId: "t1" });
    this.#broken = broken;
  }
  run(input: RunAgentInput): Observable<BaseEvent> {
    const { threadId, runId } = input;
    const events: Ev[] = [
      { type: "RUN_STARTED", threadId, runId },
      { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "echo" },
      { type: "TEXT_MESSAGE_END", messageId: "m1" },
      { type: "RUN_FINISHED", threadId, runId },
    ];
    const sent = this.#broken ? events.filter((e) => e.type !== "TEXT_MESSAGE_START") : events;
    return new Observable<BaseEvent>((subscriber) => {
      let i = 0;
      const tick = () => {
        if (subscriber.closed) return;
        if (i < sent.length) subscriber.next(sent[i++] as BaseEvent);
        else subscriber.complete();
        queueMicrotask(tick);
      };
      queueMicrotask(tick);
    });
  }
}

const input: RunAgentInput = {
  threadId: "t1",
  runId: "r1",
  messages: [{ id: "u1", role: "user", content: "hi" }],
  tools: [],
  context: [],
  state: {},
  forwardedProps: {},
};

describe("an AbstractAgent subclass, passed as agent.run(input)", () => {
  it("a valid agent passes", async () => {
    await expect(new EchoAgent().run(input)).toBeValidAgUiStream();
    const report = await assertValidStream(new EchoAgent().run(input));
    expect(report).toMatchObject({ valid: true, events: 5 });
  });

  it("a broken agent fails with the report", async () => {
    const message = await matcherMessage(
      expect(new EchoAgent(true).run(input)).toBeValidAgUiStream(),
    );
    expect(message).toContain("TEXT_MESSAGE_NOT_OPEN");
    const error = await assertionError(assertValidStream(new EchoAgent(true).run(input)));
    expect(error.report.findings.map((f) => [f.code, f.index])).toEqual([
      ["TEXT_MESSAGE_NOT_OPEN", 1],
      ["TEXT_MESSAGE_NOT_OPEN", 2],
    ]);
  });
});
