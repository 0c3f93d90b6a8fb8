/**
 * `ag-ui-verify/testing`: make an agent backend's own tests fail when its stream breaks
 * the AG-UI protocol, with the report the `ag-ui-verify` command prints (SPEC §19). Works
 * with any test runner and imports none: {@link assertValidStream} rejects, and
 * {@link agUiMatchers} is for `expect.extend` (Jest). Vitest users import
 * `ag-ui-verify/vitest`, which registers and types the matcher.
 *
 * The input may be events (an array, an iterable, an async iterable, a `ReadableStream`,
 * an Observable such as `AbstractAgent.run()` of `@ag-ui/client` returns) or text (SSE or
 * JSON Lines as a string, bytes, a `Response` or a `ReadableStream`).
 *
 * @example
 * ```ts
 * import { assertValidStream } from "ag-ui-verify/testing";
 *
 * const response = new Response(
 *   'data: {"type":"RUN_STARTED","threadId":"t1","runId":"r1"}\n\n' +
 *     'data: {"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}\n\n',
 * );
 * const report = await assertValidStream(response); // rejects when the stream is invalid
 * console.log(report.valid, report.input?.format); // true "sse"
 * ```
 * @module
 */

// The report's vocabulary, for a test that looks into it (the same types as ag-ui-verify/lint's).
export type {
  Finding,
  InputInfo,
  LintOptions,
  LintReport,
  Severity,
  WarningCode,
} from "../lint/types.ts";
export {
  AgUiStreamAssertionError,
  type AssertOptions,
  agUiMatchers,
  assertValidStream,
  type MatcherResult,
} from "./assert.ts";
export type { StreamInput } from "./input.ts";
