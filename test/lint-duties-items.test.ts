// The producer duties of AG-UI 1.1 about items and the run's request (SPEC §18.5), through
// `lint()`: CHUNK_TRIAD_MIXED, ENCRYPTED_VALUE_UNKNOWN_ENTITY, what a 1.1 client drops or
// strips (UNKNOWN_EVENT_DROPPED, UNKNOWN_PROPERTY_STRIPPED, UNKNOWN_MEMBER_STRIPPED, from the
// schema tables of ag-ui-verify/conform), and the request checks
// (FRONTEND_TOOL_ANSWERED, REQUESTED_RUN_ID_MISMATCH, STATE_DELTA_WRONG_BASELINE,
// THREAD_ID_MISMATCH against the request's threadId). For each code, streams that break
// the duty in different ways and near misses that keep it, all valid under SPEC v4; the
// message of one finding each; the override to error. The command's side (a HAR entry's
// request body) is in test/runtimes/cli-har-request.test.ts.

import { describe, expect, it } from "vitest";
import type { RunAgentInput } from "../src/index.ts";
import { type LintOptions, lint } from "../src/lint/index.ts";
import { type Ev, first, found, RF, RS } from "./support/lint-duties.ts";

const textStart = (id: string, tag?: string): Ev => ({
  type: "TEXT_MESSAGE_START",
  messageId: id,
  role: "assistant",
  ...(tag === undefined ? {} : { subagentRunId: tag }),
});
const textEnd = (id: string): Ev => ({ type: "TEXT_MESSAGE_END", messageId: id });
const textChunk = (id: string, tag?: string): Ev => ({
  type: "TEXT_MESSAGE_CHUNK",
  messageId: id,
  delta: "x",
  ...(tag === undefined ? {} : { subagentRunId: tag }),
});
const callChunk = (id: string, name = "f"): Ev => ({
  type: "TOOL_CALL_CHUNK",
  toolCallId: id,
  toolCallName: name,
  delta: "{}",
});
const callStart = (id: string, name = "f"): Ev => ({
  type: "TOOL_CALL_START",
  toolCallId: id,
  toolCallName: name,
});
const callEnd = (id: string): Ev => ({ type: "TOOL_CALL_END", toolCallId: id });
const result = (id: string, messageId = `m-${id}`): Ev => ({
  type: "TOOL_CALL_RESULT",
  toolCallId: id,
  messageId,
  content: "ok",
});

