// The `schema` option of the Verifier and the stream stages (SPEC §14, §6 step 4b), with
// small hand-written Standard Schemas (test/support/schemas.ts), so each test controls what
// the schema says. The compile-time assertions (expectTypeOf) are checked by `tsc --noEmit`.

import { EventSchema } from "@ag-ui/core/schemas";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type AgUiEvent,
  type EventOf,
  Verifier,
  VerifyError,
  VerifyingTransformStream,
  verifiedEvents,
  verifyAll,
} from "../src/index.ts";
import { agUiSchema, type KnownAgUiEvent, type StandardSchemaV1 } from "../src/schema/index.ts";
import { checking, type Result, rejecting, roleSchema, schemaFrom } from "./support/schemas.ts";
import { ruleOfCode } from "./support/spec-tables.ts";
import { collect, fromChunks } from "./support/streams.ts";

const RS = { type: "RUN_STARTED", threadId: "t1", runId: "r1" };
const RF = { type: "RUN_FINISHED", threadId: "t1", runId: "r1" };
const TMS = (messageId: unknown, role: unknown = "assistant") => ({
  type: "TEXT_MESSAGE_START",
  messageId,
  role,
});
const TMC = (messageId: string) => ({ type: "TEXT_MESSAGE_CONTENT", messageId, delta: "hi" });
const TME = (messageId: string) => ({ type: "TEXT_MESSAGE_END", messageId });
const RAW_OK = { type: "RAW", event: {} };

function thrownBy(f: () => void): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("expected a throw");
}

function verifyError(f: () => void): VerifyError {
  const e = thrownBy(f);
  if (!(e instanceof VerifyError)) throw new Error(`expected a VerifyError, got ${String(e)}`);
  return e;
}

describe("order: shape, phase and field checks before the schema, the type's rules after", () => {
  const cases: [string, unknown[], string, number, string?][] = [
    ["a value that is not an object is rule 0's shape check", [RS, null], "EVENT_NOT_OBJECT", 1],
    ["an event before the run is rule 1", [TMS("m1", "robot")], "EVENT_BEFORE_RUN_STARTED", 0],
    ["a second RUN_STARTED is rule 1", [RS, { ...RS, role: "robot" }], "RUN_ALREADY_STARTED", 1],
    [
      "an event after the close is rule 2",
      [RS, RF, TMS("m1", "robot")],
      "EVENT_AFTER_RUN_CLOSED",
      2,
    ],
    ["a null field is rule 0", [RS, TMS(null, "robot")], "FIELD_NULL", 1, "messageId"],
    ["a wrong-typed field is rule 0", [RS, TMS(5, "robot")], "FIELD_WRONG_TYPE", 1, "messageId"],
    [
      "the schema comes before rule 3",
      [RS, { ...TMC("m1"), role: "robot" }],
      "SCHEMA_MISMATCH",
      1,
      "role",
    ],
    [
      "an unknown type reaches the schema",
      [RS, { type: "FUTURE", role: "robot" }],
      "SCHEMA_MISMATCH",
      1,
      "role",
    ],
  ];
  it.each(cases)("%s", (_name, events, code, index, field) => {
    const schema = roleSchema();
    const e = verifyError(() => verifyAll(events, { schema }));
    expect({ code: e.code, index: e.index, field: e.field, rule: e.rule }).toEqual({
      code,
      index,
      field,
      rule: ruleOfCode(code),
    });
  });

  it("never asks the schema about values the shape and phase checks reject", () => {
    const schema = schemaFrom((value) => ({ value }));
    // An unknown type passes every phase check (SPEC §6 step 3) and meets the schema, even
    // before the first run; the null after it is rule 0's shape check.
    const future = { type: "FUTURE" };
    verifyError(() => verifyAll([future, null, RS], { schema }));
    // SPEC v4 rule 1: in BEFORE_RUN anything but RUN_STARTED and RUN_ERROR, "This includes
    // `RAW`, `CUSTOM`", is rejected by the phase check, so the schema never sees it.
    verifyError(() => verifyAll([{ type: "CUSTOM" }, RS], { schema }));
    verifyError(() => verifyAll([TMS("m1")], { schema }));
    verifyError(() => verifyAll([RS, RF, TMS("m1")], { schema }));
    // After RUN_ERROR only RUN_STARTED passes the phase check: a second RUN_ERROR does not.
    const RE = { type: "RUN_ERROR", message: "boom" };
    verifyError(() => verifyAll([RS, RE, RE], { schema }));
    expect(schema.calls).toEqual([future, RS, RF, RS, RE]);
  });

  it("with protocol draft, the ids RUN_STARTED must carry are field checks, before the schema", () => {
    // SPEC §9.14: with protocol draft "`RUN_STARTED` and `RUN_FINISHED` read `threadId` and
    // `runId` (R strings, §3.2)", and §6 puts rule 0's field checks before the schema.
    const noThread = { type: "RUN_STARTED", runId: "r1" };
    const schema = rejecting({ message: "no", path: ["runId"] });
    const draft = verifyError(() => verifyAll([noThread], { schema, protocol: "draft" }));
    expect([draft.code, draft.field]).toEqual(["FIELD_MISSING", "threadId"]);
    const plain = verifyError(() => verifyAll([noThread], { schema }));
    expect([plain.code, plain.field]).toEqual(["SCHEMA_MISMATCH", "runId"]);
  });

  it("gives the schema the event itself, once", () => {
    const schema = roleSchema();
    const events = [RS, TMS("m1"), TMC("m1"), TME("m1"), RF];
    verifyAll(events, { schema });
    expect(schema.calls).toHaveLength(events.length);
    schema.calls.forEach((call, i) => {
      expect(call).toBe(events[i]);
    });
  });

  it("applies the type's rules to events the schema accepts", () => {
    const e = verifyError(() => verifyAll([RS, TMC("m1")], { schema: roleSchema() }));
    expect([e.code, e.index]).toEqual(["TEXT_MESSAGE_NOT_OPEN", 1]);
  });
});

