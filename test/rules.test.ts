// Table-driven conformance rows written from the text of spec/SPEC.md (not from its example
// blocks, which test/spec-examples covers). Each row is [name, events, options?, expected],
// fed to `verifyAll`. `expected` is "accepted" or { code, index, field? }; the rule number
// is checked against the §10.2 table for every rejection, and `field` is checked for every
// rejection (undefined unless the code is FIELD_* or SCHEMA_MISMATCH). No Node-only APIs: this
// file also runs under the edge-runtime environment.
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

type Opts = { allowSequentialRuns?: boolean; schema?: StandardSchemaV1; maxIds?: number };
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
const SEQ: Opts = { allowSequentialRuns: true };

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
    ["string after RAW before the run", [RAW(), "x"], rej("EVENT_NOT_OBJECT", 1)],
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
    [
      "null after the close with allowSequentialRuns",
      [RS(), RF(), null],
      SEQ,
      rej("EVENT_NOT_OBJECT", 2),
    ],
    [
      "typeless after the close with allowSequentialRuns",
      [RS(), RF(), {}],
      SEQ,
      rej("EVENT_TYPE_INVALID", 2),
    ],
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
      "INVALID_JSON after RAW and CUSTOM before the run",
      [RAW(), CUSTOM(), RAW(), fail("INVALID_JSON")],
      rej("INVALID_JSON", 3),
    ],
    ["INVALID_JSON after RUN_FINISHED", [RS(), RF(), fail("INVALID_JSON")], rej("INVALID_JSON", 2)],
    ["INVALID_JSON after RUN_ERROR", [RS(), RE(), fail("INVALID_JSON")], rej("INVALID_JSON", 2)],
    [
      "SSE_BUFFER_OVERFLOW after the close with allowSequentialRuns",
      [RS(), RF(), fail("SSE_BUFFER_OVERFLOW")],
      SEQ,
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
    ["RUN_FINISHED first", [RF()], rej("EVENT_BEFORE_RUN_STARTED", 0)],
    ["RUN_ERROR first (§13 #2)", [RE()], rej("EVENT_BEFORE_RUN_STARTED", 0)],
    ["RUN_ERROR after RAW", [RAW(), RE()], rej("EVENT_BEFORE_RUN_STARTED", 1)],
    ["TEXT_MESSAGE_START first", [TMS("m1")], rej("EVENT_BEFORE_RUN_STARTED", 0)],
    ["STATE_DELTA after CUSTOM", [CUSTOM(), ev("STATE_DELTA")], rej("EVENT_BEFORE_RUN_STARTED", 1)],
    ["MESSAGES_SNAPSHOT before the run", [SNAP([])], rej("EVENT_BEFORE_RUN_STARTED", 0)],
    ["SUBAGENT_STARTED before the run", [SAS("s1")], rej("EVENT_BEFORE_RUN_STARTED", 0)],
    ["STEP_STARTED before the run", [RAW(), SS("plan")], rej("EVENT_BEFORE_RUN_STARTED", 1)],
    ["TOOL_CALL_RESULT before the run", [TCR("c1", "t1")], rej("EVENT_BEFORE_RUN_STARTED", 0)],
    ["ACTIVITY_SNAPSHOT before the run", [AS("a1")], rej("EVENT_BEFORE_RUN_STARTED", 0)],
    [
      "TEXT_MESSAGE_CHUNK before the run",
      [ev("TEXT_MESSAGE_CHUNK")],
      rej("EVENT_BEFORE_RUN_STARTED", 0),
    ],
    [
      "TOOL_CALL_CHUNK before the run",
      [CUSTOM(), ev("TOOL_CALL_CHUNK")],
      rej("EVENT_BEFORE_RUN_STARTED", 1),
    ],
    [
      "REASONING_MESSAGE_CHUNK before the run",
      [ev("REASONING_MESSAGE_CHUNK")],
      rej("EVENT_BEFORE_RUN_STARTED", 0),
    ],
    ["THINKING_START before the run", [ev("THINKING_START")], rej("EVENT_BEFORE_RUN_STARTED", 0)],
    [
      "THINKING_TEXT_MESSAGE_CONTENT before the run",
      [RAW(), ev("THINKING_TEXT_MESSAGE_CONTENT")],
      rej("EVENT_BEFORE_RUN_STARTED", 1),
    ],
    ["unknown type before the run", [ev("NEW_KIND_OF_EVENT")], rej("EVENT_BEFORE_RUN_STARTED", 0)],
    [
      "lower-case run_started is an unknown type",
      [ev("run_started")],
      rej("EVENT_BEFORE_RUN_STARTED", 0),
    ],
    ["empty-string type before the run", [ev("")], rej("EVENT_BEFORE_RUN_STARTED", 0)],
    [
      "malformed TEXT_MESSAGE_START before the run is rule 1 (phase before fields)",
      [ev("TEXT_MESSAGE_START")],
      rej("EVENT_BEFORE_RUN_STARTED", 0),
    ],
    [
      "null-tagged RUN_ERROR before the run is rule 1",
      [RE({ subagentRunId: null })],
      rej("EVENT_BEFORE_RUN_STARTED", 0),
    ],
    [
      "RUN_FINISHED with a null outcome before the run",
      [RF({ outcome: null })],
      rej("EVENT_BEFORE_RUN_STARTED", 0),
    ],
    [
      "null-tagged unknown type before the run",
      [ev("FUTURE", { subagentRunId: null })],
      rej("EVENT_BEFORE_RUN_STARTED", 0),
    ],
    [
      "RAW with a null tag before the run is a field error",
      [RAW({ subagentRunId: null })],
      rej("FIELD_NULL", 0, "subagentRunId"),
    ],
    [
      "CUSTOM with a numeric tag before the run",
      [CUSTOM({ subagentRunId: 3 })],
      rej("FIELD_WRONG_TYPE", 0, "subagentRunId"),
    ],
    ["RAW with a string tag before the run", [RAW({ subagentRunId: "s1" }), RS(), RF()], ok],
    [
      "RAW and CUSTOM with null unread fields",
      [RAW({ event: null, source: null }), CUSTOM({ name: null, value: null }), RS(), RF()],
      ok,
    ],
    [
      "many RAW and CUSTOM before RUN_STARTED (§13 #1)",
      [RAW(), CUSTOM(), CUSTOM(), RAW(), RS(), RF()],
      ok,
    ],
    ["CUSTOM then RUN_STARTED (§13 #1)", [CUSTOM(), RS(), RF()], ok],
    ["RAW then RUN_STARTED (§13 #1)", [RAW(), RS(), RE()], ok],
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
      "second RUN_STARTED while running, with the option",
      [RS(), TMS("m1"), RS()],
      SEQ,
      rej("RUN_ALREADY_STARTED", 2),
    ],
  ]),
  ...about(2, [
    ["RAW after RUN_FINISHED", [RS(), RF(), RAW()], rej("EVENT_AFTER_RUN_CLOSED", 2)],
    ["CUSTOM after RUN_FINISHED", [RS(), RF(), CUSTOM()], rej("EVENT_AFTER_RUN_CLOSED", 2)],
    ["RAW after RUN_ERROR", [RS(), RE(), RAW()], rej("EVENT_AFTER_RUN_CLOSED", 2)],
    ["RS RF RS RF (§13 #3)", [RS(), RF(), RS(), RF()], rej("EVENT_AFTER_RUN_CLOSED", 2)],
    ["RS RF RS RF with the option (§13 #3)", [RS(), RF(), RS(), RF()], SEQ, ok],
    ["RS RE RS RF (§13 #4)", [RS(), RE(), RS(), RF()], rej("EVENT_AFTER_RUN_CLOSED", 2)],
    ["RS RE RS RF with the option (§13 #4)", [RS(), RE(), RS(), RF()], SEQ, ok],
    ["RS RF RE (§13 #5)", [RS(), RF(), RE()], rej("EVENT_AFTER_RUN_CLOSED", 2)],
    ["RS RE RE with the option", [RS(), RE(), RE()], SEQ, rej("EVENT_AFTER_RUN_CLOSED", 2)],
    ["RS RF RAW RS RF with the option (§13 #6)", [RS(), RF(), RAW(), RS(), RF()], SEQ, ok],
    [
      "RS RF RAW RS RF without the option (§13 #6)",
      [RS(), RF(), RAW(), RS(), RF()],
      rej("EVENT_AFTER_RUN_CLOSED", 2),
    ],
    ["RUN_FINISHED twice", [RS(), RF(), RF()], rej("EVENT_AFTER_RUN_CLOSED", 2)],
    [
      "RUN_FINISHED twice with the option",
      [RS(), RF(), RF()],
      SEQ,
      rej("EVENT_AFTER_RUN_CLOSED", 2),
    ],
    ["unknown type after the close", [RS(), RF(), ev("FUTURE")], rej("EVENT_AFTER_RUN_CLOSED", 2)],
    [
      "THINKING_END after the close",
      [RS(), RE(), ev("THINKING_END")],
      rej("EVENT_AFTER_RUN_CLOSED", 2),
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
      "RAW with a null tag after the close, no option",
      [RS(), RF(), RAW({ subagentRunId: null })],
      rej("EVENT_AFTER_RUN_CLOSED", 2),
    ],
    [
      "RAW with a null tag after the close, with the option",
      [RS(), RF(), RAW({ subagentRunId: null })],
      SEQ,
      rej("FIELD_NULL", 2, "subagentRunId"),
    ],
    [
      "RUN_STARTED with a null input after the close, no option",
      [RS(), RF(), RS({ input: null })],
      rej("EVENT_AFTER_RUN_CLOSED", 2),
    ],
    [
      "RUN_STARTED with a null input after the close, with the option",
      [RS(), RF(), RS({ input: null })],
      SEQ,
      rej("FIELD_NULL", 2, "input"),
    ],
    [
      "STATE_DELTA between runs with the option",
      [RS(), RF(), ev("STATE_DELTA"), RS(), RF()],
      SEQ,
      rej("EVENT_AFTER_RUN_CLOSED", 2),
    ],
    [
      "MESSAGES_SNAPSHOT between runs with the option",
      [RS(), RF(), SNAP([])],
      SEQ,
      rej("EVENT_AFTER_RUN_CLOSED", 2),
    ],
    [
      "unknown type between runs with the option",
      [RS(), RF(), RAW(), ev("FUTURE")],
      SEQ,
      rej("EVENT_AFTER_RUN_CLOSED", 3),
    ],
    [
      "THINKING_START between runs with the option",
      [RS(), RE(), ev("THINKING_START")],
      SEQ,
      rej("EVENT_AFTER_RUN_CLOSED", 2),
    ],
    [
      "TEXT_MESSAGE_START between runs with the option",
      [RS(), RE(), TMS("m1")],
      SEQ,
      rej("EVENT_AFTER_RUN_CLOSED", 2),
    ],
    [
      "SUBAGENT_FINISHED between runs with the option",
      [RS(), SAS("s1"), RE(), SAF("s1")],
      SEQ,
      rej("EVENT_AFTER_RUN_CLOSED", 3),
    ],
    [
      "allowSequentialRuns: false",
      [RS(), RF(), RS(), RF()],
      { allowSequentialRuns: false },
      rej("EVENT_AFTER_RUN_CLOSED", 2),
    ],
    ["empty options object", [RS(), RF(), RS(), RF()], {}, rej("EVENT_AFTER_RUN_CLOSED", 2)],
    [
      "only `true` enables sequential runs (truthy non-boolean)",
      [RS(), RF(), RS(), RF()],
      { allowSequentialRuns: 1 as unknown as boolean },
      rej("EVENT_AFTER_RUN_CLOSED", 2),
    ],
    [
      "event before the first run with the option",
      [RAW(), TMS("m1")],
      SEQ,
      rej("EVENT_BEFORE_RUN_STARTED", 1),
    ],
    // End of input (§9.7)
    ["empty input (§13 #14)", [], rej("STREAM_ENDED_BEFORE_RUN_STARTED", 0)],
    ["only RAW", [RAW()], rej("STREAM_ENDED_BEFORE_RUN_STARTED", 1)],
    [
      "only RAW and CUSTOM, four of them",
      [RAW(), CUSTOM(), RAW(), CUSTOM()],
      rej("STREAM_ENDED_BEFORE_RUN_STARTED", 4),
    ],
    ["empty input with the option", [], SEQ, rej("STREAM_ENDED_BEFORE_RUN_STARTED", 0)],
    ["only RUN_STARTED", [RS()], rej("STREAM_ENDED_BEFORE_RUN_CLOSED", 1)],
    [
      "text message open at the end (§13 #14)",
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
      [RS(), RF(), RAW(), RS(), TMS("m1")],
      SEQ,
      rej("STREAM_ENDED_BEFORE_RUN_CLOSED", 5),
    ],
    [
      "end right after the second RUN_STARTED",
      [RS(), RE(), RS()],
      SEQ,
      rej("STREAM_ENDED_BEFORE_RUN_CLOSED", 3),
    ],
    [
      "RAW and CUSTOM after the last close, with the option",
      [RS(), RF(), RAW(), CUSTOM()],
      SEQ,
      ok,
    ],
    ["RUN_ERROR ends the stream", [RS(), RE()], ok],
    ["three sequential runs", [RS(), RF(), RS(), RE(), CUSTOM(), RS(), RF()], SEQ, ok],
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
      "TEXT_MESSAGE_START without messageId (§13 #17)",
      [RS(), ev("TEXT_MESSAGE_START")],
      rej("FIELD_MISSING", 1, "messageId"),
    ],
    [
      "TEXT_MESSAGE_END without messageId (§13 #17)",
      [RS(), TMS("m1"), ev("TEXT_MESSAGE_END")],
      rej("FIELD_MISSING", 2, "messageId"),
    ],
    [
      "STEP_STARTED without stepName (§13 #17)",
      [RS(), ev("STEP_STARTED")],
      rej("FIELD_MISSING", 1, "stepName"),
    ],
    [
      "STEP_FINISHED without stepName (§13 #17)",
      [RS(), SS("a"), ev("STEP_FINISHED")],
      rej("FIELD_MISSING", 2, "stepName"),
    ],
    [
      "toolCallId 42 on TOOL_CALL_ARGS (§13 #17)",
      [RS(), TCS("c1"), ev("TOOL_CALL_ARGS", { toolCallId: 42 })],
      rej("FIELD_WRONG_TYPE", 2, "toolCallId"),
    ],
    [
      "subagentRunId 5 on STATE_SNAPSHOT (§13 #17)",
      [RS(), ev("STATE_SNAPSHOT", { subagentRunId: 5 })],
      rej("FIELD_WRONG_TYPE", 1, "subagentRunId"),
    ],
    [
      'replace "false" (§13 #17)',
      [RS(), ev("ACTIVITY_SNAPSHOT", { messageId: "a1", replace: "false" })],
      rej("FIELD_WRONG_TYPE", 1, "replace"),
    ],
    [
      "REASONING_ENCRYPTED_VALUE without subtype (§13 #17)",
      [RS(), ev("REASONING_ENCRYPTED_VALUE", { entityId: "r1" })],
      rej("FIELD_MISSING", 1, "subtype"),
    ],
    [
      "parentMessageId null (§13 #16)",
      [RS(), ev("TOOL_CALL_START", { toolCallId: "c1", parentMessageId: null })],
      rej("FIELD_NULL", 1, "parentMessageId"),
    ],
    [
      "replace null (§13 #16)",
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
  ]),
];

