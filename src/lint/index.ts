/**
 * `ag-ui-verify/lint`: every finding in a stream, for the people who fix the producer
 * (SPEC §18). The verifier stops at the first violation; the linter reports each one,
 * merged by kind, with the warnings of what `@ag-ui/client` would silently lose.
 *
 * @example
 * ```ts
 * import { lint } from "ag-ui-verify/lint";
 * const report = lint([
 *   { type: "RUN_STARTED", threadId: "t1", runId: "r1" },
 *   { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "a" },
 *   { type: "RUN_FINISHED", threadId: "t1", runId: "r1" },
 * ]);
 * for (const f of report.findings) console.log(f.severity, f.code, f.index);
 * ```
 * @module
 */

export {
  DEFAULT_RULES_URL,
  type HtmlInput,
  type HtmlOptions,
  type HtmlProblem,
  renderHtml,
} from "../report/html.ts";
export { Linter, lint, type Place } from "./linter.ts";
export { lintStream } from "./stream.ts";
export * from "./types.ts";
