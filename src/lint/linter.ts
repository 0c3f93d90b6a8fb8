/**
 * The linter (SPEC §18.1): the verifier's checks, in its order, going on after an error,
 * with the warnings of §18.2 on top; findings merged by code, event type, field and subject.
 * @module
 */

import { ruleOf, type VerifyErrorCode } from "../errors.ts";
import { Dropped, fieldOf, GOING_ON, messageOf, q, Verifier } from "../verify/verifier.ts";
import { RunDuties } from "./duties.ts";
import {
  type Finding,
  type LintOptions,
  type LintReport,
  OFF_BY_DEFAULT,
  type Severity,
  type WarningCode,
} from "./types.ts";
import { ClientWatch, type Warning } from "./warnings.ts";

const DEFAULT_MAX_FINDINGS = 1_000;
/** How many events before the first error a report shows. */
const BEFORE = 3;
const MAX_MESSAGE = 2_000;
/** The longest event type a message shows whole (the verifier's bound for quoted ids). */
const MAX_QUOTED = 100;

/** A finding as the linter builds it: merged occurrences update it in place. */
interface Entry {
  code: VerifyErrorCode | WarningCode;
  severity: Severity;
  rule: number | undefined;
  index: number;
  lastIndex: number;
  count: number;
  eventType: string | undefined;
  field: string | undefined;
  message: string;
  line?: number | undefined;
  offset?: number | undefined;
  before?: readonly unknown[];
}

/** Where the event being pushed starts in its input (lintStream). */
export interface Place {
  /** The 1-based line where its SSE message or JSON line starts (a protobuf input: its frame). */
  readonly line: number;
  /** The byte offset where it starts. */
  readonly offset: number;
}

/**
 * Lints one stream of events: {@link Linter.push} each event (it returns the findings that
 * event gave), then {@link Linter.end} for the report. The first error finding is exactly
 * the error `verifyAll` would throw with the same options, and the report is `valid`
 * exactly when `verifyAll` returns: an event that fails a check is dropped and changes
 * nothing, and checking goes on with the next one.
 *
 * @example
 * ```ts
 * import { Linter } from "ag-ui-verify/lint";
 * const linter = new Linter();
 * linter.push({ type: "RUN_STARTED", threadId: "t1", runId: "r1" });
 * linter.push({ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "a" });
 * linter.push({ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "b" });
 * const report = linter.end();
 * console.log(report.findings[0]?.code, report.findings[0]?.count); // "TEXT_MESSAGE_NOT_OPEN" 2
 * ```
 */
export class Linter {
  readonly #verifier: Verifier;
  readonly #watch: ClientWatch;
  readonly #duties: RunDuties;
  readonly #overrides: { readonly [code: string]: Severity | "off" } | undefined;
  readonly #max: number;
  readonly #entries: Entry[] = [];
  readonly #byKey = new Map<string, Entry>();
  /** The entry each warning object went to, for objects a duty hands over again. */
  readonly #byWarning = new WeakMap<Warning, Entry>();
  /** The entry the last #record merged into or made; undefined when it kept none. */
  #touched: Entry | undefined;
  /** The last events pushed, for the first error's context. */
  readonly #recent: unknown[] = [];
  #firstError = true;
  /** Where the last RUN_STARTED starts: the index of a finding judged at the end of input. */
  #startPlace: Place | undefined;
  #index = 0;
  #errors = 0;
  #warnings = 0;
  #omitted = 0;
  #ended: LintReport | undefined;

  /** Throws a `TypeError` for the options the verifier rejects, or a bad `maxFindings`. */
  constructor(options: LintOptions = {}) {
    this.#verifier = new Verifier({ ...options, [GOING_ON]: true });
    this.#watch = new ClientWatch(options);
    this.#duties = new RunDuties(this.#watch.maxIds, options.request);
    this.#overrides = options.severity;
    const max = options.maxFindings ?? DEFAULT_MAX_FINDINGS;
    if (typeof max !== "number" || !(max >= 0)) {
      throw new TypeError("maxFindings must be a number from 0 up");
    }
    this.#max = max;
  }

  /** Lints the next event; returns the findings it gave (merged ones as they stand now). */
  push(event: unknown): readonly Finding[] {
    return this.pushAt(event, undefined);
  }

