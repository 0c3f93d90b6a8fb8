/**
 * The error contract of SPEC §10: one error class, {@link VerifyError}, with a stable `code`
 * per failure, and the {@link SseDecodeFailure} value the SSE decoder hands to the verifier.
 * @module
 */

import { isBranded } from "./_util/brand.ts";

/** A stable failure code (SPEC §10.2). Renaming one is a breaking change. */
export type VerifyErrorCode =
  | "INVALID_JSON"
  | "SSE_BUFFER_OVERFLOW"
  | "ID_LIMIT_EXCEEDED"
  | "EVENT_NOT_OBJECT"
  | "EVENT_TYPE_INVALID"
  | "FIELD_MISSING"
  | "FIELD_NULL"
  | "FIELD_WRONG_TYPE"
  | "SCHEMA_MISMATCH"
  | "EVENT_BEFORE_RUN_STARTED"
  | "RUN_ALREADY_STARTED"
  | "STREAM_ENDED_BEFORE_RUN_STARTED"
  | "EVENT_AFTER_RUN_CLOSED"
  | "STREAM_ENDED_BEFORE_RUN_CLOSED"
  | "TEXT_MESSAGE_ALREADY_OPEN"
  | "TEXT_MESSAGE_NOT_OPEN"
  | "TOOL_CALL_ALREADY_OPEN"
  | "TOOL_CALL_NOT_OPEN"
  | "REASONING_MESSAGE_ALREADY_OPEN"
  | "REASONING_MESSAGE_NOT_OPEN"
  | "REASONING_SPAN_ALREADY_OPEN"
  | "REASONING_SPAN_NOT_OPEN"
  | "STEP_ALREADY_ACTIVE"
  | "STEP_NOT_STARTED"
  | "OPEN_AT_RUN_FINISHED"
  | "INTERRUPT_OUTCOME_EMPTY"
  | "INTERRUPT_ID_DUPLICATE"
  | "OWNER_MISMATCH"
  | "TOOL_CALL_PARENT_OWNER_MISMATCH"
  | "STEP_OWNER_MISMATCH"
  | "SUBAGENT_ALREADY_ACTIVE"
  | "SUBAGENT_ALREADY_FINISHED"
  | "SUBAGENT_PARENT_NOT_STARTED"
  | "SUBAGENT_NOT_ACTIVE"
  | "SUBAGENT_OPEN_AT_RUN_FINISHED"
  | "RUN_ID_MISMATCH"
  | "THREAD_ID_MISMATCH"
  | "CHUNK_ID_MISSING"
  | "CHUNK_NAME_MISSING"
  | "CHUNK_CONFLICT"
  | "CHUNK_AMBIGUOUS"
  | "RESPONSE_NOT_EVENTS"
  | "PROTO_DECODE_FAILED"
  | "PROTO_TRUNCATED"
  | "PROTO_FRAME_TOO_LARGE";

/** Each failure code, mapped to the number of the rule it belongs to (SPEC §10.2). */
const RULE_OF_CODE: { readonly [C in VerifyErrorCode]: number } = {
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
  REASONING_SPAN_ALREADY_OPEN: 4,
  REASONING_SPAN_NOT_OPEN: 4,
  STEP_ALREADY_ACTIVE: 6,
  STEP_NOT_STARTED: 6,
  OPEN_AT_RUN_FINISHED: 7,
  INTERRUPT_OUTCOME_EMPTY: 8,
  INTERRUPT_ID_DUPLICATE: 8,
  OWNER_MISMATCH: 9,
  TOOL_CALL_PARENT_OWNER_MISMATCH: 10,
  STEP_OWNER_MISMATCH: 11,
  SUBAGENT_ALREADY_ACTIVE: 12,
  SUBAGENT_ALREADY_FINISHED: 12,
  SUBAGENT_PARENT_NOT_STARTED: 12,
  SUBAGENT_NOT_ACTIVE: 12,
  SUBAGENT_OPEN_AT_RUN_FINISHED: 13,
  RUN_ID_MISMATCH: 2,
  THREAD_ID_MISMATCH: 2,
  // The 1.1 pipeline's chunk expansion (SPEC §20.2): malformed chunks, rule 0.
  CHUNK_ID_MISSING: 0,
  CHUNK_NAME_MISSING: 0,
  CHUNK_CONFLICT: 0,
  CHUNK_AMBIGUOUS: 0,
  // A Response handed to an event API that carries no events (SPEC §21.2).
  RESPONSE_NOT_EVENTS: 0,
  // The protobuf transport's decoding failures (SPEC §21.2).
  PROTO_DECODE_FAILED: 0,
  PROTO_TRUNCATED: 0,
  PROTO_FRAME_TOO_LARGE: 0,
};

function codesOf(table: typeof RULE_OF_CODE): readonly VerifyErrorCode[] {
  return Object.freeze(Object.keys(table).filter((key): key is VerifyErrorCode => key in table));
}

/** Every {@link VerifyErrorCode}, in the order of SPEC §10.2. */
export const VERIFY_ERROR_CODES: readonly VerifyErrorCode[] = /* @__PURE__ */ codesOf(RULE_OF_CODE);

/**
 * The rule number (0–13) a code belongs to.
 *
 * @example
 * ```ts
 * import { ruleOf } from "ag-ui-verify";
 * ruleOf("OWNER_MISMATCH"); // 9
 * ```
 */
export function ruleOf(code: VerifyErrorCode): number {
  return RULE_OF_CODE[code];
}

/** The codes a decode failure can carry. */
export type SseDecodeFailureCode = "INVALID_JSON" | "SSE_BUFFER_OVERFLOW";

