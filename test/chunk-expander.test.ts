// ChunkExpanderStream (SPEC §15). The oracle is @ag-ui/client 1.0.0's transformChunks, run
// on the same input: the expansion must equal it event for event (same values, same key
// order, the same objects where an event passes through), and where upstream throws, the
// stream must error at the same input event. Web-standard only apart from the upstream
// package (plain JS), so the file also runs under the edge project.

import { transformChunks } from "@ag-ui/client";
import { type BaseEvent, EventType } from "@ag-ui/core";
import fc from "fast-check";
import { from, tap } from "rxjs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type AgUiEvent,
  ChunkExpanderStream,
  isVerifyError,
  runAgent,
  verifyAll,
} from "../src/index.ts";
import { collect } from "./support/streams.ts";
import { validRun, validStream } from "./support/valid-run.ts";

// ---------------------------------------------------------------------------------------
// The two expansions

interface Expansion {
  events: AgUiEvent[];
  /** Index of the input event the expansion failed on; undefined when it completed. */
  failedAt: number | undefined;
}

/** Upstream's expansion, driven synchronously through rxjs. */
function upstream(input: readonly AgUiEvent[]): Expansion {
  const events: AgUiEvent[] = [];
  let consumed = 0;
  let failedAt: number | undefined;
  let completed = false;
  // Upstream types `type` with its own string enum; the values are the same strings.
  from(input as readonly BaseEvent[])
    .pipe(
      tap(() => {
        consumed++;
      }),
      transformChunks(),
    )
    .subscribe({
      next: (event) => {
        events.push(event);
      },
      error: () => {
        failedAt = consumed - 1;
      },
      complete: () => {
        completed = true;
      },
    });
  // from() over an array and transformChunks both run synchronously.
  if (!completed && failedAt === undefined) throw new Error("upstream did not settle");
  return { events, failedAt };
}

/** This library's expansion: events written one at a time, the output read alongside. */
async function ours(input: readonly AgUiEvent[]): Promise<Expansion> {
  const stream = new ChunkExpanderStream();
  const reading = collect(stream.readable);
  const writer = stream.writable.getWriter();
  let failedAt: number | undefined;
  let writeError: unknown;
  for (const [i, event] of input.entries()) {
    try {
      await writer.write(event);
    } catch (error) {
      failedAt = i;
      writeError = error;
      break;
    }
  }
  if (failedAt === undefined) await writer.close();
  const read = await reading;
  // The readable side ends exactly as the writable side does, with the same error.
  expect(read.errored).toBe(failedAt !== undefined);
  expect(read.error).toBe(writeError);
  if (failedAt !== undefined) expect(read.error).toBeInstanceOf(Error);
  return { events: read.values, failedAt };
}

/** Asserts that both expansions of `input` agree, and returns ours. */
async function expectSameAsUpstream(input: readonly AgUiEvent[]): Promise<Expansion> {
  const want = upstream(input);
  const got = await ours(input);
  expect(got.failedAt).toBe(want.failedAt);
  expect(got.events).toStrictEqual(want.events);
  expect(got.events.map((e) => Object.keys(e))).toStrictEqual(
    want.events.map((e) => Object.keys(e)),
  );
  // An event upstream passes through is passed through here too: the same object.
  const inputs = new Set<unknown>(input);
  for (const [i, event] of want.events.entries()) {
    if (inputs.has(event)) expect(got.events[i]).toBe(event);
    else expect(inputs.has(got.events[i])).toBe(false);
  }
  return got;
}

/** Code and index of the verifier's verdict; "accepted" when it accepts. */
function verdict(events: readonly unknown[]): string {
  try {
    verifyAll(events);
    return "accepted";
  } catch (error) {
    if (isVerifyError(error)) return `${error.code} at ${error.index}`;
    throw error;
  }
}

