// Small hand-written Standard Schemas for the tests of the `schema` option (SPEC §14): no
// schema library, so each test controls exactly what the schema says and does.

import type { StandardSchemaV1 } from "../../src/schema/standard-schema.ts";

type Issue = StandardSchemaV1.Issue;
export type Result = StandardSchemaV1.Result<unknown> | Promise<StandardSchemaV1.Result<unknown>>;

/** A Standard Schema that records the values it is asked about in `calls`. */
export interface TestSchema extends StandardSchemaV1 {
  readonly calls: unknown[];
}

/** A Standard Schema whose `validate` is `validate`. */
export function schemaFrom(validate: (value: unknown) => Result): TestSchema {
  const calls: unknown[] = [];
  return {
    calls,
    "~standard": {
      version: 1,
      vendor: "test",
      validate(value) {
        calls.push(value);
        return validate(value);
      },
    },
  };
}

/** Rejects an object with the issue `check` finds in it; accepts everything else. */
export function checking(check: (value: Record<string, unknown>) => Issue | undefined): TestSchema {
  return schemaFrom((value) => {
    const issue = isRecord(value) ? check(value) : undefined;
    return issue === undefined ? { value } : { issues: [issue] };
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

const ROLES: ReadonlySet<unknown> = new Set(["developer", "system", "assistant", "user"]);

/** Rejects a `role` that is present and not one of the text message roles, at `role`. */
export function roleSchema(): TestSchema {
  return checking((e) =>
    e.role === undefined || ROLES.has(e.role)
      ? undefined
      : { message: `role ${JSON.stringify(e.role)} is not a text message role`, path: ["role"] },
  );
}

/** Rejects every value with this one issue. */
export function rejecting(issue: Issue): TestSchema {
  return schemaFrom(() => ({ issues: [issue] }));
}