  /**
   * `push`, with where the event starts in its input. What a caller's schema throws passes
   * through, as from the verifier.
   * @internal
   */
  pushAt(event: unknown, place: Place | undefined): readonly Finding[] {
    if (this.#ended !== undefined) throw new Error("Linter.push() was called after end().");
    const index = this.#index++;
    let found: Entry[] | undefined;
    let dropped: Dropped | undefined;
    try {
      this.#verifier.verify(event);
    } catch (thrown) {
      // What a caller's schema throws passes through, as from the verifier.
      if (!(thrown instanceof Dropped)) throw thrown;
      dropped = thrown;
    }
    if (dropped !== undefined) found = this.#error(dropped, place, found);
    else {
      const warnings = this.#watch.event(event, index);
      if (warnings !== undefined) {
        for (const w of warnings) found = this.#warning(w, index, place, found);
      }
      // Accepted, so a record with a string type (SPEC §18.5's duties).
      const e = event as { readonly type: string } & Record<string, unknown>;
      if (place !== undefined && e.type === "RUN_STARTED") this.#startPlace = place;
      const duties = this.#duties.event(e.type, e, index);
      if (duties !== undefined) {
        for (const w of duties) found = this.#warning(w, index, place, found);
      }
    }
    this.#remember(event);
    return found ?? NONE;
  }

  /**
   * A warning found outside the events (`SSE_LINE_IGNORED`), at `index` (the next event's).
   * @internal
   */
  warnAt(warning: Warning, place: Place | undefined): void {
    this.#warning(warning, this.#index, place, undefined);
  }

  /** How many events were pushed. @internal */
  get eventCount(): number {
    return this.#index;
  }

  /** Ends the input: the end-of-input checks (SPEC §9.7), then the report. */
  end(place?: Place): LintReport {
    if (this.#ended !== undefined) return this.#ended;
    try {
      this.#verifier.end();
    } catch (thrown) {
      if (!(thrown instanceof Dropped)) throw thrown;
      this.#error(thrown, place, undefined);
    }
    const late = this.#duties.end();
    // Judged at the end of input, found at the last RUN_STARTED.
    if (late !== undefined) {
      this.#warning(late.warning, late.index, this.#startPlace, undefined);
      // Findings stay in index order (a stable sort keeps the order found among equals).
      this.#entries.sort((a, b) => a.index - b.index);
    }
    this.#ended = {
      findings: this.#entries,
      errors: this.#errors,
      warnings: this.#warnings,
      omitted: this.#omitted,
      valid: this.#errors === 0,
      events: this.#index,
    };
    return this.#ended;
  }

  /** An error: its VerifyError (message, bounded field) is built only for a new finding. */
  #error(d: Dropped, place: Place | undefined, found: Entry[] | undefined) {
    const { code, field } = d.violation;
    const type = d.eventType;
    return this.#record(
      code,
      ruleOf(code),
      d.index,
      type,
      field,
      subjectOf(code, type, d.event),
      () => ({
        message: messageOf(d.violation, d.index, d.event, type),
        field: fieldOf(d.violation),
      }),
      place,
      found,
    );
  }

  #warning(w: Warning, index: number, place: Place | undefined, found: Entry[] | undefined) {
    // A warning object seen before (the duties reuse theirs) merges without a key to build.
    const seen = this.#byWarning.get(w);
    if (seen !== undefined) {
      seen.count++;
      seen.lastIndex = index;
      return add(found, seen);
    }
    const type = w.eventType;
    const describe = () => {
      const tail = ` [${w.code}, warning]`;
      // A type longer than an id may be is quoted and cut, as in the verifier's messages.
      const subject = type === undefined ? "SSE line" : type.length > MAX_QUOTED ? q(type) : type;
      let message = `${subject} at index ${index}: ${w.text}`;
      if (message.length + tail.length > MAX_MESSAGE) {
        message = `${message.slice(0, MAX_MESSAGE - tail.length - 1)}…`;
      }
      return { message: message + tail, field: w.field };
    };
    const entries = this.#record(
      w.code,
      undefined,
      index,
      type,
      w.field,
      w.subject,
      describe,
      place,
      found,
    );
    if (this.#touched !== undefined) this.#byWarning.set(w, this.#touched);
    return entries;
  }

  /** Merges or adds one occurrence; returns the list of entries this event gave. */
  #record(
    code: VerifyErrorCode | WarningCode,
    rule: number | undefined,
    index: number,
    eventType: string | undefined,
    field: string | undefined,
    subject: string | undefined,
    describe: () => { readonly message: string; readonly field: string | undefined },
    place: Place | undefined,
    found: Entry[] | undefined,
  ): Entry[] | undefined {
    const natural: Severity = rule === undefined ? "warning" : "error";
    const override = this.#overrides?.[code];
    this.#touched = undefined;
    if (override === "off") return found;
    if (override === undefined && OFF_BY_DEFAULT.has(code as WarningCode)) return found;
    const severity = override === "error" || override === "warning" ? override : natural;
    const key = `${code}\u0000${eventType ?? ""}\u0000${field ?? ""}\u0000${subject ?? ""}`;
    const merged = this.#byKey.get(key);
    this.#touched = merged;
    if (merged !== undefined) {
      merged.count++;
      merged.lastIndex = index;
      return add(found, merged);
    }
    if (severity === "error") this.#errors++;
    else this.#warnings++;
    if (this.#entries.length >= this.#max) {
      this.#omitted++;
      return found;
    }
    const { message, field: shown } = describe();
    const entry: Entry = {
      code,
      severity,
      rule,
      index,
      lastIndex: index,
      count: 1,
      eventType,
      field: shown,
      message,
    };
    if (place !== undefined) {
      entry.line = place.line;
      entry.offset = place.offset;
    }
    if (natural === "error" && this.#firstError) {
      this.#firstError = false;
      entry.before = this.#recent.slice();
    }
    this.#entries.push(entry);
    this.#byKey.set(key, entry);
    this.#touched = entry;
    return add(found, entry);
  }

  #remember(event: unknown): void {
    const recent = this.#recent;
    if (recent.length === BEFORE) recent.shift();
    recent.push(event);
  }
}