/**
 * What the SSE decoder passes downstream, in order, when it cannot produce a JSON value:
 * a message whose data is not JSON, or a message that outgrew the parser's buffer. It is a
 * value, not an error, so that events decoded earlier from the same network chunk still
 * reach the reader; the verifier turns it into a rule 0 {@link VerifyError} (SPEC §12).
 *
 * @example
 * ```ts
 * import { isVerifyError, SseDecodeFailure, Verifier } from "ag-ui-verify";
 * const v = new Verifier();
 * try {
 *   v.verify(new SseDecodeFailure("INVALID_JSON", "[DONE]"));
 * } catch (e) {
 *   if (isVerifyError(e)) console.log(e.code); // "INVALID_JSON"
 * }
 * ```
 */
export class SseDecodeFailure {
  /** Why decoding failed: data that is not JSON, or a message longer than `maxBufferSize`. */
  readonly code: SseDecodeFailureCode;
  /** The SSE data that failed to parse, when there is one. */
  readonly data: string | undefined;
  /** What the parser threw, if anything. */
  readonly cause: unknown;

  /** Makes a failure value; the decoder does this, tests and custom decoders may too. */
  constructor(code: SseDecodeFailureCode, data?: string, cause?: unknown) {
    this.code = code;
    this.data = data;
    this.cause = cause;
  }
}

/** The fields of a {@link VerifyError} besides its message. */
export interface VerifyErrorInit {
  /** See {@link VerifyError.code}. */
  code: VerifyErrorCode;
  /** See {@link VerifyError.index}. */
  index: number;
  /** See {@link VerifyError.eventType}. */
  eventType: string | undefined;
  /** See {@link VerifyError.event}. */
  event: unknown;
  /** See {@link VerifyError.field}. */
  field: string | undefined;
  /** What was thrown while reading the event, if anything (a getter or Proxy trap). */
  cause?: unknown;
}

/**
 * A cross-realm brand. `Symbol.for` keys are shared by every realm of an agent, so the guard
 * also recognises errors made by another copy of this library (an iframe, a second bundle).
 */
const BRAND = Symbol.for("ag-ui-verify.VerifyError");

/**
 * The one error the verifier raises: the first event that broke a rule, or the end of
 * input when the run was not properly opened and closed. Programs read `code`, `index` and
 * `field`; people read `message`.
 *
 * @example
 * ```ts
 * import { VerifyError, verifyAll } from "ag-ui-verify";
 * try {
 *   verifyAll([{ type: "RUN_STARTED" }, { type: "TEXT_MESSAGE_CONTENT", messageId: "m1" }]);
 * } catch (e) {
 *   if (e instanceof VerifyError) console.log(e.code, e.index); // TEXT_MESSAGE_NOT_OPEN 1
 * }
 * ```
 */
export class VerifyError extends Error {
  /** Always `"VerifyError"`. */
  override readonly name = "VerifyError";
  /** The rule number, 0–13 (rule 0: malformed input); never 5, which left the verifier. */
  readonly rule: number;
  /** The stable failure code. */
  readonly code: VerifyErrorCode;
  /** 0-based index of the offending event; at end of input, the number of events verified. */
  readonly index: number;
  /** The offending event's `type`, when it has a string one. */
  readonly eventType: string | undefined;
  /** The offending value (an {@link SseDecodeFailure} for decode failures); undefined at end of input. */
  readonly event: unknown;
  /**
   * For `FIELD_*` codes, the path of the bad field (`input.messages[2].id`); for
   * `SCHEMA_MISMATCH`, the path of the schema's first issue, when it has one; for
   * `INTERRUPT_ID_DUPLICATE`, the second occurrence (`outcome.interrupts[1].id`); otherwise
   * undefined.
   */
  readonly field: string | undefined;

  /** Made by the verifier; `rule` follows from `init.code`. */
  constructor(message: string, init: VerifyErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.rule = RULE_OF_CODE[init.code];
    this.code = init.code;
    this.index = init.index;
    this.eventType = init.eventType;
    this.event = init.event;
    this.field = init.field;
  }

  /** @internal */
  get [BRAND](): true {
    return true;
  }
}

/**
 * True when `value` is a {@link VerifyError}, including one made in another realm or by
 * another copy of this library, where `instanceof` fails.
 *
 * @example
 * ```ts
 * import { isVerifyError } from "ag-ui-verify";
 * isVerifyError(new Error("x")); // false
 * ```
 */
export function isVerifyError(value: unknown): value is VerifyError {
  return isBranded(value, VerifyError, BRAND);
}

/**
 * What a consumer warns about and goes on (SPEC §20.2): the 1.1 pipeline's warnings
 * (`ag-ui-verify/conform`), and a protobuf frame dropped for an unknown event (§21.1).
 */
export type ConformWarningCode =
  | "UNKNOWN_EVENT_DROPPED"
  | "UNKNOWN_PROPERTY_STRIPPED"
  | "UNKNOWN_MEMBER_STRIPPED"
  | "THINKING_TRANSLATED"
  | "PROTOCOL_VERSION_NEWER"
  | "PROTOCOL_VERSION_UNINTERPRETABLE"
  | "ENCRYPTED_VALUE_UNKNOWN_ENTITY";

/** A warning of the 1.1 pipeline or the protobuf decoder: the stream goes on. */
export interface ConformWarning {
  /** The stable warning code. */
  readonly code: ConformWarningCode;
  /** What happened and what the pipeline did, with the event type and the pointer it names. */
  readonly message: string;
  /** The index of the input value it is about, counted as SPEC §10.1 counts (from 0). */
  readonly index: number;
  /** The event's `type`, when the warning is about an event that has one. */
  readonly eventType: string | undefined;
  /** What was stripped or dropped, as a JSON Pointer into the event (`""`: the whole event). */
  readonly path: string | undefined;
}
