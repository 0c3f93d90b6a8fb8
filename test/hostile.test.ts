import { memoryUsage } from "node:process";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { conformingEvents } from "../src/conform/index.ts";
import {
  isVerifyError,
  Verifier,
  type VerifierOptions,
  VerifyError,
  verifyAll,
} from "../src/index.ts";
import { agUiSchema } from "../src/schema/index.ts";

/** Runs `events` through verifyAll and returns the VerifyError it throws (fails if none). */
function rejection(events: unknown[]): VerifyError {
  try {
    verifyAll(events);
  } catch (e) {
    if (e instanceof VerifyError) return e;
    throw new Error(`expected a VerifyError, got ${String(e)}`);
  }
  throw new Error("expected a VerifyError, but the events were accepted");
}

const RS = { type: "RUN_STARTED", threadId: "t", runId: "r" };
const RF = { type: "RUN_FINISHED", threadId: "t", runId: "r" };

describe("ids that are special to plain objects", () => {
  it.each(["__proto__", "constructor", "", "toString", "hasOwnProperty"])(
    "%j is an ordinary id in every registry",
    (id) => {
      verifyAll([
        RS,
        { type: "TEXT_MESSAGE_START", messageId: id, subagentRunId: id },
        { type: "TOOL_CALL_START", toolCallId: id, parentMessageId: id },
        { type: "TOOL_CALL_END", toolCallId: id, subagentRunId: id },
        { type: "TEXT_MESSAGE_END", messageId: id },
        { type: "STEP_STARTED", stepName: id, subagentRunId: id },
        { type: "STEP_FINISHED", stepName: id, subagentRunId: id },
        { type: "SUBAGENT_STARTED", subagentRunId: id },
        { type: "SUBAGENT_FINISHED", subagentRunId: id },
        RF,
      ]);
      const e = rejection([
        RS,
        { type: "TEXT_MESSAGE_START", messageId: id, subagentRunId: id },
        { type: "TEXT_MESSAGE_CONTENT", messageId: id, subagentRunId: `${id}x` },
      ]);
      expect([e.code, e.index]).toEqual(["OWNER_MISMATCH", 2]);
      expect(e.message).toContain(JSON.stringify(id));
    },
  );

  it("does not confuse __proto__ with an unrecorded id", () => {
    const e = rejection([RS, { type: "TEXT_MESSAGE_CONTENT", messageId: "__proto__" }]);
    expect(e.code).toBe("TEXT_MESSAGE_NOT_OPEN");
  });

  it("reads a JSON-parsed __proto__ key as a field, not as the prototype", () => {
    const e = JSON.parse('{"type":"TEXT_MESSAGE_START","__proto__":{"messageId":"m1"}}');
    expect(rejection([RS, e]).code).toBe("FIELD_MISSING");
  });
});

