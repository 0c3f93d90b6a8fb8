// Types for scripts/gen-conform.mjs, for the test that reruns it.
/** The path of the vendored schema, spec/ag-ui-1.1/schema.json. */
export const SCHEMA: string;
/** The path of src/conform/generated.ts. */
export const OUTPUT: string;
/** The text src/conform/generated.ts must have for the vendored schema. */
export function generate(): string;
