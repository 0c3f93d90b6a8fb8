/**
 * What the machine-readable report formats (SPEC §18.3: JUnit, SARIF, GitHub workflow
 * commands, NDJSON) share: the linted inputs they are functions of, the tool's name and
 * version, a short description per code, and the character hygiene every format applies
 * to text from an input. Library code: no I/O.
 * @module
 */

import type { VerifyErrorCode } from "../errors.ts";
import { type Finding, type LintReport, WARNING_CODES, type WarningCode } from "../lint/types.ts";
import { isBidiControl } from "./safe.ts";

/** One input as the command linted it: a file, stdin, or one event stream of a HAR file. */
export interface LintedInput {
  /** The input's path relative to the working directory, as the command gives it; for a HAR entry, the HAR file's path. */
  readonly name: string;
  /** A HAR entry's URL. */
  readonly url?: string | undefined;
  /** What linting it gave; absent when the input could not be read. */
  readonly report?: LintReport | undefined;
  /** An input that could not be read (the command's exit 2 cases): why. */
  readonly problem?: string | undefined;
  /** The input was one JSON array of events (read as a list: no lines or offsets). */
  readonly array?: boolean | undefined;
  /** `--url`: a live stream, not a recording. */
  readonly live?: boolean | undefined;
  /** The events, as the HTML report takes them (kept only for it: SPEC §22). */
  readonly events?: readonly unknown[] | undefined;
}

/** The tool the reports name. */
export interface ToolInfo {
  readonly name: "ag-ui-verify";
  readonly version: string;
  /** Where the rule pages are (`docs/rules.md`): a rule's page is this URL, `#`, and its code in lower case. */
  readonly rulesUrl?: string | undefined;
  /** The tool's home page (SARIF's `informationUri`). */
  readonly informationUri?: string | undefined;
}