describe('CHUNK_TRIAD_MIXED (streaming: mixing the forms within one item is "a malformed sequence a producer MUST NOT emit")', () => {
  it("is given for a chunk continuing an item a start opened", () => {
    expect(
      found("CHUNK_TRIAD_MIXED", [RS(), textStart("m"), textChunk("m"), textEnd("m"), RF()]),
    ).toEqual([[2, "messageId"]]);
    expect(
      found("CHUNK_TRIAD_MIXED", [RS(), callStart("c"), callChunk("c"), callEnd("c"), RF()]),
    ).toEqual([[2, "toolCallId"]]);
    expect(
      first("CHUNK_TRIAD_MIXED", [RS(), textStart("m"), textChunk("m"), textEnd("m"), RF()])
        ?.message,
    ).toBe(
      'TEXT_MESSAGE_CHUNK at index 2: a chunk continues text message "m", which a start opened and is still open; 1.1 calls mixing the chunk and explicit forms within one item "a malformed sequence a producer MUST NOT emit" (basic/patterns/streaming), and a client that expands chunks ends the item early or opens it twice. [CHUNK_TRIAD_MIXED, warning]',
    );
  });

  it("is given for an explicit start of an item a chunk stream is still assembling", () => {
    // RAW and the activity events close no chunk stream (streaming: "Closing a chunk stream").
    expect(
      found("CHUNK_TRIAD_MIXED", [
        RS(),
        textChunk("m"),
        { type: "RAW", event: {} },
        { type: "ACTIVITY_SNAPSHOT", messageId: "a", activityType: "x", content: {} },
        textStart("m"),
        textEnd("m"),
        RF(),
      ]),
    ).toEqual([[4, "messageId"]]);
    expect(
      found("CHUNK_TRIAD_MIXED", [
        RS(),
        { type: "REASONING_MESSAGE_CHUNK", messageId: "r", delta: "x" },
        { type: "REASONING_MESSAGE_START", messageId: "r", role: "reasoning" },
        { type: "REASONING_MESSAGE_END", messageId: "r" },
        RF(),
      ]),
    ).toEqual([[2, "messageId"]]);
    expect(
      first("CHUNK_TRIAD_MIXED", [RS(), callChunk("c"), callStart("c"), callEnd("c"), RF()])
        ?.message,
    ).toMatch(
      /^TOOL_CALL_START at index 2: an explicit event continues tool call "c", which a chunk opened and is still open; /,
    );
  });

  it("is not given for an id closed and re-opened in the other form", () => {
    // Explicit, closed, then chunks.
    expect(
      found("CHUNK_TRIAD_MIXED", [RS(), textStart("m"), textEnd("m"), textChunk("m"), RF()]),
    ).toEqual([]);
    // A chunk stream closed by a step, a custom event, another chunk, a tool-call event…
    for (const closer of [
      { type: "STEP_STARTED", stepName: "s" },
      { type: "CUSTOM", name: "n", value: 1 },
      textChunk("other"),
      { type: "STATE_SNAPSHOT", snapshot: {} },
    ]) {
      const stream = [RS(), textChunk("m"), closer, textStart("m"), textEnd("m")];
      if (closer.type === "STEP_STARTED") stream.push({ type: "STEP_FINISHED", stepName: "s" });
      stream.push(RF());
      expect(found("CHUNK_TRIAD_MIXED", stream), closer.type).toEqual([]);
    }
    // A chunk stream of the previous run (RUN_FINISHED closes every lane; the duty is per run).
    expect(
      found("CHUNK_TRIAD_MIXED", [
        RS(),
        callChunk("c"),
        result("c"),
        RF({ outcome: { type: "success" } }),
        RS({ runId: "r2" }),
        callStart("c"),
        callEnd("c"),
        RF({ runId: "r2" }),
      ]),
    ).toEqual([]);
  });

  it("is not given for chunks alone, nor after the subagent whose lane held them terminated", () => {
    expect(
      found("CHUNK_TRIAD_MIXED", [
        RS(),
        textChunk("m"),
        textChunk("m"),
        { type: "TEXT_MESSAGE_CHUNK", delta: "no id continues" },
        RF(),
      ]),
    ).toEqual([]);
    expect(
      found("CHUNK_TRIAD_MIXED", [
        RS(),
        { type: "SUBAGENT_STARTED", subagentRunId: "s1", name: "helper" },
        textChunk("m", "s1"),
        { type: "SUBAGENT_FINISHED", subagentRunId: "s1" },
        textStart("m"),
        textEnd("m"),
        RF(),
      ]),
    ).toEqual([]);
  });
});

const encrypted = (subtype: string, entityId: string): Ev => ({
  type: "REASONING_ENCRYPTED_VALUE",
  subtype,
  entityId,
  encryptedValue: "b3BhcXVl",
});

