// Types for scripts/gen-schema.mjs, for the test that reruns it.
/** The path of src/schema/generated.ts. */
export const OUTPUT: string;
/** The text src/schema/generated.ts must have for the installed @ag-ui/core. */
export function generate(): Promise<string>;