/** One line per code: what the finding means. */
export const CODE_DESCRIPTIONS: { readonly [C in VerifyErrorCode | WarningCode]: string } = {
  INVALID_JSON: "An SSE message's data or a JSON line is not JSON text.",
  SSE_BUFFER_OVERFLOW: "An SSE line or message is longer than the decoder's buffer allows.",
  ID_LIMIT_EXCEEDED: "The stream names more ids than the verifier keeps (maxIds).",
  EVENT_NOT_OBJECT: "An event is not a JSON object.",
  EVENT_TYPE_INVALID: "An event's type is missing or not an AG-UI event type.",
  FIELD_MISSING: "A required field of an event is missing.",
  FIELD_NULL: "A field of an event is null.",
  FIELD_WRONG_TYPE: "A field of an event has the wrong JSON type.",
  SCHEMA_MISMATCH: "An event does not match the AG-UI event schema.",
  EVENT_BEFORE_RUN_STARTED: "An event comes before the stream's first RUN_STARTED or RUN_ERROR.",
  RUN_ALREADY_STARTED: "A second RUN_STARTED while the run is open.",
  STREAM_ENDED_BEFORE_RUN_STARTED: "The stream ended without a RUN_STARTED or RUN_ERROR.",
  EVENT_AFTER_RUN_CLOSED:
    "An event comes after the run closed: only RUN_STARTED, or one RUN_ERROR after RUN_FINISHED, may.",
  STREAM_ENDED_BEFORE_RUN_CLOSED: "The stream ended while its run was open.",
  TEXT_MESSAGE_ALREADY_OPEN: "TEXT_MESSAGE_START for a message that is already open.",
  TEXT_MESSAGE_NOT_OPEN: "Text message content or end for a message that is not open.",
  TOOL_CALL_ALREADY_OPEN: "TOOL_CALL_START for a tool call that is already open.",
  TOOL_CALL_NOT_OPEN: "Tool call arguments or end for a tool call that is not open.",
  REASONING_MESSAGE_ALREADY_OPEN: "REASONING_MESSAGE_START for a message that is already open.",
  REASONING_MESSAGE_NOT_OPEN: "Reasoning content or end for a message that is not open.",
  REASONING_SPAN_ALREADY_OPEN: "REASONING_START for a reasoning span that is already open.",
  REASONING_SPAN_NOT_OPEN: "REASONING_END for a reasoning span that is not open.",
  STEP_ALREADY_ACTIVE: "STEP_STARTED for a step that is already active.",
  STEP_NOT_STARTED: "STEP_FINISHED for a step that was not started.",
  OPEN_AT_RUN_FINISHED:
    "RUN_FINISHED while a message, tool call, reasoning message or span, or step is still open.",
  INTERRUPT_OUTCOME_EMPTY: "A RUN_FINISHED interrupt outcome with no interrupt.",
  INTERRUPT_ID_DUPLICATE: "Two interrupts of one RUN_FINISHED outcome share an id.",
  OWNER_MISMATCH: "An event's subagentRunId is not the agent that owns what it is about.",
  TOOL_CALL_PARENT_OWNER_MISMATCH:
    "A tool call's parent message belongs to another agent than the tool call.",
  STEP_OWNER_MISMATCH: "A step is finished by another agent than the one that started it.",
  SUBAGENT_ALREADY_ACTIVE: "SUBAGENT_STARTED for a subagent id that is already active.",
  SUBAGENT_ALREADY_FINISHED: "A subagent id that has already finished is used again.",
  SUBAGENT_PARENT_NOT_STARTED: "A subagent's parentSubagentRunId names no started subagent.",
  SUBAGENT_NOT_ACTIVE: "SUBAGENT_FINISHED or SUBAGENT_ERROR for a subagent that is not active.",
  SUBAGENT_OPEN_AT_RUN_FINISHED: "RUN_FINISHED while a subagent is still active.",
  THREAD_ID_MISMATCH: "A run's threadId is not the stream's (or the request's) thread.",
  CHUNK_ID_MISSING: "A chunk opens a message or tool call but has no id (1.1 pipeline).",
  CHUNK_NAME_MISSING: "A tool call's first chunk has no toolCallName (1.1 pipeline).",
  CHUNK_CONFLICT:
    "A chunk repeats a field of its open stream with another value, or another owner (1.1 pipeline).",
  CHUNK_AMBIGUOUS:
    "An untagged chunk without an id could continue several subagents' streams (1.1 pipeline).",
  RESPONSE_NOT_EVENTS:
    "The response is not an event stream: an HTTP error status, or a content type that is not SSE.",
  PROTO_DECODE_FAILED: "A protobuf frame is not an AG-UI Event message.",
  PROTO_TRUNCATED: "A protobuf body ends inside a frame (its length or its payload).",
  PROTO_FRAME_TOO_LARGE: "A protobuf frame's length is above maxFrameSize.",
  TOOL_CALL_RESULT_BEFORE_END: "A TOOL_CALL_RESULT for a tool call that is still open.",
  TOOL_CALL_ARGS_NOT_JSON:
    "A tool call's arguments are not JSON text: the client hands the tool {}.",
  TOOL_CALL_RESULT_UNKNOWN_CALL: "A TOOL_CALL_RESULT answers no known tool call.",
  STATE_DELTA_NOT_APPLIED: "A STATE_DELTA does not apply to the state: the UI's state goes stale.",
  ACTIVITY_DELTA_NOT_APPLIED:
    "An ACTIVITY_DELTA does not apply to the activity: the UI's activity goes stale.",
  SSE_LINE_IGNORED: "An SSE line with an unknown field name, which SSE ignores: its event is lost.",
  RUN_ID_MISMATCH: "RUN_FINISHED names another run than its RUN_STARTED.",
  CLIENT_REJECTS: "The rules accept the event, but @ag-ui/client 1.0.0 rejects it.",
  RUN_ID_REUSED: "A RUN_STARTED reuses the runId of an earlier run on the same thread.",
  UNKNOWN_RUN_OUTCOME: "A RUN_FINISHED outcome type that the 1.1 schema does not describe.",
  CANCELLED_RUN_HAS_RESULT: "A cancelled run carries a result.",
  USAGE_TOTAL_MISMATCH: "A usage entry's totalTokens is not inputTokens plus outputTokens.",
  USAGE_PART_EXCEEDS_TOTAL:
    "A usage entry's cached, cache-write or reasoning count exceeds its total.",
  MESSAGE_ID_NOT_UNIQUE: "One message id names two messages of a stream.",
  TEXT_REOPEN_MISMATCH: "A re-opened text message changes its role, name or owner.",
  TOOL_CALL_REOPEN_MISMATCH: "A re-opened tool call changes its name, parent message or owner.",
  PENDING_TOOL_CALL_IDS_MISMATCH:
    "A success outcome's pendingToolCallIds is not the run's unanswered tool calls, in order.",
  PENDING_TOOL_CALL_IDS_OMITTED: "A run leaves tool calls unanswered without pendingToolCallIds.",
  ENCRYPTED_VALUE_TYPE_WITHOUT_VALUE:
    "A message or tool call has encryptedValueType but no encryptedValue.",
  SUBAGENT_ANNOUNCED_AFTER_USE:
    "A SUBAGENT_STARTED comes after events attributed to that subagent.",
  SUBAGENT_EVENT_AFTER_TERMINAL: "Something new is opened for a subagent after its terminal event.",
  SUSPENDED_INTERRUPT_ID_UNKNOWN:
    "A suspended subagent names interrupt ids the run's interrupt outcome does not raise for it.",
  ACTIVITY_DELTA_WITHOUT_SNAPSHOT:
    "An ACTIVITY_DELTA for an activity no snapshot in the stream created.",
  UNKNOWN_EVENT_DROPPED: "An event of a type the 1.1 schema does not name: a 1.1 client drops it.",
  UNKNOWN_PROPERTY_STRIPPED: "A property the 1.1 schema does not describe: a 1.1 client strips it.",
  UNKNOWN_MEMBER_STRIPPED:
    "A value the 1.1 schema does not name where it names a set: a 1.1 client strips it.",
  CHUNK_TRIAD_MIXED: "One open message or tool call is streamed both in chunks and explicitly.",
  ENCRYPTED_VALUE_UNKNOWN_ENTITY:
    "A REASONING_ENCRYPTED_VALUE names no message or tool call the stream holds.",
  FRONTEND_TOOL_ANSWERED: "The producer answers a call to a frontend tool the request offers.",
  REQUESTED_RUN_ID_MISMATCH: "The stream's last run is not the run the request asked for.",
  STATE_DELTA_WRONG_BASELINE:
    "A STATE_DELTA before the run's first snapshot does not apply to the request's state.",
  PROTOCOL_VERSION_MISSING: "RUN_STARTED declares no protocolVersion.",
  SSE_LINE_ENDINGS_NOT_LF: "The SSE stream has a CR line end; AG-UI 1.1 frames with LF only.",
  PROTOCOL_VERSION_NOT_PUBLISHED: "RUN_STARTED's protocolVersion is not MAJOR.MINOR.",
};