describe("SCHEMA_MISMATCH", () => {
  it("is rule 0, at the event's index, with the first issue's path and message", () => {
    const schema = checking((e) =>
      e.type === "TEXT_MESSAGE_CONTENT"
        ? { message: "Expected string, received number", path: ["delta"] }
        : undefined,
    );
    const bad = { ...TMC("m1"), delta: 5 };
    const e = verifyError(() => verifyAll([RS, { type: "RAW" }, TMS("m1"), bad], { schema }));
    expect(e).toMatchObject({
      name: "VerifyError",
      code: "SCHEMA_MISMATCH",
      rule: 0,
      index: 3,
      field: "delta",
      eventType: "TEXT_MESSAGE_CONTENT",
    });
    expect(e.event).toBe(bad);
    expect(e.message).toMatch(/^TEXT_MESSAGE_CONTENT at index 3: /);
    expect(e.message).toContain("delta");
    expect(e.message).toContain("Expected string, received number");
    expect(e.message.endsWith("[SCHEMA_MISMATCH, rule 0]")).toBe(true);
  });

  it("reports the first issue of several", () => {
    const schema = schemaFrom(() => ({
      issues: [
        { message: "first", path: ["threadId"] },
        { message: "second", path: ["runId"] },
      ],
    }));
    const e = verifyError(() => verifyAll([RS], { schema }));
    expect(e.field).toBe("threadId");
    expect(e.message).toContain("first");
    expect(e.message).not.toContain("second");
  });

  it.each([
    [["input", "messages", 2, "role"], "input.messages[2].role"],
    [
      [{ key: "input" }, { key: "messages" }, { key: 2 }, { key: "role" }],
      "input.messages[2].role",
    ],
    [["outcome", "interrupts", 0], "outcome.interrupts[0]"],
    [["messages", 0, "toolCalls", 1, "function", "name"], "messages[0].toolCalls[1].function.name"],
    [[0], "[0]"],
    [["matrix", 1, 2], "matrix[1][2]"],
    [["type"], "type"],
  ])("names the path %j as %s (SPEC §4.1 notation)", (path, field) => {
    const e = verifyError(() => verifyAll([RS], { schema: rejecting({ message: "no", path }) }));
    expect(e.field).toBe(field);
    expect(e.message).toContain(field);
  });

  it("names a symbol key readably", () => {
    const path = ["input", Symbol("secret")];
    const e = verifyError(() => verifyAll([RS], { schema: rejecting({ message: "no", path }) }));
    expect(e.field).toBe("input.Symbol(secret)");
  });

  it.each([
    ["an empty path", { message: "not an event", path: [] }],
    ["no path", { message: "not an event" }],
  ])("has no field for %s, and names the event", (_name, issue) => {
    const e = verifyError(() => verifyAll([RS], { schema: rejecting(issue) }));
    expect(e.code).toBe("SCHEMA_MISMATCH");
    expect(e.field).toBeUndefined();
    expect(e.message).toMatch(/^RUN_STARTED at index 0: the event .*not an event/);
  });

  it("is reported for a failure without issues, too", () => {
    const e = verifyError(() => verifyAll([RS], { schema: schemaFrom(() => ({ issues: [] })) }));
    expect([e.code, e.field]).toEqual(["SCHEMA_MISMATCH", undefined]);
  });

  it("poisons the verifier like any VerifyError", () => {
    const v = new Verifier({ schema: rejecting({ message: "no" }) });
    const e = verifyError(() => v.verify(RS));
    expect(v.error).toBe(e);
    expect(thrownBy(() => v.verify(RS))).toBe(e);
    expect(thrownBy(() => v.end())).toBe(e);
  });
});

