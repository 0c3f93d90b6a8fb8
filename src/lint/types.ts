/**
 * The linter's vocabulary (SPEC §18): findings, their severities and codes, the options and
 * the report.
 * @module
 */

import type { VerifyErrorCode } from "../errors.ts";
import type { RunAgentInput } from "../events/index.ts";
import type { SourceOptions } from "../streams/source.ts";
import type { VerifierOptions } from "../verify/verifier.ts";

/** How bad a finding is: an error breaks a rule; a warning marks what a client would lose. */
export type Severity = "error" | "warning";

/**
 * What `@ag-ui/client` 1.0.0 would silently mishandle in a stream the rules accept (§18.2),
 * and the producer duties 1.1 does not ask a consumer to enforce (§18.5).
 */
export type WarningCode =
  | "TOOL_CALL_RESULT_BEFORE_END"
  | "TOOL_CALL_ARGS_NOT_JSON"
  | "TOOL_CALL_RESULT_UNKNOWN_CALL"
  | "STATE_DELTA_NOT_APPLIED"
  | "ACTIVITY_DELTA_NOT_APPLIED"
  | "SSE_LINE_IGNORED"
  | "RUN_ID_MISMATCH"
  | "CLIENT_REJECTS"
  | "THREAD_ID_MISMATCH"
  | "RUN_ID_REUSED"
  | "INTERRUPT_ID_DUPLICATE"
  | "UNKNOWN_RUN_OUTCOME"
  | "CANCELLED_RUN_HAS_RESULT"
  | "USAGE_TOTAL_MISMATCH"
  | "USAGE_PART_EXCEEDS_TOTAL"
  | "PROTOCOL_VERSION_MISSING"
  | "PROTOCOL_VERSION_NOT_PUBLISHED"
  | "MESSAGE_ID_NOT_UNIQUE"
  | "PENDING_TOOL_CALL_IDS_MISMATCH"
  | "PENDING_TOOL_CALL_IDS_OMITTED"
  | "TEXT_REOPEN_MISMATCH"
  | "TOOL_CALL_REOPEN_MISMATCH"
  | "ENCRYPTED_VALUE_TYPE_WITHOUT_VALUE"
  | "SUBAGENT_ANNOUNCED_AFTER_USE"
  | "SUBAGENT_EVENT_AFTER_TERMINAL"
  | "SUSPENDED_INTERRUPT_ID_UNKNOWN"
  | "SSE_LINE_ENDINGS_NOT_LF"
  | "ACTIVITY_DELTA_WITHOUT_SNAPSHOT"
  | "CHUNK_TRIAD_MIXED"
  | "UNKNOWN_EVENT_DROPPED"
  | "UNKNOWN_PROPERTY_STRIPPED"
  | "UNKNOWN_MEMBER_STRIPPED"
  | "ENCRYPTED_VALUE_UNKNOWN_ENTITY"
  | "FRONTEND_TOOL_ANSWERED"
  | "REQUESTED_RUN_ID_MISMATCH"
  | "STATE_DELTA_WRONG_BASELINE";

/** Every {@link WarningCode}: SPEC §18.2's, then §18.5's. */
export const WARNING_CODES: readonly WarningCode[] = /* @__PURE__ */ Object.freeze([
  "TOOL_CALL_ARGS_NOT_JSON",
  "TOOL_CALL_RESULT_UNKNOWN_CALL",
  "STATE_DELTA_NOT_APPLIED",
  "ACTIVITY_DELTA_NOT_APPLIED",
  "SSE_LINE_IGNORED",
  "RUN_ID_MISMATCH",
  "CLIENT_REJECTS",
  "TOOL_CALL_RESULT_BEFORE_END",
  "THREAD_ID_MISMATCH",
  "RUN_ID_REUSED",
  "INTERRUPT_ID_DUPLICATE",
  "MESSAGE_ID_NOT_UNIQUE",
  "UNKNOWN_RUN_OUTCOME",
  "CANCELLED_RUN_HAS_RESULT",
  "USAGE_TOTAL_MISMATCH",
  "USAGE_PART_EXCEEDS_TOTAL",
  "PENDING_TOOL_CALL_IDS_MISMATCH",
  "PENDING_TOOL_CALL_IDS_OMITTED",
  "TEXT_REOPEN_MISMATCH",
  "TOOL_CALL_REOPEN_MISMATCH",
  "CHUNK_TRIAD_MIXED",
  "ENCRYPTED_VALUE_TYPE_WITHOUT_VALUE",
  "ENCRYPTED_VALUE_UNKNOWN_ENTITY",
  "SUBAGENT_ANNOUNCED_AFTER_USE",
  "SUBAGENT_EVENT_AFTER_TERMINAL",
  "SUSPENDED_INTERRUPT_ID_UNKNOWN",
  "ACTIVITY_DELTA_WITHOUT_SNAPSHOT",
  "PROTOCOL_VERSION_MISSING",
  "PROTOCOL_VERSION_NOT_PUBLISHED",
  "UNKNOWN_EVENT_DROPPED",
  "UNKNOWN_PROPERTY_STRIPPED",
  "UNKNOWN_MEMBER_STRIPPED",
  "SSE_LINE_ENDINGS_NOT_LF",
  "FRONTEND_TOOL_ANSWERED",
  "REQUESTED_RUN_ID_MISMATCH",
  "STATE_DELTA_WRONG_BASELINE",
]);