// Upstream warns on the console when a chunk's extra field collides with a field of the
// start event it synthesizes; the generators below do that on purpose.
beforeAll(() => {
  vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterAll(() => {
  vi.restoreAllMocks();
});

const RS: AgUiEvent = { type: "RUN_STARTED", threadId: "t1", runId: "r1" };
const RF: AgUiEvent = { type: "RUN_FINISHED", threadId: "t1", runId: "r1" };

// ---------------------------------------------------------------------------------------
// Examples

describe("ChunkExpanderStream", () => {
  it("runs its documented example", async () => {
    // The @example of ChunkExpanderStream, verbatim apart from the import.
    const chunks = [
      { type: "RUN_STARTED", threadId: "t1", runId: "r1" },
      { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", delta: "Hel" },
      { type: "TEXT_MESSAGE_CHUNK", delta: "lo" },
      { type: "RUN_FINISHED", threadId: "t1", runId: "r1" },
    ];
    const source = new ReadableStream({
      start(controller) {
        for (const event of chunks) controller.enqueue(event);
        controller.close();
      },
    });
    const types: string[] = [];
    await source.pipeThrough(new ChunkExpanderStream()).pipeTo(
      new WritableStream({
        write(event) {
          types.push(event.type);
        },
      }),
    );
    expect(types).toEqual([
      "RUN_STARTED",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
      "RUN_FINISHED",
    ]);
    await expectSameAsUpstream(chunks);
  });

  it("expands each chunk form into its start, content and end events", async () => {
    const { events } = await expectSameAsUpstream([
      RS,
      { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", delta: "a", metadata: { k: 1 } },
      { type: "TOOL_CALL_CHUNK", toolCallId: "c1", toolCallName: "f", parentMessageId: "m1" },
      { type: "TOOL_CALL_CHUNK", delta: "{}" },
      { type: "REASONING_MESSAGE_CHUNK", messageId: "r1", delta: "hm", subagentRunId: "s1" },
      RF,
    ]);
    expect(events).toStrictEqual([
      RS,
      { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant", metadata: { k: 1 } },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "a", metadata: { k: 1 } },
      { type: "TEXT_MESSAGE_END", messageId: "m1" },
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "f", parentMessageId: "m1" },
      { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: "{}" },
      { type: "REASONING_MESSAGE_START", messageId: "r1", role: "reasoning", subagentRunId: "s1" },
      { type: "REASONING_MESSAGE_CONTENT", messageId: "r1", delta: "hm", subagentRunId: "s1" },
      { type: "TOOL_CALL_END", toolCallId: "c1" },
      { type: "REASONING_MESSAGE_END", messageId: "r1", subagentRunId: "s1" },
      RF,
    ]);
  });

  it("passes every other event through as the same object", async () => {
    const others: AgUiEvent[] = [
      { type: "RAW", event: {} },
      RS,
      { type: "TEXT_MESSAGE_START", messageId: "m1" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "x" },
      { type: "TEXT_MESSAGE_END", messageId: "m1" },
      { type: "SUBAGENT_STARTED", subagentRunId: "s1", name: "n" },
      { type: "STEP_STARTED", stepName: "p", subagentRunId: "s1" },
      { type: "SOME_FUTURE_EVENT" },
      { type: "THINKING_START" },
      { type: "SUBAGENT_FINISHED", subagentRunId: "s1" },
      RF,
    ];
    const { events } = await expectSameAsUpstream(others);
    expect(events).toHaveLength(others.length);
    for (const [i, event] of others.entries()) expect(events[i]).toBe(event);
  });

  it("gives one event's whole expansion before it takes the next event", async () => {
    const input: AgUiEvent[] = [
      RS,
      { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", delta: "a" },
      { type: "TEXT_MESSAGE_CHUNK", messageId: "m2", delta: "b" },
      { type: "CUSTOM", name: "n", value: 1 },
      RF,
    ];
    const expansions = [
      ["RUN_STARTED"],
      ["TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT"],
      ["TEXT_MESSAGE_END", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT"],
      ["TEXT_MESSAGE_END", "CUSTOM"],
      ["RUN_FINISHED"],
    ];
    const stream = new ChunkExpanderStream();
    const writer = stream.writable.getWriter();
    const reader = stream.readable.getReader();
    for (const [i, event] of input.entries()) {
      const written = writer.write(event);
      const types: string[] = [];
      for (const _ of expansions[i] ?? []) {
        const result = await reader.read();
        if (!result.done) types.push(result.value.type);
      }
      // Nothing of this event is held back, and nothing of the next one was needed.
      expect(types).toEqual(expansions[i]);
      await written;
    }
    const closed = writer.close();
    expect(await reader.read()).toEqual({ done: true, value: undefined });
    await closed;
  });

  it("leaves a stream still open at the end of input without an end event", async () => {
    const { events } = await expectSameAsUpstream([
      RS,
      { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", delta: "a" },
    ]);
    expect(events.map((e) => e.type)).toEqual([
      "RUN_STARTED",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
    ]);
  });

  it.each<[string, AgUiEvent[], number]>([
    ["an opening text chunk without messageId", [RS, { type: "TEXT_MESSAGE_CHUNK" }], 1],
    [
      "an opening tool chunk without toolCallName",
      [RS, { type: "TOOL_CALL_CHUNK", toolCallId: "c1", delta: "{" }],
      1,
    ],
    [
      "an id-less chunk after the lane's stream was ended",
      [
        RS,
        { type: "REASONING_MESSAGE_CHUNK", messageId: "r1", delta: "a" },
        { type: "CUSTOM", name: "n", value: 1 },
        { type: "REASONING_MESSAGE_CHUNK", delta: "b" },
      ],
      3,
    ],
    [
      "a tag contradicting the lane that holds the id",
      [
        RS,
        { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", subagentRunId: "s1" },
        { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", subagentRunId: "s2", delta: "x" },
      ],
      2,
    ],
    [
      "an untagged id-less chunk two subagent lanes could continue",
      [
        RS,
        { type: "TOOL_CALL_CHUNK", toolCallId: "c1", toolCallName: "f", subagentRunId: "s1" },
        { type: "TOOL_CALL_CHUNK", toolCallId: "c2", toolCallName: "f", subagentRunId: "s2" },
        { type: "TOOL_CALL_CHUNK", delta: "{}" },
      ],
      3,
    ],
    [
      "a continuation changing role",
      [
        RS,
        { type: "TEXT_MESSAGE_CHUNK", messageId: "m1" },
        { type: "TEXT_MESSAGE_CHUNK", role: "user", delta: "x" },
      ],
      2,
    ],
    [
      "a continuation changing parentMessageId",
      [
        RS,
        { type: "TOOL_CALL_CHUNK", toolCallId: "c1", toolCallName: "f" },
        { type: "TOOL_CALL_CHUNK", toolCallId: "c1", parentMessageId: "m9" },
      ],
      2,
    ],
  ])("errors, as upstream throws, on %s", async (_, input, at) => {
    const { failedAt } = await expectSameAsUpstream(input);
    expect(failedAt).toBe(at);
  });

  it("differs from nothing upstream does on generated chunk-bearing sequences", async () => {
    await fc.assert(
      fc.asyncProperty(sequenceArb, async (input) => {
        await expectSameAsUpstream(input);
      }),
      { numRuns: 2000 },
    );
  }, 30_000);

  it("expands accepted runs with well-formed chunk streams into accepted runs", async () => {
    await fc.assert(
      fc.asyncProperty(validRun, fc.array(fc.nat(), { maxLength: 400 }), async (run, xs) => {
        const raw = withChunks(run, xs);
        expect(verdict(raw)).toBe("accepted");
        const { events, failedAt } = await expectSameAsUpstream(raw);
        expect(failedAt).toBeUndefined();
        expect(verdict(events)).toBe("accepted");
      }),
      { numRuns: 300 },
    );
  }, 30_000);

  it("does the same for streams of several runs (SPEC §9.6)", async () => {
    // A leading RUN_ERROR, runs one after another, late failures and unknown types between
    // them: RUN_STARTED, RUN_FINISHED and RUN_ERROR end every lane, so no chunk stream
    // crosses a run's boundary, raw or expanded.
    await fc.assert(
      fc.asyncProperty(validStream, fc.array(fc.nat(), { maxLength: 400 }), async (stream, xs) => {
        const raw = withChunks(stream, xs);
        expect(verdict(raw)).toBe("accepted");
        const { events, failedAt } = await expectSameAsUpstream(raw);
        expect(failedAt).toBeUndefined();
        expect(verdict(events)).toBe("accepted");
      }),
      { numRuns: 150 },
    );
  }, 30_000);

  // SPEC §15's property does not hold for every stream the verifier accepts: chunks are
  // checked only for their tag (SPEC §9.4), and an expansion equal to upstream's can fail
  // (or be rejected) where the raw stream passed. Each row is such a stream.
  it.each<[string, AgUiEvent[], string]>([
    [
      "SPEC §9.4's accepted example: a tool chunk without toolCallId",
      [RS, { type: "TEXT_MESSAGE_CHUNK", messageId: "m1" }, { type: "TOOL_CALL_CHUNK" }, RF],
      "expansion fails at 2",
    ],
    [
      "a chunk continuing an explicitly started message",
      [
        RS,
        { type: "TEXT_MESSAGE_START", messageId: "m1" },
        { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", delta: "x" },
        { type: "TEXT_MESSAGE_END", messageId: "m1" },
        RF,
      ],
      "TEXT_MESSAGE_ALREADY_OPEN at 2",
    ],
    [
      "a chunk id that is not a string",
      [RS, { type: "TEXT_MESSAGE_CHUNK", messageId: 7, delta: "x" }, RF],
      "FIELD_WRONG_TYPE at 1",
    ],
    [
      "a subagent's chunk for a message the parent owns",
      [
        {
          ...RS,
          input: { messages: [{ id: "m1", role: "assistant", content: "" }] },
        },
        { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", delta: "x", subagentRunId: "s1" },
        RF,
      ],
      "OWNER_MISMATCH at 1",
    ],
  ])("accepted raw, not after expansion: %s", async (_, raw, expected) => {
    expect(verdict(raw)).toBe("accepted");
    const { events, failedAt } = await expectSameAsUpstream(raw);
    expect(failedAt === undefined ? verdict(events) : `expansion fails at ${failedAt}`).toBe(
      expected,
    );
  });

  it("accepts the expansion of a result, from another lane, for a tool call still assembling", async () => {
    // Version 3 rejected this expansion (rule 5, TOOL_CALL_RESULT_BEFORE_END). SPEC v4 retires
    // rule 5 from the verifier: "1.1 lets a result arrive in the same run as its call and asks
    // no consumer to reject a result for an open call".
    const result = { type: "TOOL_CALL_RESULT", toolCallId: "c1", messageId: "t1", content: "ok" };
    const raw: AgUiEvent[] = [
      RS,
      { type: "TOOL_CALL_CHUNK", toolCallId: "c1", toolCallName: "f", subagentRunId: "s1" },
      result,
      RF,
    ];
    expect(verdict(raw)).toBe("accepted");
    const { events, failedAt } = await expectSameAsUpstream(raw);
    expect(failedAt).toBeUndefined();
    // The untagged result ends only the parent's lane: the call is still open when it comes.
    const types = events.map((e) => e.type);
    expect(types.indexOf("TOOL_CALL_RESULT")).toBeLessThan(types.indexOf("TOOL_CALL_END"));
    expect(verdict(events)).toBe("accepted");
  });
});

// ---------------------------------------------------------------------------------------
// Adversarial sequences for the differential test: chunks of the three forms from a small
// pool of ids and tags (so lanes fill, continue, collide and switch kinds), with and
// without ids, fields a continuation may not change, null and odd values, extra keys
// (one of them "__proto__"), mixed with explicit lifecycle events, run-level events,
// subagent terminals and events that pass by.

const ABSENT = Symbol("absent");
/** Builds an event, leaving out the fields whose value is ABSENT. */
function event(type: string, fields: Record<string, unknown>): AgUiEvent {
  const out: AgUiEvent = { type };
  for (const [key, value] of Object.entries(fields)) if (value !== ABSENT) out[key] = value;
  return out;
}

const often = <T>(value: T, others: readonly unknown[]): fc.Arbitrary<unknown> =>
  fc.oneof({ arbitrary: fc.constant(value), weight: 3 }, fc.constantFrom(...others));

const idArb = fc.constantFrom("a", "a", "a", "b", "b", "", null, 7);
const tagArb = often(ABSENT, ["s1", "s1", "s2", "", null, "__proto__"]);
const deltaArb = fc.constantFrom(ABSENT, "x", "x", "", null);
const rareArb = (values: readonly unknown[]) => often(ABSENT, values);

/** Extra keys a chunk type does not define; "__proto__" as JSON.parse makes it, own. */
const extraArb = fc.oneof(
  { arbitrary: fc.constant({}), weight: 6 },
  fc.constantFrom(
    { foo: 1 },
    { role: "x", toString: "y" },
    { role: "assistant" },
    { toolCallId: "z", messageId: "z" },
    JSON.parse('{"__proto__": {"polluted": 1}}'),
    JSON.parse('{"__proto__": 5, "bar": null}'),
  ),
);

/**
 * A chunk before the pass that makes sequences hang together: how it treats the id, tag
 * and tool name an earlier chunk of the same stream used (0 mostly: reuse; 1: leave out
 * where an earlier chunk set it; 2, rare: leave out, or keep the fresh tag, regardless).
 */
class Draft {
  readonly chunk: AgUiEvent;
  readonly idField: "messageId" | "toolCallId";
  readonly modes: { idMode: number; tagMode: number; nameMode: number };
  constructor(chunk: AgUiEvent, idField: Draft["idField"], modes: Draft["modes"]) {
    this.chunk = chunk;
    this.idField = idField;
    this.modes = modes;
  }
}

const modeArb = (rare: number) =>
  fc.oneof(
    { arbitrary: fc.constant(0), weight: 30 },
    { arbitrary: fc.constant(1), weight: 20 },
    { arbitrary: fc.constant(2), weight: rare },
  );
const modesArb = fc.record({ idMode: modeArb(1), tagMode: modeArb(2), nameMode: modeArb(1) });

const textChunkArb = fc
  .record({
    fields: fc.record({
      messageId: idArb,
      subagentRunId: tagArb,
      delta: deltaArb,
      role: rareArb(["assistant", "user", null]),
      name: rareArb(["n", null]),
      metadata: rareArb([{ k: 1 }, null]),
      rawEvent: rareArb([{ p: 1 }, null]),
      timestamp: rareArb([1]),
    }),
    extra: extraArb,
    modes: modesArb,
  })
  .map(
    ({ fields, extra, modes }) =>
      new Draft({ ...event("TEXT_MESSAGE_CHUNK", fields), ...extra }, "messageId", modes),
  );

const toolChunkArb = fc
  .record({
    fields: fc.record({
      toolCallId: idArb,
      toolCallName: fc.constantFrom("f", "f", "f", "g", null),
      parentMessageId: rareArb(["a", null]),
      subagentRunId: tagArb,
      delta: deltaArb,
      metadata: rareArb([{ k: 1 }]),
      rawEvent: rareArb([{ p: 1 }]),
    }),
    extra: extraArb,
    modes: modesArb,
  })
  .map(
    ({ fields, extra, modes }) =>
      new Draft({ ...event("TOOL_CALL_CHUNK", fields), ...extra }, "toolCallId", modes),
  );

const reasoningChunkArb = fc
  .record({
    fields: fc.record({
      messageId: idArb,
      subagentRunId: tagArb,
      delta: deltaArb,
      metadata: rareArb([{ k: 1 }]),
      rawEvent: rareArb([null]),
    }),
    extra: extraArb,
    modes: modesArb,
  })
  .map(
    ({ fields, extra, modes }) =>
      new Draft({ ...event("REASONING_MESSAGE_CHUNK", fields), ...extra }, "messageId", modes),
  );

const FIXED_FIELDS = ["subagentRunId", "role", "name", "toolCallName", "parentMessageId"];

/**
 * Turns drafts into chunks that mostly continue what came before them: a chunk that leaves
 * out its id follows a chunk of its type, and a later chunk of a stream mostly repeats the
 * tag and fields its first chunk set (or, right after it, leaves them out).
 */
function cohere(items: readonly (Draft | AgUiEvent)[]): AgUiEvent[] {
  const first = new Map<string, AgUiEvent>();
  /** The stream of the latest chunk, if nothing else came after it. */
  let latest: { type: string; key: string } | undefined;
  return items.map((item) => {
    if (!(item instanceof Draft)) {
      latest = undefined;
      return item;
    }
    const { idField } = item;
    const { idMode, tagMode, nameMode } = item.modes;
    // A copy: shrinking hands the same drafts in again. Spread keeps an own "__proto__".
    const chunk: AgUiEvent = { ...item.chunk };
    let key = JSON.stringify([chunk.type, chunk[idField]]);
    const follows = latest?.type === chunk.type;
    if (idMode === 2 || (idMode === 1 && follows)) {
      delete chunk[idField];
      if (follows && latest !== undefined) key = latest.key;
    }
    const opener = first.get(key);
    if (opener === undefined) {
      first.set(key, { ...chunk });
      if (nameMode === 2) delete chunk.toolCallName;
    } else {
      for (const field of FIXED_FIELDS) {
        if (field === "subagentRunId" ? tagMode === 2 : nameMode === 2) continue;
        if (nameMode === 1 && field !== "subagentRunId" && key === latest?.key) {
          delete chunk[field];
        } else if (field in opener) chunk[field] = opener[field];
        else delete chunk[field];
      }
    }
    latest = { type: String(chunk.type), key };
    return chunk;
  });
}

/** The types whose event ends its lane's chunk stream: all but those named here. */
const LANE_TYPES: string[] = Object.values(EventType).filter(
  (type) =>
    !/^(RUN_|SUBAGENT_|ACTIVITY_)|_CHUNK$/.test(type) &&
    !["MESSAGES_SNAPSHOT", "RAW", "REASONING_ENCRYPTED_VALUE"].includes(type),
);

const laneEventArb = fc
  .record({
    type: fc.constantFrom(...LANE_TYPES),
    messageId: fc.constantFrom("a", "b"),
    subagentRunId: often(ABSENT, ["s1", "s2", null, 5]),
  })
  .map(({ type, ...fields }) => event(type, fields));

const otherEventArb = fc.oneof(
  fc
    .constantFrom("RUN_STARTED", "RUN_FINISHED", "RUN_ERROR", "MESSAGES_SNAPSHOT")
    .map((type) => event(type, {})),
  fc
    .record({
      type: fc.constantFrom("SUBAGENT_STARTED", "SUBAGENT_FINISHED", "SUBAGENT_ERROR"),
      subagentRunId: fc.constantFrom(ABSENT, null, "s1", "s2", ""),
    })
    .map(({ type, ...fields }) => event(type, fields)),
  fc
    .record({
      type: fc.constantFrom(
        "RAW",
        "ACTIVITY_SNAPSHOT",
        "ACTIVITY_DELTA",
        "REASONING_ENCRYPTED_VALUE",
        "SOME_FUTURE_EVENT",
        "THINKING_TEXT_MESSAGE_CONTENT",
      ),
      subagentRunId: fc.constantFrom(ABSENT, "s1"),
    })
    .map(({ type, ...fields }) => event(type, fields)),
);

const sequenceArb: fc.Arbitrary<AgUiEvent[]> = fc
  .array(
    fc.oneof(
      { arbitrary: textChunkArb, weight: 5 },
      { arbitrary: toolChunkArb, weight: 4 },
      { arbitrary: reasoningChunkArb, weight: 3 },
      { arbitrary: laneEventArb, weight: 2 },
      { arbitrary: otherEventArb, weight: 2 },
    ),
    { maxLength: 30, size: "max" },
  )
  .map(cohere);

// ---------------------------------------------------------------------------------------
// Chunk-bearing valid runs for the property: a valid run of explicit events, with chunk
// streams woven in while the run is open, the way a producer using the shorthand would. Each
// stream gets an id no explicit event uses (so ownership and open sets cannot collide),
// in a lane whose tag is a string; a continuation leaves out its id only where it is
// unambiguous. A small model of the lanes (which events end which stream) tells the
// weaver what is still open.

const LANES: readonly (string | undefined)[] = [undefined, undefined, "s1", "s2", "", "__proto__"];
type Form = "text" | "tool" | "reasoning";
const CHUNK_TYPE: Readonly<Record<Form, string>> = {
  text: "TEXT_MESSAGE_CHUNK",
  tool: "TOOL_CALL_CHUNK",
  reasoning: "REASONING_MESSAGE_CHUNK",
};
const CHUNK_TYPES = new Set(Object.values(CHUNK_TYPE));
const ENDS_LANE = new Set(LANE_TYPES);
const ENDS_ALL = new Set(["RUN_STARTED", "RUN_FINISHED", "RUN_ERROR", "MESSAGES_SNAPSHOT"]);

function withChunks(run: readonly AgUiEvent[], xs: readonly number[]): AgUiEvent[] {
  let at = 0;
  const pick = (n: number): number => (xs[at++ % Math.max(xs.length, 1)] ?? 0) % n;
  const open = new Map<string | undefined, { form: Form; id: string; name: string }>();
  const openedBy = new Map<string | undefined, string[]>();
  let fresh = 0;
  const out: AgUiEvent[] = [];

  const chunkIn = (lane: string | undefined): void => {
    const current = open.get(lane);
    const tagged = (e: AgUiEvent, tag: boolean): AgUiEvent => {
      if (tag && lane !== undefined) e.subagentRunId = lane;
      return e;
    };
    if (current !== undefined && pick(3) > 0) {
      // Continue: with the id or without, tagged or not, wherever the lane is still found.
      const e = event(CHUNK_TYPE[current.form], { delta: pick(4) === 0 ? ABSENT : "d" });
      const sameForm = [...open.values()].filter((o) => o.form === current.form).length;
      const parentHolds = open.get(undefined)?.form === current.form;
      const untaggedFindsIt = lane === undefined || (!parentHolds && sameForm === 1);
      // 0: id and tag; 1: id alone (the id finds its lane); 2: tag alone; 3: neither.
      const how = pick(4);
      if (how <= 1) e[current.form === "tool" ? "toolCallId" : "messageId"] = current.id;
      if (current.form === "tool" && pick(3) === 0) e.toolCallName = current.name;
      if (pick(4) === 0) e.metadata = { usage: 1 };
      out.push(tagged(e, how === 0 || how === 2 || (how === 3 && !untaggedFindsIt)));
      return;
    }
    // Open a stream: a new id, or one this lane used before (a re-open by the same owner).
    const form = (["text", "tool", "reasoning"] as const)[pick(3)] ?? "text";
    const used = openedBy.get(lane) ?? [];
    const id = used.length > 0 && pick(4) === 0 ? (used[pick(used.length)] ?? "") : `k${fresh++}`;
    openedBy.set(lane, [...used, id]);
    const e = event(CHUNK_TYPE[form], { delta: pick(3) === 0 ? ABSENT : "d" });
    if (form === "tool") {
      e.toolCallId = id;
      e.toolCallName = "f";
      // A parent message this lane owns: one of its own chunk messages.
      const own = open.get(lane);
      if (own?.form === "text" && pick(2) === 0) e.parentMessageId = own.id;
    } else {
      e.messageId = id;
    }
    if (form === "text" && pick(3) === 0) e.role = "assistant";
    out.push(tagged(e, true));
    open.set(lane, { form, id, name: "f" });
    if (form === "tool" && pick(3) === 0) {
      // The tool's result, from the same lane: it ends the call first.
      out.push(
        tagged(
          { type: "TOOL_CALL_RESULT", toolCallId: id, messageId: `k${fresh++}`, content: "ok" },
          true,
        ),
      );
      open.delete(lane);
    }
  };

  // Chunks go only inside a run: before the first RUN_STARTED, and after a RUN_FINISHED or
  // RUN_ERROR (where a late RUN_ERROR, a new run or unknown types may follow), a chunk is
  // an event of a recognised type out of place (SPEC v4 rules 1 and 2).
  let running = false;
  // The run's own chunk events go: the generator's are checked only for their tag.
  for (const original of run.filter((e) => !CHUNK_TYPES.has(e.type))) {
    const type = original.type;
    if (running) {
      const n = pick(4);
      for (let k = 0; k < n; k++) chunkIn(LANES[pick(LANES.length)]);
    }
    out.push(original);
    if (type === "RUN_STARTED") running = true;
    else if (type === "RUN_FINISHED" || type === "RUN_ERROR") running = false;
    if (ENDS_ALL.has(type)) open.clear();
    else if (ENDS_LANE.has(type)) open.delete(laneOf(original.subagentRunId));
    else if (
      (type === "SUBAGENT_FINISHED" || type === "SUBAGENT_ERROR") &&
      original.subagentRunId != null
    ) {
      open.delete(laneOf(original.subagentRunId));
    }
  }
  return out;
}

function laneOf(tag: unknown): string | undefined {
  return typeof tag === "string" ? tag : undefined;
}

describe("runAgent(…, { expandChunks: true })", () => {
  const sse = (events: readonly unknown[]) =>
    new Response(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(""), {
      headers: { "content-type": "text/event-stream" },
    });
  const input = {
    threadId: "t1",
    runId: "r1",
    messages: [],
    tools: [],
    context: [],
    state: {},
    forwardedProps: {},
  };
  const RS = { type: "RUN_STARTED", threadId: "t1", runId: "r1" };
  const RF = { type: "RUN_FINISHED", threadId: "t1", runId: "r1" };
  const chunks = [
    RS,
    { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", role: "assistant", delta: "Hel" },
    { type: "TEXT_MESSAGE_CHUNK", delta: "lo" },
    RF,
  ];

  it("expands the chunks of a verified stream", async () => {
    const events = await runAgent("https://agent.example/run", input, {
      fetch: async () => sse(chunks),
      expandChunks: true,
    });
    const { values, errored } = await collect(events);
    expect(errored).toBe(false);
    expect(values.map((e) => e.type)).toEqual([
      "RUN_STARTED",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
      "RUN_FINISHED",
    ]);
    expect(values.filter((e) => e.type === "TEXT_MESSAGE_CONTENT").map((e) => e.delta)).toEqual([
      "Hel",
      "lo",
    ]);
  });

  it("verifies the raw stream, before expanding: a chunk opens nothing for the verifier", async () => {
    // Expanded, this would be a valid run; raw, the END closes a message no event opened.
    const raw = [...chunks.slice(0, 3), { type: "TEXT_MESSAGE_END", messageId: "m1" }, RF];
    const events = await runAgent("https://agent.example/run", input, {
      fetch: async () => sse(raw),
      expandChunks: true,
    });
    const { errored, error } = await collect(events);
    expect(errored).toBe(true);
    expect(isVerifyError(error) && { code: error.code, index: error.index }).toEqual({
      code: "TEXT_MESSAGE_NOT_OPEN",
      index: 3,
    });
  });

  it("bounds the open chunk streams by maxIds: a chunk tagged with one more subagent errors the stream", async () => {
    // The verifier lets chunks by without effect, tags included: the expander holds the bound.
    const tagged = (n: number) => [
      RS,
      ...Array.from({ length: n }, (_, i) => ({
        type: "TEXT_MESSAGE_CHUNK",
        messageId: `m${i}`,
        subagentRunId: `s${i}`,
        delta: "d",
      })),
    ];
    const run = async (n: number, maxIds: number) =>
      collect(
        await runAgent("https://agent.example/run", input, {
          fetch: async () => sse(tagged(n)),
          expandChunks: true,
          maxIds,
        }),
      );
    // Five lanes of an id and a tag each fit in ten; the stream then ends mid-run.
    const fits = await run(5, 10);
    expect(fits.values).toHaveLength(1 + 5 * 2);
    expect(fits.error).toMatchObject({ code: "STREAM_ENDED_BEFORE_RUN_CLOSED" });
    const over = await run(6, 10);
    expect(over.values).toHaveLength(1 + 5 * 2);
    expect(String(over.error)).toMatch(
      /TEXT_MESSAGE_CHUNK at index 6 opens text message "m5", but the open chunk streams would then hold more than 10 ids/,
    );
    expect(() => new ChunkExpanderStream({ maxIds: -1 })).toThrow(TypeError);
  });

  it("leaves chunks alone by default", async () => {
    const events = await runAgent("https://agent.example/run", input, {
      fetch: async () => sse(chunks),
    });
    const { values } = await collect(events);
    expect(values.map((e) => e.type)).toEqual(chunks.map((e) => e.type));
  });
});