describe('ENCRYPTED_VALUE_UNKNOWN_ENTITY (reasoning: an entityId naming nothing the consumer knows, a consumer "SHOULD warn")', () => {
  it("is given for an entity id the stream never named (the official fixture's case)", () => {
    // 1.1's encrypted-value-unknown-entity-tolerated: delivered, never fatal.
    const stream = [
      RS({ protocolVersion: "1.1" }),
      textStart("m1"),
      textEnd("m1"),
      encrypted("message", "absent"),
      RF(),
    ];
    expect(found("ENCRYPTED_VALUE_UNKNOWN_ENTITY", stream)).toEqual([[3, "entityId"]]);
    expect(first("ENCRYPTED_VALUE_UNKNOWN_ENTITY", stream)?.message).toBe(
      'REASONING_ENCRYPTED_VALUE at index 3: entityId "absent" (subtype "message") names no message the stream or its input holds; 1.1 says an encrypted value whose entityId "names nothing the consumer knows cannot be stored where it belongs" and a consumer "SHOULD warn and MAY drop it" (events/reasoning), so the value never returns to the producer. [ENCRYPTED_VALUE_UNKNOWN_ENTITY, warning]',
    );
    // A reasoning span is no message ("a fragment naming a span's messageId is orphaned").
    expect(
      found("ENCRYPTED_VALUE_UNKNOWN_ENTITY", [
        RS(),
        { type: "REASONING_START", messageId: "span" },
        encrypted("message", "span"),
        { type: "REASONING_END", messageId: "span" },
        RF(),
      ]),
    ).toEqual([[2, "entityId"]]);
  });

  it("is given for an activity, and for the other kind than subtype says", () => {
    expect(
      found("ENCRYPTED_VALUE_UNKNOWN_ENTITY", [
        RS(),
        { type: "ACTIVITY_SNAPSHOT", messageId: "a1", activityType: "plan", content: {} },
        encrypted("message", "a1"),
        RF(),
      ]),
    ).toEqual([[2, "entityId"]]);
    const kinds = [
      RS(),
      textStart("m1"),
      textEnd("m1"),
      callStart("c1"),
      callEnd("c1"),
      result("c1"),
      encrypted("tool-call", "m1"),
      encrypted("message", "c1"),
      RF(),
    ];
    expect(found("ENCRYPTED_VALUE_UNKNOWN_ENTITY", kinds)).toEqual([
      [6, "entityId"],
      [7, "entityId"],
    ]);
    expect(lint(kinds).findings.map((f) => f.message.match(/names ([^;]*);/)?.[1])).toContain(
      "a message, not a tool call",
    );
  });

  it("is not given for entities of an earlier run, a snapshot, the input echo or chunks", () => {
    expect(
      found("ENCRYPTED_VALUE_UNKNOWN_ENTITY", [
        RS(),
        textStart("m1"),
        textEnd("m1"),
        RF(),
        RS({ runId: "r2" }),
        encrypted("message", "m1"),
        RF({ runId: "r2" }),
      ]),
    ).toEqual([]);
    expect(
      found("ENCRYPTED_VALUE_UNKNOWN_ENTITY", [
        RS({
          input: {
            threadId: "t1",
            runId: "r1",
            messages: [
              {
                id: "a0",
                role: "assistant",
                toolCalls: [
                  { id: "c0", type: "function", function: { name: "f", arguments: "{}" } },
                ],
              },
            ],
          },
        }),
        {
          type: "MESSAGES_SNAPSHOT",
          messages: [
            {
              id: "a9",
              role: "assistant",
              toolCalls: [{ id: "c9", type: "function", function: { name: "f", arguments: "{}" } }],
            },
          ],
        },
        encrypted("message", "a0"),
        encrypted("tool-call", "c0"),
        encrypted("message", "a9"),
        encrypted("tool-call", "c9"),
        RF(),
      ]),
    ).toEqual([]);
  });

  it("is not given for chunked entities, a tool message, or a subtype 1.1 does not name", () => {
    expect(
      found("ENCRYPTED_VALUE_UNKNOWN_ENTITY", [
        RS(),
        { type: "REASONING_MESSAGE_CHUNK", messageId: "r1", delta: "x" },
        callChunk("c1"),
        result("c1", "tm1"),
        encrypted("message", "r1"),
        encrypted("tool-call", "c1"),
        encrypted("message", "tm1"),
        encrypted("future", "nothing"),
        RF(),
      ]),
    ).toEqual([]);
  });
});

/** A request as a HAR entry's body carries it. */
const request = (fields: Record<string, unknown> = {}): RunAgentInput =>
  ({
    threadId: "t1",
    runId: "r1",
    state: {},
    messages: [],
    tools: [],
    context: [],
    forwardedProps: {},
    ...fields,
  }) as RunAgentInput;

const frontend = request({
  tools: [{ name: "confirm", description: "asks the user", parameters: {} }],
});

