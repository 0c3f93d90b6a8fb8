/**
 * Violations and their messages (SPEC §10.3). Rules throw a {@link Violation} (code and
 * what went wrong); the verifier adds the index and the event and turns it into the public
 * `VerifyError`.
 * @module
 */

import { ruleOf, VerifyError, type VerifyErrorCode } from "../errors.ts";
import { isArray, isRecord, type Owner } from "./state.ts";

/** The bounds of SPEC §10.3 and §17.2, whatever the input. */
export const MAX_QUOTED = 100;
const MAX_LISTED = 5;
const MAX_MESSAGE = 2_000;
const MAX_FIELD = 200;

export class Violation {
  readonly code: VerifyErrorCode;
  /** The middle of the message: what happened and what was expected, ending with ".". */
  readonly text: string;
  readonly field: string | undefined;
  readonly cause: unknown;

  constructor(code: VerifyErrorCode, text: string, field?: string, cause?: unknown) {
    this.code = code;
    this.text = text;
    this.field = field;
    this.cause = cause;
  }
}

/**
 * What the schema step lets through unchanged, without poisoning the verifier: what the
 * schema threw, or the TypeError for a schema that validates asynchronously.
 */
export class PassThrough {
  readonly error: unknown;
  constructor(error: unknown) {
    this.error = error;
  }
}

/**
 * What a verifier made for the linter throws for a violation (SPEC §18.1): the violation and
 * where, not yet a VerifyError, which the linter builds only for a finding it keeps.
 * @internal
 */
export class Dropped {
  readonly violation: Violation;
  readonly index: number;
  readonly event: unknown;
  readonly eventType: string | undefined;
  constructor(violation: Violation, index: number, event: unknown, eventType: string | undefined) {
    this.violation = violation;
    this.index = index;
    this.event = event;
    this.eventType = eventType;
  }
}

export function toVerifyError(
  v: Violation,
  index: number,
  event: unknown,
  eventType: string | undefined,
): VerifyError {
  return new VerifyError(messageOf(v, index, event, eventType), {
    code: v.code,
    index,
    eventType,
    event,
    field: fieldOf(v),
    cause: v.cause,
  });
}

/** The `field` of the error a violation gives: at most 200 characters (SPEC §10.3). */
export function fieldOf(v: Violation): string | undefined {
  const field = v.field;
  return field !== undefined && field.length > MAX_FIELD
    ? `${field.slice(0, MAX_FIELD - 1)}…`
    : field;
}

/** The `message` of the error a violation gives (SPEC §10.3): bounded, whatever the input. */
export function messageOf(
  v: Violation,
  index: number,
  event: unknown,
  eventType: string | undefined,
): string {
  const decoding = v.code === "INVALID_JSON" || v.code === "SSE_BUFFER_OVERFLOW";
  const ended =
    v.code === "STREAM_ENDED_BEFORE_RUN_STARTED" || v.code === "STREAM_ENDED_BEFORE_RUN_CLOSED";
  const subject =
    eventType !== undefined
      ? eventType.length > MAX_QUOTED
        ? q(eventType)
        : eventType
      : decoding
        ? "SSE message"
        : ended
          ? "end of input"
          : v.code === "RESPONSE_NOT_EVENTS"
            ? "response"
            : v.code.startsWith("PROTO_")
              ? "frame"
              : "event";
  const tail = ` [${v.code}, rule ${ruleOf(v.code)}]`;
  // A field left out while the event carries it in another casing (`message_id`): the fix.
  const hint =
    v.code === "FIELD_MISSING" || v.code === "SCHEMA_MISMATCH"
      ? nearMiss(event, v.field)
      : undefined;
  const text =
    hint === undefined
      ? v.text
      : v.text
          .replace(" is missing;", ` is missing (the event has ${q(hint)});`)
          .replace("got undefined)", `got undefined; the event has ${q(hint)})`);
  let message = `${subject} at index ${index}: ${text}`;
  if (message.length + tail.length > MAX_MESSAGE) {
    message = `${message.slice(0, MAX_MESSAGE - tail.length - 1)}…`;
  }
  return message + tail;
}

/**
 * A key the object at `field`'s parent does carry that differs from the missing name only
 * in case, `_` or `-` (`message_id`, `MessageId` for `messageId`): producers that serialise
 * with another casing are common, and the hint is the fix. Reads the event defensively (it
 * may be a Proxy); looks at no more than 1,000 keys.
 */
function nearMiss(event: unknown, field: string | undefined): string | undefined {
  if (field === undefined || field.length > MAX_FIELD) return undefined;
  const path = field.split(/\.|(?=\[)/);
  const name = path.pop();
  if (name === undefined || name.startsWith("[")) return undefined;
  const want = loose(name);
  try {
    let at: unknown = event;
    for (const step of path) {
      const key = step.startsWith("[") ? Number(step.slice(1, -1)) : step;
      if (!isRecord(at) && !isArray(at)) return undefined;
      at = Reflect.get(at, key);
    }
    // The field is there: what is wrong is its value, not its name.
    if (!isRecord(at) || Reflect.get(at, name) !== undefined) return undefined;
    let seen = 0;
    for (const key in at) {
      if (++seen > 1_000) break;
      if (key !== name && Object.hasOwn(at, key) && loose(key) === want) return key;
    }
  } catch {}
  return undefined;
}

function loose(name: string): string {
  return name.replace(/[_-]/g, "").toLowerCase();
}

/** "X is open" failures share one message shape, as do "X is not open" ones. */
export function isOpen(code: VerifyErrorCode, what: string): Violation {
  return new Violation(code, `${what} is open; expected its end first.`);
}

export function isNotOpen(code: VerifyErrorCode, what: string): Violation {
  return new Violation(code, `${what} is not open; expected its start first.`);
}

/** JSON-quotes an id (so `""` is visible); a long one shows its first 100 code units, then "…". */
export function q(id: string): string {
  if (id.length <= MAX_QUOTED) return JSON.stringify(id);
  return `${JSON.stringify(id.slice(0, MAX_QUOTED))}…`;
}

/** The first 5 of `items`, then "and N more" for the rest of the `total` there are. */
export function listed(items: Iterable<string>, total: number): string {
  const shown: string[] = [];
  for (const item of items) {
    if (shown.length === MAX_LISTED) break;
    shown.push(item);
  }
  const rest = total - shown.length;
  return rest > 0
    ? `${shown.join(", ")} and ${rest.toLocaleString("en-US")} more`
    : shown.join(", ");
}

export function ownerName(owner: Owner): string {
  return owner === null ? "the parent agent" : `subagent ${q(owner)}`;
}

export function describeSubagents(ids: ReadonlySet<string>): string {
  return listed(
    (function* () {
      for (const id of ids) yield `subagent ${q(id)}`;
    })(),
    ids.size,
  );
}

/** The JSON type of a value, for messages ("undefined" and the like for in-process values). */
export function jsonType(value: unknown): string {
  return value === null ? "null" : isArray(value) ? "an array" : typeof value;
}

/** Prints what a getter or trap threw, even when printing it throws too. */
export function describe(cause: unknown): string {
  try {
    return String(cause);
  } catch {
    return "an unprintable value";
  }
}
