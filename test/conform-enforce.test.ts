// Enforcement against AG-UI 1.1's JSON schema (SPEC §20.1 stage 2): the generated checks
// (src/conform/generated.ts, written by scripts/gen-conform.mjs from the vendored
// spec/ag-ui-1.1/schema.json) and the runtime that applies 1.1's rule, "Unrecognised
// material is not an error. A malformed known value is" (basic/processing).

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generate, OUTPUT, SCHEMA } from "../scripts/gen-conform.mjs";
import { Ctx, enforce, Mismatch, type Removed, STRIP } from "../src/conform/enforce.ts";
import { checkEvent } from "../src/conform/generated.ts";
import { ConformStream, runConformingAgent } from "../src/conform/index.ts";
import { EVENT_TYPES } from "../src/index.ts";
import { fromChunks } from "./support/streams.ts";

const run = (event: unknown) => enforce(event, checkEvent);

/** What enforcement removed from `event`: [code, pointer]. */
function removed(event: unknown): Array<[string, string]> {
  return (run(event).removed ?? []).map((r: Removed) => [r.code, r.pointer]);
}

function mismatch(event: unknown): Mismatch {
  try {
    run(event);
  } catch (thrown) {
    if (thrown instanceof Mismatch) return thrown;
    throw thrown;
  }
  throw new Error("no mismatch");
}

/** A deep copy, to show the input was not written to. */
const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v));

describe("the generated checks", () => {
  it("are what scripts/gen-conform.mjs writes from the vendored schema, which is unmodified", () => {
    expect(readFileSync(OUTPUT, "utf8")).toBe(generate());
    const sha = createHash("sha256").update(readFileSync(SCHEMA)).digest("hex");
    // spec/ag-ui-1.1/PROVENANCE.md names this digest.
    expect(sha).toBe("3b90b3fc78d262dfed3e4c2eb8cb1d380dabc3915cfeac57a7d870f248dc04f7");
  });

  it("name every event type of the schema's EventType", () => {
    const schema = JSON.parse(readFileSync(SCHEMA, "utf8"));
    // The library's own list is the schema's, and the generated checks know each type.
    expect([...EVENT_TYPES].sort()).toEqual([...schema.$defs.EventType.enum].sort());
    // (A bare `{ type }` lacks the required fields: a Mismatch, which a dropped type never is.)
    const known = (type: string) => {
      try {
        return checkEvent({ type }, type, new Ctx()) !== STRIP;
      } catch (thrown) {
        return thrown instanceof Mismatch;
      }
    };
    for (const type of EVENT_TYPES) expect(known(type), type).toBe(true);
    expect(known("FUTURE_EVENT")).toBe(false);
  });
});

const RS = { type: "RUN_STARTED", threadId: "t", runId: "r" };