describe('FRONTEND_TOOL_ANSWERED (tool-calls, request: "A producer that calls a frontend tool MUST NOT answer it")', () => {
  it("is given for a result to a call of a tool the request offers, started or chunked", () => {
    const started = [RS(), callStart("c1", "confirm"), callEnd("c1"), result("c1"), RF()];
    expect(found("FRONTEND_TOOL_ANSWERED", started, { request: frontend })).toEqual([
      [3, "toolCallId"],
    ]);
    expect(first("FRONTEND_TOOL_ANSWERED", started, { request: frontend })?.message).toBe(
      'TOOL_CALL_RESULT at index 3: tool call "c1" calls "confirm", a tool the request offers (a frontend tool), and the producer answered it itself; 1.1 says "A producer that calls a frontend tool MUST NOT answer it" (events/tool-calls), and the client that runs the tool then answers a call that is already closed. [FRONTEND_TOOL_ANSWERED, warning]',
    );
    expect(
      found("FRONTEND_TOOL_ANSWERED", [RS(), callChunk("c2", "confirm"), result("c2"), RF()], {
        request: frontend,
      }),
    ).toEqual([[2, "toolCallId"]]);
  });

  it("is not given for the producer's own tools, a frontend call left pending, or no request", () => {
    const stream = [
      RS(),
      callStart("c1", "search"),
      callEnd("c1"),
      result("c1"),
      callStart("c2", "confirm"),
      callEnd("c2"),
      RF({ outcome: { type: "success", pendingToolCallIds: ["c2"] } }),
    ];
    expect(found("FRONTEND_TOOL_ANSWERED", stream, { request: frontend })).toEqual([]);
    expect(
      found("FRONTEND_TOOL_ANSWERED", [
        RS(),
        callStart("c1", "confirm"),
        callEnd("c1"),
        result("c1"),
        RF(),
      ]),
    ).toEqual([]);
  });
});

describe('REQUESTED_RUN_ID_MISMATCH (run-input, request: "The requested run echoes this input\'s runId")', () => {
  it("is given, at the end of input, at the last RUN_STARTED when its run id is not the request's", () => {
    expect(
      found("REQUESTED_RUN_ID_MISMATCH", [RS({ runId: "r9" }), RF({ runId: "r9" })], {
        request: request(),
      }),
    ).toEqual([[0, "runId"]]);
    // A replayed thread whose last run is not the requested one.
    const replay = [RS(), RF(), RS({ runId: "r2" }), RF({ runId: "r2" })];
    expect(found("REQUESTED_RUN_ID_MISMATCH", replay, { request: request() })).toEqual([
      [2, "runId"],
    ]);
    expect(first("REQUESTED_RUN_ID_MISMATCH", replay, { request: request() })?.message).toBe(
      'RUN_STARTED at index 2: the last run has runId "r2", not the request\'s "r1"; 1.1 says "The requested run echoes this input\'s runId" (basic/run-input), and a client waiting for the run it asked for never sees it. [REQUESTED_RUN_ID_MISMATCH, warning]',
    );
  });

  it("is not given when the last run is the requested one, nor without a request", () => {
    expect(
      found("REQUESTED_RUN_ID_MISMATCH", [RS({ runId: "r0" }), RF({ runId: "r0" }), RS(), RF()], {
        request: request(),
      }),
    ).toEqual([]);
    expect(found("REQUESTED_RUN_ID_MISMATCH", [RS({ runId: "r9" }), RF({ runId: "r9" })])).toEqual(
      [],
    );
  });
});

const delta = (...ops: unknown[]): Ev => ({ type: "STATE_DELTA", delta: ops });

describe("STATE_DELTA_WRONG_BASELINE (run-input, request: deltas before the first snapshot are computed against the input's state, or {})", () => {
  it("is given for a delta that does not apply to the request's state", () => {
    const stream = [RS(), delta({ op: "replace", path: "/count", value: 2 }), RF()];
    expect(
      found("STATE_DELTA_WRONG_BASELINE", stream, { request: request({ state: { total: 1 } }) }),
    ).toEqual([[1, "delta"]]);
    expect(
      first("STATE_DELTA_WRONG_BASELINE", stream, { request: request({ state: { total: 1 } }) })
        ?.message,
    ).toMatch(
      /^STATE_DELTA at index 1: the delta does not apply to the request's state \(operation 0, .*\), and no snapshot came before it in the requested run; 1\.1 says deltas before the run's first snapshot are computed against the input's state, or \{\} \(basic\/run-input\)/,
    );
    // No state in the request: the baseline is {}.
    expect(
      found(
        "STATE_DELTA_WRONG_BASELINE",
        [RS(), delta({ op: "test", path: "/a", value: 1 }), RF()],
        {
          request: request({ state: undefined }),
        },
      ),
    ).toEqual([[1, "delta"]]);
  });

  it("is not given for deltas that apply, nor after the run's first snapshot", () => {
    expect(
      found(
        "STATE_DELTA_WRONG_BASELINE",
        [
          RS(),
          delta({ op: "replace", path: "/count", value: 2 }),
          delta({ op: "remove", path: "/count" }),
          RF(),
        ],
        { request: request({ state: { count: 1 } }) },
      ),
    ).toEqual([]);
    expect(
      found(
        "STATE_DELTA_WRONG_BASELINE",
        [
          RS(),
          { type: "STATE_SNAPSHOT", snapshot: { other: 1 } },
          delta({ op: "replace", path: "/other", value: 2 }),
          RF(),
        ],
        { request: request({ state: { count: 1 } }) },
      ),
    ).toEqual([]);
    // An earlier run of a replayed thread is not the requested run.
    expect(
      found(
        "STATE_DELTA_WRONG_BASELINE",
        [
          RS({ runId: "r0" }),
          delta({ op: "replace", path: "/x", value: 1 }),
          RF({ runId: "r0" }),
          RS(),
          RF(),
        ],
        { request: request() },
      ),
    ).toEqual([]);
  });
});