/** Sync for every event but those whose type is `type`, for which it does `odd`. */
function oddFor(type: string, odd: () => Result) {
  return schemaFrom((value) =>
    typeof value === "object" && value !== null && "type" in value && value.type === type
      ? odd()
      : { value },
  );
}

describe("a schema that validates asynchronously", () => {
  it("is a plain TypeError that says so; no state changes and the verifier goes on", () => {
    const schema = oddFor("TEXT_MESSAGE_START", () => Promise.resolve({ value: 1 }));
    const v = new Verifier({ schema });
    v.verify(RS);
    const e = thrownBy(() => v.verify(TMS("m1")));
    expect(e).toBeInstanceOf(TypeError);
    expect(e).not.toBeInstanceOf(VerifyError);
    expect(String(e)).toMatch(/synchronous/);
    expect(v.error).toBeUndefined();
    // The message did not open, and the refused event took no index.
    const next = verifyError(() => v.verify(TMC("m1")));
    expect([next.code, next.index]).toEqual(["TEXT_MESSAGE_NOT_OPEN", 1]);
  });

  it("leaves the phase alone when it refuses RUN_STARTED", () => {
    const schema = oddFor("RUN_STARTED", () => Promise.resolve({ value: 1 }));
    const v = new Verifier({ schema });
    v.verify({ type: "FUTURE" });
    expect(thrownBy(() => v.verify(RS))).toBeInstanceOf(TypeError);
    const e = verifyError(() => v.verify(RAW_OK));
    expect([e.code, e.index]).toEqual(["EVENT_BEFORE_RUN_STARTED", 1]);
  });

  it("does not leave a rejected promise unhandled", async () => {
    const schema = oddFor("RUN_STARTED", () => Promise.reject(new Error("async failure")));
    expect(thrownBy(() => new Verifier({ schema }).verify(RS))).toBeInstanceOf(TypeError);
    // An unhandled rejection would fail this test run; give it the turn to surface.
    await new Promise((resolve) => setTimeout(resolve, 0));
  });

  it("still reports rule 0's field checks first", () => {
    const schema = oddFor("TEXT_MESSAGE_START", () => Promise.resolve({ value: 1 }));
    const e = verifyError(() => verifyAll([RS, TMS(null)], { schema }));
    expect([e.code, e.field]).toEqual(["FIELD_NULL", "messageId"]);
  });
});