describe('enforcement (processing: "Unrecognised material is not an error. A malformed known value is")', () => {
  it("delivers an event with nothing to strip as the same object", () => {
    const events = [
      RS,
      { type: "TEXT_MESSAGE_START", messageId: "m", role: "assistant", metadata: { a: null } },
      { type: "STATE_DELTA", delta: [{ op: "remove", path: "/a", value: "extra is kept" }] },
      { type: "RAW", event: { anything: [1, 2] } },
      {
        type: "MESSAGES_SNAPSHOT",
        messages: [{ id: "u", role: "user", content: [{ type: "text", text: "hi" }] }],
      },
    ];
    for (const e of events) {
      const r = run(e);
      expect(r.event).toBe(e);
      expect(r.removed).toBeUndefined();
    }
  });

  it("drops an event of a type 1.1 does not name (unknown-event-dropped)", () => {
    const r = run({ type: "FUTURE_EVENT", x: 1 });
    expect(r.event).toBeUndefined();
    expect(r.removed).toEqual([
      expect.objectContaining({ code: "UNKNOWN_EVENT_DROPPED", pointer: "" }),
    ]);
    expect(r.removed?.[0]?.why).toContain('"FUTURE_EVENT"');
  });

  it("strips a property a closed object does not describe, on a copy (unknown-property-stripped)", () => {
    const e = { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "d", futureProp: 1 };
    const before = copy(e);
    const r = run(e);
    expect(r.event).toEqual({ type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "d" });
    expect(r.event).not.toBe(e);
    expect(e).toEqual(before);
    expect(removed(e)).toEqual([["UNKNOWN_PROPERTY_STRIPPED", "/futureProp"]]);
  });

  it("strips an unrecognised member by position: an optional field, a list element, a required field's object", () => {
    // Optional position: the field goes (unknown-outcome-stripped, unknown-enum-value-role-fatal).
    expect(removed({ ...RS, type: "RUN_FINISHED", outcome: { type: "paused" } })).toEqual([
      ["UNKNOWN_MEMBER_STRIPPED", "/outcome"],
    ]);
    const role = { type: "TEXT_MESSAGE_START", messageId: "m", role: "narrator" };
    expect(run(role).event).toEqual({ type: "TEXT_MESSAGE_START", messageId: "m" });
    expect(run(role).removed?.[0]?.why).toBe('text message role "narrator" at /role');
    // A list element goes (unknown-part-in-message-list, state-delta-unknown-op-dropped).
    const parts = {
      type: "MESSAGES_SNAPSHOT",
      messages: [
        {
          id: "u",
          role: "user",
          content: [
            { type: "text", text: "before" },
            { type: "hologram", source: { type: "data", value: "AAAA", mimeType: "x/y" } },
            { type: "text", text: "after" },
          ],
        },
      ],
    };
    const before = copy(parts);
    expect(removed(parts)).toEqual([["UNKNOWN_MEMBER_STRIPPED", "/messages/0/content/1"]]);
    expect(run(parts).event).toEqual({
      type: "MESSAGES_SNAPSHOT",
      messages: [
        {
          id: "u",
          role: "user",
          content: [
            { type: "text", text: "before" },
            { type: "text", text: "after" },
          ],
        },
      ],
    });
    expect(parts).toEqual(before);
    const delta = {
      type: "STATE_DELTA",
      delta: [
        { op: "increment", path: "/count", value: 1 },
        { op: "replace", path: "/count", value: 5 },
      ],
    };
    expect(removed(delta)).toEqual([["UNKNOWN_MEMBER_STRIPPED", "/delta/0"]]);
    // A required position: the object holding it goes; here the part's source (required) is
    // unrecognised, so the part goes, and only the part is reported.
    const source = {
      type: "TOOL_CALL_RESULT",
      messageId: "t",
      toolCallId: "c",
      content: [{ type: "image", source: { type: "carrier-pigeon", value: "x" }, extra: 1 }],
    };
    expect(removed(source)).toEqual([["UNKNOWN_MEMBER_STRIPPED", "/content/0"]]);
  });

  it("drops an event whose own required member is unrecognised", () => {
    const r = run({
      type: "REASONING_ENCRYPTED_VALUE",
      subtype: "future",
      entityId: "x",
      encryptedValue: "v",
    });
    expect(r.event).toBeUndefined();
    expect(r.removed).toEqual([
      {
        code: "UNKNOWN_MEMBER_STRIPPED",
        pointer: "",
        why: 'reasoning encrypted value subtype "future" at /subtype',
      },
    ]);
  });

  it("never strips inside open objects: metadata, activity content, patch operations, state", () => {
    const events = [
      { type: "CUSTOM", name: "n", value: { deep: { x: 1 } }, metadata: { future: true } },
      { type: "ACTIVITY_SNAPSHOT", messageId: "a", activityType: "p", content: { any: [1] } },
      { type: "STATE_SNAPSHOT", snapshot: [1, "two", null] },
      {
        type: "ACTIVITY_DELTA",
        messageId: "a",
        activityType: "p",
        patch: [{ op: "test", path: "", value: null, why: 1 }],
      },
    ];
    for (const e of events) expect(removed(e), e.type).toEqual([]);
  });

  it("is a mismatch for a malformed known value: a missing field, a wrong type, a const", () => {
    expect(mismatch({ type: "TEXT_MESSAGE_CONTENT", messageId: "m" })).toMatchObject({
      field: "delta",
    });
    expect(
      mismatch({ ...RS, type: "RUN_FINISHED", outcome: [{ type: "interrupt" }] }),
    ).toMatchObject({
      field: "outcome",
    });
    expect(mismatch({ type: "TEXT_MESSAGE_CONTENT", messageId: 5, delta: "" }).text).toBe(
      "messageId is 5; expected a string (the 1.1 schema).",
    );
    // A const is a fixed value, not a set (reasoning-message-wrong-role-fatal).
    expect(
      mismatch({ type: "REASONING_MESSAGE_START", messageId: "r", role: "assistant" }),
    ).toMatchObject({
      field: "role",
    });
    // SUBAGENT_STARTED without its name (subagent-started-missing-name-fatal).
    expect(mismatch({ type: "SUBAGENT_STARTED", subagentRunId: "s" }).field).toBe("name");
    // An interrupt outcome with no interrupt (minItems 1).
    expect(
      mismatch({ ...RS, type: "RUN_FINISHED", outcome: { type: "interrupt", interrupts: [] } })
        .field,
    ).toBe("outcome.interrupts");
    expect(mismatch({ ...RS, timestamp: 1.5 }).field).toBe("timestamp");
    expect(
      mismatch({ type: "STATE_DELTA", delta: [{ op: "add", path: "no-slash", value: 1 }] }).field,
    ).toBe("delta[0].path");
  });

  it("passes values with no string type unchanged, for the verifier's rule 0", () => {
    for (const v of [null, 1, [], { type: 5 }, {}])
      expect(run(v)).toEqual({ event: v, removed: undefined });
  });
});