describe("THREAD_ID_MISMATCH against the request's threadId (run-input)", () => {
  it("is given for every run on another thread than the request's, the first included", () => {
    const stream = [RS({ threadId: "t2" }), RF({ threadId: "t2" })];
    expect(found("THREAD_ID_MISMATCH", stream, { request: request() })).toEqual([
      [0, "threadId"],
      [1, "threadId"],
    ]);
    expect(first("THREAD_ID_MISMATCH", stream, { request: request() })?.message).toMatch(
      /^RUN_STARTED at index 0: threadId "t2" is not the request's thread "t1"; /,
    );
    expect(
      found(
        "THREAD_ID_MISMATCH",
        [RS(), RF(), RS({ threadId: "t3", runId: "r2" }), RF({ runId: "r2" })],
        {
          request: request({ runId: "r2" }),
        },
      ),
    ).toEqual([[2, "threadId"]]);
  });

  it("is not given for runs on the request's thread, and stays a warning with protocol draft", () => {
    expect(found("THREAD_ID_MISMATCH", [RS(), RF()], { request: request() })).toEqual([]);
    const report = lint([RS({ threadId: "t2" }), RF({ threadId: "t2" })], {
      protocol: "draft",
      request: request(),
    });
    expect(report.valid).toBe(true);
    expect(report.findings.find((f) => f.code === "THREAD_ID_MISMATCH")?.severity).toBe("warning");
  });
});