describe("a schema that throws", () => {
  it("lets the same exception through; no state changes and the verifier goes on", () => {
    const boom = new Error("schema bug");
    const schema = oddFor("TEXT_MESSAGE_START", () => {
      throw boom;
    });
    const v = new Verifier({ schema });
    v.verify(RS);
    expect(thrownBy(() => v.verify(TMS("m1")))).toBe(boom);
    expect(v.error).toBeUndefined();
    const next = verifyError(() => v.verify(TME("m1")));
    expect([next.code, next.index]).toEqual(["TEXT_MESSAGE_NOT_OPEN", 1]);
  });

  it("lets a thrown non-Error through too", () => {
    const schema = oddFor("RUN_STARTED", () => {
      throw "a string";
    });
    expect(thrownBy(() => verifyAll([RS], { schema }))).toBe("a string");
  });

  it("leaves a run that closed closed, with its state", () => {
    const boom = new Error("schema bug");
    let failing = false;
    const schema = schemaFrom((value) => {
      if (failing) throw boom;
      return { value };
    });
    const closed = () => {
      const v = new Verifier({ schema });
      failing = false;
      v.verify(RS);
      v.verify(RF);
      failing = true;
      expect(thrownBy(() => v.verify(RS))).toBe(boom);
      failing = false;
      return v;
    };
    // Still closed: end() accepts, and (SPEC rule 2) only RUN_STARTED or a late RUN_ERROR
    // may come; anything else is after the close, at the index the refused event did not take.
    closed().end();
    const e = verifyError(() => closed().verify(RAW_OK));
    expect([e.code, e.index]).toEqual(["EVENT_AFTER_RUN_CLOSED", 2]);
  });

  it("still reports rule 0's field checks first", () => {
    const schema = oddFor("TEXT_MESSAGE_START", () => {
      throw new Error("schema bug");
    });
    const e = verifyError(() => verifyAll([RS, TMS(5)], { schema }));
    expect([e.code, e.field]).toEqual(["FIELD_WRONG_TYPE", "messageId"]);
  });
});

describe("in-process events whose getters throw", () => {
  const hostile = () => ({
    type: "TEXT_MESSAGE_START",
    get messageId(): string {
      throw new Error("gone");
    },
  });

  it("are rule 0 at the field, as without a schema, when the schema trips on it", () => {
    const schema = checking((e) =>
      e.type !== "TEXT_MESSAGE_START" || typeof e.messageId === "string"
        ? undefined
        : { message: "no" },
    );
    const e = verifyError(() => verifyAll([RS, hostile()], { schema }));
    expect([e.code, e.field]).toEqual(["FIELD_WRONG_TYPE", "messageId"]);
    expect(e.cause).toBeInstanceOf(Error);
  });

  it("are rule 0 at the field when the schema does not read it", () => {
    const e = verifyError(() => verifyAll([RS, hostile()], { schema: roleSchema() }));
    expect([e.code, e.field]).toEqual(["FIELD_WRONG_TYPE", "messageId"]);
  });
});

describe("an event the schema rejects", () => {
  it("is reported before its own effects could apply (a START does not open)", () => {
    // A VerifyError poisons the verifier, so state after it cannot be read; a schema that
    // throws takes the same path up to the rule and shows the START had no effect.
    const schema = oddFor("TEXT_MESSAGE_START", () => {
      throw new Error("refused");
    });
    const v = new Verifier({ schema });
    v.verify(RS);
    thrownBy(() => v.verify(TMS("m1")));
    thrownBy(() => v.verify(TMS("m1")));
    const e = verifyError(() => v.verify(TME("m1")));
    expect(e.code).toBe("TEXT_MESSAGE_NOT_OPEN");
  });

  it("does not record an owner", () => {
    let refuse = true;
    const schema = schemaFrom((value) => {
      if (refuse) throw new Error("refused");
      return { value };
    });
    const v = new Verifier({ schema });
    refuse = false;
    v.verify(RS);
    refuse = true;
    thrownBy(() => v.verify({ ...TMS("m1"), subagentRunId: "s1" }));
    refuse = false;
    v.verify({ ...TMS("m1"), subagentRunId: "s2" });
    v.verify({ ...TME("m1"), subagentRunId: "s2" });
    v.verify(RF);
    v.end();
  });
});