/** The codes whose findings are warnings unless `severity` overrides say otherwise. */
export const WARNING_DEFAULTS: ReadonlySet<string> = /* @__PURE__ */ new Set<string>(WARNING_CODES);

/** The description of `code`, or a generic one for a code this version does not know. */
export function describeCode(code: string): string {
  return Object.hasOwn(CODE_DESCRIPTIONS, code)
    ? CODE_DESCRIPTIONS[code as keyof typeof CODE_DESCRIPTIONS]
    : "An AG-UI stream finding.";
}

/**
 * What an input gave: its report, or (an input with a `problem`, or with no report) why it
 * could not be read.
 */
export function outcomeOf(
  input: LintedInput,
): { readonly report: LintReport; readonly problem?: undefined } | { readonly problem: string } {
  if (input.problem !== undefined || input.report === undefined)
    return { problem: input.problem ?? "not read" };
  return { report: input.report };
}

/**
 * The folder an input is in: its path up to the last `/` or `\` (`captures/langgraph` for
 * `captures/langgraph/run.sse`, `/` and `C:\` for a file at a root), `.` for a bare name or
 * stdin (`-`). A HAR entry is in the HAR file's folder; a live stream (`--url`) is its URL.
 * JUnit's classname and the corpus summary's groups.
 */
export function folderOf(input: Pick<LintedInput, "name" | "live">): string {
  if (input.live === true) return input.name;
  const path = input.name;
  const at = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  if (at === -1) return ".";
  const folder = path.slice(0, at).replace(/[\\/]+$/, "");
  if (folder === "") return path.charAt(0);
  return /^[A-Za-z]:$/.test(folder) ? `${folder}${path.charAt(at)}` : folder;
}

/** The URL of a code's rule page, when the tool has one. */
export function ruleUrl(tool: ToolInfo, code: string): string | undefined {
  return tool.rulesUrl === undefined ? undefined : `${tool.rulesUrl}#${code.toLowerCase()}`;
}

const hex2 = (c: number): string => c.toString(16).padStart(2, "0");