describe('UNKNOWN_EVENT_DROPPED, UNKNOWN_PROPERTY_STRIPPED, UNKNOWN_MEMBER_STRIPPED (architecture: "A producer MUST emit only what the schema defines")', () => {
  it("UNKNOWN_EVENT_DROPPED: an event type 1.1 does not name, inside a run or after it", () => {
    expect(
      found("UNKNOWN_EVENT_DROPPED", [RS(), { type: "USAGE_METADATA", tokens: 1 }, RF()]),
    ).toEqual([[1, undefined]]);
    expect(
      first("UNKNOWN_EVENT_DROPPED", [RS(), { type: "USAGE_METADATA", tokens: 1 }, RF()])?.message,
    ).toBe(
      'USAGE_METADATA at index 1: event type "USAGE_METADATA" is not one the 1.1 schema names; 1.1 says "A producer MUST emit only what the schema defines" (architecture), and a 1.1 client drops the event (basic/processing). [UNKNOWN_EVENT_DROPPED, warning]',
    );
    // The retired THINKING_* shapes are not in the 1.1 schema either.
    expect(found("UNKNOWN_EVENT_DROPPED", [RS(), { type: "THINKING_START" }, RF()])).toEqual([
      [1, undefined],
    ]);
  });

  it("UNKNOWN_PROPERTY_STRIPPED: an undescribed property, on an event or deep in a message", () => {
    expect(found("UNKNOWN_PROPERTY_STRIPPED", [RS({ model: "x" }), RF()])).toEqual([[0, "model"]]);
    expect(
      found("UNKNOWN_PROPERTY_STRIPPED", [
        RS(),
        {
          type: "MESSAGES_SNAPSHOT",
          messages: [
            {
              id: "a",
              role: "assistant",
              toolCalls: [
                { id: "c", type: "function", function: { name: "f", arguments: "{}", extra: 1 } },
              ],
            },
          ],
        },
        RF(),
      ]),
    ).toEqual([[1, "messages[0].toolCalls[0].function.extra"]]);
  });

  it("UNKNOWN_MEMBER_STRIPPED: an unknown outcome, content part or patch op", () => {
    expect(found("UNKNOWN_MEMBER_STRIPPED", [RS(), RF({ outcome: { type: "paused" } })])).toEqual([
      [1, "outcome"],
    ]);
    expect(
      found("UNKNOWN_MEMBER_STRIPPED", [
        RS(),
        { type: "STATE_SNAPSHOT", snapshot: {} },
        { type: "STATE_DELTA", delta: [{ op: "increment", path: "/n", value: 1 }] },
        RF(),
      ]),
    ).toEqual([[2, "delta[0]"]]);
  });

  it("are not given for what the schema leaves open, nor for a conforming stream", () => {
    const open = [
      RS({
        input: {
          threadId: "t1",
          runId: "r1",
          messages: [],
          state: { any: 1 },
          forwardedProps: { x: [1] },
        },
      }),
      { type: "CUSTOM", name: "n", value: { whatever: true }, metadata: { mine: 1 } },
      { type: "STATE_SNAPSHOT", snapshot: { deep: { a: 1 } } },
      { type: "STATE_DELTA", delta: [{ op: "remove", path: "/deep", value: "leftover" }] },
      { type: "RAW", event: { provider: "x" }, source: "y" },
      RF({ outcome: { type: "success" } }),
    ];
    for (const code of [
      "UNKNOWN_EVENT_DROPPED",
      "UNKNOWN_PROPERTY_STRIPPED",
      "UNKNOWN_MEMBER_STRIPPED",
    ]) {
      expect(found(code, open), code).toEqual([]);
    }
    // A malformed known value is not one of them (the rules, or --strict, judge it).
    expect(lint([RS({ timestamp: 1.5 }), RF()]).findings.map((f) => f.code)).toEqual([]);
  });
});

describe("the codes of this file", () => {
  const breaking: Array<[string, Ev[], LintOptions]> = [
    ["CHUNK_TRIAD_MIXED", [RS(), textStart("m"), textChunk("m"), textEnd("m"), RF()], {}],
    ["ENCRYPTED_VALUE_UNKNOWN_ENTITY", [RS(), encrypted("message", "x"), RF()], {}],
    ["UNKNOWN_EVENT_DROPPED", [RS(), { type: "X" }, RF()], {}],
    ["UNKNOWN_PROPERTY_STRIPPED", [RS({ extra: 1 }), RF()], {}],
    ["UNKNOWN_MEMBER_STRIPPED", [RS(), RF({ outcome: { type: "paused" } })], {}],
    [
      "FRONTEND_TOOL_ANSWERED",
      [RS(), callStart("c1", "confirm"), callEnd("c1"), result("c1"), RF()],
      { request: frontend },
    ],
    [
      "REQUESTED_RUN_ID_MISMATCH",
      [RS({ runId: "r9" }), RF({ runId: "r9" })],
      { request: request() },
    ],
    [
      "STATE_DELTA_WRONG_BASELINE",
      [RS(), delta({ op: "remove", path: "/x" }), RF()],
      { request: request() },
    ],
  ];

  it.each(breaking)("%s can be made an error, or turned off", (code, stream, options) => {
    const report = lint(stream, { ...options, severity: { [code]: "error" } });
    expect(report.valid).toBe(false);
    expect(report.findings.find((f) => f.code === code)).toMatchObject({
      severity: "error",
      rule: undefined,
    });
    expect(
      lint(stream, { ...options, severity: { [code]: "off" } }).findings.some(
        (f) => f.code === code,
      ),
    ).toBe(false);
  });

  it("holds no more than maxIds of request tool names: a call to one it could not hold is not judged", () => {
    const big = request({
      tools: [
        { name: "x".repeat(64), description: "", parameters: {} },
        { name: "confirm", description: "", parameters: {} },
      ],
    });
    const stream = [RS(), callStart("c1", "confirm"), callEnd("c1"), result("c1"), RF()];
    // The first name alone outweighs the limit, the second fits.
    expect(found("FRONTEND_TOOL_ANSWERED", stream, { request: big, maxIds: 20 })).toEqual([
      [3, "toolCallId"],
    ]);
  });
});