describe("the schema option itself", () => {
  it("must be a Standard Schema: a TypeError when the verifier is made", () => {
    const notSchemas: unknown[] = [
      {},
      5,
      null,
      { "~standard": {} },
      { "~standard": { validate: 1 } },
    ];
    for (const schema of notSchemas) {
      // @ts-expect-error: not a Standard Schema
      expect(thrownBy(() => new Verifier({ schema }))).toBeInstanceOf(TypeError);
    }
  });

  it("is optional: undefined means none", () => {
    verifyAll([RS, RF], { schema: undefined });
  });

  it("works with agUiSchema", () => {
    verifyAll([RS, TMS("m1"), TMC("m1"), TME("m1"), RF], { schema: agUiSchema });
    const e = verifyError(() => verifyAll([RS, TMS("m1", "robot")], { schema: agUiSchema }));
    expect([e.code, e.index, e.field]).toEqual(["SCHEMA_MISMATCH", 1, "role"]);
  });

  it("works with @ag-ui/core's own zod EventSchema", () => {
    verifyAll([RS, TMS("m1"), TMC("m1"), TME("m1"), RF], { schema: EventSchema });
    const e = verifyError(() =>
      verifyAll([{ type: "RUN_STARTED", threadId: "t1" }], { schema: EventSchema }),
    );
    expect([e.code, e.index, e.field]).toEqual(["SCHEMA_MISMATCH", 0, "runId"]);
  });
});

function sse(events: readonly unknown[]): ReadableStream<Uint8Array> {
  const text = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("");
  return fromChunks([new TextEncoder().encode(text)]);
}

/** A schema whose output adds a field: what flows downstream must still be the input. */
const transforming = schemaFrom((value) => ({
  value: typeof value === "object" ? { ...value, transformed: true } : value,
}));

describe("downstream", () => {
  it("VerifyingTransformStream passes on the original objects, unchanged", async () => {
    const events = [RS, TMS("m1"), TME("m1"), RF];
    const { values: out, errored } = await collect(
      fromChunks(events).pipeThrough(new VerifyingTransformStream({ schema: transforming })),
    );
    expect(errored).toBe(false);
    expect(out).toHaveLength(events.length);
    out.forEach((e, i) => {
      expect(e).toBe(events[i]);
    });
    expect(events.some((e) => "transformed" in e)).toBe(false);
  });

  it("verifiedEvents passes on the decoded events, not the schema's output", async () => {
    const { values, errored } = await collect(
      verifiedEvents(sse([RS, RF]), { schema: transforming }),
    );
    expect(errored).toBe(false);
    expect(values).toEqual([RS, RF]);
  });

  it("VerifyingTransformStream errors with SCHEMA_MISMATCH after the events before it", async () => {
    const stream = fromChunks([RS, TMS("m1", "robot")]).pipeThrough(
      new VerifyingTransformStream({ schema: roleSchema() }),
    );
    const { values, errored, error } = await collect(stream);
    expect(values).toEqual([RS]);
    expect(errored).toBe(true);
    expect(error).toBeInstanceOf(VerifyError);
    expect(error).toMatchObject({ code: "SCHEMA_MISMATCH", index: 1, field: "role" });
  });
});

