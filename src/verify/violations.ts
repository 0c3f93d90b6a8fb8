/**
 * Violations and their messages (SPEC §10.3). Rules throw a {@link Violation} (code and
 * what went wrong); the verifier adds the index and the event and turns it into the public
 * `VerifyError`.
 * @module
 */

import { ruleOf, VerifyError, type VerifyErrorCode } from "../errors.ts";
import { isArray, type Owner } from "./state.ts";

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

export function toVerifyError(
  v: Violation,
  index: number,
  event: unknown,
  eventType: string | undefined,
): VerifyError {
  const decoding = v.code === "INVALID_JSON" || v.code === "SSE_BUFFER_OVERFLOW";
  const ended =
    v.code === "STREAM_ENDED_BEFORE_RUN_STARTED" || v.code === "STREAM_ENDED_BEFORE_RUN_CLOSED";
  const subject =
    eventType !== undefined
      ? eventType
      : decoding
        ? "SSE message"
        : ended
          ? "end of input"
          : "event";
  const rule = ruleOf(v.code);
  return new VerifyError(`${subject} at index ${index}: ${v.text} [${v.code}, rule ${rule}]`, {
    code: v.code,
    index,
    eventType,
    event,
    field: v.field,
    cause: v.cause,
  });
}

/** "X is open" failures share one message shape, as do "X is not open" ones. */
export function isOpen(code: VerifyErrorCode, what: string): Violation {
  return new Violation(code, `${what} is open; expected its end first.`);
}

export function isNotOpen(code: VerifyErrorCode, what: string): Violation {
  return new Violation(code, `${what} is not open; expected its start first.`);
}

export const MAX_QUOTED = 120;

/** JSON-quotes an id (so `""` is visible), cutting very long ones short. */
export function q(id: string): string {
  if (id.length <= MAX_QUOTED) return JSON.stringify(id);
  return `${JSON.stringify(id.slice(0, MAX_QUOTED))}… (${id.length} characters)`;
}

export function ownerName(owner: Owner): string {
  return owner === null ? "the parent agent" : `subagent ${q(owner)}`;
}

export function describeSubagents(ids: Iterable<string>): string {
  return Array.from(ids, (id) => `subagent ${q(id)}`).join(", ");
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