const NONE: readonly Finding[] = Object.freeze([]);

/**
 * What an error is about, for merging (SPEC §18.1): the entity, step or subagent its event
 * names, for the codes about one; undefined for the others (all `EVENT_AFTER_RUN_CLOSED` of
 * a type are one finding). The event passed its field checks, so the ids are strings.
 */
function subjectOf(
  code: VerifyErrorCode,
  type: string | undefined,
  event: unknown,
): string | undefined {
  const key = SUBJECT_FIELD[code] ?? (code === "OWNER_MISMATCH" ? ownedBy(type) : undefined);
  if (key === undefined || typeof event !== "object" || event === null) return undefined;
  try {
    const e = event as Record<string, unknown>;
    const id = e[key];
    return key === "stepName" ? `${String(id)}\u0000${String(e.subagentRunId)}` : String(id);
  } catch {
    return undefined;
  }
}

/** The field naming the subject of each code about one entity (OWNER_MISMATCH: by type). */
const SUBJECT_FIELD: { readonly [code: string]: string } = {
  TEXT_MESSAGE_ALREADY_OPEN: "messageId",
  TEXT_MESSAGE_NOT_OPEN: "messageId",
  REASONING_MESSAGE_ALREADY_OPEN: "messageId",
  REASONING_MESSAGE_NOT_OPEN: "messageId",
  TOOL_CALL_ALREADY_OPEN: "toolCallId",
  TOOL_CALL_NOT_OPEN: "toolCallId",
  REASONING_SPAN_ALREADY_OPEN: "messageId",
  REASONING_SPAN_NOT_OPEN: "messageId",
  TOOL_CALL_PARENT_OWNER_MISMATCH: "toolCallId",
  STEP_ALREADY_ACTIVE: "stepName",
  STEP_NOT_STARTED: "stepName",
  STEP_OWNER_MISMATCH: "stepName",
  SUBAGENT_ALREADY_ACTIVE: "subagentRunId",
  SUBAGENT_ALREADY_FINISHED: "subagentRunId",
  SUBAGENT_NOT_ACTIVE: "subagentRunId",
  SUBAGENT_PARENT_NOT_STARTED: "parentSubagentRunId",
};

function ownedBy(type: string | undefined): string {
  return type === "REASONING_ENCRYPTED_VALUE"
    ? "entityId"
    : type?.startsWith("TOOL_CALL_")
      ? "toolCallId"
      : "messageId";
}

function add(found: Entry[] | undefined, entry: Entry): Entry[] {
  if (found === undefined) return [entry];
  if (!found.includes(entry)) found.push(entry);
  return found;
}

/**
 * Lints a whole stream of events in one call: a new {@link Linter}, `push` on each value,
 * then `end`.
 *
 * @example
 * ```ts
 * import { lint } from "ag-ui-verify/lint";
 * const report = lint([{ type: "RUN_STARTED", threadId: "t", runId: "r" }]);
 * console.log(report.valid, report.findings[0]?.code); // false "STREAM_ENDED_BEFORE_RUN_CLOSED"
 * ```
 */
export function lint(events: Iterable<unknown>, options?: LintOptions): LintReport {
  const linter = new Linter(options);
  for (const event of events) linter.push(event);
  return linter.end();
}