const runStartedRows: Row[] = [
  ...about(0, [
    ["input null (§13 #16)", [RS({ input: null })], rej("FIELD_NULL", 0, "input")],
    ["input string", [RS({ input: "x" })], rej("FIELD_WRONG_TYPE", 0, "input")],
    ["input array", [RS({ input: [] })], rej("FIELD_WRONG_TYPE", 0, "input")],
    ["input number", [RAW(), RS({ input: 0 })], rej("FIELD_WRONG_TYPE", 1, "input")],
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
      "echo message without id (§13 #17)",
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
    ["RUN_STARTED null tag", [RS({ subagentRunId: null })], rej("FIELD_NULL", 0, "subagentRunId")],
    [
      "RUN_STARTED numeric tag",
      [RS({ subagentRunId: 1 })],
      rej("FIELD_WRONG_TYPE", 0, "subagentRunId"),
    ],
    [
      "RUN_STARTED tag reported before input",
      [RS({ subagentRunId: false, input: null })],
      rej("FIELD_WRONG_TYPE", 0, "subagentRunId"),
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
    ["outcome null (§13 #16)", [RS(), RF({ outcome: null })], rej("FIELD_NULL", 1, "outcome")],
    [
      'outcome "success" (§13 #17)',
      [RS(), RF({ outcome: "success" })],
      rej("FIELD_WRONG_TYPE", 1, "outcome"),
    ],
    [
      "outcome array",
      [RS(), RF({ outcome: [{ type: "success" }] })],
      rej("FIELD_WRONG_TYPE", 1, "outcome"),
    ],
    ["outcome number", [RS(), RF({ outcome: 1 })], rej("FIELD_WRONG_TYPE", 1, "outcome")],
    ["outcome {} (§13 #17)", [RS(), RF({ outcome: {} })], rej("FIELD_MISSING", 1, "outcome.type")],
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
      'interrupts "x" (§13 #17)',
      [RS(), interrupt("x")],
      rej("FIELD_WRONG_TYPE", 1, "outcome.interrupts"),
    ],
    [
      "interrupts object",
      [RS(), interrupt({ id: "i1", reason: "r" })],
      rej("FIELD_WRONG_TYPE", 1, "outcome.interrupts"),
    ],
    [
      "interrupts [null] (§13 #16)",
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
    [
      "RUN_FINISHED null tag",
      [RS(), RF({ subagentRunId: null })],
      rej("FIELD_NULL", 1, "subagentRunId"),
    ],
    [
      "RUN_FINISHED tag reported before outcome",
      [RS(), RF({ subagentRunId: 1, outcome: null })],
      rej("FIELD_WRONG_TYPE", 1, "subagentRunId"),
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
    ['messages "nope" (§13 #17)', [RS(), SNAP("nope")], rej("FIELD_WRONG_TYPE", 1, "messages")],
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
      "messages[1] without id (§13 #17)",
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
      "message without role (§13 #17)",
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
      "snapshot tag reported before messages",
      [RS(), ev("MESSAGES_SNAPSHOT", { subagentRunId: null })],
      rej("FIELD_NULL", 1, "subagentRunId"),
    ],
    [
      "snapshot numeric tag",
      [RS(), SNAP([], { subagentRunId: 9 })],
      rej("FIELD_WRONG_TYPE", 1, "subagentRunId"),
    ],
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
      "THINKING_TEXT_MESSAGE_CONTENT without a start (§13 #13)",
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
      [RS(), RMS("r1"), REND("r1"), RF()],
      rej("OPEN_AT_RUN_FINISHED", 3),
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
    // §9.11 reasoning blocks (§13 #9–#12)
    ["REASONING_END without a start (§13 #9)", [RS(), REND("r"), RF()], ok],
    ["REASONING_START never ended (§13 #10)", [RS(), RST("r"), RF()], ok],
    ["REASONING_START twice (§13 #11)", [RS(), RST("r"), RST("r"), RF()], ok],
    ["REASONING_END twice", [RS(), RST("r"), REND("r"), REND("r"), RF()], ok],
    [
      "REASONING_MESSAGE_CONTENT not open (§13 #12)",
      [RS(), RMC("m")],
      rej("REASONING_MESSAGE_NOT_OPEN", 1),
    ],
    [
      "REASONING_MESSAGE_START twice (§13 #12)",
      [RS(), RMS("m"), RMS("m")],
      rej("REASONING_MESSAGE_ALREADY_OPEN", 2),
    ],
    [
      "REASONING_MESSAGE_START then RUN_FINISHED (§13 #12)",
      [RS(), RMS("m"), RF()],
      rej("OPEN_AT_RUN_FINISHED", 2),
    ],
  ]),
  ...about(5, [
    // rule 5
    [
      "TOOL_CALL_RESULT before end (§13 #7)",
      [RS(), TCS("c1"), TCR("c1", "t1"), TCE("c1"), RF()],
      rej("TOOL_CALL_RESULT_BEFORE_END", 2),
    ],
    [
      "result for a re-opened call",
      [RS(), TCS("c1"), TCE("c1"), TCR("c1", "t1"), TCS("c1"), TCA("c1"), TCR("c1", "t2")],
      rej("TOOL_CALL_RESULT_BEFORE_END", 6),
    ],
    [
      "result for a call open under a subagent, tagged",
      [RS(), TCS("c1", "s1"), TCR("c1", "t1", "s1")],
      rej("TOOL_CALL_RESULT_BEFORE_END", 2),
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
      [RS(), TCS("c1"), ev("TOOL_CALL_CHUNK", { toolCallId: "c1" }), TCR("c1", "t1")],
      rej("TOOL_CALL_RESULT_BEFORE_END", 3),
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
    ["activities and blocks are never open", [RS(), AS("a1"), RST("r1"), AD("a1"), RF()], ok],
    [
      "RUN_ERROR with everything open (§9.8)",
      [RS(), TMS("m1"), TCS("c1"), RMS("r1"), SS("plan"), SS("plan", "s1"), SAS("s1"), RE()],
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
        RMS("r1"),
        RME("r1"),
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
      "interrupt with empty interrupts (§13 #8)",
      [RS(), interrupt([])],
      rej("INTERRUPT_OUTCOME_EMPTY", 1),
    ],
    [
      "interrupt without interrupts (§13 #8)",
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
    // rule 9, reasoning (one shared registry for blocks and messages)
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
      [RS(), RMS("r1", "s1"), RME("r1"), REND("r1", "s2")],
      rej("OWNER_MISMATCH", 3),
    ],
    [
      "second REASONING_START by another subagent (§9.11)",
      [RS(), RST("r1", "s1"), RST("r1", "s2")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "second REASONING_START untagged, then tagged by the owner",
      [RS(), RST("r1", "s1"), RST("r1"), RST("r1", "s1"), RF()],
      ok,
    ],
    [
      "REASONING_START untagged records the parent",
      [RS(), RST("r1"), RMS("r1", "s1")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "REASONING_START after a message records nothing new",
      [RS(), RMS("r1", "s1"), RME("r1"), RST("r1", "s2")],
      rej("OWNER_MISMATCH", 3),
    ],
    [
      "REASONING_END records no owner",
      [RS(), REND("r1", "s1"), RMS("r1", "s2"), RME("r1", "s2"), RF()],
      ok,
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
      "REV message subtype against a reasoning block",
      [RS(), RST("r1", "s1"), REV("message", "r1", "")],
      rej("OWNER_MISMATCH", 2),
    ],
    [
      "REV message subtype, owner agrees",
      [RS(), RST("r1", "s1"), REV("message", "r1", "s1"), REV("message", "r1"), RF()],
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
      "REV with unknown subtype is not checked (§13 #19)",
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
      "snapshot tool calls of a user message are not seeded (§13 #21)",
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
      [echo([msg("r0", "reasoning", "s1")]), RST("r0", "s2")],
      rej("OWNER_MISMATCH", 1),
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
      "one id, four kinds, four owners",
      [
        RS(),
        TMS("x", "s1"),
        TCS("x", "s2"),
        RMS("x", "s3"),
        AS("x", "s4"),
        AD("x", "s4"),
        RME("x", "s3"),
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
    ["SUBAGENT_STARTED without name etc. (§13 #15)", [RS(), SAS("s1"), SAE("s1"), RF()], ok],
    [
      "SUBAGENT_FINISHED with a bogus outcome (§13 #15)",
      [
        RS(),
        SAS("s1"),
        ev("SUBAGENT_FINISHED", { subagentRunId: "s1", outcome: { type: "bogus" } }),
        RF(),
      ],
      ok,
    ],
    [
      "SUBAGENT_FINISHED suspended with null interruptIds (§13 #15)",
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
// I. Sequential runs (§9.6): state fully cleared, index keeps counting.

const sequentialRows: Row[] = [
  ...about(2, [
    [
      "open text message cleared",
      [RS(), TMS("m1"), RE(), RS(), TMS("m1"), TME("m1"), RF()],
      SEQ,
      ok,
    ],
    [
      "open text message cleared (content is not open)",
      [RS(), TMS("m1"), RE(), RS(), TMC("m1")],
      SEQ,
      rej("TEXT_MESSAGE_NOT_OPEN", 4),
    ],
    [
      "open tool call cleared",
      [RS(), TCS("c1"), RE(), RS(), TCR("c1", "t1"), TCE("c1")],
      SEQ,
      rej("TOOL_CALL_NOT_OPEN", 5),
    ],
    [
      "open reasoning message cleared",
      [RS(), RMS("r1"), RE(), RS(), RMS("r1"), RME("r1"), RF()],
      SEQ,
      ok,
    ],
    ["open step cleared", [RS(), SS("a"), RE(), RS(), SF("a")], SEQ, rej("STEP_NOT_STARTED", 4)],
    [
      "open subagent step cleared",
      [RS(), SS("a", "s1"), RE(), RS(), SS("a", "s1"), SF("a", "s1"), RF()],
      SEQ,
      ok,
    ],
    [
      "active subagent cleared",
      [RS(), SAS("s1"), RE(), RS(), SAF("s1")],
      SEQ,
      rej("SUBAGENT_NOT_ACTIVE", 4),
    ],
    [
      "active subagent cleared (not open at RUN_FINISHED)",
      [RS(), SAS("s1"), RE(), RS(), RF()],
      SEQ,
      ok,
    ],
    [
      "finished subagent may start again next run",
      [RS(), SAS("s1"), SAF("s1"), RF(), RS(), SAS("s1"), SAF("s1"), RF()],
      SEQ,
      ok,
    ],
    [
      "finished parent of the last run is not started",
      [RS(), SAS("s1"), SAF("s1"), RF(), RS(), SAS("s2", "s1")],
      SEQ,
      rej("SUBAGENT_PARENT_NOT_STARTED", 5),
    ],
    [
      "message registry cleared",
      [RS(), TMS("m1", "s1"), TME("m1"), RF(), RS(), TMS("m1", "s2"), TME("m1"), RF()],
      SEQ,
      ok,
    ],
    [
      "tool-call registry cleared",
      [RS(), TCS("c1", "s1"), TCE("c1"), RF(), RS(), TCS("c1", "s2"), TCE("c1"), RF()],
      SEQ,
      ok,
    ],
    [
      "reasoning registry cleared",
      [RS(), RST("r1", "s1"), RF(), RS(), RST("r1", "s2"), RF()],
      SEQ,
      ok,
    ],
    [
      "activity registry cleared",
      [RS(), AS("a1", "s1"), RF(), RS(), AD("a1", "s2"), RF()],
      SEQ,
      ok,
    ],
    [
      "snapshot seeding cleared",
      [RS(), SNAP([msg("m1", "user", "s1", ["c1"])]), RF(), RS(), TMS("m1", "s2"), TME("m1"), RF()],
      SEQ,
      ok,
    ],
    [
      "echo of the second run seeds after the clear",
      [RS(), TMS("m0", "s1"), TME("m0"), RF(), echo([msg("m0", "user", "s2")]), TMS("m0", "s1")],
      SEQ,
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
      SEQ,
      ok,
    ],
    [
      "rules still apply in the second run",
      [RS(), RF(), RS(), TMS("m1", "s1"), TMC("m1", "s2")],
      SEQ,
      rej("OWNER_MISMATCH", 4),
    ],
    [
      "index keeps counting across runs",
      [RAW(), RS(), RF(), CUSTOM(), RAW(), RS(), TMS("m1"), TMS("m1")],
      SEQ,
      rej("TEXT_MESSAGE_ALREADY_OPEN", 7),
    ],
    [
      "rule 7 in the second run",
      [RS(), RF(), RS(), SS("a"), RF()],
      SEQ,
      rej("OPEN_AT_RUN_FINISHED", 4),
    ],
    [
      "rule 13 in the second run",
      [RS(), RF(), RS(), SAS("s1"), RF()],
      SEQ,
      rej("SUBAGENT_OPEN_AT_RUN_FINISHED", 4),
    ],
    [
      "second run started, then RUN_STARTED again",
      [RS(), RF(), RS(), RS()],
      SEQ,
      rej("RUN_ALREADY_STARTED", 3),
    ],
    [
      "RUN_STARTED tagged in the second run",
      [RS(), RF(), RS({ subagentRunId: "s1" }), RF()],
      SEQ,
      ok,
    ],
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
      "field check before rule 3",
      [RS(), TMS("m1"), ev("TEXT_MESSAGE_START", { messageId: "m1", subagentRunId: null })],
      rej("FIELD_NULL", 2, "subagentRunId"),
    ],
    [
      "field check before rule 5",
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
      "RUN_FINISHED tag checked before rule 8",
      [RS(), RF({ subagentRunId: null, outcome: { type: "interrupt", interrupts: [] } })],
      rej("FIELD_NULL", 1, "subagentRunId"),
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
    [RS(), RF(), RS({ role: "robot" })],
    { ...ROLES, allowSequentialRuns: false },
    rej("EVENT_AFTER_RUN_CLOSED", 2),
  ],
];

// ---------------------------------------------------------------------------------------
// Rule 0 — the ids a run holds (SPEC §17.1): every kind counts; a finished step is
// forgotten; an event rejected otherwise records nothing; a new run starts from zero.

const MAX2: Opts = { maxIds: 2 };
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
    "a reasoning block over the limit",
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
    "the same step name under two owners holds two",
    [RS(), SS("a"), SS("a", "s1"), SS("a", "s2")],
    MAX2,
    rej("ID_LIMIT_EXCEEDED", 3),
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
    { ...MAX2, allowSequentialRuns: true },
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
]);

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
  const isField = expected.code.startsWith("FIELD_");
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
    const e = catchErr([RS(), RF(), f], SEQ);
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

  it("RUN_ERROR before the run keeps the producer's message readable", () => {
    const bad = { type: "RUN_ERROR", message: "boom" };
    const e = catchErr([bad]);
    expect(e.code).toBe("EVENT_BEFORE_RUN_STARTED");
    expect(e.eventType).toBe("RUN_ERROR");
    expect((e.event as { message: string }).message).toBe("boom");
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
    const v = new Verifier({ allowSequentialRuns: true });
    v.verify(RAW());
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

  it("verify after a successful end with allowSequentialRuns still throws a plain Error", () => {
    const v = new Verifier({ allowSequentialRuns: true });
    v.verify(RS());
    v.verify(RF());
    v.end();
    const err = thrown(() => v.verify(RS()));
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
        yield RAW();
        yield RS();
        yield RE();
      },
    };
    expect(() => verifyAll(it2)).not.toThrow();
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
    v.verify(RAW());
    v.verify(RS());
    v.verify(ev("FUTURE"));
    v.verify(ev("TEXT_MESSAGE_CHUNK"));
    v.verify(ev("THINKING_START"));
    const e = thrown(() => v.verify(fail("INVALID_JSON")));
    expect((e as VerifyError).index).toBe(5);
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

  it("STEP_OWNER_MISMATCH names the step and its holders", () => {
    const m = message([RS(), SS("tools", "s1"), SS("tools", ""), SF("tools")]);
    expect(m.startsWith("STEP_FINISHED")).toBe(true);
    expect(m).toContain('"tools"');
    expect(m).toContain('subagent "s1"');
    expect(m).toContain('subagent ""');
    expect(m.endsWith("[STEP_OWNER_MISMATCH, rule 11]")).toBe(true);
  });
});