describe("ConformStream", () => {
  async function through(events: readonly unknown[], onWarning = (_: unknown) => {}) {
    const out: unknown[] = [];
    await fromChunks(events)
      .pipeThrough(new ConformStream({ onWarning }))
      .pipeTo(new WritableStream({ write: (e) => void out.push(e) }));
    return out;
  }

  it("copies no event from which nothing is stripped, and exactly the ones it strips", async () => {
    const events: Record<string, unknown>[] = [
      RS,
      { type: "TEXT_MESSAGE_START", messageId: "m", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "a" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "b", extra: 1 },
      { type: "TEXT_MESSAGE_END", messageId: "m" },
      { type: "RUN_FINISHED", threadId: "t", runId: "r" },
    ];
    const before = copy(events);
    const out = await through(events);
    expect(out).toHaveLength(events.length);
    const copies = out.filter((e, i) => e !== events[i]).length;
    expect(copies).toBe(1);
    expect(out[3]).toEqual({ type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "b" });
    expect(events).toEqual(before);
  });

  it("translates THINKING_* once-warned, and errors with SCHEMA_MISMATCH at the input's index", async () => {
    const warnings: unknown[] = [];
    const out = (await through(
      [RS, { type: "THINKING_START", title: "t" }, { type: "THINKING_END" }],
      (w) => warnings.push(w),
    )) as { type: string; messageId?: string }[];
    expect(out.map((e) => e.type)).toEqual(["RUN_STARTED", "REASONING_START", "REASONING_END"]);
    expect(out[1]?.messageId).toBe(out[2]?.messageId);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ code: "THINKING_TRANSLATED", index: 1 });
    const failed = through([RS, { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: 42 }]);
    await expect(failed).rejects.toMatchObject({
      code: "SCHEMA_MISMATCH",
      index: 1,
      field: "delta",
    });
  });
});

describe("runConformingAgent", () => {
  const input = {
    threadId: "t",
    runId: "r",
    messages: [],
    tools: [],
    context: [],
    state: {},
    forwardedProps: {},
  };
  const answer =
    (text: string, type = "text/event-stream") =>
    async (_request: Request) =>
      new Response(text, { headers: { "content-type": type } });

  it("POSTs the input and reads the answer with the whole 1.1 pipeline", async () => {
    const warnings: string[] = [];
    let sent: unknown;
    const body = [
      RS,
      { type: "FUTURE_EVENT" },
      { type: "TEXT_MESSAGE_CHUNK", messageId: "m", delta: "hi" },
      { type: "RUN_FINISHED", threadId: "t", runId: "r" },
    ]
      .map((e) => `data: ${JSON.stringify(e)}\n\n`)
      .join("");
    const events = await runConformingAgent("https://agent.test/run", input, {
      fetch: async (request) => {
        sent = await request.json();
        return answer(body)(request);
      },
      onWarning: (w) => warnings.push(w.code),
    });
    const types: string[] = [];
    for await (const event of events) types.push(event.type);
    expect(sent).toEqual(input);
    expect(types).toEqual([
      "RUN_STARTED",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
      "RUN_FINISHED",
    ]);
    expect(warnings).toEqual(["UNKNOWN_EVENT_DROPPED"]);
  });

  it("throws an HttpError for a response that is not an event stream", async () => {
    await expect(
      runConformingAgent("https://agent.test/run", input, {
        fetch: answer("{}", "application/json"),
      }),
    ).rejects.toMatchObject({ name: "HttpError" });
  });
});

