// Table-driven conformance rows written from the text of spec/SPEC.md, version 4 (not from
// its example blocks, which test/spec-examples covers). Each row is [name, events, options?,
// expected], fed to `verifyAll`. `expected` is "accepted" or { code, index, field? }; the rule
// number is checked against the §10.2 table for every rejection, and `field` is checked for
// every rejection (undefined unless the code is FIELD_*, SCHEMA_MISMATCH or
// INTERRUPT_ID_DUPLICATE). No Node-only APIs: this file also runs under the edge-runtime
// environment.
import { describe, expect, it } from "vitest";
import { isVerifyError, SseDecodeFailure, Verifier, VerifyError, verifyAll } from "../src/index.ts";
import type { StandardSchemaV1 } from "../src/schema/standard-schema.ts";
import { rejecting, roleSchema } from "./support/schemas.ts";
import {
  CODES,
  type Code,
  EVENT_TYPES,
  FIELDS_READ,
  type FieldRead,
  RULE_OF_CODE,
  RULE_TITLES,
  ruleHeading,
  THINKING_TYPES,
} from "./support/spec-tables.ts";

// ---------------------------------------------------------------------------------------
// Row types and helpers.

type Opts = { schema?: StandardSchemaV1; maxIds?: number; protocol?: "1.1" | "draft" };
type Rejection = { code: Code; index: number; field?: string };
type Expected = "accepted" | Rejection;
type Row =
  | readonly [name: string, events: readonly unknown[], expected: Expected]
  | readonly [name: string, events: readonly unknown[], options: Opts, expected: Expected];

const ok = "accepted" as const;

/**
 * The rule each group of rows was written for. A rejected row is listed under the rule of
 * its code; an accepted one, under the rule of its group.
 */
const groupRule = new Map<Row, number>();
function about(rule: number, rows: Row[]): Row[] {
  for (const row of rows) groupRule.set(row, rule);
  return rows;
}
const rej = (code: Code, index: number, field?: string): Rejection =>
  field === undefined ? { code, index } : { code, index, field };
const DRAFT: Opts = { protocol: "draft" };

type Ev = Record<string, unknown>;
const ev = (type: string, fields: Ev = {}): Ev => ({ type, ...fields });
const tagged = (o: Ev, tag: string | undefined): Ev =>
  tag === undefined ? o : { ...o, subagentRunId: tag };

const RS = (f: Ev = {}) => ev("RUN_STARTED", f);
const RF = (f: Ev = {}) => ev("RUN_FINISHED", f);
const RE = (f: Ev = {}) => ev("RUN_ERROR", f);
const RAW = (f: Ev = {}) => ev("RAW", f);
const CUSTOM = (f: Ev = {}) => ev("CUSTOM", f);
const idEv = (type: string, key: string) => (id: string, tag?: string) =>
  tagged(ev(type, { [key]: id }), tag);
const TMS = idEv("TEXT_MESSAGE_START", "messageId");
const TMC = idEv("TEXT_MESSAGE_CONTENT", "messageId");
const TME = idEv("TEXT_MESSAGE_END", "messageId");
const TCA = idEv("TOOL_CALL_ARGS", "toolCallId");
const TCE = idEv("TOOL_CALL_END", "toolCallId");
const RST = idEv("REASONING_START", "messageId");
const RMS = idEv("REASONING_MESSAGE_START", "messageId");
const RMC = idEv("REASONING_MESSAGE_CONTENT", "messageId");
const RME = idEv("REASONING_MESSAGE_END", "messageId");
const REND = idEv("REASONING_END", "messageId");
const AD = idEv("ACTIVITY_DELTA", "messageId");
const SS = idEv("STEP_STARTED", "stepName");
const SF = idEv("STEP_FINISHED", "stepName");
const TCS = (id: string, tag?: string, parentMessageId?: string) =>
  tagged(
    ev("TOOL_CALL_START", {
      toolCallId: id,
      ...(parentMessageId === undefined ? {} : { parentMessageId }),
    }),
    tag,
  );
const TCR = (toolCallId: string, messageId: string, tag?: string) =>
  tagged(ev("TOOL_CALL_RESULT", { toolCallId, messageId }), tag);
const REV = (subtype: string, entityId: string, tag?: string) =>
  tagged(ev("REASONING_ENCRYPTED_VALUE", { subtype, entityId }), tag);
const AS = (id: string, tag?: string, replace?: boolean) =>
  tagged(
    ev("ACTIVITY_SNAPSHOT", { messageId: id, ...(replace === undefined ? {} : { replace }) }),
    tag,
  );
const SAS = (id: string, parent?: string) =>
  ev("SUBAGENT_STARTED", {
    subagentRunId: id,
    ...(parent === undefined ? {} : { parentSubagentRunId: parent }),
  });
const SAF = (id: string) => ev("SUBAGENT_FINISHED", { subagentRunId: id });
const SAE = (id: string) => ev("SUBAGENT_ERROR", { subagentRunId: id });
const SNAP = (messages: unknown, f: Ev = {}) => ev("MESSAGES_SNAPSHOT", { messages, ...f });
/** A Message (§3.3). `calls` become `toolCalls: [{id}]`. */
const msg = (id: string, role: string, owner?: string, calls?: string[]): Ev => ({
  id,
  role,
  ...(owner === undefined ? {} : { subagentRunId: owner }),
  ...(calls === undefined ? {} : { toolCalls: calls.map((c) => ({ id: c })) }),
});
const echo = (messages: unknown) => RS({ input: { messages } });
const interrupt = (interrupts?: unknown) =>
  RF({
    outcome: interrupts === undefined ? { type: "interrupt" } : { type: "interrupt", interrupts },
  });
const fail = (code: "INVALID_JSON" | "SSE_BUFFER_OVERFLOW", data: string | undefined = "[DONE]") =>
  new SseDecodeFailure(code, data, new SyntaxError("Unexpected token"));

// ---------------------------------------------------------------------------------------
// A. Rule 0 shape checks (§4.1, §6 step 2) and decode failures (§12).

const shapeRows: Row[] = [
  ...about(0, [
    ["null inside the run", [RS(), null], rej("EVENT_NOT_OBJECT", 1)],
    ["array inside the run", [RS(), [1, 2]], rej("EVENT_NOT_OBJECT", 1)],
    ["empty array inside the run", [RS(), []], rej("EVENT_NOT_OBJECT", 1)],
    ["array wrapping a valid event", [RS(), [RF()]], rej("EVENT_NOT_OBJECT", 1)],
    ["string inside the run", [RS(), "RUN_FINISHED"], rej("EVENT_NOT_OBJECT", 1)],
    ["JSON text of an event is a string", [RS(), JSON.stringify(RF())], rej("EVENT_NOT_OBJECT", 1)],
    ["number inside the run", [RS(), 42], rej("EVENT_NOT_OBJECT", 1)],
    ["zero inside the run", [RS(), 0], rej("EVENT_NOT_OBJECT", 1)],
    ["boolean inside the run", [RS(), false], rej("EVENT_NOT_OBJECT", 1)],
    ["undefined value inside the run", [RS(), undefined], rej("EVENT_NOT_OBJECT", 1)],
    ["null as the first value (shape before phase)", [null], rej("EVENT_NOT_OBJECT", 0)],
    ["array as the first value", [[RS()]], rej("EVENT_NOT_OBJECT", 0)],
    [
      "string after an unknown type before the run",
      [ev("FUTURE"), "x"],
      rej("EVENT_NOT_OBJECT", 1),
    ],
    ["string after RUN_ERROR first", [RE(), "x"], rej("EVENT_NOT_OBJECT", 1)],
    ["{} as the first value", [{}], rej("EVENT_TYPE_INVALID", 0)],
    ["type null", [RS(), { type: null }], rej("EVENT_TYPE_INVALID", 1)],
    ["type number", [RS(), { type: 7 }], rej("EVENT_TYPE_INVALID", 1)],
    ["type boolean", [RS(), { type: true }], rej("EVENT_TYPE_INVALID", 1)],
    ["type array of string", [RS(), { type: ["RUN_FINISHED"] }], rej("EVENT_TYPE_INVALID", 1)],
    ["type object", [RS(), { type: {} }], rej("EVENT_TYPE_INVALID", 1)],
    ["type undefined counts as absent", [RS(), { type: undefined }], rej("EVENT_TYPE_INVALID", 1)],
    [
      "kind instead of type inside the run",
      [RS(), { kind: "RUN_FINISHED" }],
      rej("EVENT_TYPE_INVALID", 1),
    ],
    [
      "typeless event with otherwise valid fields",
      [RS(), { messageId: "m1", subagentRunId: null }],
      rej("EVENT_TYPE_INVALID", 1),
    ],
    [
      "plain object shaped like a decode failure is not one",
      [RS(), { code: "INVALID_JSON", data: "[DONE]", cause: null }],
      rej("EVENT_TYPE_INVALID", 1),
    ],
    [
      "null after RUN_FINISHED is rule 0, not rule 2",
      [RS(), RF(), null],
      rej("EVENT_NOT_OBJECT", 2),
    ],
    ["array after RUN_ERROR is rule 0", [RS(), RE(), []], rej("EVENT_NOT_OBJECT", 2)],
    ["number after the close", [RS(), RF(), 1], rej("EVENT_NOT_OBJECT", 2)],
    [
      "typeless object after the close",
      [RS(), RF(), { subagentRunId: "s1" }],
      rej("EVENT_TYPE_INVALID", 2),
    ],
    ["numeric type after the close", [RS(), RE(), { type: 3 }], rej("EVENT_TYPE_INVALID", 2)],
    ["null after a late RUN_ERROR", [RS(), RF(), RE(), null], rej("EVENT_NOT_OBJECT", 3)],
    ["typeless after a late RUN_ERROR", [RS(), RF(), RE(), {}], rej("EVENT_TYPE_INVALID", 3)],
    ["INVALID_JSON inside the run", [RS(), fail("INVALID_JSON")], rej("INVALID_JSON", 1)],
    [
      "SSE_BUFFER_OVERFLOW inside the run",
      [RS(), fail("SSE_BUFFER_OVERFLOW", undefined)],
      rej("SSE_BUFFER_OVERFLOW", 1),
    ],
    [
      "INVALID_JSON as the first value (before the phase check)",
      [fail("INVALID_JSON")],
      rej("INVALID_JSON", 0),
    ],
    [
      "SSE_BUFFER_OVERFLOW as the first value",
      [fail("SSE_BUFFER_OVERFLOW")],
      rej("SSE_BUFFER_OVERFLOW", 0),
    ],
    [
      "INVALID_JSON after unknown types before the run",
      [ev("FUTURE"), ev("THINKING_START"), ev("future"), fail("INVALID_JSON")],
      rej("INVALID_JSON", 3),
    ],
    ["INVALID_JSON after RUN_FINISHED", [RS(), RF(), fail("INVALID_JSON")], rej("INVALID_JSON", 2)],
    ["INVALID_JSON after RUN_ERROR", [RS(), RE(), fail("INVALID_JSON")], rej("INVALID_JSON", 2)],
    [
      "SSE_BUFFER_OVERFLOW between runs",
      [RS(), RF(), fail("SSE_BUFFER_OVERFLOW"), RS(), RF()],
      rej("SSE_BUFFER_OVERFLOW", 2),
    ],
    [
      "INVALID_JSON for empty data",
      [RS(), TMS("m1"), fail("INVALID_JSON", "")],
      rej("INVALID_JSON", 2),
    ],
    [
      "INVALID_JSON with undefined data and cause",
      [RS(), new SseDecodeFailure("INVALID_JSON", undefined, undefined)],
      rej("INVALID_JSON", 1),
    ],
  ]),
];

// ---------------------------------------------------------------------------------------
// B. Phase checks (rules 1 and 2, §6 step 3) and end of input (§9.7).

const phaseRows: Row[] = [
  ...about(1, [
    // 1.1: "A stream MUST begin with `RUN_STARTED` or `RUN_ERROR`"; RAW and CUSTOM are events
    // of a recognised type like any other, so they may not come first (SPEC v4 rule 1).
    ["RUN_FINISHED first", [RF()], rej("EVENT_BEFORE_RUN_STARTED", 0)],
    ["RUN_ERROR first: a run that failed before it began", [RE()], ok],
    ["RUN_ERROR first with its message and code", [RE({ message: "no capacity", code: "E" })], ok],
    ["RUN_ERROR after an unknown type", [ev("FUTURE"), RE()], ok],
    ["RAW first, even before a RUN_ERROR", [RAW(), RE()], rej("EVENT_BEFORE_RUN_STARTED", 0)],
    ["TEXT_MESSAGE_START first", [TMS("m1")], rej("EVENT_BEFORE_RUN_STARTED", 0)],
    ["CUSTOM first", [CUSTOM(), ev("STATE_DELTA")], rej("EVENT_BEFORE_RUN_STARTED", 0)],
    [
      "STATE_DELTA after an unknown type",
      [ev("FUTURE"), ev("STATE_DELTA")],
      rej("EVENT_BEFORE_RUN_STARTED", 1),
    ],
    ["MESSAGES_SNAPSHOT before the run", [SNAP([])], rej("EVENT_BEFORE_RUN_STARTED", 0)],
    ["SUBAGENT_STARTED before the run", [SAS("s1")], rej("EVENT_BEFORE_RUN_STARTED", 0)],
    [
      "STEP_STARTED after a THINKING type before the run",
      [ev("THINKING_START"), SS("plan")],
      rej("EVENT_BEFORE_RUN_STARTED", 1),
    ],
    ["TOOL_CALL_RESULT before the run", [TCR("c1", "t1")], rej("EVENT_BEFORE_RUN_STARTED", 0)],
    ["ACTIVITY_SNAPSHOT before the run", [AS("a1")], rej("EVENT_BEFORE_RUN_STARTED", 0)],
    [
      "TEXT_MESSAGE_CHUNK before the run",
      [ev("TEXT_MESSAGE_CHUNK")],
      rej("EVENT_BEFORE_RUN_STARTED", 0),
    ],
    [
      "TOOL_CALL_CHUNK after an unknown type before the run",
      [ev("FUTURE"), ev("TOOL_CALL_CHUNK")],
      rej("EVENT_BEFORE_RUN_STARTED", 1),
    ],
    [
      "REASONING_MESSAGE_CHUNK before the run",
      [ev("REASONING_MESSAGE_CHUNK")],
      rej("EVENT_BEFORE_RUN_STARTED", 0),
    ],
    ["REASONING_START before the run", [RST("r1"), RS(), RF()], rej("EVENT_BEFORE_RUN_STARTED", 0)],
    // §9.2: an unknown type "is accepted anywhere — before the first run, inside a run, after a
    // close"; §9.5: THINKING_* types are unknown types.
    ["THINKING_START before the run (§9.5)", [ev("THINKING_START"), RS(), RF()], ok],
    [
      "THINKING_TEXT_MESSAGE_CONTENT before a run that fails",
      [ev("THINKING_TEXT_MESSAGE_CONTENT"), RS(), RE()],
      ok,
    ],
    ["unknown type before the run (§13 #1)", [ev("NEW_KIND_OF_EVENT"), RS(), RF()], ok],
    [
      "lower-case run_started is an unknown type and opens no run",
      [ev("run_started")],
      rej("STREAM_ENDED_BEFORE_RUN_STARTED", 1),
    ],
    [
      "lower-case run_started does not let what follows in",
      [ev("run_started"), TMS("m1")],
      rej("EVENT_BEFORE_RUN_STARTED", 1),
    ],
    ["empty-string type before the run", [ev(""), RS(), RF()], ok],
    [
      "malformed TEXT_MESSAGE_START before the run is rule 1 (phase before fields)",
      [ev("TEXT_MESSAGE_START")],
      rej("EVENT_BEFORE_RUN_STARTED", 0),
    ],
    ["null-tagged RUN_ERROR first: the tag is not read (§3.1)", [RE({ subagentRunId: null })], ok],
    [
      "RUN_FINISHED with a null outcome before the run",
      [RF({ outcome: null })],
      rej("EVENT_BEFORE_RUN_STARTED", 0),
    ],
    [
      "null-tagged unknown type before the run (§9.2)",
      [ev("FUTURE", { subagentRunId: null }), RS(), RF()],
      ok,
    ],
    [
      "RAW with a null tag before the run is rule 1 (phase before fields)",
      [RAW({ subagentRunId: null })],
      rej("EVENT_BEFORE_RUN_STARTED", 0),
    ],
    [
      "CUSTOM with a numeric tag before the run is rule 1",
      [CUSTOM({ subagentRunId: 3 })],
      rej("EVENT_BEFORE_RUN_STARTED", 0),
    ],
    [
      "RAW with a string tag before the run",
      [RAW({ subagentRunId: "s1" }), RS(), RF()],
      rej("EVENT_BEFORE_RUN_STARTED", 0),
    ],
    [
      "RAW and CUSTOM with null unread fields, inside the run",
      [RS(), RAW({ event: null, source: null }), CUSTOM({ name: null, value: null }), RF()],
      ok,
    ],
    [
      "unknown types before RUN_STARTED, RAW and CUSTOM inside",
      [ev("FUTURE"), ev("THINKING_END"), ev("x"), RS(), RAW(), CUSTOM(), CUSTOM(), RAW(), RF()],
      ok,
    ],
    ["CUSTOM then RUN_STARTED", [CUSTOM(), RS(), RF()], rej("EVENT_BEFORE_RUN_STARTED", 0)],
    ["RAW then RUN_STARTED", [ev("FUTURE"), RAW(), RS(), RE()], rej("EVENT_BEFORE_RUN_STARTED", 1)],
    ["RUN_STARTED twice in a row", [RS(), RS()], rej("RUN_ALREADY_STARTED", 1)],
    [
      "malformed second RUN_STARTED is still rule 1",
      [RS(), RS({ input: null })],
      rej("RUN_ALREADY_STARTED", 1),
    ],
    [
      "null-tagged second RUN_STARTED is still rule 1",
      [RS(), TMS("m1"), RS({ subagentRunId: null })],
      rej("RUN_ALREADY_STARTED", 2),
    ],
    [
      "second RUN_STARTED while a message is open",
      [RS(), TMS("m1"), RS()],
      rej("RUN_ALREADY_STARTED", 2),
    ],
    [
      "RUN_STARTED while the second run is open",
      [RS(), RF(), RS(), CUSTOM(), RS()],
      rej("RUN_ALREADY_STARTED", 4),
    ],
  ]),
  ...about(2, [
    // In FINISHED: RUN_STARTED, or one late RUN_ERROR. In FAILED: RUN_STARTED only.
    ["RAW after RUN_FINISHED", [RS(), RF(), RAW()], rej("EVENT_AFTER_RUN_CLOSED", 2)],
    ["CUSTOM after RUN_FINISHED", [RS(), RF(), CUSTOM()], rej("EVENT_AFTER_RUN_CLOSED", 2)],
    ["RAW after RUN_ERROR", [RS(), RE(), RAW()], rej("EVENT_AFTER_RUN_CLOSED", 2)],
    ["RS RF RS RF: a second run (§9.6)", [RS(), RF(), RS(), RF()], ok],
    ["RS RE RS RF: a new run after a failed one", [RS(), RE(), RS(), RF()], ok],
    // 1.1: "A consumer MUST treat the run as failed in that case" (a RUN_ERROR after
    // RUN_FINISHED): SPEC rule 2 accepts it once.
    ["RS RF RE: a late failure", [RS(), RF(), RE()], ok],
    ["RS RF RE RS RF: a late failure, then a new run", [RS(), RF(), RE(), RS(), RF()], ok],
    [
      "RS RE RE: nothing but a new run after RUN_ERROR",
      [RS(), RE(), RE()],
      rej("EVENT_AFTER_RUN_CLOSED", 2),
    ],
    [
      "RS RF RE RE: one late failure, no more",
      [RS(), RF(), RE(), RE()],
      rej("EVENT_AFTER_RUN_CLOSED", 3),
    ],
    [
      "RS RF RE RF: no RUN_FINISHED after a late failure",
      [RS(), RF(), RE(), RF()],
      rej("EVENT_AFTER_RUN_CLOSED", 3),
    ],
    [
      "RS RF RE RAW: nothing but a new run after a late failure",
      [RS(), RF(), RE(), RAW()],
      rej("EVENT_AFTER_RUN_CLOSED", 3),
    ],
    ["RE first, then TEXT_MESSAGE_START", [RE(), TMS("m1")], rej("EVENT_AFTER_RUN_CLOSED", 1)],
    ["RE first, then RUN_ERROR", [RE(), RE()], rej("EVENT_AFTER_RUN_CLOSED", 1)],
    ["RE first, then RUN_FINISHED", [RE(), RF()], rej("EVENT_AFTER_RUN_CLOSED", 1)],
    ["RE first, then CUSTOM", [RE(), CUSTOM()], rej("EVENT_AFTER_RUN_CLOSED", 1)],
    ["RE first, then a run", [RE(), RS(), TMS("m1"), TME("m1"), RF()], ok],
    ["RE first, then an unknown type", [RE(), ev("FUTURE")], ok],
    [
      "RS RF RAW RS RF: nothing between runs",
      [RS(), RF(), RAW(), RS(), RF()],
      rej("EVENT_AFTER_RUN_CLOSED", 2),
    ],
    [
      "RS RF FUTURE RS RF: unknown types between runs (§9.2)",
      [RS(), RF(), ev("FUTURE"), RS(), RF()],
      ok,
    ],
    ["RUN_FINISHED twice", [RS(), RF(), RF()], rej("EVENT_AFTER_RUN_CLOSED", 2)],
    ["RUN_FINISHED after RUN_ERROR", [RS(), RE(), RF()], rej("EVENT_AFTER_RUN_CLOSED", 2)],
    ["unknown type after the close (§13 #15)", [RS(), RF(), ev("FUTURE")], ok],
    ["THINKING_END after the close (§13 #15)", [RS(), RE(), ev("THINKING_END")], ok],
    [
      "null-tagged unknown type after the close",
      [RS(), RF(), ev("FUTURE", { subagentRunId: null }), RE(), ev("FUTURE", { x: null })],
      ok,
    ],
    [
      "TEXT_MESSAGE_CHUNK after the close",
      [RS(), RF(), ev("TEXT_MESSAGE_CHUNK")],
      rej("EVENT_AFTER_RUN_CLOSED", 2),
    ],
    [
      "malformed TEXT_MESSAGE_START after the close is rule 2 (phase before fields)",
      [RS(), RF(), ev("TEXT_MESSAGE_START")],
      rej("EVENT_AFTER_RUN_CLOSED", 2),
    ],
    [
      "RAW with a null tag after the close is rule 2 (phase before fields)",
      [RS(), RF(), RAW({ subagentRunId: null })],
      rej("EVENT_AFTER_RUN_CLOSED", 2),
    ],
    [
      "RAW with a null tag after a late RUN_ERROR",
      [RS(), RF(), RE(), RAW({ subagentRunId: null })],
      rej("EVENT_AFTER_RUN_CLOSED", 3),
    ],
    [
      "RUN_STARTED with a null input after RUN_FINISHED is a field error",
      [RS(), RF(), RS({ input: null })],
      rej("FIELD_NULL", 2, "input"),
    ],
    [
      "RUN_STARTED with a null input after RUN_ERROR is a field error",
      [RS(), RE(), RS({ input: null })],
      rej("FIELD_NULL", 2, "input"),
    ],
    [
      "STATE_DELTA between runs",
      [RS(), RF(), ev("STATE_DELTA"), RS(), RF()],
      rej("EVENT_AFTER_RUN_CLOSED", 2),
    ],
    ["MESSAGES_SNAPSHOT between runs", [RS(), RF(), SNAP([])], rej("EVENT_AFTER_RUN_CLOSED", 2)],
    [
      "an unknown type between runs does not let RAW in",
      [RS(), RF(), ev("FUTURE"), RAW()],
      rej("EVENT_AFTER_RUN_CLOSED", 3),
    ],
    ["THINKING_START between runs", [RS(), RE(), ev("THINKING_START"), RS(), RF()], ok],
    ["TEXT_MESSAGE_START between runs", [RS(), RE(), TMS("m1")], rej("EVENT_AFTER_RUN_CLOSED", 2)],
    [
      "SUBAGENT_FINISHED between runs",
      [RS(), SAS("s1"), RE(), SAF("s1")],
      rej("EVENT_AFTER_RUN_CLOSED", 3),
    ],
    [
      "TEXT_MESSAGE_START after an unknown type before the first run",
      [ev("FUTURE"), TMS("m1")],
      rej("EVENT_BEFORE_RUN_STARTED", 1),
    ],
    // End of input (§9.7)
    ["empty input (§13 #3)", [], rej("STREAM_ENDED_BEFORE_RUN_STARTED", 0)],
    ["only an unknown type", [ev("FUTURE")], rej("STREAM_ENDED_BEFORE_RUN_STARTED", 1)],
    [
      "only unknown and THINKING types, four of them",
      [ev("FUTURE"), ev("THINKING_START"), ev("x"), ev("")],
      rej("STREAM_ENDED_BEFORE_RUN_STARTED", 4),
    ],
    ["empty input with protocol draft", [], DRAFT, rej("STREAM_ENDED_BEFORE_RUN_STARTED", 0)],
    ["only RUN_STARTED", [RS()], rej("STREAM_ENDED_BEFORE_RUN_CLOSED", 1)],
    [
      "text message open at the end (§13 #3)",
      [RS(), TMS("m")],
      rej("STREAM_ENDED_BEFORE_RUN_CLOSED", 2),
    ],
    [
      "unknown, THINKING and chunk events count toward the end index",
      [RS(), ev("FUTURE"), ev("THINKING_START"), ev("TEXT_MESSAGE_CHUNK"), RAW()],
      rej("STREAM_ENDED_BEFORE_RUN_CLOSED", 5),
    ],
    [
      "everything closed but no RUN_FINISHED",
      [RS(), TMS("m1"), TME("m1")],
      rej("STREAM_ENDED_BEFORE_RUN_CLOSED", 3),
    ],
    [
      "end inside the second run",
      [RS(), RF(), ev("FUTURE"), RS(), TMS("m1")],
      rej("STREAM_ENDED_BEFORE_RUN_CLOSED", 5),
    ],
    [
      "end right after the second RUN_STARTED",
      [RS(), RE(), RS()],
      rej("STREAM_ENDED_BEFORE_RUN_CLOSED", 3),
    ],
    ["end after a late RUN_ERROR", [RS(), RF(), RE()], ok],
    ["unknown types after the last close", [RS(), RF(), ev("FUTURE"), ev("THINKING_END")], ok],
    ["RUN_ERROR ends the stream", [RS(), RE()], ok],
    ["three runs", [RS(), RF(), RS(), RE(), ev("FUTURE"), RS(), RF()], ok],
    [
      "a hundred runs: no limit on their number (§9.6)",
      Array.from({ length: 100 }, (_, i) => [
        RS(),
        TMS(`m${i % 3}`),
        TME(`m${i % 3}`),
        i % 2 === 0 ? RF() : RE(),
      ]).flat(),
      ok,
    ],
  ]),
];

