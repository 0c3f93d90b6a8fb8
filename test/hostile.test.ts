import { describe, expect, it } from "vitest";
import { isVerifyError, Verifier, VerifyError, verifyAll } from "../src/index.ts";

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
    expect(e.message).toContain("(1048576 characters)");
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

  it.each([-1, Number.NaN, "10", {}])("rejects maxIds %s with a TypeError", (maxIds) => {
    expect(() => new Verifier({ maxIds: maxIds as number })).toThrow(TypeError);
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