describe("hostile values in the 1.1 pipeline", () => {
  it("turns a throwing getter or a revoked Proxy into SCHEMA_MISMATCH, never a raw TypeError", async () => {
    const getter = { ...RS };
    Object.defineProperty(getter, "runId", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    const { proxy, revoke } = Proxy.revocable({ type: "RUN_STARTED" }, {});
    revoke();
    for (const value of [getter, proxy]) {
      const out = fromChunks([value]).pipeThrough(new ConformStream());
      await expect(out.getReader().read()).rejects.toMatchObject({
        name: "VerifyError",
        code: "SCHEMA_MISMATCH",
        index: 0,
      });
    }
  });
});

describe("the chunk lanes are bounded (hostile producer)", () => {
  // A chunk tagged with a new subagent opens a new lane; without a verifier behind
  // ConformStream nothing else would stop a stream from opening lanes forever.
  function tagged(count: number, idLength = 1): Record<string, unknown>[] {
    const events: Record<string, unknown>[] = [RS];
    for (let i = 0; i < count; i++) {
      events.push({
        type: "TEXT_MESSAGE_CHUNK",
        messageId: `m${i}`.padEnd(idLength, "x"),
        subagentRunId: `s${i}`,
        delta: "d",
      });
    }
    return events;
  }
  async function drain(events: readonly unknown[], maxIds?: number) {
    const out: unknown[] = [];
    const options = maxIds === undefined ? {} : { maxIds };
    await fromChunks(events)
      .pipeThrough(new ConformStream(options))
      .pipeTo(new WritableStream({ write: (e) => void out.push(e) }));
    return out;
  }

  it("errors with ID_LIMIT_EXCEEDED at the chunk that would hold more than maxIds, after every earlier event", async () => {
    // Each open lane holds its message id and its tag: two ids per lane, so five lanes fit in ten.
    await expect(drain(tagged(5), 10)).resolves.toHaveLength(1 + 5 * 2);
    const out: unknown[] = [];
    const failed = fromChunks(tagged(6))
      .pipeThrough(new ConformStream({ maxIds: 10 }))
      .pipeTo(new WritableStream({ write: (e) => void out.push(e) }));
    await expect(failed).rejects.toMatchObject({
      name: "VerifyError",
      code: "ID_LIMIT_EXCEEDED",
      index: 6,
      field: "messageId",
    });
    expect(out).toHaveLength(1 + 5 * 2);
  });

  it("weighs a long id once per 64 characters, and frees a lane's weight when its stream ends", async () => {
    // One lane with a 640-character id weighs 10 + 1.
    await expect(drain(tagged(1, 640), 10)).rejects.toMatchObject({ code: "ID_LIMIT_EXCEEDED" });
    await expect(drain(tagged(1, 640), 11)).resolves.toHaveLength(3);
    // The parent's lane reopened a thousand times holds one stream at a time.
    const reopened: Record<string, unknown>[] = [RS];
    for (let i = 0; i < 1000; i++) {
      reopened.push({ type: "TEXT_MESSAGE_CHUNK", messageId: `m${i}`, delta: "d" });
    }
    await expect(drain(reopened, 1)).resolves.toHaveLength(1 + 1000 * 3 - 1);
    // RUN_FINISHED ends every lane: the next run starts from nothing held.
    const twoRuns = [
      ...tagged(5),
      { type: "RUN_FINISHED", threadId: "t", runId: "r" },
      ...tagged(5),
    ];
    // Run one: 1 + 5 × (start, content); RUN_FINISHED: 5 ends and itself; run two as run one.
    await expect(drain(twoRuns, 10)).resolves.toHaveLength(11 + 6 + 11);
  });

  it("rejects a maxIds that is not a bound, as the verifier does", () => {
    for (const maxIds of [-1, Number.NaN, "10" as unknown as number]) {
      expect(() => new ConformStream({ maxIds })).toThrow(/maxIds must be a number/);
    }
  });

  // 50,001 lanes opened: under a second idle, more on a busy machine; its own bound.
  it("defaults to the verifier's maxIds (100,000)", { timeout: 60_000 }, async () => {
    await expect(drain(tagged(50_001))).rejects.toMatchObject({
      code: "ID_LIMIT_EXCEEDED",
      index: 50_001,
    });
  });
});