/**
 * `text` with nothing a terminal or an XML parser would choke on: every control character
 * (C0, DEL, C1, so every ESC, CSI and OSC sequence) except those in `keep` written as
 * `\xHH` text, the bidirectional overrides and isolates as `\uHHHH` text, and every lone
 * surrogate, U+FFFE and U+FFFF (which no UTF-8 or XML document can hold) as U+FFFD.
 */
export function printable(text: string, keep = ""): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let replacement: string | undefined;
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
      if (!keep.includes(text.charAt(i))) replacement = `\\x${hex2(c)}`;
    } else if (isBidiControl(c)) {
      replacement = `\\u${c.toString(16)}`;
    } else if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else replacement = "\ufffd";
    } else if ((c >= 0xdc00 && c <= 0xdfff) || c === 0xfffe || c === 0xffff) {
      replacement = "\ufffd";
    }
    if (replacement !== undefined) {
      out += text.slice(from, i) + replacement;
      from = i + 1;
    }
  }
  return from === 0 ? text : out + text.slice(from);
}

/** `text` with every lone surrogate as U+FFFD: text that UTF-8 (and every JSON parser) can hold. */
export function wellFormed(text: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    const next = text.charCodeAt(i + 1);
    if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      i++;
      continue;
    }
    out += `${text.slice(from, i)}\ufffd`;
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

const wellFormedStrings = (_key: string, value: unknown): unknown =>
  typeof value === "string" ? wellFormed(value) : value;

/**
 * `JSON.stringify(value)` of plain data, with every string {@link wellFormed} (some JSON
 * parsers reject an escaped lone surrogate), and DEL, the C1 controls, U+2028 and U+2029
 * escaped too (`\u009b`…), as JSON.stringify escapes only C0: these characters can only
 * stand inside strings, so the text stays the same JSON value. Object keys are the caller's
 * to make well-formed.
 */
export function jsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, wellFormedStrings, indent).replace(
    /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** The input's findings, errors first, each kind in input order (the text format's order). */
export function errorsFirst(findings: readonly Finding[]): Finding[] {
  return [
    ...findings.filter((f) => f.severity === "error"),
    ...findings.filter((f) => f.severity !== "error"),
  ];
}

/** What a set of inputs gave, added up (the summary object of NDJSON, and the formats' totals). */
export interface Totals {
  readonly inputs: number;
  readonly valid: number;
  readonly invalid: number;
  readonly unreadable: number;
  /** Findings of severity error, kept or omitted, over all inputs. */
  readonly errors: number;
  /** The same for warnings. */
  readonly warnings: number;
  /** How many kept findings each code has, most first (then by code). */
  readonly byCode: Readonly<Record<string, number>>;
}

/** {@link Totals} added up one input at a time (the command's summary keeps one). */
export class TotalsCounter {
  #inputs = 0;
  #valid = 0;
  #invalid = 0;
  #unreadable = 0;
  #errors = 0;
  #warnings = 0;
  readonly #codes = new Map<string, number>();

  /** Every input added: valid, invalid or unreadable. */
  get inputs(): number {
    return this.#inputs;
  }

  get valid(): number {
    return this.#valid;
  }

  get invalid(): number {
    return this.#invalid;
  }

  get unreadable(): number {
    return this.#unreadable;
  }

  add(input: LintedInput): void {
    this.#inputs++;
    const outcome = outcomeOf(input);
    if (outcome.problem !== undefined) {
      this.#unreadable++;
      return;
    }
    const { report } = outcome;
    if (report.valid) this.#valid++;
    else this.#invalid++;
    this.#errors += report.errors;
    this.#warnings += report.warnings;
    for (const f of report.findings) {
      const code = wellFormed(f.code);
      this.#codes.set(code, (this.#codes.get(code) ?? 0) + 1);
    }
  }

  get totals(): Totals {
    const byCode = Object.fromEntries(
      [...this.#codes].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : a > b ? 1 : 0)),
    );
    return {
      inputs: this.#inputs,
      valid: this.#valid,
      invalid: this.#invalid,
      unreadable: this.#unreadable,
      errors: this.#errors,
      warnings: this.#warnings,
      byCode,
    };
  }
}

/** The {@link Totals} of `inputs`. */
export function totals(inputs: readonly LintedInput[]): Totals {
  const counter = new TotalsCounter();
  for (const input of inputs) counter.add(input);
  return counter.totals;
}

/** `n` and `one`, or `many` when n is not 1. */
export const plural = (n: number, one: string, many = `${one}s`): string =>
  `${n} ${n === 1 ? one : many}`;