describe("huge inputs", () => {
  it("accepts a 1 MB id and keeps error messages short", () => {
    const id = "x".repeat(1024 * 1024);
    verifyAll([
      RS,
      { type: "TEXT_MESSAGE_START", messageId: id },
      { type: "TEXT_MESSAGE_END", messageId: id },
      RF,
    ]);
    const e = rejection([
      RS,
      { type: "TEXT_MESSAGE_START", messageId: id, subagentRunId: "s1" },
      { type: "TEXT_MESSAGE_END", messageId: id, subagentRunId: "s2" },
    ]);
    expect(e.code).toBe("OWNER_MISMATCH");
    expect(e.message.length).toBeLessThan(1000);
    expect(e.message).toContain(`text message "${"x".repeat(100)}"… is owned by`);
  });

  it("verifies a run with 1,000,000 distinct ids when maxIds allows it", () => {
    const n = 1_000_000;
    const unlimited = { maxIds: Number.POSITIVE_INFINITY };
    function* run() {
      yield RS;
      for (let i = 0; i < n; i++) {
        const id = `m${i}`;
        yield { type: "TEXT_MESSAGE_START", messageId: id };
        yield { type: "TEXT_MESSAGE_END", messageId: id };
      }
      yield RF;
    }
    verifyAll(run(), unlimited);
    // The owners outlive the messages: the last id is still known to be the parent's.
    const v = new Verifier(unlimited);
    for (const e of run()) if (e !== RF) v.verify(e);
    expect(() =>
      v.verify({ type: "TEXT_MESSAGE_START", messageId: `m${n - 1}`, subagentRunId: "s1" }),
    ).toThrow(/OWNER_MISMATCH/);
  }, 60_000);

  it("stops a run at the 100,001st id by default, with the limit and the option named", () => {
    const v = new Verifier();
    v.verify(RS);
    for (let i = 0; i < 100_000; i++) v.verify({ type: "TEXT_MESSAGE_START", messageId: `m${i}` });
    let error: unknown;
    try {
      v.verify({ type: "TOOL_CALL_START", toolCallId: "c" });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({
      code: "ID_LIMIT_EXCEEDED",
      rule: 0,
      index: 100_001,
      field: undefined,
    });
    expect((error as Error).message).toMatch(/100,000 ids.*maxIds.*\[ID_LIMIT_EXCEEDED, rule 0\]$/);
  });

  it("counts the ids of each run from zero: 10,000 runs of 10 ids pass maxIds 10 (§9.6)", () => {
    function* runs(count: number, ids: number) {
      for (let r = 0; r < count; r++) {
        yield RS;
        for (let i = 0; i < ids; i++) {
          // New ids in every run; ended messages keep their owners until the run ends.
          const id = `r${r}m${i}`;
          yield { type: "TEXT_MESSAGE_START", messageId: id };
          yield { type: "TEXT_MESSAGE_END", messageId: id };
        }
        yield r % 2 === 0 ? RF : { type: "RUN_ERROR" };
      }
    }
    verifyAll(runs(10_000, 10), { maxIds: 10 });
    // One id more in a run, the 3rd here, is too many for it.
    const events = [...runs(2, 10), ...runs(1, 11)];
    const e = rejectionWith(events, { maxIds: 10 });
    expect([e.code, e.index]).toEqual(["ID_LIMIT_EXCEEDED", 2 * 22 + 1 + 20]);
  });

  it.each([-1, Number.NaN, "10", {}])("rejects maxIds %s with a TypeError", (maxIds) => {
    expect(() => new Verifier({ maxIds: maxIds as number })).toThrow(TypeError);
  });
});

/** A real garbage collection, for heap samples; undefined where the runtime refuses one. */
function forcedGc(): (() => void) | undefined {
  try {
    setFlagsFromString("--expose-gc");
    const gc: unknown = runInNewContext("gc");
    return typeof gc === "function" ? () => gc() : undefined;
  } catch {
    return undefined;
  }
}

describe("retained memory at the default maxIds (SPEC §17.1)", () => {
  const MAX_IDS = 100_000;
  const BOUND = 32 * 1024 * 1024;
  const gc = forcedGc();
  /** The heap in use after two forced collections; undefined without a forced GC. */
  const heap = (): number | undefined => {
    if (gc === undefined) return undefined;
    gc();
    gc();
    return memoryUsage().heapUsed;
  };

  /**
   * The `i`-th id, of exactly `length` code units: a fresh flat string, as JSON.parse makes
   * them from a stream. Single characters are distinct within a kind (each kind is its own
   * namespace, §8.1); longer ids are distinct across kinds too.
   */
  function idOf(i: number, length: number): string {
    const text =
      length === 1
        ? String.fromCharCode(0x4e00 + Math.floor(i / 6)) // CJK: no surrogates
        : i.toString(36).padEnd(length, "~");
    return JSON.parse(JSON.stringify(text));
  }

  /** The event that makes the run hold its `i`-th new id: every kind of id, in turn. */
  function opener(i: number, length: number): Record<string, unknown> {
    const id = idOf(i, length);
    switch (i % 6) {
      case 0:
        return { type: "TEXT_MESSAGE_START", messageId: id };
      case 1:
        return { type: "TOOL_CALL_START", toolCallId: id };
      case 2:
        return { type: "REASONING_START", messageId: id };
      case 3:
        return { type: "ACTIVITY_SNAPSHOT", messageId: id, activityType: "a" };
      case 4:
        return { type: "SUBAGENT_STARTED", subagentRunId: id };
      default:
        return { type: "STEP_STARTED", stepName: id };
    }
  }

  it.each([1, 36, 64, 65, 1_000, 64 * 1024, 1024 * 1024])(
    "ids of %i characters: ID_LIMIT_EXCEEDED comes before the run holds 32 MiB",
    (length) => {
      // An id of up to 64 code units weighs 1, a longer one ceil(length / 64).
      const weight = length <= 64 ? 1 : Math.ceil(length / 64);
      const fit = Math.floor(MAX_IDS / weight);
      const before = heap();
      const v = new Verifier();
      v.verify(RS);
      for (let i = 0; i < fit; i++) v.verify(opener(i, length));
      const after = heap();
      let error: unknown;
      try {
        v.verify(opener(fit, length));
      } catch (e) {
        error = e;
      }
      expect(error).toMatchObject({ code: "ID_LIMIT_EXCEEDED", rule: 0, index: fit + 1 });
      expect(v.error).toBe(error);
      if (before !== undefined && after !== undefined) {
        // What the verifier holds (the events were dropped as they were verified).
        expect(after - before).toBeLessThan(BOUND);
      }
    },
    60_000,
  );

  // "a subagent id [is] kept for the rest of the run (owners outlive their entities, §8)":
  // a tag recorded as an owner is a subagent id the run holds, announced or not.
  it("holds a tag repeated on 200 openers once: one copy, weighed once", () => {
    const tag = "s".repeat(1024 * 1024); // weighs 16,384
    const before = heap();
    const v = new Verifier();
    v.verify(RS);
    for (let i = 0; i < 200; i++) {
      // A fresh copy per event, as JSON.parse makes them: 200 MiB if each were kept.
      const subagentRunId = JSON.parse(JSON.stringify(tag));
      v.verify({ type: "TEXT_MESSAGE_START", messageId: `m${i}`, subagentRunId });
    }
    const after = heap();
    if (before !== undefined && after !== undefined) expect(after - before).toBeLessThan(BOUND);
    // 200 message ids and one tag of 16,384: a run limited to 16,584 takes no more.
    const limited = new Verifier({ maxIds: 16_584 });
    limited.verify(RS);
    for (let i = 0; i < 200; i++) {
      limited.verify({ type: "TEXT_MESSAGE_START", messageId: `m${i}`, subagentRunId: tag });
    }
    expect(() => limited.verify({ type: "TEXT_MESSAGE_START", messageId: "one-more" })).toThrow(
      expect.objectContaining({ code: "ID_LIMIT_EXCEEDED", index: 201 }),
    );
  });

  it.each([
    ["TEXT_MESSAGE_START", { messageId: "x" }],
    ["TOOL_CALL_START", { toolCallId: "x", toolCallName: "f" }],
    ["REASONING_START", { messageId: "x" }],
    ["ACTIVITY_SNAPSHOT", { messageId: "x", activityType: "a", content: {} }],
    ["STEP_STARTED", { stepName: "x" }],
    ["TOOL_CALL_RESULT", { messageId: "x", toolCallId: "c", content: "" }],
    ["MESSAGES_SNAPSHOT", { messages: [{ id: "x", role: "user", content: "" }] }],
  ])("weighs a new tag on %s: distinct 64 KiB tags stop at maxIds", (type, fields) => {
    const v = new Verifier();
    v.verify(RS);
    let error: unknown;
    let sent = 0;
    try {
      // Each event records one id and a new tag of weight 1,024; 97 fit in 100,000.
      for (; sent < 200; sent++) {
        const subagentRunId = `${sent}`.padEnd(64 * 1024, "~");
        const event: Record<string, unknown> = JSON.parse(JSON.stringify({ type, ...fields }));
        if (typeof event.messageId === "string") event.messageId = `${event.messageId}${sent}`;
        if (typeof event.stepName === "string") event.stepName = `${event.stepName}${sent}`;
        if (typeof event.toolCallId === "string" && type === "TOOL_CALL_START") {
          event.toolCallId = `c${sent}`;
        }
        if (Array.isArray(event.messages)) {
          event.messages = [{ id: `x${sent}`, role: "user", content: "", subagentRunId }];
        } else event.subagentRunId = subagentRunId;
        v.verify(event);
      }
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: "ID_LIMIT_EXCEEDED", index: 98 });
    expect(sent).toBe(97);
  });
});

