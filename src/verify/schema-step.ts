/**
 * The verifier's schema step (SPEC §6 step 4b, §14): running a Standard Schema on an event,
 * naming where its first issue lies in the notation of SPEC §4.1, and deciding whether a
 * rejection is rule 0's or the schema's.
 * @module
 */

import { ruleOf } from "../errors.ts";
import type { StandardSchemaV1 } from "../schema/standard-schema.ts";
import { unreadableField } from "./field-finder.ts";
import { newRun, type Rec, type Rule } from "./state.ts";
import { describe, PassThrough, Violation } from "./violations.ts";

/**
 * The issues `schema` finds in `value`, or undefined when it accepts the value. A schema
 * that validates asynchronously, or whose result is not a result object, is a programming
 * error: a `TypeError`. What the schema itself throws passes through.
 *
 * @example
 * ```ts
 * import { schemaIssues } from "./schema-step.ts";
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
 * import { issuePath } from "./schema-step.ts";
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

/**
 * The schema step (SPEC §6 step 4b, §14). It changes no state. Rule 0's field checks come
 * first, so when the schema does not accept the event, they decide whether the error is
 * theirs.
 */
export function checkSchema(
  schema: StandardSchemaV1.Props,
  event: Rec,
  type: string,
  rule: Rule | undefined,
): void {
  let issues: readonly StandardSchemaV1.Issue[] | undefined;
  try {
    issues = schemaIssues(schema, event);
  } catch (thrown) {
    throw fieldViolation(event, type, rule) ?? new PassThrough(thrown);
  }
  if (issues !== undefined) throw fieldViolation(event, type, rule) ?? schemaMismatch(issues);
}

/**
 * Rule 0's field checks alone: the type's function on a scratch run, keeping only a rule 0
 * violation. It reads every field before any other check (see RULES), so a violation of
 * another rule means the fields are fine.
 */
export function fieldViolation(
  event: Rec,
  type: string,
  rule: Rule | undefined,
): Violation | undefined {
  if (rule === undefined) return undefined;
  try {
    rule(newRun(), event);
  } catch (x) {
    const v = x instanceof Violation ? x : unreadableField(event, type, rule, x);
    return ruleOf(v.code) === 0 ? v : undefined;
  }
  return undefined;
}

export function schemaMismatch(issues: readonly StandardSchemaV1.Issue[]): Violation {
  const issue = issues[0];
  if (issue === undefined) {
    return new Violation(
      "SCHEMA_MISMATCH",
      "the schema rejected the event without naming an issue; expected an event it accepts.",
    );
  }
  const field = issuePath(issue);
  return new Violation(
    "SCHEMA_MISMATCH",
    `${field ?? "the event"} does not match the schema (${describe(issue.message)}); expected ${field === undefined ? "an event" : "a value"} it accepts.`,
    field,
  );
}
