/**
 * The verifier's slow path for in-process events whose getters or Proxy traps throw: which
 * field was being read when the throw happened.
 * @module
 */

import { isArray, isRecord, newRun, type Rule } from "./state.ts";
import { describe, Violation } from "./violations.ts";

/**
 * Runs `read` over a Proxy of `event` that records every string key read from it. When
 * `read` throws, the last key read is the field whose getter (or trap) threw; a nested
 * object is not wrapped, so a throw inside it is found at its top-level field.
 *
 * The verifier reads fields with plain property accesses, which keeps its hot path fast; it
 * calls this only after such a read threw, to name the field in its error.
 *
 * @returns the last key read before `read` threw, or undefined when `read` returned or threw
 * before reading any key.
 * @example
 * ```ts
 * import { fieldThatThrows } from "./field-finder.ts";
 * const event = { type: "X", get messageId(): string { throw new Error("gone"); } };
 * fieldThatThrows(event, (e) => [e.type, e.messageId]); // "messageId"
 * ```
 * @internal
 */
export function fieldThatThrows<T extends object>(
  event: T,
  read: (probe: T) => unknown,
): string | undefined {
  let last: string | undefined;
  const probe = new Proxy(event, {
    get(target, key, receiver) {
      if (typeof key === "string") last = key;
      return Reflect.get(target, key, receiver);
    },
  });
  try {
    read(probe);
  } catch {
    return last;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------
// The slow path for in-process events whose getters or Proxy traps throw. The rules read
// fields without guards, which keeps them fast; only after a throw is the culprit sought.

export function unreadable(path: string, cause: unknown): Violation {
  return new Violation(
    "FIELD_WRONG_TYPE",
    `${path} could not be read (${describe(cause)}); expected a JSON value.`,
    path,
    cause,
  );
}

/**
 * Before its type was read, the event itself is at fault: not inspectable at all (a revoked
 * Proxy), or its `type` unreadable. After, the type's rule runs again, on a scratch run,
 * under a recording Proxy: the last top-level field read before the throw is the culprit.
 * When none can be named (a getter that throws only once, a Proxy revoked meanwhile), the
 * event as a whole is: what an event's own code throws never escapes as such (SPEC §17.4).
 */
export function unreadableField(
  event: unknown,
  type: string | undefined,
  rule: Rule | undefined,
  thrown: unknown,
): Violation {
  if (type === undefined) {
    let inspectable = false;
    try {
      inspectable = !isArray(event);
    } catch {}
    return new Violation(
      inspectable ? "EVENT_TYPE_INVALID" : "EVENT_NOT_OBJECT",
      `the ${inspectable ? "type" : "value"} could not be read (${describe(thrown)}); expected ${inspectable ? "a string" : "an object"}.`,
      undefined,
      thrown,
    );
  }
  let field: string | undefined;
  try {
    if (rule !== undefined && isRecord(event)) {
      field = fieldThatThrows(event, (probe) => {
        try {
          rule(newRun(), probe);
        } catch (again) {
          // The getter behaved this time: the field cannot be named.
          if (!(again instanceof Violation)) throw again;
        }
      });
    }
  } catch {}
  if (field !== undefined) return unreadable(field, thrown);
  return new Violation(
    "FIELD_WRONG_TYPE",
    `a field could not be read (${describe(thrown)}); expected JSON values.`,
    undefined,
    thrown,
  );
}
