/**
 * `ag-ui-verify/schema`: {@link agUiSchema}, a Standard Schema that checks every field of an
 * AG-UI event exactly as `EventSchema` of `@ag-ui/core` 1.0.0 does, and types what it
 * accepts as {@link KnownAgUiEvent}. It lives in its own entry point, so users who do not
 * import it download none of it.
 *
 * @example
 * ```ts
 * import { verifyAll } from "ag-ui-verify";
 * import { agUiSchema } from "ag-ui-verify/schema";
 *
 * const events = [
 *   { type: "RUN_STARTED", threadId: "t1", runId: "r1" },
 *   { type: "RUN_FINISHED", threadId: "t1", runId: "r1" },
 * ];
 * verifyAll(events, { schema: agUiSchema }); // ordered and well-formed
 * ```
 * @module
 */
import type { KnownAgUiEvent } from "../events/index.ts";
import { applyDefaults, firstIssue, type SchemaIssue } from "./generated.ts";
import type { StandardSchemaV1 } from "./standard-schema.ts";

export type { KnownAgUiEvent } from "../events/index.ts";
export type { StandardSchemaV1 } from "./standard-schema.ts";

/** The issue the last call of `passes` that returned false found. */
let lastIssue: SchemaIssue = { message: "", path: [] };

function passes(value: unknown): value is KnownAgUiEvent {
  let issue: SchemaIssue | undefined;
  try {
    issue = firstIssue(value);
  } catch (thrown) {
    // Only an in-process value can throw here (a getter, a Proxy trap): that is its own
    // verdict, never an exception (SPEC §17.4).
    issue = { message: `the value could not be read (${describe(thrown)})`, path: [] };
  }
  if (issue === undefined) return true;
  lastIssue = issue;
  return false;
}

function describe(thrown: unknown): string {
  try {
    return String(thrown);
  } catch {
    return "an unprintable value";
  }
}

/**
 * The AG-UI event schema as a Standard Schema (v1): it accepts exactly what `EventSchema` of
 * `@ag-ui/core` 1.0.0 accepts (unknown keys allowed; unknown types, the removed `THINKING_*`
 * ones included, rejected) and types the accepted value as {@link KnownAgUiEvent}. On
 * failure it reports one issue, the first one zod would report, with the same path.
 *
 * It is generated from `@ag-ui/core`'s zod schemas (scripts/gen-schema.mjs) into plain
 * checks, many times faster than zod and with no dependency. Pass it as the `schema` option
 * of any entry point to check every field of every event, or call it yourself.
 *
 * @example
 * ```ts
 * import { agUiSchema } from "ag-ui-verify/schema";
 *
 * const result = agUiSchema["~standard"].validate({
 *   type: "TEXT_MESSAGE_START",
 *   messageId: "m1",
 *   role: "robot",
 * });
 * if (result instanceof Promise || result.issues === undefined) throw new Error("unexpected");
 * console.log(result.issues[0]?.path); // ["role"]
 * ```
 */
export const agUiSchema: StandardSchemaV1<unknown, KnownAgUiEvent> = {
  "~standard": {
    version: 1,
    vendor: "ag-ui-verify",
    validate(value: unknown): StandardSchemaV1.Result<KnownAgUiEvent> {
      return passes(value) ? { value: applyDefaults(value) } : { issues: [lastIssue] };
    },
  },
};