// ---------------------------------------------------------------------------------------
// C. Field checks (§4) — generated for every recognised type with flat fields, then
// hand-written rows for the nested ones (RUN_STARTED input, RUN_FINISHED outcome,
// MESSAGES_SNAPSHOT messages).

type FieldSpec = readonly [name: string, required: boolean, kind: "string" | "boolean"];
const isFlat = (f: FieldRead): f is FieldSpec => f[2] === "string" || f[2] === "boolean";
/**
 * §3.2 for the types whose fields are all strings and booleans, in the table's field order.
 * `tag` says whether the optional tag is read (on SUBAGENT_* the id is the required tag).
 */
const FLAT = EVENT_TYPES.flatMap((type) => {
  // §3.1: run-level types and MESSAGES_SNAPSHOT read no tag, so FIELDS_READ lists none.
  const fields = FIELDS_READ[type];
  if (!fields.every(isFlat)) return [];
  const tag = fields[0]?.[0] === "subagentRunId" && !fields[0][1];
  return [[type, tag, (tag ? fields.slice(1) : fields).filter(isFlat)] as const];
});
// Wrong JSON types, rotated across rows so arrays and objects are tried as strings too.
const WRONG_FOR_STRING: readonly unknown[] = [42, {}, [], true, ["x"], 0, { id: "x" }];
const WRONG_FOR_BOOLEAN: readonly unknown[] = ["false", 0, [], {}, "true", 1];
const WRONG_TAGS: readonly unknown[] = [5, true, {}, ["s1"], 0];

/** What `[RUN_STARTED, <well-formed event of this type>]` yields: the field checks pass, then
 * the rules run (continuations of nothing fail) or the stream ends with the run open. */
function baseVerdict(type: string): Expected {
  switch (type) {
    case "RUN_ERROR":
      return ok;
    case "STEP_FINISHED":
      return rej("STEP_NOT_STARTED", 1);
    case "TEXT_MESSAGE_CONTENT":
    case "TEXT_MESSAGE_END":
      return rej("TEXT_MESSAGE_NOT_OPEN", 1);
    case "TOOL_CALL_ARGS":
    case "TOOL_CALL_END":
      return rej("TOOL_CALL_NOT_OPEN", 1);
    case "REASONING_MESSAGE_CONTENT":
    case "REASONING_MESSAGE_END":
      return rej("REASONING_MESSAGE_NOT_OPEN", 1);
    case "REASONING_END":
      return rej("REASONING_SPAN_NOT_OPEN", 1);
    case "SUBAGENT_FINISHED":
    case "SUBAGENT_ERROR":
      return rej("SUBAGENT_NOT_ACTIVE", 1);
    default:
      return rej("STREAM_ENDED_BEFORE_RUN_CLOSED", 2);
  }
}

function fieldRows(): Row[] {
  const rows: Row[] = [];
  let n = 0;
  for (const [type, hasTag, fields] of FLAT) {
    const base: Ev = { type };
    for (const [name, required, kind] of fields) {
      if (required) base[name] = kind === "string" ? "x" : true;
    }
    const label = (s: string) => `${type}: ${s}`;
    // well-formed, with every optional field and the tag: passes the field checks
    const full: Ev = { ...base };
    for (const [name, , kind] of fields) full[name] = kind === "string" ? "x" : false;
    if (hasTag) full.subagentRunId = "";
    rows.push([label("well-formed, required fields only"), [RS(), base], baseVerdict(type)]);
    rows.push([
      label("well-formed with the tag and optional fields"),
      [RS(), full],
      // parentSubagentRunId "x" names a subagent that never started
      type === "SUBAGENT_STARTED" ? rej("SUBAGENT_PARENT_NOT_STARTED", 1) : baseVerdict(type),
    ]);
    if (hasTag) {
      rows.push([
        label("null tag"),
        [RS(), { ...base, subagentRunId: null }],
        rej("FIELD_NULL", 1, "subagentRunId"),
      ]);
      const wrong = WRONG_TAGS[n++ % WRONG_TAGS.length];
      rows.push([
        label(`tag ${JSON.stringify(wrong)}`),
        [RS(), { ...base, subagentRunId: wrong }],
        rej("FIELD_WRONG_TYPE", 1, "subagentRunId"),
      ]);
      rows.push([
        label("undefined tag counts as absent"),
        [RS(), { ...base, subagentRunId: undefined }],
        baseVerdict(type),
      ]);
      if (fields.length > 0) {
        // the tag is reported before every other field
        const allBad: Ev = { type, subagentRunId: null };
        for (const [name] of fields) allBad[name] = null;
        rows.push([
          label("tag reported before the other fields"),
          [RS(), allBad],
          rej("FIELD_NULL", 1, "subagentRunId"),
        ]);
      }
    }
    fields.forEach(([name, required, kind], i) => {
      if (required) {
        const missing = { ...base };
        delete missing[name];
        rows.push([label(`${name} missing`), [RS(), missing], rej("FIELD_MISSING", 1, name)]);
        rows.push([
          label(`${name} undefined`),
          [RS(), { ...base, [name]: undefined }],
          rej("FIELD_MISSING", 1, name),
        ]);
      }
      rows.push([
        label(`${name} null`),
        [RS(), { ...base, [name]: null }],
        rej("FIELD_NULL", 1, name),
      ]);
      const pool = kind === "string" ? WRONG_FOR_STRING : WRONG_FOR_BOOLEAN;
      const wrong = pool[n++ % pool.length];
      rows.push([
        label(`${name} ${JSON.stringify(wrong)}`),
        [RS(), { ...base, [name]: wrong }],
        rej("FIELD_WRONG_TYPE", 1, name),
      ]);
      // an earlier bad field is reported before a later one
      const later = fields[i + 1];
      if (later !== undefined) {
        const both: Ev = { ...base, [later[0]]: null };
        if (required) delete both[name];
        else both[name] = 7;
        rows.push([
          label(`${name} reported before ${later[0]}`),
          [RS(), both],
          rej(required ? "FIELD_MISSING" : "FIELD_WRONG_TYPE", 1, name),
        ]);
      }
    });
  }
  return rows;
}

const flatFieldRows: Row[] = [
  ...about(0, [
    ...fieldRows(),
    // hand-picked rows on flat fields
    [
      "TEXT_MESSAGE_START without messageId (§13 #6)",
      [RS(), ev("TEXT_MESSAGE_START")],
      rej("FIELD_MISSING", 1, "messageId"),
    ],
    [
      "TEXT_MESSAGE_END without messageId (§13 #6)",
      [RS(), TMS("m1"), ev("TEXT_MESSAGE_END")],
      rej("FIELD_MISSING", 2, "messageId"),
    ],
    [
      "STEP_STARTED without stepName (§13 #6)",
      [RS(), ev("STEP_STARTED")],
      rej("FIELD_MISSING", 1, "stepName"),
    ],
    [
      "STEP_FINISHED without stepName (§13 #6)",
      [RS(), SS("a"), ev("STEP_FINISHED")],
      rej("FIELD_MISSING", 2, "stepName"),
    ],
    [
      "toolCallId 42 on TOOL_CALL_ARGS (§13 #6)",
      [RS(), TCS("c1"), ev("TOOL_CALL_ARGS", { toolCallId: 42 })],
      rej("FIELD_WRONG_TYPE", 2, "toolCallId"),
    ],
    [
      "subagentRunId 5 on STATE_SNAPSHOT (§13 #6)",
      [RS(), ev("STATE_SNAPSHOT", { subagentRunId: 5 })],
      rej("FIELD_WRONG_TYPE", 1, "subagentRunId"),
    ],
    [
      'replace "false" (§13 #6)',
      [RS(), ev("ACTIVITY_SNAPSHOT", { messageId: "a1", replace: "false" })],
      rej("FIELD_WRONG_TYPE", 1, "replace"),
    ],
    [
      "REASONING_ENCRYPTED_VALUE without subtype (§13 #6)",
      [RS(), ev("REASONING_ENCRYPTED_VALUE", { entityId: "r1" })],
      rej("FIELD_MISSING", 1, "subtype"),
    ],
    [
      "parentMessageId null (§13 #5)",
      [RS(), ev("TOOL_CALL_START", { toolCallId: "c1", parentMessageId: null })],
      rej("FIELD_NULL", 1, "parentMessageId"),
    ],
    [
      "replace null (§13 #5)",
      [RS(), ev("ACTIVITY_SNAPSHOT", { messageId: "a1", replace: null })],
      rej("FIELD_NULL", 1, "replace"),
    ],
    [
      "parentSubagentRunId null",
      [RS(), SAS("s1"), ev("SUBAGENT_STARTED", { subagentRunId: "s2", parentSubagentRunId: null })],
      rej("FIELD_NULL", 2, "parentSubagentRunId"),
    ],
    [
      "TOOL_CALL_RESULT: toolCallId before messageId",
      [RS(), ev("TOOL_CALL_RESULT", { messageId: 5 })],
      rej("FIELD_MISSING", 1, "toolCallId"),
    ],
    [
      "TOOL_CALL_RESULT with only toolCallId",
      [RS(), ev("TOOL_CALL_RESULT", { toolCallId: "c1" })],
      rej("FIELD_MISSING", 1, "messageId"),
    ],
    [
      "REASONING_ENCRYPTED_VALUE with only subtype",
      [RS(), ev("REASONING_ENCRYPTED_VALUE", { subtype: "message" })],
      rej("FIELD_MISSING", 1, "entityId"),
    ],
    [
      "empty-string ids are valid",
      [RS(), TMS(""), TMC(""), TME(""), SS(""), SF(""), TCS(""), TCE(""), RF()],
      ok,
    ],
    [
      "chunks read only the tag",
      [
        RS(),
        ev("TEXT_MESSAGE_CHUNK", { messageId: 5, role: null, delta: null }),
        ev("TOOL_CALL_CHUNK", { toolCallId: null, parentMessageId: 7, toolCallName: null }),
        ev("REASONING_MESSAGE_CHUNK", { messageId: null, delta: [] }),
        RF(),
      ],
      ok,
    ],
    [
      "fields the verifier does not read may be null",
      [
        RS({
          threadId: null,
          runId: null,
          parentRunId: null,
          timestamp: null,
          rawEvent: null,
          metadata: null,
        }),
        ev("TEXT_MESSAGE_START", { messageId: "m1", role: null, name: null, timestamp: null }),
        ev("TEXT_MESSAGE_CONTENT", { messageId: "m1", delta: null, rawEvent: null }),
        TME("m1"),
        ev("TOOL_CALL_START", { toolCallId: "c1", toolCallName: null }),
        ev("TOOL_CALL_ARGS", { toolCallId: "c1", delta: null }),
        TCE("c1"),
        ev("TOOL_CALL_RESULT", { toolCallId: "c1", messageId: "t1", content: null, role: null }),
        ev("REASONING_ENCRYPTED_VALUE", {
          subtype: "message",
          entityId: "t1",
          encryptedValue: null,
        }),
        ev("ACTIVITY_SNAPSHOT", { messageId: "a1", activityType: null, content: null }),
        ev("ACTIVITY_DELTA", { messageId: "a1", activityType: null, patch: null }),
        ev("STATE_SNAPSHOT", { snapshot: null }),
        ev("STATE_DELTA", { delta: null }),
        ev("SUBAGENT_STARTED", {
          subagentRunId: "s1",
          name: null,
          description: null,
          parentToolCallId: null,
          parentMessageId: null,
        }),
        ev("SUBAGENT_ERROR", { subagentRunId: "s1", message: null, code: null }),
        RF({ threadId: null, runId: null, result: null, usage: null }),
      ],
      ok,
    ],
    [
      "RUN_ERROR message and code not read",
      [RS(), RE({ message: null, code: 5, usage: null })],
      ok,
    ],
    // §3.1: on the run-level events "the property is not read there at all, whatever its value"
    ["RUN_ERROR: a null tag is not read (§13 #12)", [RS(), RE({ subagentRunId: null })], ok],
    ["RUN_ERROR: a numeric tag is not read", [RS(), RE({ subagentRunId: 5 })], ok],
    ["RUN_ERROR: an object tag is not read", [RS(), RE({ subagentRunId: { id: "s1" } })], ok],
    ["a late RUN_ERROR with a bad tag", [RS(), RF(), RE({ subagentRunId: [] })], ok],
  ]),
];