describe("values that are not event objects", () => {
  it.each([
    ["null", null],
    ["undefined", undefined],
    ["an array", [1, 2]],
    ["an empty array", []],
    ["a number", 42],
    ["a string", "RUN_STARTED"],
    ["a boolean", true],
    ["a bigint", 10n],
    ["a symbol", Symbol("e")],
    ["a function", () => ({ type: "RUN_STARTED" })],
  ])("%s is EVENT_NOT_OBJECT", (_name, value) => {
    const e = rejection([RS, value]);
    expect([e.code, e.rule, e.index, e.eventType]).toEqual(["EVENT_NOT_OBJECT", 0, 1, undefined]);
    expect(e.event).toBe(value);
    expect(e.message).toMatch(/^event at index 1: .* \[EVENT_NOT_OBJECT, rule 0\]$/);
  });

  it.each([
    ["an object", { name: "RUN_STARTED" }],
    ["null", null],
    ["a number", 1],
    ["an array", ["RUN_STARTED"]],
    ["a String object", new String("RUN_STARTED")],
  ])("a type that is %s is EVENT_TYPE_INVALID", (_name, type) => {
    const e = rejection([RS, { type }]);
    expect([e.code, e.index, e.eventType]).toEqual(["EVENT_TYPE_INVALID", 1, undefined]);
  });
});