describe("types", () => {
  type Ping = { type: "PING"; n: number };
  const isPing = (v: unknown): v is Ping =>
    typeof v === "object" && v !== null && "type" in v && v.type === "PING";
  const ping: StandardSchemaV1<unknown, Ping> = {
    "~standard": {
      version: 1,
      vendor: "test",
      validate: (v) => (isPing(v) ? { value: v } : { issues: [{ message: "not a ping" }] }),
    },
  };

  it("EventOf: the schema's output with a schema, AgUiEvent without", () => {
    expectTypeOf<EventOf<{ schema: StandardSchemaV1<unknown, Ping> }>>().toEqualTypeOf<Ping>();
    expectTypeOf<EventOf<{ schema: typeof agUiSchema }>>().toEqualTypeOf<KnownAgUiEvent>();
    expectTypeOf<EventOf<{ protocol: "draft" }>>().toEqualTypeOf<AgUiEvent>();
    expectTypeOf<EventOf<undefined>>().toEqualTypeOf<AgUiEvent>();
    expectTypeOf<EventOf<{ schema?: typeof agUiSchema }>>().toEqualTypeOf<AgUiEvent>();
  });

  it("VerifyingTransformStream follows the schema", () => {
    expectTypeOf(new VerifyingTransformStream().readable).toEqualTypeOf<
      ReadableStream<AgUiEvent>
    >();
    expectTypeOf(new VerifyingTransformStream({ protocol: "draft" }).readable).toEqualTypeOf<
      ReadableStream<AgUiEvent>
    >();
    expectTypeOf(new VerifyingTransformStream({ schema: ping }).readable).toEqualTypeOf<
      ReadableStream<Ping>
    >();
    expectTypeOf(
      new VerifyingTransformStream({ schema: agUiSchema, maxIds: 10 }).readable,
    ).toEqualTypeOf<ReadableStream<KnownAgUiEvent>>();
    expectTypeOf(
      fromChunks([RS]).pipeThrough(new VerifyingTransformStream({ schema: agUiSchema })),
    ).toEqualTypeOf<ReadableStream<KnownAgUiEvent>>();
  });

  it("verifiedEvents follows the schema", () => {
    expectTypeOf(verifiedEvents(null)).toEqualTypeOf<ReadableStream<AgUiEvent>>();
    expectTypeOf(verifiedEvents(null, { maxBufferSize: 10 })).toEqualTypeOf<
      ReadableStream<AgUiEvent>
    >();
    expectTypeOf(verifiedEvents(null, { schema: ping, maxBufferSize: 10 })).toEqualTypeOf<
      ReadableStream<Ping>
    >();
    expectTypeOf(verifiedEvents(null, { schema: agUiSchema })).toEqualTypeOf<
      ReadableStream<KnownAgUiEvent>
    >();
  });

  it("a typed stream narrows on `type` without casts", async () => {
    const run = [RS, TMS("m1"), TMC("m1"), TME("m1"), RF];
    const { values } = await collect(verifiedEvents(sse(run), { schema: agUiSchema }));
    const deltas: string[] = [];
    for (const event of values) {
      if (event.type === "TEXT_MESSAGE_CONTENT") deltas.push(event.delta);
    }
    expect(deltas).toEqual(["hi"]);
  });

  it("a Verifier with a schema is still a Verifier", () => {
    const v: Verifier = new Verifier({ schema: agUiSchema });
    expectTypeOf(v).toEqualTypeOf<Verifier>();
  });

  it("the options accept any Standard Schema and nothing else", () => {
    expectTypeOf(verifyAll)
      .parameter(1)
      .toEqualTypeOf<import("../src/index.ts").VerifierOptions | undefined>();
    const notASchema = () =>
      // @ts-expect-error: a schema must be a Standard Schema
      verifiedEvents(null, { schema: { validate: () => true } });
    expect(thrownBy(notASchema)).toBeInstanceOf(TypeError);
    // @ts-expect-error: not an option
    new VerifyingTransformStream({ schemas: ping });
    // @ts-expect-error: gone from the types in SPEC version 4 (§2)
    new VerifyingTransformStream({ allowSequentialRuns: true });
  });
});