const runStartedRows: Row[] = [
  ...about(0, [
    ["input null (§13 #5)", [RS({ input: null })], rej("FIELD_NULL", 0, "input")],
    ["input string", [RS({ input: "x" })], rej("FIELD_WRONG_TYPE", 0, "input")],
    ["input array", [RS({ input: [] })], rej("FIELD_WRONG_TYPE", 0, "input")],
    ["input number", [ev("FUTURE"), RS({ input: 0 })], rej("FIELD_WRONG_TYPE", 1, "input")],
    ["input undefined counts as absent", [RS({ input: undefined }), RF()], ok],
    ["empty input object", [RS({ input: {} }), RF()], ok],
    [
      "unread input fields may be anything",
      [
        RS({
          input: {
            threadId: null,
            runId: 5,
            state: null,
            tools: "x",
            context: null,
            forwardedProps: null,
          },
        }),
        RF(),
      ],
      ok,
    ],
    [
      "input.messages null",
      [RS({ input: { messages: null } })],
      rej("FIELD_NULL", 0, "input.messages"),
    ],
    [
      "input.messages object",
      [RS({ input: { messages: {} } })],
      rej("FIELD_WRONG_TYPE", 0, "input.messages"),
    ],
    [
      "input.messages array-like object",
      [RS({ input: { messages: { 0: msg("m1", "user"), length: 1 } } })],
      rej("FIELD_WRONG_TYPE", 0, "input.messages"),
    ],
    [
      "input.messages string",
      [RS({ input: { messages: "[]" } })],
      rej("FIELD_WRONG_TYPE", 0, "input.messages"),
    ],
    ["input.messages empty", [echo([]), RF()], ok],
    [
      "input.messages undefined counts as absent",
      [RS({ input: { messages: undefined } }), RF()],
      ok,
    ],
    ["input.messages[0] null", [echo([null])], rej("FIELD_NULL", 0, "input.messages[0]")],
    [
      "input.messages[1] array",
      [echo([msg("m1", "user"), []])],
      rej("FIELD_WRONG_TYPE", 0, "input.messages[1]"),
    ],
    [
      "input.messages[0] undefined element",
      [echo([undefined])],
      rej("FIELD_WRONG_TYPE", 0, "input.messages[0]"),
    ],
    ["input.messages[0] string", [echo(["m1"])], rej("FIELD_WRONG_TYPE", 0, "input.messages[0]")],
    [
      "echo message without id (§13 #6)",
      [echo([{ role: "user" }])],
      rej("FIELD_MISSING", 0, "input.messages[0].id"),
    ],
    [
      "echo message id number",
      [echo([{ id: 1, role: "user" }])],
      rej("FIELD_WRONG_TYPE", 0, "input.messages[0].id"),
    ],
    [
      "echo message without role",
      [echo([msg("m0", "user"), { id: "m1" }])],
      rej("FIELD_MISSING", 0, "input.messages[1].role"),
    ],
    [
      "echo message role null",
      [echo([{ id: "m1", role: null }])],
      rej("FIELD_NULL", 0, "input.messages[0].role"),
    ],
    [
      "echo message subagentRunId null",
      [echo([{ id: "m1", role: "user", subagentRunId: null }])],
      rej("FIELD_NULL", 0, "input.messages[0].subagentRunId"),
    ],
    [
      "echo assistant toolCalls [null]",
      [echo([{ id: "m1", role: "assistant", toolCalls: [null] }])],
      rej("FIELD_NULL", 0, "input.messages[0].toolCalls[0]"),
    ],
    [
      "echo assistant toolCalls object",
      [echo([{ id: "m1", role: "assistant", toolCalls: { id: "c1" } }])],
      rej("FIELD_WRONG_TYPE", 0, "input.messages[0].toolCalls"),
    ],
    [
      "deep path input.messages[2].toolCalls[0].id",
      [
        echo([
          msg("m0", "user"),
          msg("m1", "assistant", undefined, ["c1"]),
          { id: "m2", role: "assistant", toolCalls: [{ type: "function" }] },
        ]),
      ],
      rej("FIELD_MISSING", 0, "input.messages[2].toolCalls[0].id"),
    ],
    [
      "echo toolCalls on a user message are not read",
      [echo([{ id: "m1", role: "user", toolCalls: [null, 5] }]), RF()],
      ok,
    ],
    ["RUN_STARTED null tag is not read (§13 #12)", [RS({ subagentRunId: null }), RF()], ok],
    ["RUN_STARTED numeric tag is not read", [RS({ subagentRunId: 1 }), RF()], ok],
    [
      "RUN_STARTED: an unread tag does not hide a bad input",
      [RS({ subagentRunId: false, input: null })],
      rej("FIELD_NULL", 0, "input"),
    ],
    ["RUN_STARTED string tag is ignored", [RS({ subagentRunId: "s1" }), RF()], ok],
    [
      "RUN_STARTED empty-string tag is ignored",
      [RS({ subagentRunId: "" }), RF({ subagentRunId: "" })],
      ok,
    ],
    [
      "RUN_STARTED tag does not become anyone's owner",
      [RS({ subagentRunId: "s1" }), TMS("m1"), TMC("m1", "s1")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "earlier message's nested fields before the next message",
      [echo([{ id: "m1", role: "assistant", toolCalls: [{ id: null }] }, null])],
      rej("FIELD_NULL", 0, "input.messages[0].toolCalls[0].id"),
    ],
  ]),
];

const runFinishedRows: Row[] = [
  ...about(0, [
    ["outcome null (§13 #5)", [RS(), RF({ outcome: null })], rej("FIELD_NULL", 1, "outcome")],
    [
      'outcome "success" (§13 #6)',
      [RS(), RF({ outcome: "success" })],
      rej("FIELD_WRONG_TYPE", 1, "outcome"),
    ],
    [
      "outcome array",
      [RS(), RF({ outcome: [{ type: "success" }] })],
      rej("FIELD_WRONG_TYPE", 1, "outcome"),
    ],
    ["outcome number", [RS(), RF({ outcome: 1 })], rej("FIELD_WRONG_TYPE", 1, "outcome")],
    ["outcome {} (§13 #6)", [RS(), RF({ outcome: {} })], rej("FIELD_MISSING", 1, "outcome.type")],
    [
      "outcome.type null",
      [RS(), RF({ outcome: { type: null } })],
      rej("FIELD_NULL", 1, "outcome.type"),
    ],
    [
      "outcome.type number",
      [RS(), RF({ outcome: { type: 0 } })],
      rej("FIELD_WRONG_TYPE", 1, "outcome.type"),
    ],
    [
      "outcome.type undefined",
      [RS(), RF({ outcome: { type: undefined } })],
      rej("FIELD_MISSING", 1, "outcome.type"),
    ],
    [
      "outcome.type before interrupts",
      [RS(), RF({ outcome: { interrupts: [null] } })],
      rej("FIELD_MISSING", 1, "outcome.type"),
    ],
    ["interrupts null", [RS(), interrupt(null)], rej("FIELD_NULL", 1, "outcome.interrupts")],
    [
      'interrupts "x" (§13 #6)',
      [RS(), interrupt("x")],
      rej("FIELD_WRONG_TYPE", 1, "outcome.interrupts"),
    ],
    [
      "interrupts object",
      [RS(), interrupt({ id: "i1", reason: "r" })],
      rej("FIELD_WRONG_TYPE", 1, "outcome.interrupts"),
    ],
    [
      "interrupts [null] (§13 #5)",
      [RS(), interrupt([null])],
      rej("FIELD_NULL", 1, "outcome.interrupts[0]"),
    ],
    [
      "interrupts[1] number",
      [RS(), interrupt([{ id: "i1", reason: "r" }, 5])],
      rej("FIELD_WRONG_TYPE", 1, "outcome.interrupts[1]"),
    ],
    [
      "interrupts[0] array",
      [RS(), interrupt([[]])],
      rej("FIELD_WRONG_TYPE", 1, "outcome.interrupts[0]"),
    ],
    [
      "interrupts[0] undefined element",
      [RS(), interrupt([undefined])],
      rej("FIELD_WRONG_TYPE", 1, "outcome.interrupts[0]"),
    ],
    [
      "first bad interrupt is reported",
      [RS(), interrupt([{}, null, 5])],
      rej("FIELD_NULL", 1, "outcome.interrupts[1]"),
    ],
    [
      "interrupt contents are not read",
      [RS(), interrupt([{}, { id: null, reason: 5, responseSchema: null }])],
      ok,
    ],
    [
      "success outcome: interrupts not read",
      [RS(), RF({ outcome: { type: "success", interrupts: "x" } })],
      ok,
    ],
    [
      "success outcome: pendingToolCallIds not read",
      [RS(), RF({ outcome: { type: "success", pendingToolCallIds: null } })],
      ok,
    ],
    [
      "cancelled outcome with null interrupts",
      [RS(), RF({ outcome: { type: "cancelled", interrupts: null } })],
      ok,
    ],
    [
      "unknown outcome type with bad interrupts",
      [RS(), RF({ outcome: { type: "paused", interrupts: [null] } })],
      ok,
    ],
    ['"Interrupt" is an unknown outcome type', [RS(), RF({ outcome: { type: "Interrupt" } })], ok],
    ["empty-string outcome type", [RS(), RF({ outcome: { type: "" } })], ok],
    ["outcome undefined counts as absent", [RS(), RF({ outcome: undefined })], ok],
    ["RUN_FINISHED null tag is not read (§13 #12)", [RS(), RF({ subagentRunId: null })], ok],
    [
      "RUN_FINISHED: an unread tag does not hide a bad outcome",
      [RS(), RF({ subagentRunId: 1, outcome: null })],
      rej("FIELD_NULL", 1, "outcome"),
    ],
    ["RUN_FINISHED string tag ignored", [RS(), RF({ subagentRunId: "s1" })], ok],
    [
      "RUN_FINISHED field check before rule 7",
      [RS(), TMS("m1"), RF({ outcome: {} })],
      rej("FIELD_MISSING", 2, "outcome.type"),
    ],
    [
      "RUN_FINISHED field check before rule 13",
      [RS(), SAS("s1"), interrupt([null])],
      rej("FIELD_NULL", 2, "outcome.interrupts[0]"),
    ],
  ]),
];

const snapshotRows: Row[] = [
  ...about(0, [
    [
      "MESSAGES_SNAPSHOT without messages",
      [RS(), ev("MESSAGES_SNAPSHOT")],
      rej("FIELD_MISSING", 1, "messages"),
    ],
    ["messages undefined", [RS(), SNAP(undefined)], rej("FIELD_MISSING", 1, "messages")],
    ["messages null", [RS(), SNAP(null)], rej("FIELD_NULL", 1, "messages")],
    ['messages "nope" (§13 #6)', [RS(), SNAP("nope")], rej("FIELD_WRONG_TYPE", 1, "messages")],
    [
      "messages object",
      [RS(), SNAP({ m1: msg("m1", "user") })],
      rej("FIELD_WRONG_TYPE", 1, "messages"),
    ],
    ["messages[0] null", [RS(), SNAP([null])], rej("FIELD_NULL", 1, "messages[0]")],
    ["messages[0] string", [RS(), SNAP(["m1"])], rej("FIELD_WRONG_TYPE", 1, "messages[0]")],
    [
      "messages[0] array",
      [RS(), SNAP([[msg("m1", "user")]])],
      rej("FIELD_WRONG_TYPE", 1, "messages[0]"),
    ],
    [
      "messages[0] undefined element",
      [RS(), SNAP([undefined])],
      rej("FIELD_WRONG_TYPE", 1, "messages[0]"),
    ],
    [
      "messages[1] number",
      [RS(), SNAP([msg("m1", "user"), 3])],
      rej("FIELD_WRONG_TYPE", 1, "messages[1]"),
    ],
    [
      "messages[1] without id (§13 #6)",
      [RS(), SNAP([msg("m1", "user"), { role: "assistant" }])],
      rej("FIELD_MISSING", 1, "messages[1].id"),
    ],
    [
      "message id null",
      [RS(), SNAP([{ id: null, role: "user" }])],
      rej("FIELD_NULL", 1, "messages[0].id"),
    ],
    [
      "message id number",
      [RS(), SNAP([{ id: 7, role: "user" }])],
      rej("FIELD_WRONG_TYPE", 1, "messages[0].id"),
    ],
    [
      "message without role (§13 #6)",
      [RS(), SNAP([{ id: "m1" }])],
      rej("FIELD_MISSING", 1, "messages[0].role"),
    ],
    [
      "message role null",
      [RS(), SNAP([{ id: "m1", role: null }])],
      rej("FIELD_NULL", 1, "messages[0].role"),
    ],
    [
      "message role object",
      [RS(), SNAP([{ id: "m1", role: {} }])],
      rej("FIELD_WRONG_TYPE", 1, "messages[0].role"),
    ],
    [
      "message subagentRunId null",
      [RS(), SNAP([{ id: "m1", role: "user", subagentRunId: null }])],
      rej("FIELD_NULL", 1, "messages[0].subagentRunId"),
    ],
    [
      "message subagentRunId number",
      [RS(), SNAP([{ id: "m1", role: "tool", subagentRunId: 2 }])],
      rej("FIELD_WRONG_TYPE", 1, "messages[0].subagentRunId"),
    ],
    [
      "assistant toolCalls null",
      [RS(), SNAP([{ id: "m1", role: "assistant", toolCalls: null }])],
      rej("FIELD_NULL", 1, "messages[0].toolCalls"),
    ],
    [
      "assistant toolCalls string",
      [RS(), SNAP([{ id: "m1", role: "assistant", toolCalls: "c1" }])],
      rej("FIELD_WRONG_TYPE", 1, "messages[0].toolCalls"),
    ],
    [
      "assistant toolCalls object",
      [RS(), SNAP([{ id: "m1", role: "assistant", toolCalls: {} }])],
      rej("FIELD_WRONG_TYPE", 1, "messages[0].toolCalls"),
    ],
    [
      "assistant toolCalls[0] null",
      [RS(), SNAP([{ id: "m1", role: "assistant", toolCalls: [null] }])],
      rej("FIELD_NULL", 1, "messages[0].toolCalls[0]"),
    ],
    [
      "assistant toolCalls[0] string",
      [RS(), SNAP([{ id: "m1", role: "assistant", toolCalls: ["c1"] }])],
      rej("FIELD_WRONG_TYPE", 1, "messages[0].toolCalls[0]"),
    ],
    [
      "assistant toolCalls[0] array",
      [RS(), SNAP([{ id: "m1", role: "assistant", toolCalls: [[]] }])],
      rej("FIELD_WRONG_TYPE", 1, "messages[0].toolCalls[0]"),
    ],
    [
      "tool call without id",
      [RS(), SNAP([{ id: "m1", role: "assistant", toolCalls: [{ function: {} }] }])],
      rej("FIELD_MISSING", 1, "messages[0].toolCalls[0].id"),
    ],
    [
      "tool call id null",
      [RS(), SNAP([{ id: "m1", role: "assistant", toolCalls: [{ id: null }] }])],
      rej("FIELD_NULL", 1, "messages[0].toolCalls[0].id"),
    ],
    [
      "tool call id number",
      [RS(), SNAP([{ id: "m1", role: "assistant", toolCalls: [{ id: 1 }] }])],
      rej("FIELD_WRONG_TYPE", 1, "messages[0].toolCalls[0].id"),
    ],
    [
      "second tool call bad",
      [RS(), SNAP([{ id: "m1", role: "assistant", toolCalls: [{ id: "c1" }, {}] }])],
      rej("FIELD_MISSING", 1, "messages[0].toolCalls[1].id"),
    ],
    [
      "deep path messages[2].toolCalls[1].id",
      [
        RS(),
        SNAP([
          msg("m0", "user"),
          msg("m1", "assistant", "s1", ["c0"]),
          { id: "m2", role: "assistant", toolCalls: [{ id: "c1" }, { id: [] }] },
        ]),
      ],
      rej("FIELD_WRONG_TYPE", 1, "messages[2].toolCalls[1].id"),
    ],
    [
      "toolCalls not read on a user message",
      [RS(), SNAP([{ id: "m1", role: "user", toolCalls: "garbage" }]), RF()],
      ok,
    ],
    [
      "toolCalls not read on a tool message",
      [RS(), SNAP([{ id: "m1", role: "tool", toolCalls: [null] }]), RF()],
      ok,
    ],
    [
      "toolCalls not read on a reasoning message",
      [RS(), SNAP([{ id: "m1", role: "reasoning", toolCalls: null }]), RF()],
      ok,
    ],
    [
      "toolCalls not read on an activity message",
      [RS(), SNAP([{ id: "m1", role: "activity", toolCalls: 5 }]), RF()],
      ok,
    ],
    [
      "toolCalls not read on an unknown role",
      [RS(), SNAP([{ id: "m1", role: "robot", toolCalls: [{}] }]), RF()],
      ok,
    ],
    [
      'toolCalls not read on role "Assistant"',
      [RS(), SNAP([{ id: "m1", role: "Assistant", toolCalls: {} }]), RF()],
      ok,
    ],
    [
      "unread message fields may be null",
      [
        RS(),
        SNAP([
          {
            id: "m1",
            role: "assistant",
            content: null,
            name: null,
            toolCallId: null,
            toolCalls: [{ id: "c1", type: null, function: null }],
          },
        ]),
        RF(),
      ],
      ok,
    ],
    ["empty snapshot", [RS(), SNAP([]), RF()], ok],
    [
      "id reported before role",
      [RS(), SNAP([{ id: 5, role: null }])],
      rej("FIELD_WRONG_TYPE", 1, "messages[0].id"),
    ],
    [
      "role reported before subagentRunId",
      [RS(), SNAP([{ id: "m1", subagentRunId: null }])],
      rej("FIELD_MISSING", 1, "messages[0].role"),
    ],
    [
      "message subagentRunId reported before toolCalls",
      [RS(), SNAP([{ id: "m1", role: "assistant", toolCalls: [null], subagentRunId: 5 }])],
      rej("FIELD_WRONG_TYPE", 1, "messages[0].subagentRunId"),
    ],
    [
      "a message's toolCalls before the next message",
      [RS(), SNAP([{ id: "m1", role: "assistant", toolCalls: [{ id: false }] }, null])],
      rej("FIELD_WRONG_TYPE", 1, "messages[0].toolCalls[0].id"),
    ],
    [
      "earlier tool call element before later",
      [RS(), SNAP([{ id: "m1", role: "assistant", toolCalls: [5, null] }])],
      rej("FIELD_WRONG_TYPE", 1, "messages[0].toolCalls[0]"),
    ],
    [
      "snapshot: an unread null tag does not hide missing messages",
      [RS(), ev("MESSAGES_SNAPSHOT", { subagentRunId: null })],
      rej("FIELD_MISSING", 1, "messages"),
    ],
    [
      "snapshot numeric tag is not read (§13 #12)",
      [RS(), SNAP([], { subagentRunId: 9 }), RF()],
      ok,
    ],
    ["snapshot null tag is not read", [RS(), SNAP([], { subagentRunId: null }), RF()], ok],
    [
      "snapshot string tag ignored",
      [RS(), SNAP([msg("m1", "user")], { subagentRunId: "s1" }), RF()],
      ok,
    ],
    [
      "snapshot tag does not own its messages",
      [RS(), SNAP([msg("m1", "user")], { subagentRunId: "s1" }), TMS("m1", "s1")],
      rej("OWNER_MISMATCH", 2),
    ],
  ]),
];

// ---------------------------------------------------------------------------------------
// D. Unknown and THINKING_* types (§9.2, §9.5): only `type` is read.

const unknownRows: Row[] = [
  ...about(0, [
    ...THINKING_TYPES.map(
      (t): Row => [
        `${t} with null tag and junk fields`,
        [RS(), ev(t, { subagentRunId: null, title: 5, delta: null, messageId: null }), RF()],
        ok,
      ],
    ),
    [
      "THINKING_TEXT_MESSAGE_CONTENT without a start (§9.5)",
      [RS(), ev("THINKING_TEXT_MESSAGE_CONTENT"), RF()],
      ok,
    ],
    ["THINKING_END without a start", [RS(), ev("THINKING_END"), ev("THINKING_END"), RF()], ok],
    [
      "THINKING_START open at RUN_FINISHED",
      [RS(), ev("THINKING_START"), ev("THINKING_TEXT_MESSAGE_START"), RF()],
      ok,
    ],
    [
      "unknown type with bad reads of recognised fields",
      [RS(), ev("TEXT_MESSAGE_START_V2", { messageId: null, subagentRunId: 5 }), RF()],
      ok,
    ],
    ["unknown type with an array tag", [RS(), ev("FUTURE", { subagentRunId: [] }), RF()], ok],
    ['type "constructor" is unknown', [RS(), ev("constructor"), RF()], ok],
    ['type "__proto__" is unknown', [RS(), ev("__proto__"), RF()], ok],
    ['type "toString" is unknown', [RS(), ev("toString"), ev("hasOwnProperty"), RF()], ok],
    ["empty-string type inside the run", [RS(), ev(""), RF()], ok],
    [
      "lower-case run_finished does not close the run",
      [RS(), ev("run_finished")],
      rej("STREAM_ENDED_BEFORE_RUN_CLOSED", 2),
    ],
    [
      "unknown type closes nothing",
      [RS(), TMS("m1"), ev("TEXT_MESSAGE_STOP", { messageId: "m1" }), RF()],
      rej("OPEN_AT_RUN_FINISHED", 3),
    ],
    [
      "unknown type opens nothing",
      [RS(), ev("TEXT_MESSAGE_BEGIN", { messageId: "m1" }), TMC("m1")],
      rej("TEXT_MESSAGE_NOT_OPEN", 2),
    ],
  ]),
];

// ---------------------------------------------------------------------------------------
// E. Rules 3–8.

const lifecycleRows: Row[] = [
  ...about(3, [
    // rule 3
    ["TEXT_MESSAGE_END never opened", [RS(), TME("m1")], rej("TEXT_MESSAGE_NOT_OPEN", 1)],
    [
      "TEXT_MESSAGE_CONTENT after end",
      [RS(), TMS("m1"), TME("m1"), TMC("m1")],
      rej("TEXT_MESSAGE_NOT_OPEN", 3),
    ],
    [
      "TEXT_MESSAGE_CONTENT for another id",
      [RS(), TMS("m1"), TMC("m2")],
      rej("TEXT_MESSAGE_NOT_OPEN", 2),
    ],
    [
      "TEXT_MESSAGE_START twice, tagged the same",
      [RS(), TMS("m1", "s1"), TMS("m1", "s1")],
      rej("TEXT_MESSAGE_ALREADY_OPEN", 2),
    ],
    [
      "re-open after end, twice",
      [RS(), TMS("m1"), TME("m1"), TMS("m1"), TME("m1"), TMS("m1"), TMC("m1"), TME("m1"), RF()],
      ok,
    ],
    [
      "text id open as a tool call only",
      [RS(), TCS("x"), TMC("x")],
      rej("TEXT_MESSAGE_NOT_OPEN", 2),
    ],
    [
      "text id open as a reasoning message only",
      [RS(), RMS("x"), TME("x")],
      rej("TEXT_MESSAGE_NOT_OPEN", 2),
    ],
    ['id "__proto__" is not open', [RS(), TMC("__proto__")], rej("TEXT_MESSAGE_NOT_OPEN", 1)],
    ['id "constructor" is not open', [RS(), TME("constructor")], rej("TEXT_MESSAGE_NOT_OPEN", 1)],
    [
      "ids named like Object.prototype members work",
      [RS(), TMS("toString"), TMS("__proto__"), TME("toString"), TME("__proto__"), RF()],
      ok,
    ],
    ["ids are case-sensitive", [RS(), TMS("m1"), TME("M1")], rej("TEXT_MESSAGE_NOT_OPEN", 2)],
  ]),
  ...about(4, [
    // rule 4, tool calls
    ["TOOL_CALL_END never opened", [RS(), TCE("c1")], rej("TOOL_CALL_NOT_OPEN", 1)],
    [
      "TOOL_CALL_ARGS after end",
      [RS(), TCS("c1"), TCE("c1"), TCA("c1")],
      rej("TOOL_CALL_NOT_OPEN", 3),
    ],
    ["TOOL_CALL_END twice", [RS(), TCS("c1"), TCE("c1"), TCE("c1")], rej("TOOL_CALL_NOT_OPEN", 3)],
    [
      "TOOL_CALL_START twice",
      [RS(), TCS("c1"), TCA("c1"), TCS("c1")],
      rej("TOOL_CALL_ALREADY_OPEN", 3),
    ],
    [
      "tool call re-opened after end",
      [RS(), TCS("c1"), TCE("c1"), TCS("c1"), TCA("c1"), TCE("c1"), RF()],
      ok,
    ],
    [
      "tool id open as a text message only",
      [RS(), TMS("x"), TCA("x")],
      rej("TOOL_CALL_NOT_OPEN", 2),
    ],
    [
      "TEXT_MESSAGE_END does not close a tool call",
      [RS(), TCS("x"), TMS("x"), TME("x"), RF()],
      rej("OPEN_AT_RUN_FINISHED", 4),
    ],
    // rule 4, reasoning messages
    ["REASONING_MESSAGE_END never opened", [RS(), RME("r1")], rej("REASONING_MESSAGE_NOT_OPEN", 1)],
    [
      "REASONING_MESSAGE_CONTENT after end",
      [RS(), RMS("r1"), RME("r1"), RMC("r1")],
      rej("REASONING_MESSAGE_NOT_OPEN", 3),
    ],
    [
      "REASONING_MESSAGE_START twice with a content between",
      [RS(), RMS("r1"), RMC("r1"), RMS("r1")],
      rej("REASONING_MESSAGE_ALREADY_OPEN", 3),
    ],
    [
      "reasoning message re-opened after end",
      [RS(), RMS("r1"), RME("r1"), RMS("r1"), RME("r1"), RF()],
      ok,
    ],
    [
      "REASONING_START does not open a reasoning message",
      [RS(), RST("r1"), RMC("r1")],
      rej("REASONING_MESSAGE_NOT_OPEN", 2),
    ],
    [
      "REASONING_END does not close a reasoning message",
      [RS(), RST("r1"), RMS("r1"), REND("r1"), RF()],
      rej("OPEN_AT_RUN_FINISHED", 4),
    ],
    [
      "reasoning id open as a text message only",
      [RS(), TMS("x"), RMC("x")],
      rej("REASONING_MESSAGE_NOT_OPEN", 2),
    ],
    [
      "reasoning message inside a block",
      [RS(), RST("r1"), RMS("r1"), RMC("r1"), RME("r1"), REND("r1"), RF()],
      ok,
    ],
    ["REASONING_MESSAGE_CONTENT not open", [RS(), RMC("m")], rej("REASONING_MESSAGE_NOT_OPEN", 1)],
    [
      "REASONING_MESSAGE_START twice",
      [RS(), RMS("m"), RMS("m")],
      rej("REASONING_MESSAGE_ALREADY_OPEN", 2),
    ],
    [
      "REASONING_MESSAGE_START then RUN_FINISHED",
      [RS(), RMS("m"), RF()],
      rej("OPEN_AT_RUN_FINISHED", 2),
    ],
    // rule 4, reasoning spans (SPEC v4, §9.11). 1.1: "A consumer MUST detect a violation of
    // that discipline and fail the run, on spans and on reasoning messages alike".
    ["REASONING_END without a start", [RS(), REND("r"), RF()], rej("REASONING_SPAN_NOT_OPEN", 1)],
    [
      "REASONING_END tagged, without a start",
      [RS(), REND("r", "s1")],
      rej("REASONING_SPAN_NOT_OPEN", 1),
    ],
    ["REASONING_START never ended", [RS(), RST("r"), RF()], rej("OPEN_AT_RUN_FINISHED", 2)],
    [
      "REASONING_START twice",
      [RS(), RST("r"), RST("r"), RF()],
      rej("REASONING_SPAN_ALREADY_OPEN", 2),
    ],
    [
      "REASONING_START twice, tagged the same",
      [RS(), RST("r", "s1"), RMS("m"), RST("r", "s1")],
      rej("REASONING_SPAN_ALREADY_OPEN", 3),
    ],
    [
      "REASONING_END twice",
      [RS(), RST("r"), REND("r"), REND("r"), RF()],
      rej("REASONING_SPAN_NOT_OPEN", 3),
    ],
    [
      "REASONING_END for another span",
      [RS(), RST("r1"), REND("r2")],
      rej("REASONING_SPAN_NOT_OPEN", 2),
    ],
    [
      "span ids are case-sensitive",
      [RS(), RST("r1"), REND("R1")],
      rej("REASONING_SPAN_NOT_OPEN", 2),
    ],
    [
      'span id "__proto__" is not open',
      [RS(), REND("__proto__")],
      rej("REASONING_SPAN_NOT_OPEN", 1),
    ],
    ["a span re-opened after its end", [RS(), RST("r"), REND("r"), RST("r"), REND("r"), RF()], ok],
    [
      "two spans open at once, closed in any order",
      [RS(), RST("a"), RST("b"), REND("a"), RST("a"), REND("b"), REND("a"), RF()],
      ok,
    ],
    // 1.1: "A span and the message inside it MAY share an identifier, so each is checked
    // against its own open set"; a span may hold any number of messages, a message needs none.
    [
      "a span holds several reasoning messages",
      [RS(), RST("r1"), RMS("r1"), RME("r1"), RMS("r2"), RMC("r2"), RME("r2"), REND("r1"), RF()],
      ok,
    ],
    ["a reasoning message needs no span", [RS(), RMS("r1"), RMC("r1"), RME("r1"), RF()], ok],
    [
      "a span and a message of one id end in either order",
      [RS(), RST("r1"), RMS("r1"), REND("r1"), RMC("r1"), RME("r1"), RF()],
      ok,
    ],
    [
      "REASONING_MESSAGE_END does not close a span",
      [RS(), RST("r1"), RMS("r1"), RME("r1"), RF()],
      rej("OPEN_AT_RUN_FINISHED", 4),
    ],
    [
      "REASONING_MESSAGE_END does not end a span",
      [RS(), RMS("r1"), RME("r1"), REND("r1")],
      rej("REASONING_SPAN_NOT_OPEN", 3),
    ],
    [
      "a span is not a reasoning message (end)",
      [RS(), RST("r1"), RME("r1")],
      rej("REASONING_MESSAGE_NOT_OPEN", 2),
    ],
    [
      "an open reasoning message does not make REASONING_START a re-start",
      [RS(), RMS("r1"), RST("r1"), REND("r1"), RME("r1"), RF()],
      ok,
    ],
    [
      "a span id open as a text message and a tool call",
      [RS(), TMS("x"), TCS("x"), RST("x"), REND("x"), TCE("x"), TME("x"), RF()],
      ok,
    ],
    [
      "a text message of the span's id does not open the span",
      [RS(), TMS("x"), REND("x")],
      rej("REASONING_SPAN_NOT_OPEN", 2),
    ],
    [
      "TEXT_MESSAGE_END does not end a span",
      [RS(), RST("x"), TMS("x"), TME("x"), RF()],
      rej("OPEN_AT_RUN_FINISHED", 4),
    ],
  ]),
  ...about(5, [
    // Rule 5 is retired (SPEC v4 §7): "1.1 lets a result arrive in the same run as its call
    // and asks no consumer to reject a result for an open call"; the linter warns instead.
    ["TOOL_CALL_RESULT before end", [RS(), TCS("c1"), TCR("c1", "t1"), TCE("c1"), RF()], ok],
    [
      "result for a re-opened call",
      [
        RS(),
        TCS("c1"),
        TCE("c1"),
        TCR("c1", "t1"),
        TCS("c1"),
        TCA("c1"),
        TCR("c1", "t2"),
        TCE("c1"),
        RF(),
      ],
      ok,
    ],
    [
      "result for a call open under a subagent, tagged",
      [RS(), TCS("c1", "s1"), TCR("c1", "t1", "s1"), TCA("c1", "s1"), TCE("c1"), RF()],
      ok,
    ],
    [
      "result for an open call, from another subagent",
      [RS(), TCS("c1", "s1"), TCR("c1", "t1", "s2"), TCE("c1", "s1"), RF()],
      ok,
    ],
    [
      "a result does not end its open call",
      [RS(), TCS("c1"), TCR("c1", "t1"), RF()],
      rej("OPEN_AT_RUN_FINISHED", 3),
    ],
    ["result never started in this run", [RS(), TCR("c9", "t9"), RF()], ok],
    [
      "several results for one ended call",
      [RS(), TCS("c1"), TCE("c1"), TCR("c1", "t1"), TCR("c1", "t2"), TCR("c1", "t1"), RF()],
      ok,
    ],
    [
      "result while a text message of the same id is open",
      [RS(), TMS("c1"), TCR("c1", "t1"), TME("c1"), RF()],
      ok,
    ],
    [
      "result while a reasoning message is open",
      [RS(), RMS("r1"), TCR("c1", "r2"), RME("r1"), RF()],
      ok,
    ],
    [
      "result for an ended call while another call is open",
      [RS(), TCS("c1"), TCE("c1"), TCS("c2"), TCR("c1", "t1"), TCE("c2"), RF()],
      ok,
    ],
    [
      "result tagged differently from the call's owner",
      [RS(), TCS("c1", "s1"), TCE("c1"), TCR("c1", "t1", "s2"), TCR("c1", "t1"), RF()],
      ok,
    ],
    [
      "TOOL_CALL_CHUNK does not end a call",
      [RS(), TCS("c1"), ev("TOOL_CALL_CHUNK", { toolCallId: "c1" }), TCR("c1", "t1"), RF()],
      rej("OPEN_AT_RUN_FINISHED", 4),
    ],
  ]),
  ...about(6, [
    // rule 6
    [
      "STEP_STARTED twice, same subagent",
      [RS(), SS("plan", "s1"), SS("plan", "s1")],
      rej("STEP_ALREADY_ACTIVE", 2),
    ],
    [
      'STEP_STARTED twice, both ""',
      [RS(), SS("plan", ""), SS("plan", "")],
      rej("STEP_ALREADY_ACTIVE", 2),
    ],
    ["STEP_FINISHED twice", [RS(), SS("plan"), SF("plan"), SF("plan")], rej("STEP_NOT_STARTED", 3)],
    ["STEP_FINISHED for another name", [RS(), SS("a"), SF("b")], rej("STEP_NOT_STARTED", 2)],
    ["STEP_FINISHED tagged, never started", [RS(), SF("plan", "s1")], rej("STEP_NOT_STARTED", 1)],
    [
      'step name "constructor" never started',
      [RS(), SF("constructor")],
      rej("STEP_NOT_STARTED", 1),
    ],
    [
      "steps close in any order (three)",
      [RS(), SS("a"), SS("b"), SS("c"), SF("b"), SF("c"), SF("a"), RF()],
      ok,
    ],
    [
      "a step restarts after it finished, under a subagent",
      [RS(), SS("a", "s1"), SF("a", "s1"), SS("a", "s1"), SF("a", "s1"), RF()],
      ok,
    ],
    [
      "step names are independent of message ids",
      [RS(), SS("x"), TMS("x"), SF("x"), TME("x"), RF()],
      ok,
    ],
  ]),
  ...about(7, [
    // rule 7
    ["open tool call at RUN_FINISHED", [RS(), TCS("c1"), RF()], rej("OPEN_AT_RUN_FINISHED", 2)],
    [
      "open reasoning message at RUN_FINISHED",
      [RS(), RMS("r1", "s1"), RF()],
      rej("OPEN_AT_RUN_FINISHED", 2),
    ],
    ["open step at RUN_FINISHED", [RS(), SS("plan"), RF()], rej("OPEN_AT_RUN_FINISHED", 2)],
    [
      "open subagent step at RUN_FINISHED",
      [RS(), SS("plan"), SS("plan", "s1"), SF("plan"), RF()],
      rej("OPEN_AT_RUN_FINISHED", 4),
    ],
    [
      "subagent finished but its step still open (§9.13)",
      [RS(), SAS("s1"), SS("plan", "s1"), SAF("s1"), RF()],
      rej("OPEN_AT_RUN_FINISHED", 4),
    ],
    [
      "subagent finished but its message still open",
      [RS(), SAS("s1"), TMS("m1", "s1"), SAE("s1"), RF()],
      rej("OPEN_AT_RUN_FINISHED", 4),
    ],
    [
      "open text message at an interrupt RUN_FINISHED",
      [RS(), TMS("m1"), interrupt([{ id: "i1", reason: "r" }])],
      rej("OPEN_AT_RUN_FINISHED", 2),
    ],
    ["activities are never open", [RS(), AS("a1"), AD("a1"), AS("a2", "s1", false), RF()], ok],
    // SPEC v4 rule 7: "RUN_FINISHED while any is open" counts "reasoning spans".
    [
      "open reasoning span at RUN_FINISHED",
      [RS(), AS("a1"), RST("r1"), AD("a1"), RF()],
      rej("OPEN_AT_RUN_FINISHED", 4),
    ],
    [
      "open reasoning span of a subagent at RUN_FINISHED",
      [RS(), SAS("s1"), RST("r1", "s1"), SAF("s1"), RF()],
      rej("OPEN_AT_RUN_FINISHED", 4),
    ],
    [
      "open reasoning span at an interrupt RUN_FINISHED",
      [RS(), RST("r1"), interrupt([{ id: "i1", reason: "r" }])],
      rej("OPEN_AT_RUN_FINISHED", 2),
    ],
    [
      "RUN_ERROR with everything open (§9.8)",
      [
        RS(),
        TMS("m1"),
        TCS("c1"),
        RMS("r1"),
        RST("r1"),
        SS("plan"),
        SS("plan", "s1"),
        SAS("s1"),
        RE(),
      ],
      ok,
    ],
    [
      "everything opened and closed",
      [
        RS(),
        TMS("m1"),
        TCS("c1", undefined, "m1"),
        TCE("c1"),
        TME("m1"),
        RST("r1"),
        RMS("r1"),
        RME("r1"),
        REND("r1"),
        SS("p"),
        SF("p"),
        RF(),
      ],
      ok,
    ],
  ]),
  ...about(8, [
    // rule 8
    [
      "interrupt with empty interrupts (§13 #2)",
      [RS(), interrupt([])],
      rej("INTERRUPT_OUTCOME_EMPTY", 1),
    ],
    [
      "interrupt without interrupts (§13 #2)",
      [RS(), TMS("m1"), TME("m1"), interrupt()],
      rej("INTERRUPT_OUTCOME_EMPTY", 3),
    ],
    [
      "interrupt with interrupts undefined",
      [RS(), RF({ outcome: { type: "interrupt", interrupts: undefined } })],
      rej("INTERRUPT_OUTCOME_EMPTY", 1),
    ],
    ["interrupt with one empty-object interrupt", [RS(), interrupt([{}])], ok],
    [
      "interrupt with two interrupts",
      [
        RS(),
        interrupt([
          { id: "i1", reason: "a" },
          { id: "i2", reason: "b" },
        ]),
      ],
      ok,
    ],
    [
      "RUN_ERROR outcome is not read",
      [RS(), RE({ outcome: { type: "interrupt", interrupts: [] } })],
      ok,
    ],
    [
      "SUBAGENT_FINISHED outcome is not read (§3.4)",
      [
        RS(),
        SAS("s1"),
        ev("SUBAGENT_FINISHED", { subagentRunId: "s1", outcome: { type: "interrupt" } }),
        RF(),
      ],
      ok,
    ],
  ]),
  ...about(7, [
    // precedence among RUN_FINISHED checks: r7, r8, r13
    ["rule 7 before rule 8", [RS(), SS("a"), interrupt([])], rej("OPEN_AT_RUN_FINISHED", 2)],
    [
      "rule 7 (an open span) before rule 8",
      [RS(), RST("r1"), interrupt([])],
      rej("OPEN_AT_RUN_FINISHED", 2),
    ],
    [
      "rule 7 (an open span) before rule 13",
      [RS(), SAS("s1"), RST("r1", "s1"), RF()],
      rej("OPEN_AT_RUN_FINISHED", 3),
    ],
    ["rule 8 before rule 13", [RS(), SAS("s1"), interrupt([])], rej("INTERRUPT_OUTCOME_EMPTY", 2)],
    [
      "rule 7 before rule 13",
      [RS(), SAS("s1"), TCS("c1", "s1"), RF()],
      rej("OPEN_AT_RUN_FINISHED", 3),
    ],
  ]),
];

// ---------------------------------------------------------------------------------------
// F. Ownership: rules 9–11 and §8.

const ownershipRows: Row[] = [
  ...about(9, [
    // rule 9, text messages
    [
      "TEXT_MESSAGE_END names another subagent",
      [RS(), TMS("m1", "s1"), TME("m1", "s2")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "parent-owned message continued by a subagent",
      [RS(), TMS("m1"), TMC("m1", "s1")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      '""-owned message continued by ""',
      [RS(), TMS("m1", ""), TMC("m1", ""), TME("m1", ""), RF()],
      ok,
    ],
    [
      '""-owned message continued by s1',
      [RS(), TMS("m1", ""), TMC("m1", "s1")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "re-open by the parent of a subagent's message passes when untagged",
      [RS(), TMS("m1", "s1"), TME("m1"), TMS("m1"), TME("m1"), RF()],
      ok,
    ],
    [
      "passing never changes the owner",
      [RS(), TMS("m1", "s1"), TME("m1"), TMS("m1"), TME("m1"), TMS("m1", "s2")],
      rej("OWNER_MISMATCH", 5),
    ],
    [
      'parent-owned message re-opened by ""',
      [RS(), TMS("m1"), TME("m1"), TMS("m1", "")],
      rej("OWNER_MISMATCH", 3),
    ],
    [
      "owners are case-sensitive",
      [RS(), TMS("m1", "s1"), TMC("m1", "S1")],
      rej("OWNER_MISMATCH", 2),
    ],
    // rule 9, tool calls
    [
      "TOOL_CALL_ARGS names another subagent",
      [RS(), TCS("c1", "s1"), TCA("c1", "s2")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "TOOL_CALL_END by a subagent for a parent call",
      [RS(), TCS("c1"), TCE("c1", "s1")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "tool call re-opened by another subagent",
      [RS(), TCS("c1", "s1"), TCE("c1", "s1"), TCS("c1", "s2")],
      rej("OWNER_MISMATCH", 3),
    ],
    [
      "untagged re-open keeps the first owner",
      [RS(), TCS("c1", "s1"), TCE("c1"), TCS("c1"), TCA("c1", "s2")],
      rej("OWNER_MISMATCH", 4),
    ],
    [
      "untagged re-open, then the owner continues",
      [RS(), TCS("c1", "s1"), TCE("c1"), TCS("c1"), TCA("c1", "s1"), TCE("c1"), RF()],
      ok,
    ],
    // rule 9, reasoning messages and reasoning spans: two registries (SPEC v4 §8.1; 1.1:
    // "Spans and reasoning messages are separate namespaces")
    [
      "REASONING_MESSAGE_CONTENT names another subagent",
      [RS(), RMS("r1", "s1"), RMC("r1", "s2")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "REASONING_MESSAGE_END names another subagent",
      [RS(), RMS("r1", "s1"), RME("r1", "")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "REASONING_END names another subagent",
      [RS(), RST("r1", "s1"), RMS("r1", "s1"), RME("r1"), REND("r1", "")],
      rej("OWNER_MISMATCH", 4),
    ],
    [
      "REASONING_END by a subagent for a parent span",
      [RS(), RST("r1"), REND("r1", "s1")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "span re-opened by another subagent (§9.11)",
      [RS(), RST("r1", "s1"), REND("r1"), RST("r1", "s2")],
      rej("OWNER_MISMATCH", 3),
    ],
    [
      "span re-opened untagged, then ended by its owner",
      [RS(), RST("r1", "s1"), REND("r1"), RST("r1"), REND("r1", "s1"), RF()],
      ok,
    ],
    [
      "an untagged REASONING_END does not hand the span to the parent",
      [RS(), RST("r1", "s1"), REND("r1"), RST("r1", "s1"), REND("r1"), RST("r1", "s2")],
      rej("OWNER_MISMATCH", 5),
    ],
    [
      "a span's owner is not its message's (same id)",
      [RS(), RST("r1"), RMS("r1", "s1"), RMC("r1", "s1"), RME("r1", "s1"), REND("r1"), RF()],
      ok,
    ],
    [
      "a reasoning message's owner is not a later span's (same id)",
      [RS(), RMS("r1", "s1"), RME("r1"), RST("r1", "s2"), REND("r1", "s2"), RF()],
      ok,
    ],
    [
      "the span registry is checked on REASONING_END even with a message of the id open",
      [RS(), RST("r1", "s1"), RMS("r1", "s2"), REND("r1", "s2")],
      rej("OWNER_MISMATCH", 3),
    ],
    [
      "reasoning registry is separate from the message registry",
      [RS(), TMS("x", "s1"), RMS("x", "s2"), RME("x", "s2"), TME("x", "s1"), RF()],
      ok,
    ],
    // rule 9, activities (§8.3)
    [
      "ACTIVITY_DELTA names another subagent",
      [RS(), AS("a1", "s1"), AD("a1", "s2")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "ACTIVITY_DELTA by a subagent on a parent activity",
      [RS(), AS("a1"), AD("a1", "s1")],
      rej("OWNER_MISMATCH", 2),
    ],
    ["ACTIVITY_DELTA with no owner, any tag", [RS(), AD("a1", "s1"), AD("a1", "s2"), RF()], ok],
    ["ACTIVITY_DELTA untagged always passes", [RS(), AS("a1", "s1"), AD("a1"), RF()], ok],
    [
      "replacing snapshot (replace absent) re-mints to the parent",
      [RS(), AS("a1", "s1"), AS("a1"), AD("a1", "s1")],
      rej("OWNER_MISMATCH", 3),
    ],
    [
      "replace: true re-mints",
      [RS(), AS("a1", "s1"), AS("a1", "s2", true), AD("a1", "s1")],
      rej("OWNER_MISMATCH", 3),
    ],
    [
      "replace: true re-mints, new owner continues",
      [RS(), AS("a1", "s1"), AS("a1", "s2", true), AD("a1", "s2"), RF()],
      ok,
    ],
    [
      "replace: false keeps the existing owner",
      [RS(), AS("a1", "s1"), AS("a1", "s2", false), AD("a1", "s1"), RF()],
      ok,
    ],
    [
      "replace: false from the parent keeps a subagent owner",
      [RS(), AS("a1", "s1"), AS("a1", undefined, false), AD("a1", "")],
      rej("OWNER_MISMATCH", 3),
    ],
    [
      "replace: false on an unknown activity records",
      [RS(), AS("a1", "s1", false), AD("a1", "s2")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "ACTIVITY_SNAPSHOT is never rejected on ownership",
      [RS(), AS("a1", "s1"), AS("a1", "s2"), AS("a1", "", false), AS("a1"), RF()],
      ok,
    ],
    [
      "replace undefined counts as absent (replacing)",
      [
        RS(),
        AS("a1", "s1"),
        ev("ACTIVITY_SNAPSHOT", { messageId: "a1", subagentRunId: "s2", replace: undefined }),
        AD("a1", "s2"),
        RF(),
      ],
      ok,
    ],
    ["activity registry is separate", [RS(), AS("x", "s1"), TMS("x", "s2"), TME("x"), RF()], ok],
    // REASONING_ENCRYPTED_VALUE (§8.6)
    [
      "REV message subtype against a text message",
      [RS(), TMS("m1", "s1"), TME("m1"), REV("message", "m1", "s2")],
      rej("OWNER_MISMATCH", 3),
    ],
    [
      "REV message subtype against a reasoning message",
      [RS(), RMS("r1", "s1"), RME("r1"), REV("message", "r1", "")],
      rej("OWNER_MISMATCH", 3),
    ],
    [
      "REV message subtype does not consult the span registry",
      [RS(), RST("r1", "s1"), REV("message", "r1", ""), REND("r1"), RF()],
      ok,
    ],
    [
      "REV message subtype, owner agrees",
      [RS(), RMS("r1", "s1"), REV("message", "r1", "s1"), REV("message", "r1"), RME("r1"), RF()],
      ok,
    ],
    [
      "REV message: message registry is consulted first",
      [RS(), TMS("x", "s1"), RMS("x", "s2"), REV("message", "x", "s2")],
      rej("OWNER_MISMATCH", 3),
    ],
    [
      "REV message: reasoning owner not consulted when a message owner exists",
      [RS(), TMS("x", "s1"), TME("x"), RMS("x", "s2"), RME("x"), REV("message", "x", "s1"), RF()],
      ok,
    ],
    [
      "REV tool-call subtype",
      [RS(), TCS("c1", "s1"), TCE("c1"), REV("tool-call", "c1", "s2")],
      rej("OWNER_MISMATCH", 3),
    ],
    [
      "REV tool-call subtype against a parent call",
      [RS(), TCS("c1"), REV("tool-call", "c1", "s1")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "REV tool-call ignores the message registry",
      [RS(), TMS("x", "s1"), TME("x"), REV("tool-call", "x", "s2"), RF()],
      ok,
    ],
    [
      "REV message ignores the tool-call registry",
      [RS(), TCS("x", "s1"), TCE("x"), REV("message", "x", "s2"), RF()],
      ok,
    ],
    [
      "REV with unknown subtype is not checked (§13 #8)",
      [RS(), RST("x", "s1"), REND("x", "s1"), REV("future", "x", "s2"), RF()],
      ok,
    ],
    [
      'REV subtype "reasoning" is unknown',
      [RS(), RMS("r1", "s1"), RME("r1"), REV("reasoning", "r1", "s2"), RF()],
      ok,
    ],
    [
      'REV subtype "Message" is unknown',
      [RS(), TMS("m1", "s1"), TME("m1"), REV("Message", "m1", "s2"), RF()],
      ok,
    ],
    [
      "REV records no owner",
      [
        RS(),
        REV("message", "m1", "s1"),
        REV("tool-call", "c1", "s1"),
        TMS("m1", "s2"),
        TME("m1"),
        TCS("c1", "s2"),
        TCE("c1"),
        RF(),
      ],
      ok,
    ],
    ["REV for an id nobody owns", [RS(), REV("message", "nobody", "s1"), RF()], ok],
    [
      "REV while the entity is open",
      [RS(), RMS("r1", "s1"), REV("message", "r1", "s2")],
      rej("OWNER_MISMATCH", 2),
    ],
  ]),
  ...about(10, [
    // rule 10
    [
      "tagged call under a parent-owned message",
      [RS(), TMS("m1"), TCS("c1", "s1", "m1")],
      rej("TOOL_CALL_PARENT_OWNER_MISMATCH", 2),
    ],
    [
      '""-tagged call under a parent-owned message',
      [RS(), TMS("m1"), TCS("c1", "", "m1")],
      rej("TOOL_CALL_PARENT_OWNER_MISMATCH", 2),
    ],
    [
      "tagged call under a message of the same subagent",
      [RS(), TMS("m1", "s1"), TCS("c1", "s1", "m1"), TCE("c1"), TME("m1"), RF()],
      ok,
    ],
    [
      "parent message already ended still owns",
      [RS(), TMS("m1", "s1"), TME("m1"), TCS("c1", "s2", "m1")],
      rej("TOOL_CALL_PARENT_OWNER_MISMATCH", 3),
    ],
    [
      "untagged call inherits PARENT; registry holds a subagent",
      [RS(), TCS("c1", "s1"), TCE("c1", "s1"), TMS("m1"), TME("m1"), TCS("c1", undefined, "m1")],
      rej("TOOL_CALL_PARENT_OWNER_MISMATCH", 5),
    ],
    [
      "untagged call inherits s1; registry holds the parent",
      [RS(), TCS("c1"), TCE("c1"), TMS("m1", "s1"), TCS("c1", undefined, "m1")],
      rej("TOOL_CALL_PARENT_OWNER_MISMATCH", 4),
    ],
    [
      'untagged call inherits ""; registry holds the parent',
      [RS(), TCS("c1"), TCE("c1"), TMS("m1", ""), TCS("c1", undefined, "m1")],
      rej("TOOL_CALL_PARENT_OWNER_MISMATCH", 4),
    ],
    [
      "untagged re-open inheriting the same owner",
      [
        RS(),
        TMS("m1", "s1"),
        TCS("c1", "s1"),
        TCE("c1"),
        TCS("c1", undefined, "m1"),
        TCE("c1"),
        TME("m1"),
        RF(),
      ],
      ok,
    ],
    [
      "inherited PARENT owner is enforced on ARGS",
      [RS(), TMS("m1"), TCS("c1", undefined, "m1"), TCA("c1", "s1")],
      rej("OWNER_MISMATCH", 3),
    ],
    [
      "inherited owner is enforced on END",
      [RS(), TMS("m1", "s1"), TCS("c1", undefined, "m1"), TCE("c1", "s2")],
      rej("OWNER_MISMATCH", 3),
    ],
    [
      "unknown parentMessageId: untagged call is the parent's",
      [RS(), TCS("c1", undefined, "nope"), TCA("c1", "s1")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "unknown parentMessageId: tagged call is the tag's",
      [RS(), TCS("c1", "s1", "nope"), TCA("c1", "s1"), TCE("c1", "s1"), RF()],
      ok,
    ],
    [
      "parentMessageId naming a reasoning message is unrecorded",
      [RS(), RMS("r1", "s1"), RME("r1"), TCS("c1", "s2", "r1"), TCE("c1"), RF()],
      ok,
    ],
    [
      "parentMessageId naming an activity is unrecorded",
      [RS(), AS("a1", "s1"), TCS("c1", "s2", "a1"), TCE("c1"), RF()],
      ok,
    ],
    [
      "parentMessageId naming a tool call id is unrecorded",
      [RS(), TCS("m1", "s1"), TCE("m1"), TCS("c1", "s2", "m1"), TCE("c1"), RF()],
      ok,
    ],
    [
      "parent message minted by a result",
      [RS(), TCR("c0", "t1", "s1"), TCS("c1", "s2", "t1")],
      rej("TOOL_CALL_PARENT_OWNER_MISMATCH", 2),
    ],
    [
      "parent message seeded by a snapshot",
      [RS(), SNAP([msg("m1", "assistant", "s1")]), TCS("c1", "s2", "m1")],
      rej("TOOL_CALL_PARENT_OWNER_MISMATCH", 2),
    ],
    [
      "parent message seeded by the input echo",
      [echo([msg("m1", "assistant", "s1")]), TCS("c1", undefined, "m1"), TCA("c1", "s2")],
      rej("OWNER_MISMATCH", 2),
    ],
    // precedence on TOOL_CALL_START: r4, r9, r10 (tag), r10 (inherited)
    [
      "r4 before r9 on TOOL_CALL_START",
      [RS(), TCS("c1", "s1"), TCS("c1", "s2")],
      rej("TOOL_CALL_ALREADY_OPEN", 2),
    ],
    [
      "r4 before r10 on TOOL_CALL_START",
      [RS(), TMS("m1", "s1"), TCS("c1", "s1", "m1"), TCS("c1", "s2", "m1")],
      rej("TOOL_CALL_ALREADY_OPEN", 3),
    ],
    [
      "r9 before r10 on TOOL_CALL_START",
      [RS(), TCS("c1", "s1"), TCE("c1"), TMS("m1", "s2"), TCS("c1", "s3", "m1")],
      rej("OWNER_MISMATCH", 4),
    ],
    [
      "r9 passes, r10 fails on the tag",
      [RS(), TCS("c1", "s1"), TCE("c1"), TMS("m1", "s2"), TCS("c1", "s1", "m1")],
      rej("TOOL_CALL_PARENT_OWNER_MISMATCH", 4),
    ],
  ]),
  ...about(11, [
    // rule 11
    [
      "a subagent closing another subagent's step",
      [RS(), SS("a", "s1"), SF("a", "s2")],
      rej("STEP_OWNER_MISMATCH", 2),
    ],
    ['"" closing the parent\'s step', [RS(), SS("a"), SF("a", "")], rej("STEP_OWNER_MISMATCH", 2)],
    ['the parent closing ""\'s step', [RS(), SS("a", ""), SF("a")], rej("STEP_OWNER_MISMATCH", 2)],
    [
      "a third owner closing a name open under two",
      [RS(), SS("a"), SS("a", "s1"), SF("a", "s2")],
      rej("STEP_OWNER_MISMATCH", 3),
    ],
    [
      "owner closes, then a stranger",
      [RS(), SS("a"), SS("a", "s1"), SF("a"), SF("a")],
      rej("STEP_OWNER_MISMATCH", 4),
    ],
    [
      "last holder finishes, then a stranger",
      [RS(), SS("a"), SS("a", "s1"), SF("a"), SF("a", "s1"), SF("a", "s2")],
      rej("STEP_NOT_STARTED", 5),
    ],
    [
      "STEP_STARTED by another owner while open is fine",
      [RS(), SS("a", "s1"), SS("a"), SS("a", "s2"), SF("a", "s2"), SF("a"), SF("a", "s1"), RF()],
      ok,
    ],
    [
      "steps survive the subagent's close and are finished by it",
      [RS(), SAS("s1"), SS("a", "s1"), SAF("s1"), SF("a", "s1"), RF()],
      ok,
    ],
  ]),
  ...about(9, [
    // §8.4 TOOL_CALL_RESULT mints
    [
      "result mint overrides an open text message's owner",
      [RS(), TMS("t1", "s1"), TCR("c1", "t1", "s2"), TMC("t1", "s1")],
      rej("OWNER_MISMATCH", 3),
    ],
    [
      "after a result mint the new owner continues the open message",
      [RS(), TMS("t1", "s1"), TCR("c1", "t1", "s2"), TMC("t1", "s2"), TME("t1", "s2"), RF()],
      ok,
    ],
    [
      "latest result decides",
      [RS(), TCR("c1", "t1", "s1"), TCR("c1", "t1", "s2"), TMS("t1", "s1")],
      rej("OWNER_MISMATCH", 3),
    ],
    [
      "latest result decides (accepted)",
      [RS(), TCR("c1", "t1", "s1"), TCR("c2", "t1", "s2"), TMS("t1", "s2"), TME("t1"), RF()],
      ok,
    ],
    [
      'untagged result mints the parent; "" re-open disagrees',
      [RS(), TCR("c1", "t1"), TMS("t1", "")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "result mints only the message registry",
      [RS(), TCR("c1", "t1", "s1"), RMS("t1", "s2"), RME("t1"), TCS("t1", "s2"), TCE("t1"), RF()],
      ok,
    ],
    [
      "result is never compared with the message's owner",
      [RS(), TMS("t1", "s1"), TME("t1"), TCR("c1", "t1", "s2"), RF()],
      ok,
    ],
    [
      "result does not record the call's owner",
      [RS(), TCR("c1", "t1", "s1"), TCS("c1", "s2"), TCE("c1", "s2"), RF()],
      ok,
    ],
    // §8.5 MESSAGES_SNAPSHOT (authoritative)
    [
      "snapshot re-owns an ended message",
      [RS(), TMS("m1", "s1"), TME("m1"), SNAP([msg("m1", "user", "s2")]), TMS("m1", "s1")],
      rej("OWNER_MISMATCH", 4),
    ],
    [
      "snapshot re-owns an open message",
      [RS(), TMS("m1", "s1"), SNAP([msg("m1", "assistant", "s2")]), TMC("m1", "s1")],
      rej("OWNER_MISMATCH", 3),
    ],
    [
      "snapshot re-owns an open message (accepted)",
      [
        RS(),
        TMS("m1", "s1"),
        SNAP([msg("m1", "assistant", "s2")]),
        TMC("m1", "s2"),
        TME("m1"),
        RF(),
      ],
      ok,
    ],
    [
      "snapshot message without owner is the parent's",
      [RS(), TMS("m1", "s1"), TME("m1"), SNAP([msg("m1", "user")]), TMS("m1", "s1")],
      rej("OWNER_MISMATCH", 4),
    ],
    [
      'snapshot "" owner is a subagent',
      [RS(), SNAP([msg("m1", "user", "")]), TMS("m1", ""), TME("m1", ""), RF()],
      ok,
    ],
    [
      'snapshot "" owner vs s1',
      [RS(), SNAP([msg("m1", "system", "")]), TMS("m1", "s1")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "snapshot keeps owners of ids it does not name",
      [RS(), TMS("m1", "s1"), TME("m1"), SNAP([msg("m2", "user")]), TMS("m1", "s2")],
      rej("OWNER_MISMATCH", 4),
    ],
    [
      "snapshot opens nothing",
      [RS(), SNAP([msg("m1", "assistant")]), TMC("m1")],
      rej("TEXT_MESSAGE_NOT_OPEN", 2),
    ],
    [
      "snapshot closes nothing",
      [RS(), TMS("m1"), SNAP([msg("m1", "assistant")]), RF()],
      rej("OPEN_AT_RUN_FINISHED", 3),
    ],
    [
      "snapshot reasoning role goes to the reasoning registry",
      [RS(), SNAP([msg("r1", "reasoning", "s1")]), RMS("r1", "s2")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "snapshot reasoning role is not in the message registry",
      [RS(), SNAP([msg("r1", "reasoning", "s1")]), TMS("r1", "s2"), TME("r1"), RF()],
      ok,
    ],
    [
      "snapshot activity role goes to the activity registry",
      [RS(), SNAP([msg("a1", "activity", "s1")]), AD("a1", "s2")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "snapshot activity role is not in the message registry",
      [RS(), SNAP([msg("a1", "activity", "s1")]), TMS("a1", "s2"), TME("a1"), RF()],
      ok,
    ],
    [
      "snapshot tool role is a message",
      [RS(), SNAP([msg("t1", "tool", "s1")]), TMS("t1", "s2")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "snapshot developer role is a message",
      [RS(), SNAP([msg("d1", "developer", "s1")]), TMS("d1", "s2")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "snapshot unknown role is a message",
      [RS(), SNAP([msg("x1", "robot", "s1")]), TMS("x1", "s2")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "snapshot assistant tool calls owned by the message's owner",
      [RS(), SNAP([msg("m1", "assistant", "s1", ["c1", "c2"])]), TCS("c2", "s2")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "snapshot assistant tool calls (accepted)",
      [RS(), SNAP([msg("m1", "assistant", "s1", ["c1"])]), TCS("c1", "s1"), TCE("c1"), RF()],
      ok,
    ],
    [
      "snapshot untagged assistant: calls are the parent's",
      [RS(), SNAP([msg("m1", "assistant", undefined, ["c1"])]), REV("tool-call", "c1", "s1")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "snapshot re-owns an existing tool call",
      [
        RS(),
        TCS("c1", "s1"),
        TCE("c1"),
        SNAP([msg("m1", "assistant", "s2", ["c1"])]),
        TCS("c1", "s1"),
      ],
      rej("OWNER_MISMATCH", 4),
    ],
    [
      "snapshot re-owns an open tool call",
      [
        RS(),
        TCS("c1", "s1"),
        SNAP([msg("m1", "assistant", "s2", ["c1"])]),
        TCA("c1", "s2"),
        TCE("c1", "s2"),
        RF(),
      ],
      ok,
    ],
    [
      "snapshot tool calls of a user message are not seeded (§13 #10)",
      [RS(), SNAP([msg("u1", "user", "s1", ["c1"])]), TCS("c1", "s2"), TCE("c1"), RF()],
      ok,
    ],
    [
      "snapshot: later duplicate tool call wins",
      [
        RS(),
        SNAP([msg("m1", "assistant", "s1", ["c1"]), msg("m2", "assistant", "s2", ["c1"])]),
        TCS("c1", "s1"),
      ],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "snapshot: later duplicate message wins over the earlier",
      [RS(), SNAP([msg("m1", "user", "s2"), msg("m1", "user", "s1")]), TMS("m1", "s2")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "second snapshot overrides the first",
      [
        RS(),
        SNAP([msg("m1", "user", "s1")]),
        SNAP([msg("m1", "user", "s2")]),
        TMS("m1", "s2"),
        TME("m1"),
        RF(),
      ],
      ok,
    ],
    [
      "a snapshot message's kind follows its role only",
      [
        RS(),
        SNAP([msg("x", "reasoning", "s1"), msg("x", "user", "s2")]),
        RMS("x", "s1"),
        RME("x"),
        TMS("x", "s2"),
        TME("x"),
        RF(),
      ],
      ok,
    ],
    // §8.5 RUN_STARTED input echo (non-authoritative)
    [
      "echo seeds the message registry",
      [echo([msg("m0", "user", "s1")]), TMS("m0", "s2")],
      rej("OWNER_MISMATCH", 1),
    ],
    [
      "echo untagged message is the parent's",
      [echo([msg("m0", "assistant")]), TMS("m0", "s1")],
      rej("OWNER_MISMATCH", 1),
    ],
    [
      "echo seeds tool calls with the message's owner",
      [echo([msg("m0", "assistant", "s1", ["c0"])]), TCS("c0", "s2")],
      rej("OWNER_MISMATCH", 1),
    ],
    [
      "echo: first occurrence of a tool call wins",
      [
        echo([msg("m1", "assistant", "s1", ["c1"]), msg("m2", "assistant", "s2", ["c1"])]),
        REV("tool-call", "c1", "s2"),
      ],
      rej("OWNER_MISMATCH", 1),
    ],
    [
      "echo: a duplicate message is skipped but its new tool calls are recorded",
      [
        echo([msg("m0", "user"), msg("m0", "assistant", "s1", ["c0"])]),
        REV("tool-call", "c0", "s1"),
        TMS("m0"),
        TME("m0"),
        REV("tool-call", "c0", "s2"),
      ],
      rej("OWNER_MISMATCH", 4),
    ],
    [
      "echo: duplicate message keeps the first owner",
      [echo([msg("m0", "user", "s1"), msg("m0", "user", "s2")]), TMS("m0", "s1"), TME("m0"), RF()],
      ok,
    ],
    [
      "echo reasoning role",
      [echo([msg("r0", "reasoning", "s1")]), RMS("r0", "s2")],
      rej("OWNER_MISMATCH", 1),
    ],
    [
      "echo reasoning role does not seed the span registry",
      [echo([msg("r0", "reasoning", "s1")]), RST("r0", "s2"), REND("r0", "s2"), RF()],
      ok,
    ],
    [
      "snapshot reasoning role does not seed the span registry",
      [RS(), RST("r0", "s2"), SNAP([msg("r0", "reasoning", "s1")]), REND("r0", "s2"), RF()],
      ok,
    ],
    [
      "echo activity role",
      [echo([msg("a0", "activity", "s1")]), AD("a0", "s2")],
      rej("OWNER_MISMATCH", 1),
    ],
    [
      "echo tool calls of a user message are not seeded",
      [echo([msg("u1", "user", "s1", ["c1"])]), TCS("c1", "s2"), TCE("c1"), RF()],
      ok,
    ],
    [
      "echo kinds are per registry",
      [
        echo([msg("x", "reasoning", "s1"), msg("x", "user", "s2")]),
        RMS("x", "s1"),
        RME("x"),
        TMS("x", "s2"),
        TME("x"),
        RF(),
      ],
      ok,
    ],
    [
      "echo-seeded message re-owned by a result",
      [echo([msg("t0", "tool", "s1")]), TCR("c0", "t0", "s2"), TMS("t0", "s2"), TME("t0"), RF()],
      ok,
    ],
    [
      "echo-seeded message re-owned by a snapshot",
      [echo([msg("m0", "user", "s1")]), SNAP([msg("m0", "user", "s2")]), TMS("m0", "s1")],
      rej("OWNER_MISMATCH", 2),
    ],
    // ids unique only within a kind
    [
      "one id, five kinds, five owners",
      [
        RS(),
        TMS("x", "s1"),
        TCS("x", "s2"),
        RMS("x", "s3"),
        AS("x", "s4"),
        RST("x", "s5"),
        AD("x", "s4"),
        RME("x", "s3"),
        REND("x", "s5"),
        TCE("x", "s2"),
        TME("x", "s1"),
        RF(),
      ],
      ok,
    ],
  ]),
];

// ---------------------------------------------------------------------------------------
// G. Subagents (rules 12, 13).

const subagentRows: Row[] = [
  ...about(12, [
    [
      "SUBAGENT_STARTED after SUBAGENT_ERROR",
      [RS(), SAS("s1"), SAE("s1"), SAS("s1")],
      rej("SUBAGENT_ALREADY_FINISHED", 3),
    ],
    ['SUBAGENT_STARTED twice for ""', [RS(), SAS(""), SAS("")], rej("SUBAGENT_ALREADY_ACTIVE", 2)],
    [
      "active check before parent check",
      [RS(), SAS("s1"), SAS("s1", "nope")],
      rej("SUBAGENT_ALREADY_ACTIVE", 2),
    ],
    [
      "finished check before parent check",
      [RS(), SAS("s1"), SAF("s1"), SAS("s1", "nope")],
      rej("SUBAGENT_ALREADY_FINISHED", 3),
    ],
    [
      "parent is itself, not started",
      [RS(), SAS("s1", "s1")],
      rej("SUBAGENT_PARENT_NOT_STARTED", 1),
    ],
    ['parent "" never started', [RS(), SAS("s1", "")], rej("SUBAGENT_PARENT_NOT_STARTED", 1)],
    [
      'parent named "hasOwnProperty" never started',
      [RS(), SAS("s1", "hasOwnProperty")],
      rej("SUBAGENT_PARENT_NOT_STARTED", 1),
    ],
    [
      "parent known only as a message owner is not started",
      [RS(), TMS("m1", "s0"), TME("m1"), SAS("s1", "s0")],
      rej("SUBAGENT_PARENT_NOT_STARTED", 3),
    ],
    [
      "parent finished in this run is fine",
      [RS(), SAS("s1"), SAE("s1"), SAS("s2", "s1"), SAF("s2"), RF()],
      ok,
    ],
    ['parent "" active', [RS(), SAS(""), SAS("s2", ""), SAF(""), SAF("s2"), RF()], ok],
    ["SUBAGENT_FINISHED never started", [RS(), SAF("s1")], rej("SUBAGENT_NOT_ACTIVE", 1)],
    ["SUBAGENT_ERROR never started", [RS(), SAE("s1")], rej("SUBAGENT_NOT_ACTIVE", 1)],
    [
      "SUBAGENT_FINISHED twice",
      [RS(), SAS("s1"), SAF("s1"), SAF("s1")],
      rej("SUBAGENT_NOT_ACTIVE", 3),
    ],
    [
      "SUBAGENT_ERROR after SUBAGENT_FINISHED",
      [RS(), SAS("s1"), SAF("s1"), SAE("s1")],
      rej("SUBAGENT_NOT_ACTIVE", 3),
    ],
    [
      'SUBAGENT_FINISHED for "constructor"',
      [RS(), SAF("constructor")],
      rej("SUBAGENT_NOT_ACTIVE", 1),
    ],
    [
      'SUBAGENT_FINISHED for "" never started',
      [RS(), SAS("s1"), SAF("")],
      rej("SUBAGENT_NOT_ACTIVE", 2),
    ],
    [
      "a subagent announced by attribution only is not active",
      [RS(), TMS("m1", "s1"), TME("m1", "s1"), SAF("s1")],
      rej("SUBAGENT_NOT_ACTIVE", 3),
    ],
    ["SUBAGENT_STARTED without name etc. (§13 #4)", [RS(), SAS("s1"), SAE("s1"), RF()], ok],
    [
      "SUBAGENT_FINISHED with a bogus outcome (§13 #4)",
      [
        RS(),
        SAS("s1"),
        ev("SUBAGENT_FINISHED", { subagentRunId: "s1", outcome: { type: "bogus" } }),
        RF(),
      ],
      ok,
    ],
    [
      "SUBAGENT_FINISHED suspended with null interruptIds (§13 #4)",
      [
        RS(),
        SAS("s1"),
        ev("SUBAGENT_FINISHED", {
          subagentRunId: "s1",
          outcome: { type: "suspended", interruptIds: null },
        }),
        RF(),
      ],
      ok,
    ],
    [
      "subagent ids are case-sensitive",
      [RS(), SAS("s1"), SAF("S1")],
      rej("SUBAGENT_NOT_ACTIVE", 2),
    ],
  ]),
  ...about(13, [
    // rule 13
    [
      "RUN_FINISHED with an active child of a finished parent",
      [RS(), SAS("s1"), SAS("s2", "s1"), SAF("s1"), RF()],
      rej("SUBAGENT_OPEN_AT_RUN_FINISHED", 4),
    ],
    [
      "RUN_FINISHED with two active subagents",
      [RS(), SAS("s1"), SAS(""), RF({ outcome: { type: "success" } })],
      rej("SUBAGENT_OPEN_AT_RUN_FINISHED", 3),
    ],
    [
      "RUN_FINISHED with an active subagent and an interrupt outcome",
      [RS(), SAS("s1"), interrupt([{ id: "i", reason: "r" }])],
      rej("SUBAGENT_OPEN_AT_RUN_FINISHED", 2),
    ],
    [
      "a parent closes while its child is active, then the child",
      [RS(), SAS("p"), SAS("c", "p"), SAE("p"), SAS("c2", "p"), SAF("c"), SAF("c2"), RF()],
      ok,
    ],
    ["RUN_ERROR with active subagents", [RS(), SAS("s1"), SAS("s2", "s1"), RE()], ok],
    ["all subagents closed by error", [RS(), SAS("s1"), SAS("s2"), SAE("s1"), SAE("s2"), RF()], ok],
  ]),
];

// ---------------------------------------------------------------------------------------
// H. Chunks (§9.4).

const chunkRows: Row[] = [
  ...about(3, [
    [
      "TEXT_MESSAGE_CHUNK closes nothing",
      [RS(), TMS("m1"), ev("TEXT_MESSAGE_CHUNK", { messageId: "m1" }), RF()],
      rej("OPEN_AT_RUN_FINISHED", 3),
    ],
    [
      "TOOL_CALL_CHUNK opens nothing",
      [RS(), ev("TOOL_CALL_CHUNK", { toolCallId: "c1" }), TCA("c1")],
      rej("TOOL_CALL_NOT_OPEN", 2),
    ],
    [
      "REASONING_MESSAGE_CHUNK opens nothing",
      [RS(), ev("REASONING_MESSAGE_CHUNK", { messageId: "r1" }), RME("r1")],
      rej("REASONING_MESSAGE_NOT_OPEN", 2),
    ],
  ]),
  ...about(9, [
    [
      "a chunk's tag is not checked against the owner",
      [
        RS(),
        TMS("m1", "s1"),
        ev("TEXT_MESSAGE_CHUNK", { messageId: "m1", subagentRunId: "s2" }),
        TME("m1"),
        RF(),
      ],
      ok,
    ],
    [
      "a chunk records no owner",
      [
        RS(),
        ev("TEXT_MESSAGE_CHUNK", { messageId: "m1", subagentRunId: "s1" }),
        TMS("m1", "s2"),
        TME("m1"),
        RF(),
      ],
      ok,
    ],
  ]),
  ...about(10, [
    [
      "TOOL_CALL_CHUNK is not checked by rule 10",
      [
        RS(),
        TMS("m1", "s1"),
        ev("TOOL_CALL_CHUNK", { toolCallId: "c1", parentMessageId: "m1", subagentRunId: "s2" }),
        TME("m1"),
        RF(),
      ],
      ok,
    ],
  ]),
  ...about(0, [
    [
      "chunk with a null tag",
      [RS(), ev("TOOL_CALL_CHUNK", { subagentRunId: null })],
      rej("FIELD_NULL", 1, "subagentRunId"),
    ],
    [
      "chunk with an empty-string tag",
      [RS(), ev("REASONING_MESSAGE_CHUNK", { subagentRunId: "" }), RF()],
      ok,
    ],
  ]),
  ...about(5, [
    [
      "chunk is not a result's open call",
      [RS(), ev("TOOL_CALL_CHUNK", { toolCallId: "c1" }), TCR("c1", "t1"), RF()],
      ok,
    ],
  ]),
];

// ---------------------------------------------------------------------------------------
// I. Several runs (§9.6): "`RUN_STARTED` after `RUN_FINISHED` or `RUN_ERROR` opens a new run
// and clears all per-run state (open sets, spans, steps, active and finished subagents, owner
// registries); the new run is verified from scratch. The index keeps counting across runs."
// Each kind of state is shown cleared both ways: what was open is no longer open, and what
// was recorded no longer binds.

const sequentialRows: Row[] = [
  ...about(2, [
    // open sets
    ["open text message cleared", [RS(), TMS("m1"), RE(), RS(), TMS("m1"), TME("m1"), RF()], ok],
    [
      "open text message cleared (content is not open)",
      [RS(), TMS("m1"), RE(), RS(), TMC("m1")],
      rej("TEXT_MESSAGE_NOT_OPEN", 4),
    ],
    ["open tool call cleared", [RS(), TCS("c1"), RE(), RS(), TCS("c1"), TCE("c1"), RF()], ok],
    [
      "open tool call cleared (end is not open)",
      [RS(), TCS("c1"), RE(), RS(), TCR("c1", "t1"), TCE("c1")],
      rej("TOOL_CALL_NOT_OPEN", 5),
    ],
    [
      "open reasoning message cleared",
      [RS(), RMS("r1"), RE(), RS(), RMS("r1"), RME("r1"), RF()],
      ok,
    ],
    [
      "open reasoning message cleared (end is not open)",
      [RS(), RMS("r1"), RE(), RS(), RME("r1")],
      rej("REASONING_MESSAGE_NOT_OPEN", 4),
    ],
    ["open reasoning span cleared", [RS(), RST("r1"), RE(), RS(), RST("r1"), REND("r1"), RF()], ok],
    [
      "open reasoning span cleared (end is not open)",
      [RS(), RST("r1"), RE(), RS(), REND("r1")],
      rej("REASONING_SPAN_NOT_OPEN", 4),
    ],
    ["open step cleared", [RS(), SS("a"), RE(), RS(), SF("a")], rej("STEP_NOT_STARTED", 4)],
    ["open step cleared (start again)", [RS(), SS("a"), RE(), RS(), SS("a"), SF("a"), RF()], ok],
    [
      "open subagent step cleared",
      [RS(), SS("a", "s1"), RE(), RS(), SS("a", "s1"), SF("a", "s1"), RF()],
      ok,
    ],
    [
      "open subagent step cleared (its owner cannot finish it)",
      [RS(), SS("a", "s1"), RE(), RS(), SF("a", "s1")],
      rej("STEP_NOT_STARTED", 4),
    ],
    // subagents
    [
      "active subagent cleared",
      [RS(), SAS("s1"), RE(), RS(), SAF("s1")],
      rej("SUBAGENT_NOT_ACTIVE", 4),
    ],
    ["active subagent cleared (not open at RUN_FINISHED)", [RS(), SAS("s1"), RE(), RS(), RF()], ok],
    [
      "active subagent cleared (announced again)",
      [RS(), SAS("s1"), RE(), RS(), SAS("s1"), SAF("s1"), RF()],
      ok,
    ],
    [
      "finished subagent may start again next run",
      [RS(), SAS("s1"), SAF("s1"), RF(), RS(), SAS("s1"), SAF("s1"), RF()],
      ok,
    ],
    [
      "errored subagent may start again after a late failure",
      [RS(), SAS("s1"), SAE("s1"), RF(), RE(), RS(), SAS("s1"), SAF("s1"), RF()],
      ok,
    ],
    [
      "finished parent of the last run is not started",
      [RS(), SAS("s1"), SAF("s1"), RF(), RS(), SAS("s2", "s1")],
      rej("SUBAGENT_PARENT_NOT_STARTED", 5),
    ],
    // owner registries
    [
      "message registry cleared",
      [RS(), TMS("m1", "s1"), TME("m1"), RF(), RS(), TMS("m1", "s2"), TME("m1"), RF()],
      ok,
    ],
    [
      "tool-call registry cleared",
      [RS(), TCS("c1", "s1"), TCE("c1"), RF(), RS(), TCS("c1", "s2"), TCE("c1"), RF()],
      ok,
    ],
    [
      "inherited tool-call owner cleared",
      [
        RS(),
        TMS("m1", "s1"),
        TCS("c1", undefined, "m1"),
        TCE("c1"),
        TME("m1"),
        RF(),
        RS(),
        TMS("m1"),
        TCS("c1", undefined, "m1"),
        TCE("c1"),
        TME("m1"),
        RF(),
      ],
      ok,
    ],
    [
      "inherited tool-call owner binds within its run",
      [
        RS(),
        TMS("m1", "s1"),
        TCS("c1", undefined, "m1"),
        TCE("c1"),
        TME("m1"),
        TMS("m2"),
        TCS("c1", undefined, "m2"),
      ],
      rej("TOOL_CALL_PARENT_OWNER_MISMATCH", 6),
    ],
    [
      "reasoning registry cleared",
      [RS(), RMS("r1", "s1"), RME("r1"), RF(), RS(), RMS("r1", "s2"), RME("r1"), RF()],
      ok,
    ],
    [
      "span registry cleared",
      [RS(), RST("r1", "s1"), REND("r1"), RF(), RS(), RST("r1", "s2"), REND("r1", "s2"), RF()],
      ok,
    ],
    ["activity registry cleared", [RS(), AS("a1", "s1"), RF(), RS(), AD("a1", "s2"), RF()], ok],
    [
      "result-minted owner cleared",
      [RS(), TCR("c1", "t1", "s1"), RF(), RS(), TMS("t1", "s2"), TME("t1"), RF()],
      ok,
    ],
    [
      "snapshot seeding cleared",
      [RS(), SNAP([msg("m1", "user", "s1", ["c1"])]), RF(), RS(), TMS("m1", "s2"), TME("m1"), RF()],
      ok,
    ],
    [
      "snapshot tool-call seeding cleared",
      [
        RS(),
        SNAP([msg("m1", "assistant", "s1", ["c1"])]),
        RF(),
        RS(),
        REV("tool-call", "c1", "s2"),
        RF(),
      ],
      ok,
    ],
    [
      "echo of the second run seeds after the clear",
      [RS(), TMS("m0", "s1"), TME("m0"), RF(), echo([msg("m0", "user", "s2")]), TMS("m0", "s1")],
      rej("OWNER_MISMATCH", 5),
    ],
    [
      "echo of the second run (accepted)",
      [
        RS(),
        TMS("m0", "s1"),
        TME("m0"),
        RF(),
        echo([msg("m0", "user", "s2")]),
        TMS("m0", "s2"),
        TME("m0"),
        RF(),
      ],
      ok,
    ],
    [
      "a late RUN_ERROR clears nothing it need not: the next run starts clean anyway",
      [RS(), TMS("m1", "s1"), TME("m1"), RF(), RE(), RS(), TMS("m1", "s2"), TME("m1"), RF()],
      ok,
    ],
    [
      "the run after a leading RUN_ERROR starts clean",
      [RE(), RS(), TMS("m1"), TME("m1"), RF()],
      ok,
    ],
    // rules still apply in the new run, and the index counts on
    [
      "rules still apply in the second run",
      [RS(), RF(), RS(), TMS("m1", "s1"), TMC("m1", "s2")],
      rej("OWNER_MISMATCH", 4),
    ],
    [
      "index keeps counting across runs",
      [ev("FUTURE"), RS(), RAW(), RF(), ev("FUTURE"), RS(), CUSTOM(), TMS("m1"), TMS("m1")],
      rej("TEXT_MESSAGE_ALREADY_OPEN", 8),
    ],
    [
      "index keeps counting past a late RUN_ERROR",
      [RS(), RF(), RE(), RS(), TMC("m1")],
      rej("TEXT_MESSAGE_NOT_OPEN", 4),
    ],
    ["rule 7 in the second run", [RS(), RF(), RS(), SS("a"), RF()], rej("OPEN_AT_RUN_FINISHED", 4)],
    [
      "rule 7 for a span in the second run",
      [RS(), RF(), RS(), RST("r1"), RF()],
      rej("OPEN_AT_RUN_FINISHED", 4),
    ],
    [
      "rule 13 in the second run",
      [RS(), RF(), RS(), SAS("s1"), RF()],
      rej("SUBAGENT_OPEN_AT_RUN_FINISHED", 4),
    ],
    [
      "second run started, then RUN_STARTED again",
      [RS(), RF(), RS(), RS()],
      rej("RUN_ALREADY_STARTED", 3),
    ],
    ["RUN_STARTED tagged in the second run", [RS(), RF(), RS({ subagentRunId: "s1" }), RF()], ok],
  ]),
];

// ---------------------------------------------------------------------------------------
// J. Precedence (§6, §9.9): field checks before rules; first failing rule check wins.

const precedenceRows: Row[] = [
  ...about(11, [
    [
      "re-start of an open id under another owner is rule 3",
      [RS(), TMS("m1", "s1"), TMS("m1", "s2")],
      rej("TEXT_MESSAGE_ALREADY_OPEN", 2),
    ],
    [
      "re-start of an open parent id by a subagent is rule 3",
      [RS(), TMS("m1"), TMS("m1", "s1")],
      rej("TEXT_MESSAGE_ALREADY_OPEN", 2),
    ],
    [
      "content for a closed id under another owner is rule 3",
      [RS(), TMS("m1", "s1"), TME("m1"), TMC("m1", "s2")],
      rej("TEXT_MESSAGE_NOT_OPEN", 3),
    ],
    [
      "args for a closed call under another owner is rule 4",
      [RS(), TCS("c1", "s1"), TCE("c1"), TCA("c1", "s2")],
      rej("TOOL_CALL_NOT_OPEN", 3),
    ],
    [
      "reasoning end for a closed id under another owner is rule 4",
      [RS(), RMS("r1", "s1"), RME("r1"), RME("r1", "s2")],
      rej("REASONING_MESSAGE_NOT_OPEN", 3),
    ],
    [
      "reasoning re-start under another owner is rule 4",
      [RS(), RMS("r1", "s1"), RMS("r1", "s2")],
      rej("REASONING_MESSAGE_ALREADY_OPEN", 2),
    ],
    [
      "span re-start under another owner is rule 4 (§9.9)",
      [RS(), RST("r1", "s1"), RST("r1", "s2")],
      rej("REASONING_SPAN_ALREADY_OPEN", 2),
    ],
    [
      "span end for a closed span under another owner is rule 4",
      [RS(), RST("r1", "s1"), REND("r1"), REND("r1", "s2")],
      rej("REASONING_SPAN_NOT_OPEN", 3),
    ],
    [
      "field check before the span rules",
      [RS(), RST("r1"), ev("REASONING_START", { messageId: "r1", subagentRunId: null })],
      rej("FIELD_NULL", 2, "subagentRunId"),
    ],
    [
      "field check before rule 3",
      [RS(), TMS("m1"), ev("TEXT_MESSAGE_START", { messageId: "m1", subagentRunId: null })],
      rej("FIELD_NULL", 2, "subagentRunId"),
    ],
    [
      "field check on a result for an open call",
      [RS(), TCS("c1"), ev("TOOL_CALL_RESULT", { toolCallId: "c1" })],
      rej("FIELD_MISSING", 2, "messageId"),
    ],
    [
      "field check before rule 6",
      [RS(), SS("a"), ev("STEP_STARTED", { stepName: "a", subagentRunId: 1 })],
      rej("FIELD_WRONG_TYPE", 2, "subagentRunId"),
    ],
    [
      "unread toolCallName does not affect rule 10",
      [
        RS(),
        TMS("m1", "s1"),
        ev("TOOL_CALL_START", {
          toolCallId: "c1",
          parentMessageId: "m1",
          subagentRunId: "s2",
          toolCallName: null,
        }),
      ],
      rej("TOOL_CALL_PARENT_OWNER_MISMATCH", 2),
    ],
    [
      "field check before rule 10 (bad parentMessageId)",
      [
        RS(),
        TMS("m1", "s1"),
        ev("TOOL_CALL_START", { toolCallId: "c1", parentMessageId: ["m1"], subagentRunId: "s2" }),
      ],
      rej("FIELD_WRONG_TYPE", 2, "parentMessageId"),
    ],
    [
      "field check before rule 12",
      [RS(), SAS("s1"), ev("SUBAGENT_STARTED", { subagentRunId: "s1", parentSubagentRunId: 0 })],
      rej("FIELD_WRONG_TYPE", 2, "parentSubagentRunId"),
    ],
    [
      "rule 6 vs rule 11 are exclusive: open under self",
      [RS(), SS("a"), SS("a", "s1"), SF("a", "s1"), SF("a"), RF()],
      ok,
    ],
  ]),
];

// ---------------------------------------------------------------------------------------
// K. Fields are read only on the types that list them (§3.2), and odd-but-valid objects.

const nullProto = (o: Ev): Ev => Object.assign(Object.create(null) as Ev, o);

const scopeRows: Row[] = [
  ...about(0, [
    [
      "parentMessageId is not read on TEXT_MESSAGE_START",
      [RS(), ev("TEXT_MESSAGE_START", { messageId: "m1", parentMessageId: null }), TME("m1"), RF()],
      ok,
    ],
    [
      "parentMessageId is not read on TOOL_CALL_ARGS",
      [
        RS(),
        TCS("c1"),
        ev("TOOL_CALL_ARGS", { toolCallId: "c1", parentMessageId: 5 }),
        TCE("c1"),
        RF(),
      ],
      ok,
    ],
    [
      "parentMessageId is not read on TOOL_CALL_RESULT",
      [
        RS(),
        ev("TOOL_CALL_RESULT", { toolCallId: "c1", messageId: "t1", parentMessageId: null }),
        RF(),
      ],
      ok,
    ],
    [
      "messageId is not read on TOOL_CALL_END",
      [RS(), TCS("c1"), ev("TOOL_CALL_END", { toolCallId: "c1", messageId: null }), RF()],
      ok,
    ],
    [
      "replace is not read on ACTIVITY_DELTA",
      [RS(), ev("ACTIVITY_DELTA", { messageId: "a1", replace: null }), RF()],
      ok,
    ],
    [
      "messageId is not read on REASONING_ENCRYPTED_VALUE",
      [
        RS(),
        ev("REASONING_ENCRYPTED_VALUE", { subtype: "message", entityId: "r1", messageId: null }),
        RF(),
      ],
      ok,
    ],
    [
      "toolCallId is not read on TEXT_MESSAGE_CONTENT",
      [
        RS(),
        TMS("m1"),
        ev("TEXT_MESSAGE_CONTENT", { messageId: "m1", toolCallId: 1 }),
        TME("m1"),
        RF(),
      ],
      ok,
    ],
    ["outcome is not read on RUN_ERROR", [RS(), RE({ outcome: null })], ok],
    ["outcome is not read on RUN_STARTED", [RS({ outcome: "x" }), RF()], ok],
    ["input is not read on RUN_FINISHED", [RS(), RF({ input: null })], ok],
    ["input is not read on MESSAGES_SNAPSHOT", [RS(), SNAP([], { input: null }), RF()], ok],
    [
      "messages is not read on STATE_SNAPSHOT",
      [RS(), ev("STATE_SNAPSHOT", { messages: null }), RF()],
      ok,
    ],
    ["stepName is not read on RAW", [RS(), RAW({ stepName: null }), RF()], ok],
    [
      "parentSubagentRunId is not read on SUBAGENT_FINISHED",
      [
        RS(),
        SAS("s1"),
        ev("SUBAGENT_FINISHED", { subagentRunId: "s1", parentSubagentRunId: null }),
        RF(),
      ],
      ok,
    ],
    ["interrupts are not read outside outcome", [RS(), RF({ interrupts: null })], ok],
    [
      "null-prototype objects are objects",
      [
        nullProto({ type: "RUN_STARTED" }),
        nullProto({ type: "TEXT_MESSAGE_START", messageId: "m1", subagentRunId: "s1" }),
        nullProto({ type: "TEXT_MESSAGE_END", messageId: "m1" }),
        nullProto({ type: "RUN_FINISHED", outcome: nullProto({ type: "success" }) }),
      ],
      ok,
    ],
    [
      "null-prototype event with a bad field",
      [RS(), nullProto({ type: "TEXT_MESSAGE_START" })],
      rej("FIELD_MISSING", 1, "messageId"),
    ],
    [
      "null-prototype messages in a snapshot",
      [RS(), SNAP([nullProto({ id: "m1", role: "user", subagentRunId: "s1" })]), TMS("m1", "s2")],
      rej("OWNER_MISMATCH", 2),
    ],
  ]),
  ...about(9, [
    // more ownership corners
    [
      "REV message subtype against a result-minted message",
      [RS(), TCR("c1", "t1", "s1"), REV("message", "t1", "s2")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "snapshot re-owns an open reasoning message",
      [RS(), RMS("r1", "s1"), SNAP([msg("r1", "reasoning", "s2")]), RMC("r1", "s1")],
      rej("OWNER_MISMATCH", 3),
    ],
    [
      "echo-seeded activity kept by a non-replacing snapshot",
      [echo([msg("a0", "activity", "s1")]), AS("a0", "s2", false), AD("a0", "s2")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "echo-seeded activity replaced by a replacing snapshot",
      [echo([msg("a0", "activity", "s1")]), AS("a0", "s2"), AD("a0", "s2"), RF()],
      ok,
    ],
    [
      "RUN_FINISHED tag is not read: rule 8 reports",
      [RS(), RF({ subagentRunId: null, outcome: { type: "interrupt", interrupts: [] } })],
      rej("INTERRUPT_OUTCOME_EMPTY", 1),
    ],
    [
      "TOOL_CALL_START tagged with a never-announced subagent",
      [RS(), TCS("c1", "ghost"), TCA("c1", "ghost"), TCE("c1", "ghost"), RF()],
      ok,
    ],
    [
      "a re-open records nothing when an owner exists (TEXT_MESSAGE_START)",
      [RS(), TMS("m1", "s1"), TME("m1"), TMS("m1", "s1"), TME("m1"), TMS("m1"), TMC("m1", "s2")],
      rej("OWNER_MISMATCH", 6),
    ],
  ]),
];

// ---------------------------------------------------------------------------------------
// L. The schema option (§14, §6 step 4b): after the phase and field checks, before the
// type's other rules. `role` stands for any field only the schema reads.

const ROLES: Opts = { schema: roleSchema() };
const schemaRows: Row[] = [
  ...about(0, [
    ["schema: a well-formed run", [RS(), TMS("m1"), TME("m1"), RF()], ROLES, ok],
    [
      "schema: a field only it reads",
      [RS(), { ...TMS("m1"), role: "robot" }],
      ROLES,
      rej("SCHEMA_MISMATCH", 1, "role"),
    ],
    [
      "schema: before the type's rules",
      [RS(), { ...TMC("m1"), role: "robot" }],
      ROLES,
      rej("SCHEMA_MISMATCH", 1, "role"),
    ],
    [
      "schema: on an unknown type",
      [RS(), ev("FUTURE", { role: "robot" })],
      ROLES,
      rej("SCHEMA_MISMATCH", 1, "role"),
    ],
    [
      "schema: after rule 0's field checks",
      [RS(), { ...TMS("m1"), messageId: null, role: "robot" }],
      ROLES,
      rej("FIELD_NULL", 1, "messageId"),
    ],
    [
      "schema: after rule 0's nested field checks",
      [RS({ input: { messages: [{ id: "m1" }] }, role: "robot" })],
      ROLES,
      rej("FIELD_MISSING", 0, "input.messages[0].role"),
    ],
    [
      "schema: after the shape checks",
      [RS(), { role: "robot" }],
      ROLES,
      rej("EVENT_TYPE_INVALID", 1),
    ],
    [
      "schema: an issue at a nested path",
      [RS()],
      { schema: rejecting({ message: "no", path: ["input", "messages", 2, "role"] }) },
      rej("SCHEMA_MISMATCH", 0, "input.messages[2].role"),
    ],
    [
      "schema: an issue without a path",
      [RS()],
      { schema: rejecting({ message: "no", path: [] }) },
      rej("SCHEMA_MISMATCH", 0),
    ],
  ]),
  [
    "schema: after rule 1",
    [{ ...TMS("m1"), role: "robot" }],
    ROLES,
    rej("EVENT_BEFORE_RUN_STARTED", 0),
  ],
  [
    "schema: after rule 1 inside the run",
    [RS(), RS({ role: "robot" })],
    ROLES,
    rej("RUN_ALREADY_STARTED", 1),
  ],
  [
    "schema: after rule 2",
    [RS(), RF(), { ...TMS("m1"), role: "robot" }],
    ROLES,
    rej("EVENT_AFTER_RUN_CLOSED", 2),
  ],
  [
    "schema: after rule 2, for a second late RUN_ERROR",
    [RS(), RF(), RE(), RE({ role: "robot" })],
    ROLES,
    rej("EVENT_AFTER_RUN_CLOSED", 3),
  ],
  ...about(0, [
    [
      "schema: a new run's RUN_STARTED meets it",
      [RS(), RF(), RS({ role: "robot" })],
      ROLES,
      rej("SCHEMA_MISMATCH", 2, "role"),
    ],
    [
      "schema: a late RUN_ERROR meets it",
      [RS(), RF(), RE({ role: "robot" })],
      ROLES,
      rej("SCHEMA_MISMATCH", 2, "role"),
    ],
    [
      "schema: a leading RUN_ERROR meets it",
      [RE({ role: "robot" })],
      ROLES,
      rej("SCHEMA_MISMATCH", 0, "role"),
    ],
    // §6 step 3: an unknown type "passes every phase check ... and meets only the schema"
    [
      "schema: an unknown type before the first run meets it",
      [ev("FUTURE", { role: "robot" })],
      ROLES,
      rej("SCHEMA_MISMATCH", 0, "role"),
    ],
    [
      "schema: an unknown type after the close meets it",
      [RS(), RF(), ev("FUTURE", { role: "robot" })],
      ROLES,
      rej("SCHEMA_MISMATCH", 2, "role"),
    ],
    [
      "schema: unknown types the schema accepts, around a run",
      [ev("FUTURE", { role: "user" }), RS(), RF(), ev("FUTURE")],
      ROLES,
      ok,
    ],
  ]),
];

// ---------------------------------------------------------------------------------------
// Rule 0 — the ids a run holds (SPEC §17.1): every kind counts; a finished step is
// forgotten; an event rejected otherwise records nothing; a new run starts from zero.

const MAX2: Opts = { maxIds: 2 };
/** An id of `n` UTF-16 code units. */
const long = (n: number): string => "x".repeat(n);
/** 1 MiB of UTF-16 code units. */
const MIB = long(1024 * 1024);
/** `n` text messages, each opened and closed, with distinct ids of 1 MiB. */
const mibMessages = (n: number): Ev[] =>
  Array.from({ length: n }, (_, i) => `${i}${MIB.slice(1)}`).flatMap((id) => [TMS(id), TME(id)]);
const idLimitRows: Row[] = about(0, [
  ["two ids within maxIds 2", [RS(), TMS("m1"), TME("m1"), TCS("c1"), TCE("c1"), RF()], MAX2, ok],
  [
    "a text message over the limit",
    [RS(), TMS("m1"), TCS("c1"), TMS("m2")],
    MAX2,
    rej("ID_LIMIT_EXCEEDED", 3),
  ],
  [
    "a tool call over the limit",
    [RS(), TMS("m1"), RST("r1"), TCS("c1")],
    MAX2,
    rej("ID_LIMIT_EXCEEDED", 3),
  ],
  [
    "a reasoning span over the limit",
    [RS(), AS("a1"), SAS("s1"), RST("r1")],
    MAX2,
    rej("ID_LIMIT_EXCEEDED", 3),
  ],
  [
    "a reasoning message over the limit",
    [RS(), TMS("m1"), TCS("c1"), RMS("r1")],
    MAX2,
    rej("ID_LIMIT_EXCEEDED", 3),
  ],
  [
    "an activity over the limit",
    [RS(), TMS("m1"), TCS("c1"), AS("a1")],
    MAX2,
    rej("ID_LIMIT_EXCEEDED", 3),
  ],
  [
    "a subagent over the limit",
    [RS(), TMS("m1"), TCS("c1"), SAS("s1")],
    MAX2,
    rej("ID_LIMIT_EXCEEDED", 3),
  ],
  [
    "an open step over the limit",
    [RS(), TMS("m1"), SS("a"), SS("b")],
    MAX2,
    rej("ID_LIMIT_EXCEEDED", 3),
  ],
  [
    "a tool message minted by a result",
    [RS(), TCS("c1"), TCE("c1"), AS("a1"), TCR("c1", "t1")],
    MAX2,
    rej("ID_LIMIT_EXCEEDED", 4),
  ],
  [
    "a finished step is forgotten",
    [RS(), TMS("m1"), SS("a"), SF("a"), SS("b"), SF("b"), TME("m1"), RF()],
    MAX2,
    ok,
  ],
  [
    // Two (owner, name) pairs, and each tag a subagent id held once (§17.1): 1, 3, then 5.
    "the same step name under two owners holds two, and each owner's id",
    [RS(), SS("a"), SS("a", "s1"), SS("a", "s2")],
    { maxIds: 4 },
    rej("ID_LIMIT_EXCEEDED", 3),
  ],
  [
    "the same step name under two owners fits in five",
    [RS(), SS("a"), SS("a", "s1"), SS("a", "s2"), SF("a", "s2"), SF("a", "s1"), SF("a"), RF()],
    { maxIds: 5 },
    ok,
  ],
  [
    // §17.1: "a subagent id [is] kept for the rest of the run", announced or not.
    "a tag nobody announced is a subagent id the run holds",
    [RS(), TMS("m1", "s1"), TMS("m2")],
    MAX2,
    rej("ID_LIMIT_EXCEEDED", 2),
  ],
  [
    "a tag is held once, however many openers it tags, and after its announcement",
    [RS(), SAS("s1"), TMS("m1", "s1"), TME("m1", "s1"), TCS("c1", "s1"), TMS("m2", "s1")],
    { maxIds: 3 },
    rej("ID_LIMIT_EXCEEDED", 5),
  ],
  [
    "a known id is no new id",
    [RS(), TMS("m1"), TME("m1"), TMS("m1"), TME("m1"), TCS("c1"), TCE("c1"), RF()],
    MAX2,
    ok,
  ],
  [
    "a finished subagent is still held",
    [RS(), SAS("s1"), SAF("s1"), SAS("s2"), SAE("s2"), TMS("m1")],
    MAX2,
    rej("ID_LIMIT_EXCEEDED", 5),
  ],
  [
    "a snapshot's messages and calls, each once",
    [
      RS(),
      SNAP([
        { id: "m1", role: "assistant", toolCalls: [{ id: "c1" }] },
        { id: "m1", role: "user" },
      ]),
      RF(),
    ],
    MAX2,
    ok,
  ],
  [
    "a snapshot over the limit changes nothing",
    [
      RS(),
      TMS("m1"),
      TME("m1"),
      SNAP([
        { id: "m1", role: "user" },
        { id: "m2", role: "user" },
        { id: "m3", role: "user" },
      ]),
    ],
    MAX2,
    rej("ID_LIMIT_EXCEEDED", 3),
  ],
  [
    "the input echo counts",
    [
      RS({
        input: {
          messages: [
            { id: "m1", role: "user" },
            { id: "m2", role: "reasoning" },
            { id: "m3", role: "activity" },
          ],
        },
      }),
    ],
    MAX2,
    rej("ID_LIMIT_EXCEEDED", 0),
  ],
  [
    "a rejected event records nothing",
    [RS(), TMS("m1"), TMS("m1"), TCS("c1")],
    MAX2,
    rej("TEXT_MESSAGE_ALREADY_OPEN", 2),
  ],
  [
    "a new run starts from zero",
    [
      RS(),
      TMS("m1"),
      TME("m1"),
      TCS("c1"),
      TCE("c1"),
      RF(),
      RS(),
      TMS("m2"),
      TME("m2"),
      TCS("c2"),
      TCE("c2"),
      RF(),
    ],
    MAX2,
    ok,
  ],
  ["maxIds 0 holds nothing", [RS(), TMC("m1")], { maxIds: 0 }, rej("TEXT_MESSAGE_NOT_OPEN", 1)],
  ["maxIds 0 rejects the first id", [RS(), TMS("m1")], { maxIds: 0 }, rej("ID_LIMIT_EXCEEDED", 1)],
  [
    "Infinity disables the limit",
    [RS(), TMS("m1"), TCS("c1"), SS("a"), SF("a"), TCE("c1"), TME("m1"), RF()],
    { maxIds: Number.POSITIVE_INFINITY },
    ok,
  ],
  // §17.1 (version 4): "An id is weighed by its length: an id of up to 64 UTF-16 code units
  // counts as one, a longer one as `ceil(length / 64)` ... a step's name is weighed the same
  // way", and "a test shows it with ids from 1 character to 1 MiB".
  ["an id of 1 character counts once", [RS(), TMS("x"), TME("x"), RF()], { maxIds: 1 }, ok],
  [
    "an id of 64 code units counts once",
    [RS(), TMS(long(64)), TME(long(64)), RF()],
    { maxIds: 1 },
    ok,
  ],
  [
    "an id of 65 code units counts twice",
    [RS(), TMS(long(65))],
    { maxIds: 1 },
    rej("ID_LIMIT_EXCEEDED", 1),
  ],
  ["an id of 128 code units fits in 2", [RS(), TCS(long(128)), TCE(long(128)), RF()], MAX2, ok],
  [
    "an id of 129 code units counts 3 times",
    [RS(), TCS(long(129))],
    MAX2,
    rej("ID_LIMIT_EXCEEDED", 1),
  ],
  [
    "length is counted in UTF-16 code units (32 emoji are 64 units)",
    [RS(), TMS("😀".repeat(32)), TME("😀".repeat(32)), RF()],
    { maxIds: 1 },
    ok,
  ],
  [
    "33 emoji are 66 code units, two ids",
    [RS(), TMS("😀".repeat(33))],
    { maxIds: 1 },
    rej("ID_LIMIT_EXCEEDED", 1),
  ],
  [
    "a long id and a short one",
    [RS(), TMS(long(100)), TME(long(100)), TCS("c1")],
    MAX2,
    rej("ID_LIMIT_EXCEEDED", 3),
  ],
  ["a long step name", [RS(), SS(long(129))], MAX2, rej("ID_LIMIT_EXCEEDED", 1)],
  [
    "a long step name is forgotten when it finishes",
    [RS(), SS(long(128)), SF(long(128)), SS(long(128)), SF(long(128)), RF()],
    MAX2,
    ok,
  ],
  ["a long reasoning span id", [RS(), RST(long(129))], MAX2, rej("ID_LIMIT_EXCEEDED", 1)],
  ["a long reasoning message id", [RS(), RMS(long(129))], MAX2, rej("ID_LIMIT_EXCEEDED", 1)],
  ["a long activity id", [RS(), AS(long(129))], MAX2, rej("ID_LIMIT_EXCEEDED", 1)],
  ["a long subagent id", [RS(), SAS(long(129))], MAX2, rej("ID_LIMIT_EXCEEDED", 1)],
  [
    "a long tool message id minted by a result",
    [RS(), TCR("c1", long(129))],
    MAX2,
    rej("ID_LIMIT_EXCEEDED", 1),
  ],
  [
    "a long id in a snapshot",
    [RS(), SNAP([msg(long(129), "user")])],
    MAX2,
    rej("ID_LIMIT_EXCEEDED", 1),
  ],
  [
    "a long tool call id in the input echo",
    [echo([msg("m1", "assistant", undefined, [long(128)])])],
    MAX2,
    rej("ID_LIMIT_EXCEEDED", 0),
  ],
  [
    "a new run starts from zero, long ids too",
    [RS(), TMS(long(128)), TME(long(128)), RF(), RS(), TCS(long(128)), TCE(long(128)), RF()],
    MAX2,
    ok,
  ],
  ["an id of 1 MiB counts as 16,384 ids", [RS(), TCS(MIB), TCE(MIB), RF()], { maxIds: 16_384 }, ok],
  [
    "an id of 1 MiB does not fit in 16,383",
    [RS(), TCS(MIB)],
    { maxIds: 16_383 },
    rej("ID_LIMIT_EXCEEDED", 1),
  ],
  ["at the default, six ids of 1 MiB fit (98,304 of 100,000)", [RS(), ...mibMessages(6), RF()], ok],
  [
    "at the default, a seventh id of 1 MiB does not (114,688)",
    [RS(), ...mibMessages(7), RF()],
    rej("ID_LIMIT_EXCEEDED", 13),
  ],
]);

// ---------------------------------------------------------------------------------------
// M. protocol: "draft" (§9.14): "adds the consumer duties that the protocol's draft ... adds
// on top of 1.1, and nothing else". RUN_STARTED and RUN_FINISHED then read `threadId` and
// `runId` as required strings.

const ids = (threadId: string, runId: string): Ev => ({ threadId, runId });
const RSd = (threadId = "t1", runId = "r1", f: Ev = {}) => RS({ ...ids(threadId, runId), ...f });
const RFd = (threadId = "t1", runId = "r1", f: Ev = {}) => RF({ ...ids(threadId, runId), ...f });
const interruptsD = (...idsOf: unknown[]) =>
  RFd("t1", "r1", {
    outcome: { type: "interrupt", interrupts: idsOf.map((id) => ({ id, reason: "confirm" })) },
  });

const draftRows: Row[] = [
  ...about(2, [
    ["draft: a run whose ids agree", [RSd(), RFd()], DRAFT, ok],
    // "`RUN_FINISHED` whose `runId` differs from the current run's `RUN_STARTED.runId` →
    // `RUN_ID_MISMATCH`; whose `threadId` differs from it → `THREAD_ID_MISMATCH`"
    [
      "draft: RUN_FINISHED names another run",
      [RSd(), RFd("t1", "r2")],
      DRAFT,
      rej("RUN_ID_MISMATCH", 1),
    ],
    [
      "draft: RUN_FINISHED names another thread",
      [RSd(), RFd("t2", "r1")],
      DRAFT,
      rej("THREAD_ID_MISMATCH", 1),
    ],
    [
      "draft: both differ, RUN_ID_MISMATCH first",
      [RSd(), RFd("t2", "r2")],
      DRAFT,
      rej("RUN_ID_MISMATCH", 1),
    ],
    ["draft: ids are case-sensitive", [RSd(), RFd("t1", "R1")], DRAFT, rej("RUN_ID_MISMATCH", 1)],
    ["draft: the empty runId is an id", [RSd("t1", ""), RFd("t1", "")], DRAFT, ok],
    // "A `RUN_STARTED` whose `threadId` differs from the first run's in the same stream →
    // `THREAD_ID_MISMATCH` (one stream carries one thread)"
    ["draft: two runs on one thread", [RSd(), RFd(), RSd("t1", "r2"), RFd("t1", "r2")], DRAFT, ok],
    [
      "draft: a second run on another thread",
      [RSd(), RFd(), RSd("t2", "r2")],
      DRAFT,
      rej("THREAD_ID_MISMATCH", 2),
    ],
    [
      "draft: a run after RUN_ERROR on another thread",
      [RSd(), RE(), RSd("t2", "r2")],
      DRAFT,
      rej("THREAD_ID_MISMATCH", 2),
    ],
    [
      "draft: the first run's thread binds the third",
      [RSd(), RFd(), RSd("t1", "r2"), RE(), RSd("t2", "r3")],
      DRAFT,
      rej("THREAD_ID_MISMATCH", 4),
    ],
    [
      "draft: a second run's RUN_FINISHED names the first run",
      [RSd(), RFd(), RSd("t1", "r2"), RFd("t1", "r1")],
      DRAFT,
      rej("RUN_ID_MISMATCH", 3),
    ],
    ["draft: a runId may repeat across runs", [RSd(), RFd(), RSd(), RFd()], DRAFT, ok],
    // "(`RUN_ERROR` has no id fields in the 1.1 schema and is never compared.)"
    ["draft: RUN_ERROR's ids are never compared", [RSd(), RE(ids("t9", "r9"))], DRAFT, ok],
    [
      "draft: a late RUN_ERROR's ids are never compared",
      [RSd(), RFd(), RE(ids("t9", "r9"))],
      DRAFT,
      ok,
    ],
    [
      "draft: RUN_ERROR first, then a run on any thread",
      [RE(ids("t9", "r9")), RSd("t2", "r2"), RFd("t2", "r2")],
      DRAFT,
      ok,
    ],
    [
      "draft: unknown types around the runs",
      [ev("FUTURE"), RSd(), RFd(), ev("FUTURE", { threadId: "t2" })],
      DRAFT,
      ok,
    ],
    // precedence: "`RUN_ID_MISMATCH`, `THREAD_ID_MISMATCH`, then rules 7, 8 (with the duplicate
    // check after the empty check) and 13"
    [
      "draft: RUN_ID_MISMATCH before rule 7",
      [RSd(), TMS("m1"), RFd("t1", "r2")],
      DRAFT,
      rej("RUN_ID_MISMATCH", 2),
    ],
    [
      "draft: THREAD_ID_MISMATCH before rule 8",
      [RSd(), RFd("t2", "r1", { outcome: { type: "interrupt", interrupts: [] } })],
      DRAFT,
      rej("THREAD_ID_MISMATCH", 1),
    ],
    [
      "draft: THREAD_ID_MISMATCH before rule 13",
      [RSd(), SAS("s1"), RFd("t2", "r1")],
      DRAFT,
      rej("THREAD_ID_MISMATCH", 2),
    ],
    [
      "draft: rule 1 before the thread check",
      [RSd(), RSd("t2", "r2")],
      DRAFT,
      rej("RUN_ALREADY_STARTED", 1),
    ],
    [
      "draft: rule 2 before the id checks",
      [RSd(), RFd(), RFd("t2", "r2")],
      DRAFT,
      rej("EVENT_AFTER_RUN_CLOSED", 2),
    ],
    // without the option, the ids are not read at all (§9.1)
    ["1.1: a RUN_FINISHED naming another run", [RSd(), RFd("t2", "r2")], ok],
    ["1.1: runs on two threads", [RSd(), RFd(), RSd("t2", "r2"), RFd("t2", "r2")], ok],
    [
      '1.1, explicitly: protocol "1.1" reads no ids',
      [RSd(), RFd("t2", "r2")],
      { protocol: "1.1" },
      ok,
    ],
  ]),
  ...about(8, [
    // "An interrupt outcome whose interrupts repeat an `id` → `INTERRUPT_ID_DUPLICATE` (rule 8),
    // and the field is `outcome.interrupts[n].id` of the second occurrence."
    ["draft: distinct interrupt ids", [RSd(), interruptsD("i1", "i2")], DRAFT, ok],
    [
      "draft: a repeated interrupt id",
      [RSd(), interruptsD("i1", "i1")],
      DRAFT,
      rej("INTERRUPT_ID_DUPLICATE", 1, "outcome.interrupts[1].id"),
    ],
    [
      "draft: the second occurrence is named",
      [RSd(), interruptsD("a", "b", "c", "b", "a")],
      DRAFT,
      rej("INTERRUPT_ID_DUPLICATE", 1, "outcome.interrupts[3].id"),
    ],
    [
      'draft: "" repeated',
      [RSd(), interruptsD("", "x", "")],
      DRAFT,
      rej("INTERRUPT_ID_DUPLICATE", 1, "outcome.interrupts[2].id"),
    ],
    // "Only string ids are compared"
    ["draft: numeric ids are not compared", [RSd(), interruptsD(1, 1)], DRAFT, ok],
    ["draft: absent ids are not compared", [RSd(), interruptsD(undefined, undefined)], DRAFT, ok],
    ["draft: a string and a number", [RSd(), interruptsD("1", 1)], DRAFT, ok],
    [
      "draft: rule 8's empty check first",
      [RSd(), RFd("t1", "r1", { outcome: { type: "interrupt", interrupts: [] } })],
      DRAFT,
      rej("INTERRUPT_OUTCOME_EMPTY", 1),
    ],
    [
      "draft: rule 7 before the duplicate check",
      [RSd(), TMS("m1"), interruptsD("i1", "i1")],
      DRAFT,
      rej("OPEN_AT_RUN_FINISHED", 2),
    ],
    [
      "draft: the duplicate check before rule 13",
      [RSd(), SAS("s1"), interruptsD("i1", "i1")],
      DRAFT,
      rej("INTERRUPT_ID_DUPLICATE", 2, "outcome.interrupts[1].id"),
    ],
    [
      "draft: a success outcome's interrupts are not read",
      [
        RSd(),
        RFd("t1", "r1", { outcome: { type: "success", interrupts: [{ id: "i" }, { id: "i" }] } }),
      ],
      DRAFT,
      ok,
    ],
    ["1.1: a repeated interrupt id", [RSd(), interruptsD("i1", "i1")], ok],
  ]),
  ...about(0, [
    // "`RUN_STARTED` and `RUN_FINISHED` read `threadId` and `runId` (R strings, §3.2)", after
    // the fields §3.2 lists before them (`input`, `outcome`)
    ["draft: RUN_STARTED without ids", [RS()], DRAFT, rej("FIELD_MISSING", 0, "threadId")],
    [
      "draft: RUN_STARTED without runId",
      [RS({ threadId: "t1" })],
      DRAFT,
      rej("FIELD_MISSING", 0, "runId"),
    ],
    [
      "draft: RUN_STARTED with a null threadId",
      [RS({ threadId: null, runId: "r1" })],
      DRAFT,
      rej("FIELD_NULL", 0, "threadId"),
    ],
    [
      "draft: RUN_STARTED with a numeric runId",
      [RS({ threadId: "t1", runId: 1 })],
      DRAFT,
      rej("FIELD_WRONG_TYPE", 0, "runId"),
    ],
    [
      "draft: RUN_STARTED's input before its ids",
      [RS({ input: null })],
      DRAFT,
      rej("FIELD_NULL", 0, "input"),
    ],
    ["draft: RUN_FINISHED without ids", [RSd(), RF()], DRAFT, rej("FIELD_MISSING", 1, "threadId")],
    [
      "draft: RUN_FINISHED with a numeric runId",
      [RSd(), RF({ threadId: "t1", runId: 7 })],
      DRAFT,
      rej("FIELD_WRONG_TYPE", 1, "runId"),
    ],
    [
      "draft: RUN_FINISHED's outcome before its ids",
      [RSd(), RF({ outcome: null })],
      DRAFT,
      rej("FIELD_NULL", 1, "outcome"),
    ],
    [
      "draft: a new run's RUN_STARTED is field-checked",
      [RSd(), RFd(), RS({ threadId: "t1" })],
      DRAFT,
      rej("FIELD_MISSING", 2, "runId"),
    ],
    ["draft: RUN_ERROR reads no ids", [RSd(), RE({ threadId: null, runId: 5 })], DRAFT, ok],
    ["draft: a leading RUN_ERROR reads no ids", [RE({ threadId: 1 })], DRAFT, ok],
    ["1.1: null ids are not read", [RS({ threadId: null, runId: 5 }), RF({ runId: null })], ok],
  ]),
];

// ---------------------------------------------------------------------------------------
// The table.

const rows: Row[] = [
  ...idLimitRows,
  ...shapeRows,
  ...phaseRows,
  ...flatFieldRows,
  ...runStartedRows,
  ...runFinishedRows,
  ...snapshotRows,
  ...unknownRows,
  ...lifecycleRows,
  ...ownershipRows,
  ...subagentRows,
  ...chunkRows,
  ...sequentialRows,
  ...precedenceRows,
  ...scopeRows,
  ...schemaRows,
  ...draftRows,
];

// The verifier MUST NOT mutate events (§2): freeze everything the rows hand it.
function deepFreeze(v: unknown): void {
  if (v === null || typeof v !== "object" || Object.isFrozen(v)) return;
  const proto = Object.getPrototypeOf(v);
  if (!Array.isArray(v) && proto !== Object.prototype && proto !== null) return;
  Object.freeze(v);
  for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
}
for (const row of rows) deepFreeze(row[1]);

function unpack(row: Row): {
  name: string;
  events: readonly unknown[];
  options: Opts | undefined;
  expected: Expected;
} {
  return row.length === 3
    ? { name: row[0], events: row[1], options: undefined, expected: row[2] }
    : { name: row[0], events: row[1], options: row[2], expected: row[3] };
}

function runRow(events: readonly unknown[], options: Opts | undefined): unknown {
  try {
    if (options === undefined) verifyAll(events);
    else verifyAll(events, options);
  } catch (err) {
    return err;
  }
  return undefined;
}

function verdict(err: unknown): unknown {
  if (err === undefined) return "accepted";
  if (isVerifyError(err)) {
    const e = err as VerifyError;
    return { code: e.code, index: e.index, field: e.field, rule: e.rule };
  }
  return { thrown: String(err) };
}

function typeOf(v: unknown): string | undefined {
  if (v instanceof SseDecodeFailure) return undefined;
  if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
  const t = (v as { type?: unknown }).type;
  return typeof t === "string" ? t : undefined;
}

/** The rule a row is listed under: its code's rule, or its group's when it is accepted. */
function ruleOfRow(row: Row): number {
  const { name, expected } = unpack(row);
  const rule = expected === "accepted" ? groupRule.get(row) : RULE_OF_CODE[expected.code];
  if (rule === undefined) throw new Error(`row "${name}" belongs to no rule`);
  return rule;
}

function checkRow(row: Row): void {
  const { events, options, expected } = unpack(row);
  const err = runRow(events, options);
  if (expected === "accepted") {
    expect(verdict(err)).toBe("accepted");
    return;
  }
  const isField = expected.code.startsWith("FIELD_") || expected.code === "INTERRUPT_ID_DUPLICATE";
  if (isField && expected.field === undefined) throw new Error("row must name the field");
  const hasField = isField || expected.code === "SCHEMA_MISMATCH";
  expect(verdict(err)).toEqual({
    code: expected.code,
    index: expected.index,
    field: hasField ? expected.field : undefined,
    rule: RULE_OF_CODE[expected.code],
  });
  const e = err as VerifyError;
  expect(e).toBeInstanceOf(VerifyError);
  expect(e).toBeInstanceOf(Error);
  expect(e.name).toBe("VerifyError");
  if (expected.code.startsWith("STREAM_ENDED_")) {
    expect(expected.index).toBe(events.length);
    expect(e.event).toBeUndefined();
    expect(e.eventType).toBeUndefined();
  } else {
    expect(expected.index).toBeLessThan(events.length);
    expect(e.event).toBe(events[expected.index]);
    expect(e.eventType).toBe(typeOf(events[expected.index]));
  }
}

// One block per rule, so `vitest -t "Rule 10 —"` runs every rule-10 row.
RULE_TITLES.forEach((_title, rule) => {
  describe(ruleHeading(rule), () => {
    const mine = rows.filter((row) => ruleOfRow(row) === rule);
    it("has rows", () => {
      expect(mine.length).toBeGreaterThan(0);
    });
    for (const row of mine) it(row[0], () => checkRow(row));
  });
});

describe("conformance rows", () => {
  it("has at least 250 rows with unique names", () => {
    expect(rows.length).toBeGreaterThanOrEqual(250);
    const names = rows.map((r) => r[0]);
    const dupes = names.filter((n, i) => names.indexOf(n) !== i);
    expect(dupes).toEqual([]);
  });

  it("lists every row under one of the rules 0-13", () => {
    for (const row of rows) expect(RULE_TITLES[ruleOfRow(row)]).toBeDefined();
  });

  it(`rejects with every one of the ${CODES.length} codes somewhere`, () => {
    const seen = new Set<string>();
    for (const row of rows) {
      const { expected } = unpack(row);
      if (expected !== "accepted") seen.add(expected.code);
    }
    expect(CODES.filter((c) => !seen.has(c))).toEqual([]);
  });

  it("every rejection message ends with [CODE, rule N] (§10.3)", () => {
    const bad: string[] = [];
    for (const row of rows) {
      const { name, events, options, expected } = unpack(row);
      if (expected === "accepted") continue;
      const err = runRow(events, options);
      if (!isVerifyError(err)) continue; // reported by the row itself
      const e = err as VerifyError;
      if (!e.message.endsWith(`[${e.code}, rule ${e.rule}]`)) bad.push(`${name}: ${e.message}`);
    }
    expect(bad).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------
// Error fields for specific values.

describe("error fields", () => {
  const catchErr = (events: readonly unknown[], options?: Opts): VerifyError => {
    const err = runRow(events, options);
    if (!isVerifyError(err)) throw new Error(`expected a VerifyError, got ${String(err)}`);
    return err as VerifyError;
  };

  it("decode failure: event is the failure, eventType undefined, rule 0", () => {
    const f = new SseDecodeFailure("INVALID_JSON", "[DONE]", new SyntaxError("bad"));
    const e = catchErr([RS(), TMS("m1"), f]);
    expect(e.code).toBe("INVALID_JSON");
    expect(e.rule).toBe(0);
    expect(e.index).toBe(2);
    expect(e.event).toBe(f);
    expect(e.eventType).toBeUndefined();
    expect(e.field).toBeUndefined();
    expect((e.event as SseDecodeFailure).data).toBe("[DONE]");
  });

  it("decode failure keeps its own code, data and cause", () => {
    const cause = new RangeError("too big");
    const f = new SseDecodeFailure("SSE_BUFFER_OVERFLOW", undefined, cause);
    expect(f.code).toBe("SSE_BUFFER_OVERFLOW");
    expect(f.data).toBeUndefined();
    expect(f.cause).toBe(cause);
    const e = catchErr([RS(), RF(), f]);
    expect(e.code).toBe("SSE_BUFFER_OVERFLOW");
    expect(e.event).toBe(f);
  });

  it("EVENT_TYPE_INVALID: eventType undefined, event is the value", () => {
    const bad = { type: 12 };
    const e = catchErr([RS(), bad]);
    expect(e.eventType).toBeUndefined();
    expect(e.event).toBe(bad);
  });

  it("FIELD_* on a typed event: eventType is its type", () => {
    const bad = { type: "TOOL_CALL_START", toolCallId: "c1", parentMessageId: null };
    const e = catchErr([RS(), bad]);
    expect(e.eventType).toBe("TOOL_CALL_START");
    expect(e.field).toBe("parentMessageId");
    expect(e.event).toBe(bad);
  });

  it("end of input: event and eventType undefined, index is the count", () => {
    const e = catchErr([RS(), ev("FUTURE"), TMS("m1")]);
    expect(e.code).toBe("STREAM_ENDED_BEFORE_RUN_CLOSED");
    expect(e.index).toBe(3);
    expect(e.event).toBeUndefined();
    expect(e.eventType).toBeUndefined();
    expect(e.field).toBeUndefined();
  });

  it("a RUN_ERROR after RUN_ERROR keeps the producer's message readable", () => {
    const bad = { type: "RUN_ERROR", message: "boom" };
    const e = catchErr([RS(), RE(), bad]);
    expect(e.code).toBe("EVENT_AFTER_RUN_CLOSED");
    expect(e.eventType).toBe("RUN_ERROR");
    expect(e.event).toBe(bad);
    expect((e.event as { message: string }).message).toBe("boom");
  });

  it("INTERRUPT_ID_DUPLICATE: field is the second occurrence's id (§9.14, §10.1)", () => {
    const outcome = { type: "interrupt", interrupts: [{ id: "i1" }, { id: "i2" }, { id: "i1" }] };
    const bad = RFd("t1", "r1", { outcome });
    const e = catchErr([RSd(), bad], DRAFT);
    expect(e).toMatchObject({ code: "INTERRUPT_ID_DUPLICATE", rule: 8, index: 1 });
    expect(e.field).toBe("outcome.interrupts[2].id");
    expect(e.event).toBe(bad);
    expect(e.eventType).toBe("RUN_FINISHED");
  });

  it("RUN_ID_MISMATCH and THREAD_ID_MISMATCH: rule 2, no field", () => {
    const runs = catchErr([RSd(), RFd("t1", "r2")], DRAFT);
    expect(runs).toMatchObject({ code: "RUN_ID_MISMATCH", rule: 2, field: undefined });
    const threads = catchErr([RSd(), RFd(), RSd("t2", "r2")], DRAFT);
    expect(threads).toMatchObject({ code: "THREAD_ID_MISMATCH", rule: 2, field: undefined });
    expect(threads.eventType).toBe("RUN_STARTED");
  });

  it("isVerifyError", () => {
    expect(isVerifyError(catchErr([]))).toBe(true);
    expect(isVerifyError(new Error("x"))).toBe(false);
    expect(isVerifyError(null)).toBe(false);
    expect(isVerifyError(undefined)).toBe(false);
    expect(
      isVerifyError({ name: "VerifyError", code: "EVENT_NOT_OBJECT", rule: 0, index: 0 }),
    ).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------
// Verifier lifecycle: poisoning (§10.4), end() (§9.7), verify after end (§2).

describe("Verifier lifecycle", () => {
  const thrown = (f: () => void): unknown => {
    try {
      f();
    } catch (err) {
      return err;
    }
    return undefined;
  };

  it("error is undefined until something fails", () => {
    const v = new Verifier();
    expect(v.error).toBeUndefined();
    v.verify(RS());
    v.verify(TMS("m1"));
    expect(v.error).toBeUndefined();
  });

  it("a failing verify poisons: later verify and end throw the same instance", () => {
    const v = new Verifier();
    v.verify(RS());
    const e1 = thrown(() => v.verify(null));
    expect(isVerifyError(e1)).toBe(true);
    expect((e1 as VerifyError).code).toBe("EVENT_NOT_OBJECT");
    expect(v.error).toBe(e1);
    expect(thrown(() => v.verify(RF()))).toBe(e1);
    expect(thrown(() => v.verify(fail("INVALID_JSON")))).toBe(e1);
    expect(thrown(() => v.end())).toBe(e1);
    expect(thrown(() => v.end())).toBe(e1);
    expect(v.error).toBe(e1);
    expect((e1 as VerifyError).index).toBe(1);
  });

  it("a poisoned verifier does not inspect its argument", () => {
    const v = new Verifier();
    const e1 = thrown(() => v.verify(TMS("m1")));
    const trap = new Proxy(
      {},
      {
        get() {
          throw new Error("inspected");
        },
        has() {
          throw new Error("inspected");
        },
        getPrototypeOf() {
          throw new Error("inspected");
        },
        ownKeys() {
          throw new Error("inspected");
        },
        getOwnPropertyDescriptor() {
          throw new Error("inspected");
        },
      },
    );
    expect(thrown(() => v.verify(trap))).toBe(e1);
  });

  it("a rule failure poisons too (OWNER_MISMATCH)", () => {
    const v = new Verifier();
    v.verify(RS());
    v.verify(TMS("m1", "s1"));
    const e1 = thrown(() => v.verify(TMC("m1", "s2")));
    expect((e1 as VerifyError).code).toBe("OWNER_MISMATCH");
    // a now-valid event still rethrows the original error
    expect(thrown(() => v.verify(TME("m1", "s1")))).toBe(e1);
    expect(thrown(() => v.verify(RE()))).toBe(e1);
  });

  it("a failing end poisons", () => {
    const v = new Verifier();
    const e1 = thrown(() => v.end());
    expect((e1 as VerifyError).code).toBe("STREAM_ENDED_BEFORE_RUN_STARTED");
    expect((e1 as VerifyError).index).toBe(0);
    expect(v.error).toBe(e1);
    expect(thrown(() => v.verify(RS()))).toBe(e1);
    expect(thrown(() => v.end())).toBe(e1);
  });

  it("a failing end in RUNNING poisons with the event count as index", () => {
    const v = new Verifier();
    v.verify(ev("FUTURE"));
    v.verify(RS());
    v.verify(RF());
    v.verify(RS());
    const e1 = thrown(() => v.end());
    expect((e1 as VerifyError).code).toBe("STREAM_ENDED_BEFORE_RUN_CLOSED");
    expect((e1 as VerifyError).index).toBe(4);
    expect(thrown(() => v.verify(RF()))).toBe(e1);
  });

  it("end() is idempotent when it succeeds", () => {
    const v = new Verifier();
    v.verify(RS());
    v.verify(RF());
    expect(thrown(() => v.end())).toBeUndefined();
    expect(thrown(() => v.end())).toBeUndefined();
    expect(thrown(() => v.end())).toBeUndefined();
    expect(v.error).toBeUndefined();
  });

  it("verify after a successful end throws a plain Error and changes nothing", () => {
    const v = new Verifier();
    v.verify(RS());
    v.verify(RE());
    v.end();
    for (const value of [RAW(), RS(), null, fail("INVALID_JSON"), TMS("m1")]) {
      const err = thrown(() => v.verify(value));
      expect(err).toBeInstanceOf(Error);
      expect(err).not.toBeInstanceOf(VerifyError);
      expect(isVerifyError(err)).toBe(false);
    }
    expect(v.error).toBeUndefined();
    expect(thrown(() => v.end())).toBeUndefined();
  });

  it("verify after a successful end throws a plain Error, even for a new run's RUN_STARTED", () => {
    const v = new Verifier();
    v.verify(RS());
    v.verify(RF());
    v.end();
    for (const next of [RS(), RE()]) {
      const err = thrown(() => v.verify(next));
      expect(err).toBeInstanceOf(Error);
      expect(isVerifyError(err)).toBe(false);
    }
    const err = thrown(() => v.verify(ev("FUTURE")));
    expect(err).toBeInstanceOf(Error);
    expect(isVerifyError(err)).toBe(false);
    // state unchanged: the run is still closed, so end() still succeeds
    expect(thrown(() => v.end())).toBeUndefined();
    expect(v.error).toBeUndefined();
  });

  it("verify returns undefined on success", () => {
    const v = new Verifier();
    expect(v.verify(RS())).toBeUndefined();
  });

  it("verifyAll stops pulling the iterable at the first error", () => {
    let pulled = 0;
    function* gen(): Generator<unknown> {
      pulled++;
      yield RS();
      pulled++;
      yield TMC("m1");
      pulled++;
      throw new Error("iterated past the error");
    }
    let caught: unknown;
    try {
      verifyAll(gen());
    } catch (e) {
      caught = e;
    }
    expect(isVerifyError(caught)).toBe(true);
    expect((caught as VerifyError).code).toBe("TEXT_MESSAGE_NOT_OPEN");
    expect((caught as VerifyError).index).toBe(1);
    expect(pulled).toBe(2);
  });

  it("verifyAll accepts any iterable", () => {
    expect(() => verifyAll(new Set([RS(), RF()]))).not.toThrow();
    const it2 = {
      *[Symbol.iterator]() {
        yield ev("FUTURE");
        yield RS();
        yield RAW();
        yield RE();
      },
    };
    expect(() => verifyAll(it2)).not.toThrow();
    expect(() => verifyAll([RE()].values())).not.toThrow();
  });

  it("verifyAll runs end(): a truncated iterable fails", () => {
    let caught: unknown;
    try {
      verifyAll(new Set([RS()]));
    } catch (e) {
      caught = e;
    }
    expect((caught as VerifyError).code).toBe("STREAM_ENDED_BEFORE_RUN_CLOSED");
  });

  it("the index counts decode failures, unknown and chunk events", () => {
    const v = new Verifier();
    v.verify(ev("FUTURE"));
    v.verify(RS());
    v.verify(RAW());
    v.verify(ev("TEXT_MESSAGE_CHUNK"));
    v.verify(ev("THINKING_START"));
    const e = thrown(() => v.verify(fail("INVALID_JSON")));
    expect((e as VerifyError).index).toBe(5);
  });

  it("a leading RUN_ERROR closes: end() accepts, and only RUN_STARTED may follow", () => {
    const v = new Verifier();
    v.verify(RE());
    v.verify(ev("FUTURE"));
    expect(thrown(() => v.end())).toBeUndefined();
    const w = new Verifier();
    w.verify(RE());
    w.verify(RS());
    w.verify(TMS("m1"));
    w.verify(TME("m1"));
    w.verify(RF());
    w.verify(RE());
    const e = thrown(() => w.verify(RE()));
    expect(e).toMatchObject({ code: "EVENT_AFTER_RUN_CLOSED", index: 6, rule: 2 });
  });

  it('protocol is "1.1" or "draft"; anything else is a TypeError when the verifier is made', () => {
    new Verifier({ protocol: "1.1" });
    new Verifier({ protocol: "draft" });
    new Verifier({ protocol: undefined });
    for (const protocol of ["1.0", "DRAFT", "draft ", "", "1.1.0", 1.1, true, {}, ["draft"]]) {
      const make = () => new Verifier({ protocol } as unknown as Opts);
      expect(thrown(make)).toBeInstanceOf(TypeError);
      expect(thrown(() => verifyAll([RS(), RF()], { protocol } as unknown as Opts))).toBeInstanceOf(
        TypeError,
      );
    }
  });

  it("separate verifiers do not share state", () => {
    const a = new Verifier();
    const b = new Verifier();
    a.verify(RS());
    expect(thrown(() => b.verify(TMS("m1")))).toBeDefined();
    a.verify(TMS("m1"));
    a.verify(TME("m1"));
    a.verify(RF());
    expect(thrown(() => a.end())).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------
// A few message checks (§10.3). Wording is free; these check the mandated parts only.

describe("error messages (§10.3)", () => {
  const message = (events: readonly unknown[], options?: Opts): string => {
    const err = runRow(events, options);
    if (!isVerifyError(err)) throw new Error(`expected a VerifyError, got ${String(err)}`);
    return (err as VerifyError).message;
  };

  it("rule failure: type first, index, quoted ids and owners, code last", () => {
    const m = message([RS(), CUSTOM(), TMS("m1", "s1"), TMC("m1", "s2")]);
    expect(m.startsWith("TEXT_MESSAGE_CONTENT")).toBe(true);
    expect(m).toContain("at index 3");
    expect(m).toContain('"m1"');
    expect(m).toContain('subagent "s1"');
    expect(m).toContain('subagent "s2"');
    expect(m.endsWith("[OWNER_MISMATCH, rule 9]")).toBe(true);
  });

  it("the parent agent and the empty-string subagent", () => {
    const m = message([RS(), TMS("m1"), TMC("m1", "")]);
    expect(m).toContain("the parent agent");
    expect(m).toContain('subagent ""');
  });

  it("ids are JSON-quoted", () => {
    const id = 'm"1\\x';
    const m = message([RS(), TMC(id)]);
    expect(m).toContain(JSON.stringify(id));
    expect(m.endsWith("[TEXT_MESSAGE_NOT_OPEN, rule 3]")).toBe(true);
  });

  it("non-object: starts with event", () => {
    const m = message([RS(), [1]]);
    expect(m.startsWith("event")).toBe(true);
    expect(m).toContain("at index 1");
    expect(m.endsWith("[EVENT_NOT_OBJECT, rule 0]")).toBe(true);
  });

  it("no type: starts with event", () => {
    const m = message([{ type: null }]);
    expect(m.startsWith("event")).toBe(true);
    expect(m.endsWith("[EVENT_TYPE_INVALID, rule 0]")).toBe(true);
  });

  it("decode failure: starts with SSE message", () => {
    const m = message([RS(), RAW(), fail("INVALID_JSON")]);
    expect(m.startsWith("SSE message")).toBe(true);
    expect(m).toContain("at index 2");
    expect(m.endsWith("[INVALID_JSON, rule 0]")).toBe(true);
  });

  it("end of input: starts with end of input", () => {
    const m = message([RS(), TCS("c1")]);
    expect(m.startsWith("end of input")).toBe(true);
    expect(m).toContain("at index 2");
    expect(m.endsWith("[STREAM_ENDED_BEFORE_RUN_CLOSED, rule 2]")).toBe(true);
  });

  it("FIELD_* names the field path", () => {
    const m = message([
      RS(),
      SNAP([msg("m0", "user"), { id: "m1", role: "assistant", toolCalls: [{}] }]),
    ]);
    expect(m.startsWith("MESSAGES_SNAPSHOT")).toBe(true);
    expect(m).toContain("messages[1].toolCalls[0].id");
    expect(m.endsWith("[FIELD_MISSING, rule 0]")).toBe(true);
  });

  it("OPEN_AT_RUN_FINISHED lists every open entity", () => {
    const m = message([RS(), TMS("m1"), TCS("c1", "s1"), RMS("r1"), SS("plan", "")]);
    // run still open: the end-of-input message SHOULD list them; check RUN_FINISHED, which MUST
    expect(m.startsWith("end of input")).toBe(true);
    const m2 = message([RS(), TMS("m1"), TCS("c1", "s1"), RMS("r1"), SS("plan", ""), RF()]);
    expect(m2.startsWith("RUN_FINISHED")).toBe(true);
    for (const part of [
      '"m1"',
      '"c1"',
      '"r1"',
      '"plan"',
      'subagent "s1"',
      'subagent ""',
      "the parent agent",
    ]) {
      expect(m2).toContain(part);
    }
    expect(m2.endsWith("[OPEN_AT_RUN_FINISHED, rule 7]")).toBe(true);
  });

  it("SUBAGENT_OPEN_AT_RUN_FINISHED lists the active subagents", () => {
    const m = message([RS(), SAS("s1"), SAS("s2"), SAF("s1"), SAS("s3"), RF()]);
    expect(m).toContain('"s2"');
    expect(m).toContain('"s3"');
    expect(m.endsWith("[SUBAGENT_OPEN_AT_RUN_FINISHED, rule 13]")).toBe(true);
  });

  it("the span codes name the span, quoted, and rule 4", () => {
    const notOpen = message([RS(), REND('r"1')]);
    expect(notOpen.startsWith("REASONING_END at index 1")).toBe(true);
    expect(notOpen).toContain(JSON.stringify('r"1'));
    expect(notOpen.endsWith("[REASONING_SPAN_NOT_OPEN, rule 4]")).toBe(true);
    const twice = message([RS(), RST("r1", "s1"), RST("r1")]);
    expect(twice.startsWith("REASONING_START at index 2")).toBe(true);
    expect(twice).toContain('"r1"');
    expect(twice.endsWith("[REASONING_SPAN_ALREADY_OPEN, rule 4]")).toBe(true);
  });

  it("OPEN_AT_RUN_FINISHED lists an open span with its owner", () => {
    const m = message([RS(), RST("r9", "s1"), RF()]);
    expect(m).toContain('"r9"');
    expect(m).toContain('subagent "s1"');
    expect(m.endsWith("[OPEN_AT_RUN_FINISHED, rule 7]")).toBe(true);
  });

  it("the draft codes quote both ids and end with their rule", () => {
    const run = message([RSd("t1", "r1"), RFd("t1", "r2")], DRAFT);
    expect(run.startsWith("RUN_FINISHED at index 1")).toBe(true);
    expect(run).toContain('"r1"');
    expect(run).toContain('"r2"');
    expect(run.endsWith("[RUN_ID_MISMATCH, rule 2]")).toBe(true);
    const thread = message([RSd("t1", "r1"), RE(), RSd("t2", "r2")], DRAFT);
    expect(thread.startsWith("RUN_STARTED at index 2")).toBe(true);
    expect(thread).toContain('"t1"');
    expect(thread).toContain('"t2"');
    expect(thread.endsWith("[THREAD_ID_MISMATCH, rule 2]")).toBe(true);
    const dup = message([RSd(), interruptsD("i7", "i7")], DRAFT);
    expect(dup).toContain('"i7"');
    expect(dup.endsWith("[INTERRUPT_ID_DUPLICATE, rule 8]")).toBe(true);
  });

  it("rule 1 and rule 2 say what may come instead", () => {
    const before = message([CUSTOM()]);
    expect(before.startsWith("CUSTOM at index 0")).toBe(true);
    expect(before).toContain("RUN_STARTED");
    expect(before).toContain("RUN_ERROR");
    expect(before.endsWith("[EVENT_BEFORE_RUN_STARTED, rule 1]")).toBe(true);
    const afterFinish = message([RS(), RF(), RAW()]);
    expect(afterFinish).toContain("RUN_STARTED");
    expect(afterFinish).toContain("RUN_ERROR");
    expect(afterFinish.endsWith("[EVENT_AFTER_RUN_CLOSED, rule 2]")).toBe(true);
    const afterError = message([RS(), RE(), RE()]);
    expect(afterError.startsWith("RUN_ERROR at index 2")).toBe(true);
    expect(afterError).toContain("RUN_STARTED");
    expect(afterError.endsWith("[EVENT_AFTER_RUN_CLOSED, rule 2]")).toBe(true);
  });

  it("ID_LIMIT_EXCEEDED names the limit and the option, whatever the id's length", () => {
    const m = message([RS(), TCS(MIB)], { maxIds: 16_383 });
    expect(m.startsWith("TOOL_CALL_START at index 1")).toBe(true);
    expect(m).toMatch(/16,?383/);
    expect(m).toContain("maxIds");
    expect(m.length).toBeLessThanOrEqual(2000);
    expect(m.endsWith("[ID_LIMIT_EXCEEDED, rule 0]")).toBe(true);
  });

  it("STEP_OWNER_MISMATCH names the step and its holders", () => {
    const m = message([RS(), SS("tools", "s1"), SS("tools", ""), SF("tools")]);
    expect(m.startsWith("STEP_FINISHED")).toBe(true);
    expect(m).toContain('"tools"');
    expect(m).toContain('subagent "s1"');
    expect(m).toContain('subagent ""');
    expect(m.endsWith("[STEP_OWNER_MISMATCH, rule 11]")).toBe(true);
  });
});
