// The tables of SPEC.md that tests need, written once, from the spec. Never import these
// from src/ (nor src's own tables into tests): a wrong table in src must not pass its own
// tests.

/** The 31 recognised event types of SPEC §3.2, in the table's order (THINKING_* excluded). */
export const EVENT_TYPES = [
  "RUN_STARTED",
  "RUN_FINISHED",
  "RUN_ERROR",
  "STEP_STARTED",
  "STEP_FINISHED",
  "TEXT_MESSAGE_START",
  "TEXT_MESSAGE_CONTENT",
  "TEXT_MESSAGE_END",
  "TEXT_MESSAGE_CHUNK",
  "TOOL_CALL_START",
  "TOOL_CALL_ARGS",
  "TOOL_CALL_END",
  "TOOL_CALL_CHUNK",
  "TOOL_CALL_RESULT",
  "REASONING_START",
  "REASONING_MESSAGE_START",
  "REASONING_MESSAGE_CONTENT",
  "REASONING_MESSAGE_END",
  "REASONING_MESSAGE_CHUNK",
  "REASONING_END",
  "REASONING_ENCRYPTED_VALUE",
  "ACTIVITY_SNAPSHOT",
  "ACTIVITY_DELTA",
  "STATE_SNAPSHOT",
  "STATE_DELTA",
  "MESSAGES_SNAPSHOT",
  "RAW",
  "CUSTOM",
  "SUBAGENT_STARTED",
  "SUBAGENT_FINISHED",
  "SUBAGENT_ERROR",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** The same 31 types, for membership tests. */
export const RECOGNISED: ReadonlySet<string> = new Set(EVENT_TYPES);

export function isEventType(type: string): type is EventType {
  return RECOGNISED.has(type);
}

/** The deprecated THINKING_* row of §3.2: read exactly like unknown types (§9.5). */
export const THINKING_TYPES = [
  "THINKING_START",
  "THINKING_END",
  "THINKING_TEXT_MESSAGE_START",
  "THINKING_TEXT_MESSAGE_CONTENT",
  "THINKING_TEXT_MESSAGE_END",
] as const;

/** The JSON type a read field must have (§3.2, §4). */
export type FieldKind = "string" | "boolean" | "object" | "array";

/** One top-level field the verifier reads: [name, required, JSON type]. */
export type FieldRead = readonly [name: string, required: boolean, kind: FieldKind];

/**
 * The "Fields read" column of §3.2, per recognised type, top-level fields only, in the
 * order they are checked (§4.1): the tag first, then the table's order. The nested content
 * of `input`, `outcome` and `messages` is described in §3.3 and §3.4.
 */
export const FIELDS_READ: Readonly<Record<EventType, readonly FieldRead[]>> = (() => {
  const tag: FieldRead = ["subagentRunId", false, "string"];
  const id = (name: string): readonly FieldRead[] => [tag, [name, true, "string"]];
  return {
    RUN_STARTED: [tag, ["input", false, "object"]],
    RUN_FINISHED: [tag, ["outcome", false, "object"]],
    RUN_ERROR: [tag],
    STEP_STARTED: id("stepName"),
    STEP_FINISHED: id("stepName"),
    TEXT_MESSAGE_START: id("messageId"),
    TEXT_MESSAGE_CONTENT: id("messageId"),
    TEXT_MESSAGE_END: id("messageId"),
    TEXT_MESSAGE_CHUNK: [tag],
    TOOL_CALL_START: [tag, ["toolCallId", true, "string"], ["parentMessageId", false, "string"]],
    TOOL_CALL_ARGS: id("toolCallId"),
    TOOL_CALL_END: id("toolCallId"),
    TOOL_CALL_CHUNK: [tag],
    TOOL_CALL_RESULT: [tag, ["toolCallId", true, "string"], ["messageId", true, "string"]],
    REASONING_START: id("messageId"),
    REASONING_MESSAGE_START: id("messageId"),
    REASONING_MESSAGE_CONTENT: id("messageId"),
    REASONING_MESSAGE_END: id("messageId"),
    REASONING_MESSAGE_CHUNK: [tag],
    REASONING_END: id("messageId"),
    REASONING_ENCRYPTED_VALUE: [tag, ["subtype", true, "string"], ["entityId", true, "string"]],
    ACTIVITY_SNAPSHOT: [tag, ["messageId", true, "string"], ["replace", false, "boolean"]],
    ACTIVITY_DELTA: id("messageId"),
    STATE_SNAPSHOT: [tag],
    STATE_DELTA: [tag],
    MESSAGES_SNAPSHOT: [tag, ["messages", true, "array"]],
    RAW: [tag],
    CUSTOM: [tag],
    SUBAGENT_STARTED: [
      ["subagentRunId", true, "string"],
      ["parentSubagentRunId", false, "string"],
    ],
    SUBAGENT_FINISHED: [["subagentRunId", true, "string"]],
    SUBAGENT_ERROR: [["subagentRunId", true, "string"]],
  };
})();

/**
 * Every code of §10.2 and the rule it belongs to, in the table's order; SCHEMA_MISMATCH,
 * which §14 adds to it, with the other rule 0 codes.
 */
export const RULE_OF_CODE = {
  INVALID_JSON: 0,
  SSE_BUFFER_OVERFLOW: 0,
  ID_LIMIT_EXCEEDED: 0,
  EVENT_NOT_OBJECT: 0,
  EVENT_TYPE_INVALID: 0,
  FIELD_MISSING: 0,
  FIELD_NULL: 0,
  FIELD_WRONG_TYPE: 0,
  SCHEMA_MISMATCH: 0,
  EVENT_BEFORE_RUN_STARTED: 1,
  RUN_ALREADY_STARTED: 1,
  STREAM_ENDED_BEFORE_RUN_STARTED: 1,
  EVENT_AFTER_RUN_CLOSED: 2,
  STREAM_ENDED_BEFORE_RUN_CLOSED: 2,
  TEXT_MESSAGE_ALREADY_OPEN: 3,
  TEXT_MESSAGE_NOT_OPEN: 3,
  TOOL_CALL_ALREADY_OPEN: 4,
  TOOL_CALL_NOT_OPEN: 4,
  REASONING_MESSAGE_ALREADY_OPEN: 4,
  REASONING_MESSAGE_NOT_OPEN: 4,
  TOOL_CALL_RESULT_BEFORE_END: 5,
  STEP_ALREADY_ACTIVE: 6,
  STEP_NOT_STARTED: 6,
  OPEN_AT_RUN_FINISHED: 7,
  INTERRUPT_OUTCOME_EMPTY: 8,
  OWNER_MISMATCH: 9,
  TOOL_CALL_PARENT_OWNER_MISMATCH: 10,
  STEP_OWNER_MISMATCH: 11,
  SUBAGENT_ALREADY_ACTIVE: 12,
  SUBAGENT_ALREADY_FINISHED: 12,
  SUBAGENT_PARENT_NOT_STARTED: 12,
  SUBAGENT_NOT_ACTIVE: 12,
  SUBAGENT_OPEN_AT_RUN_FINISHED: 13,
} as const;

export type Code = keyof typeof RULE_OF_CODE;

export function isCode(code: string): code is Code {
  return Object.hasOwn(RULE_OF_CODE, code);
}

/** The codes of §10.2, in the table's order. */
export const CODES: readonly Code[] = Object.keys(RULE_OF_CODE).filter(isCode);

/** The rule a code belongs to; undefined for a string that is no code of §10.2. */
export function ruleOfCode(code: string): number | undefined {
  return isCode(code) ? RULE_OF_CODE[code] : undefined;
}

/** The title of each rule, 0–13 (§4 for rule 0, §7 for the others). */
export const RULE_TITLES: readonly string[] = [
  "malformed input",
  "RUN_STARTED opens the stream, exactly once; only RAW and CUSTOM may precede it",
  "RUN_FINISHED and RUN_ERROR close the run; nothing may follow",
  "text messages open, continue and close by id",
  "the same, for tool calls and for reasoning messages",
  "TOOL_CALL_RESULT may not answer a call that has not ended",
  "STEP_FINISHED needs a matching STEP_STARTED; a step does not nest with itself",
  "everything open is closed before RUN_FINISHED",
  "an interrupt outcome carries at least one interrupt",
  "a continuation, terminator or re-open that names a subagent names the owner",
  "a tool call belongs to the message its parentMessageId names",
  "steps are scoped to the agent that opened them",
  "subagent lifecycle",
  "every started subagent is closed before RUN_FINISHED, not before RUN_ERROR",
];

/** `Rule N — title`, the name of rule N's describe block in test/rules.test.ts. */
export function ruleHeading(rule: number): string {
  return `Rule ${rule} — ${RULE_TITLES[rule] ?? "?"}`;
}