describe("frozen objects", () => {
  function deepFreeze<T>(value: T): T {
    if (typeof value === "object" && value !== null) {
      for (const child of Object.values(value)) deepFreeze(child);
      Object.freeze(value);
    }
    return value;
  }

  it("are verified like any other event, and never mutated", () => {
    const events = deepFreeze([
      { type: "RUN_STARTED", input: { messages: [{ id: "m0", role: "user" }] } },
      {
        type: "MESSAGES_SNAPSHOT",
        messages: [{ id: "a", role: "assistant", toolCalls: [{ id: "c" }] }],
      },
      { type: "TEXT_MESSAGE_START", messageId: "m1" },
      { type: "TEXT_MESSAGE_END", messageId: "m1" },
      {
        type: "RUN_FINISHED",
        outcome: { type: "interrupt", interrupts: [{ id: "i", reason: "r" }] },
      },
    ]);
    const before = JSON.stringify(events);
    verifyAll(events);
    expect(JSON.stringify(events)).toBe(before);
  });
});

describe("objects that throw when read (decision: reported as rule 0, with the cause)", () => {
  const boom = new Error("boom");

  it("a throwing `type` getter is EVENT_TYPE_INVALID", () => {
    const event = {
      get type(): string {
        throw boom;
      },
    };
    const e = rejection([RS, event]);
    expect([e.code, e.index]).toEqual(["EVENT_TYPE_INVALID", 1]);
    expect(e.cause).toBe(boom);
  });

  it("a throwing field getter is FIELD_WRONG_TYPE at that field", () => {
    const event = {
      type: "TEXT_MESSAGE_START",
      get messageId(): string {
        throw boom;
      },
    };
    const e = rejection([RS, event]);
    expect([e.code, e.field, e.eventType]).toEqual([
      "FIELD_WRONG_TYPE",
      "messageId",
      "TEXT_MESSAGE_START",
    ]);
    expect(e.cause).toBe(boom);
  });

  it("a throwing tag getter is FIELD_WRONG_TYPE at subagentRunId", () => {
    const event = {
      type: "STATE_DELTA",
      get subagentRunId(): string {
        throw boom;
      },
    };
    const e = rejection([RS, event]);
    expect([e.code, e.field, e.cause]).toEqual(["FIELD_WRONG_TYPE", "subagentRunId", boom]);
  });

  it("a throwing nested getter is reported at its top-level field", () => {
    const message = {
      role: "user",
      get id(): string {
        throw boom;
      },
    };
    const e = rejection([{ type: "RUN_STARTED", input: { messages: [message] } }]);
    expect([e.code, e.field, e.index, e.cause]).toEqual(["FIELD_WRONG_TYPE", "input", 0, boom]);
  });

  it("a Proxy whose traps throw is EVENT_TYPE_INVALID", () => {
    const event = new Proxy(
      {},
      {
        get() {
          throw boom;
        },
      },
    );
    expect(rejection([RS, event]).code).toBe("EVENT_TYPE_INVALID");
  });

  it("a revoked Proxy is EVENT_NOT_OBJECT", () => {
    const { proxy, revoke } = Proxy.revocable({ type: "RUN_STARTED" }, {});
    revoke();
    expect(rejection([RS, proxy]).code).toBe("EVENT_NOT_OBJECT");
    const nested = Proxy.revocable([], {});
    nested.revoke();
    const e = rejection([RS, { type: "MESSAGES_SNAPSHOT", messages: nested.proxy }]);
    expect([e.code, e.field]).toEqual(["FIELD_WRONG_TYPE", "messages"]);
  });

  it("a cause that cannot be printed still gives a message", () => {
    const unprintable = {
      toString(): string {
        throw new Error("no");
      },
    };
    const event = {
      type: "STEP_STARTED",
      get stepName(): string {
        throw unprintable;
      },
    };
    const e = rejection([RS, event]);
    expect(e.code).toBe("FIELD_WRONG_TYPE");
    expect(e.message).toContain("stepName");
  });

  it("getters that succeed are read like data properties", () => {
    const event = {
      get type(): string {
        return "TEXT_MESSAGE_START";
      },
      get messageId(): string {
        return "m1";
      },
    };
    verifyAll([RS, event, { type: "TEXT_MESSAGE_END", messageId: "m1" }, RF]);
  });
});

