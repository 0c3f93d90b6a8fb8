/**
 * The verifier's slow path for in-process events whose getters or Proxy traps throw: which
 * field was being read when the throw happened.
 * @module
 */

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
