/**
 * The verifier's schema step (SPEC §14): running a Standard Schema on an event, and naming
 * where its first issue lies in the notation of SPEC §4.1.
 * @module
 */

import type { StandardSchemaV1 } from "./schema/standard-schema.ts";

/**
 * The issues `schema` finds in `value`, or undefined when it accepts the value. A schema
 * that validates asynchronously, or whose result is not a result object, is a programming
 * error: a `TypeError`. What the schema itself throws passes through.
 *
 * @example
 * ```ts
 * import { schemaIssues } from "./schema-check.ts";
 * const strings = {
 *   "~standard": {
 *     version: 1 as const,
 *     vendor: "example",
 *     validate: (v: unknown) => (typeof v === "string" ? { value: v } : { issues: [{ message: "not a string" }] }),
 *   },
 * };
 * schemaIssues(strings["~standard"], 1); // [{ message: "not a string" }]
 * ```
 * @internal
 */
export function schemaIssues(
  schema: StandardSchemaV1.Props,
  value: unknown,
): readonly StandardSchemaV1.Issue[] | undefined {
  const result = schema.validate(value);
  if (typeof result !== "object" || result === null) {
    throw new TypeError(
      `The schema's validate() returned ${result === null ? "null" : typeof result}; expected { value } or { issues }.`,
    );
  }
  if ("then" in result) {
    // Nobody will await it: keep a later rejection from surfacing as an unhandled one.
    Promise.resolve(result).catch(() => {});
    throw new TypeError(
      "The schema validated asynchronously (validate() returned a Promise); the verifier needs a schema that validates synchronously.",
    );
  }
  return result.issues;
}

/**
 * The standard properties of `schema`, checked to be those of a Standard Schema v1; a
 * `TypeError` otherwise, so a wrong `schema` option fails when the verifier is made.
 * @internal
 */
export function standardProps(schema: StandardSchemaV1): StandardSchemaV1.Props {
  // Callers from plain JavaScript may pass anything.
  const props: unknown = schema == null ? undefined : schema["~standard"];
  if (
    typeof props !== "object" ||
    props === null ||
    !("validate" in props) ||
    typeof props.validate !== "function"
  ) {
    throw new TypeError(
      "The schema option is not a Standard Schema (v1): it has no ~standard.validate function.",
    );
  }
  return schema["~standard"];
}

/**
 * An issue's path in the notation of SPEC §4.1: property names joined by `.`, array
 * positions (numbers) as `[n]`, e.g. `input.messages[2].role`. Undefined for an empty path.
 *
 * @example
 * ```ts
 * import { issuePath } from "./schema-check.ts";
 * issuePath({ message: "x", path: ["input", "messages", 2, { key: "role" }] }); // "input.messages[2].role"
 * ```
 * @internal
 */
export function issuePath(issue: StandardSchemaV1.Issue): string | undefined {
  const path = issue.path;
  if (path === undefined || path.length === 0) return undefined;
  let out = "";
  for (const segment of path) {
    const key = typeof segment === "object" && segment !== null ? segment.key : segment;
    if (typeof key === "number") out += `[${key}]`;
    else {
      const name = typeof key === "symbol" ? key.toString() : key;
      out += out === "" ? name : `.${name}`;
    }
  }
  return out;
}