describe("isVerifyError", () => {
  it("recognises VerifyErrors and nothing else", () => {
    expect(isVerifyError(rejection([RS]))).toBe(true);
    expect(isVerifyError(new Error("x"))).toBe(false);
    expect(isVerifyError({ name: "VerifyError", code: "OWNER_MISMATCH" })).toBe(false);
    expect(isVerifyError(null)).toBe(false);
    expect(isVerifyError("VerifyError")).toBe(false);
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(isVerifyError(proxy)).toBe(false);
  });
});

/** Verifies `events` with `options` and returns the VerifyError (fails if none). */
function rejectionWith(events: Iterable<unknown>, options: VerifierOptions): VerifyError {
  try {
    verifyAll(events, options);
  } catch (e) {
    if (e instanceof VerifyError) return e;
    throw e;
  }
  throw new Error("expected a VerifyError, but the events were accepted");
}

const UNLIMITED: VerifierOptions = { maxIds: Number.POSITIVE_INFINITY };

describe("bounded messages (SPEC §10.3, §17.2)", () => {
  it("names 5 of 200,000 open entities, then how many more, in a short message", () => {
    function* run() {
      yield RS;
      for (let i = 0; i < 100_000; i++) yield { type: "TEXT_MESSAGE_START", messageId: `m${i}` };
      for (let i = 0; i < 100_000; i++) yield { type: "STEP_STARTED", stepName: `s${i}` };
    }
    const atEnd = rejectionWith(run(), UNLIMITED);
    expect(atEnd.code).toBe("STREAM_ENDED_BEFORE_RUN_CLOSED");
    expect(atEnd.message).toContain(
      'text message "m0" of the parent agent, text message "m1" of the parent agent, text message "m2" of the parent agent, text message "m3" of the parent agent, text message "m4" of the parent agent and 199,995 more',
    );
    expect(atEnd.message.length).toBeLessThan(500);
    const atFinish = rejectionWith([...run(), RF], UNLIMITED);
    expect(atFinish.code).toBe("OPEN_AT_RUN_FINISHED");
    expect(atFinish.message).toContain("and 199,995 more still open");
  });

  it("names 5 of 50,000 active subagents at RUN_FINISHED", () => {
    const events: unknown[] = [RS];
    for (let i = 0; i < 50_000; i++)
      events.push({ type: "SUBAGENT_STARTED", subagentRunId: `a${i}` });
    const e = rejectionWith([...events, RF], UNLIMITED);
    expect(e.code).toBe("SUBAGENT_OPEN_AT_RUN_FINISHED");
    expect(e.message).toContain('subagent "a4" and 49,995 more still open');
    expect(e.message.length).toBeLessThan(400);
  });

  it("names 5 of the owners a step is open under", () => {
    const events: unknown[] = [RS];
    for (let i = 0; i < 1_000; i++) {
      events.push({ type: "STEP_STARTED", stepName: "plan", subagentRunId: `a${i}` });
    }
    events.push({ type: "STEP_FINISHED", stepName: "plan" });
    const e = rejectionWith(events, UNLIMITED);
    expect(e.code).toBe("STEP_OWNER_MISMATCH");
    expect(e.message).toContain('subagent "a4" and 995 more, not the parent agent');
  });

  it("cuts a long type, and a long message and field, keeping the code at the end", () => {
    const type = `T${"\u001b[2J".repeat(100_000)}`;
    // An unknown type passes every phase (§9.2), even after the close: a schema that wants
    // none of it rejects it, and the message starts with the type, cut.
    verifyAll([RS, RF, { type }]);
    const refuse = {
      "~standard": {
        version: 1 as const,
        vendor: "test",
        validate: (value: unknown) =>
          (value as { type?: unknown }).type === "RUN_STARTED"
            ? { value }
            : { issues: [{ message: "not this one" }] },
      },
    };
    const closed = rejectionWith([RS, { type }], { schema: refuse });
    expect(closed.code).toBe("SCHEMA_MISMATCH");
    expect(closed.message.startsWith(`${JSON.stringify(type.slice(0, 100))}… at index 1:`)).toBe(
      true,
    );
    const path = Array.from({ length: 300_000 }, (_, i) => `k${i}`);
    const schema = {
      "~standard": {
        version: 1 as const,
        vendor: "test",
        validate: () => ({ issues: [{ message: "x".repeat(3_000_000), path }] }),
      },
    };
    const e = rejectionWith([RS], { schema });
    expect(e.code).toBe("SCHEMA_MISMATCH");
    expect(e.message.length).toBeLessThanOrEqual(2_000);
    expect(e.message.endsWith("… [SCHEMA_MISMATCH, rule 0]")).toBe(true);
    expect(e.field?.length).toBe(200);
    expect(e.field?.startsWith("k0.k1.k2")).toBe(true);
    expect(e.field?.endsWith("…")).toBe(true);
  });

  it.each([
    ["message_id", { type: "TEXT_MESSAGE_START", message_id: "m1" }, "messageId"],
    ["MessageId", { type: "TEXT_MESSAGE_START", MessageId: "m1" }, "messageId"],
    ["tool-call-id", { type: "TOOL_CALL_START", "tool-call-id": "c1" }, "toolCallId"],
  ])("names the near miss %s for a missing field", (key, event, field) => {
    const e = rejection([RS, event]);
    expect({ code: e.code, field: e.field }).toEqual({ code: "FIELD_MISSING", field });
    expect(e.message).toContain(
      `${field} is missing (the event has ${JSON.stringify(key)}); expected a string.`,
    );
  });

  it("names a near miss inside a snapshot's message, and none where there is none", () => {
    const e = rejection([
      RS,
      { type: "MESSAGES_SNAPSHOT", messages: [{ ID: "m1", role: "user" }] },
    ]);
    expect(e.message).toContain('messages[0].id is missing (the event has "ID")');
    const plain = rejection([RS, { type: "TEXT_MESSAGE_START", id: "m1" }]);
    expect(plain.message).toContain("messageId is missing; expected a string.");
  });

  it("names the near miss in SCHEMA_MISMATCH messages too (issue 27 row 11), never for a field that is there", async () => {
    const schemaOnly = [RS, { type: "TOOL_CALL_START", toolCallId: "c", tool_call_name: "f" }];
    const e = rejectionWith(schemaOnly, { schema: agUiSchema });
    expect({ code: e.code, field: e.field }).toEqual({
      code: "SCHEMA_MISMATCH",
      field: "toolCallName",
    });
    expect(e.message).toContain('(expected string, got undefined; the event has "tool_call_name")');
    // A wrong value under the right name gets no hint, though a near miss is there too.
    const both = [
      RS,
      { type: "TOOL_CALL_START", toolCallId: "c", toolCallName: 7, tool_call_name: "f" },
    ];
    expect(rejectionWith(both, { schema: agUiSchema }).message).not.toContain("the event has");
    // The 1.1 pipeline's enforcement says it the same way.
    const body = new Response(schemaOnly.map((x) => `data: ${JSON.stringify(x)}\n\n`).join(""), {
      headers: { "content-type": "text/event-stream" },
    });
    const reader = conformingEvents(body).getReader();
    const error = await (async () => {
      try {
        for (let r = await reader.read(); !r.done; r = await reader.read());
      } catch (thrown) {
        return thrown as Error;
      }
      return undefined;
    })();
    expect(error?.message).toContain('toolCallName is missing (the event has "tool_call_name")');
  });

  it("reads no near miss through a throwing Proxy", () => {
    const event = new Proxy(
      { type: "TEXT_MESSAGE_START" },
      {
        ownKeys() {
          throw new Error("no keys");
        },
      },
    );
    const e = rejection([RS, event]);
    expect(e.code).toBe("FIELD_MISSING");
    expect(e.message).toContain("messageId is missing; expected a string.");
  });
});