/**
 * The warning codes reported only when a `severity` override turns them on (SPEC §18.5:
 * most producers in use predate `protocolVersion`).
 */
export const OFF_BY_DEFAULT: ReadonlySet<WarningCode> = /* @__PURE__ */ new Set<WarningCode>([
  "PROTOCOL_VERSION_MISSING",
]);

/** One problem, or one kind of problem repeated (merged by code, type, field and subject). */
export interface Finding {
  /** What it is: a rule's code, or a warning's. */
  readonly code: VerifyErrorCode | WarningCode;
  /** The code's severity, after the `severity` overrides. */
  readonly severity: Severity;
  /** 0–13 for a {@link VerifyErrorCode}, undefined for a warning. */
  readonly rule: number | undefined;
  /** The first event that gave it (the event count, at end of input). */
  readonly index: number;
  /** The last event that gave it. */
  readonly lastIndex: number;
  /** How many events gave it. */
  readonly count: number;
  /** The first event's `type`, when it has a string one. */
  readonly eventType: string | undefined;
  /** The field it is about, as `VerifyError.field` gives it (`input.messages[2].id`), if any. */
  readonly field: string | undefined;
  /** The message of the first occurrence (SPEC §10.3). */
  readonly message: string;
  /** `lintStream`: the 1-based line where that event's SSE message or JSON line starts. */
  readonly line?: number | undefined;
  /** `lintStream`: the byte offset of the same place. */
  readonly offset?: number | undefined;
  /** The first error only: up to 3 events before it (the report's context). */
  readonly before?: readonly unknown[];
}

/** Options of the linter: the verifier's and the decoder's, and how to report. */
export interface LintOptions extends VerifierOptions, Omit<SourceOptions, "onWarning"> {
  /** Per-code overrides; they change how a finding is reported, never what is checked. */
  severity?: { readonly [code: string]: Severity | "off" } | undefined;
  /** The most findings a report keeps (default 1,000); the rest are counted in `omitted`. */
  maxFindings?: number | undefined;
  /**
   * The request the stream answers (its `RunAgentInput`), when known: turns on SPEC §18.5's
   * request checks (`FRONTEND_TOOL_ANSWERED`, `REQUESTED_RUN_ID_MISMATCH`,
   * `STATE_DELTA_WRONG_BASELINE`, and `THREAD_ID_MISMATCH` against its `threadId`). The
   * command reads it from a HAR entry's request body.
   */
  request?: RunAgentInput | undefined;
}

/** Everything one input gave. */
export interface LintReport {
  /** By index, then by order found. */
  readonly findings: readonly Finding[];
  /** Findings of severity error, kept or omitted. */
  readonly errors: number;
  /** The same for warnings. */
  readonly warnings: number;
  /** Findings past `maxFindings` (the first ones are kept). */
  readonly omitted: number;
  /** No finding of severity error. */
  readonly valid: boolean;
  /** How many events (values) the input had. */
  readonly events: number;
  /** `lintStream`: the input's format and size. */
  readonly input?: InputInfo;
}

/** What `lintStream` read (SPEC §18.3: the report carries what the text format shows). */
export interface InputInfo {
  /** Server-Sent Events, or JSON Lines. */
  readonly format: "sse" | "jsonl" | "proto";
  /** How many bytes were read. */
  readonly bytes: number;
  /**
   * SSE: where a last message with no blank line after it starts (SSE discards it, so its
   * event never reached the linter).
   */
  readonly unterminated?: { readonly line: number; readonly offset: number } | undefined;
}
