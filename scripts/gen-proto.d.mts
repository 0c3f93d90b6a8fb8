// Types for scripts/gen-proto.mjs, for the test that reruns it.
/** The path of src/proto/wire.generated.ts. */
export const OUTPUT: string;
/** The text src/proto/wire.generated.ts must have for the installed @ag-ui/proto. */
export function generate(): string;
/** The compiled module of the installed @ag-ui/proto, and its version. */
export function sourceOf(): { version: string; text: string };
