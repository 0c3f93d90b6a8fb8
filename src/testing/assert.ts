/**
 * The test helpers (SPEC §19): `assertValidStream` for any test runner, and the matcher
 * object for runners with `expect.extend`. A failure's message is one line saying what was
 * expected, then the command's text report of the same input.
 * @module
 */

import type { LintOptions, LintReport } from "../lint/types.ts";
import { lintText } from "../report/lint-text.ts";
import { style } from "../report/render.ts";
import { shown } from "../report/safe.ts";
import { type Outcome, readInput, type StreamInput } from "./input.ts";

/** The linter's options, and which findings fail the assertion. */
export interface AssertOptions extends LintOptions {
  /**
   * `"error"` (the default): fail when the stream has an error finding; `"warning"`: also
   * when it has a warning (what `@ag-ui/client` would silently lose). Severity overrides
   * (`severity`) apply first.
   */
  failOn?: "error" | "warning" | undefined;
}

/**
 * Thrown (as a rejection) by {@link assertValidStream}: the stream broke the protocol, or
 * the input itself errored before its end (then `cause` is that error). The message is the
 * command's text report of the input with one line before it; `report` is the data.
 *
 * @example
 * ```ts
 * import { AgUiStreamAssertionError, assertValidStream } from "ag-ui-verify/testing";
 * try {
 *   await assertValidStream([{ type: "RUN_STARTED", threadId: "t1", runId: "r1" }]);
 * } catch (error) {
 *   if (error instanceof AgUiStreamAssertionError) {
 *     console.log(error.report.findings[0]?.code); // "STREAM_ENDED_BEFORE_RUN_CLOSED"
 *   }
 * }
 * ```
 */
export class AgUiStreamAssertionError extends Error {
  /** Always `"AgUiStreamAssertionError"`. */
  override readonly name = "AgUiStreamAssertionError";
  /** Every finding (up to the input's error, when it errored). */
  readonly report: LintReport;

  /** Made by {@link assertValidStream}; `options.cause` is the input's own error. */
  constructor(message: string, report: LintReport, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.report = report;
  }
}

/** The name a failure's report shows the input by. */
const NAME = "the stream";

/** The expectation, the verdict, and the message of one read input. */
interface Verdict {
  readonly report: LintReport;
  /** The findings fail the assertion (false when the input broke: see `broke`). */
  readonly failing: boolean;
  readonly broke?: { readonly error: unknown };
  /** The message for a `pass` (with `not`, the failure's) and for a failure. */
  message(not: boolean): string;
}

async function judge(input: StreamInput, options: AssertOptions = {}): Promise<Verdict> {
  const { failOn = "error", ...lintOptions } = options;
  if (failOn !== "error" && failOn !== "warning") {
    throw new TypeError('failOn must be "error" or "warning"');
  }
  const outcome: Outcome = await readInput(input, lintOptions);
  const { report, broke, array } = outcome;
  const failing = report.errors + (failOn === "warning" ? report.warnings : 0) > 0;
  const wanted = failOn === "warning" ? "no error or warning" : "no error";
  const message = (not: boolean): string => {
    const first =
      broke !== undefined
        ? `expected the stream to be read to its end, but it errored: ${describeError(broke.error)}`
        : not
          ? `expected the stream not to be a valid AG-UI stream (${wanted}), but it is`
          : `expected the stream to be a valid AG-UI stream (${wanted})`;
    return `${first}\n${lintText({ name: NAME, report, array }, style(false))}`;
  };
  return broke === undefined ? { report, failing, message } : { report, failing, broke, message };
}

/** An error as a message names it: `TypeError: boom`, on one line. */
function describeError(error: unknown): string {
  try {
    if (error instanceof Error) return shown(`${error.name}: ${error.message}`, 1000);
    return shown(String(error), 1000);
  } catch {
    return "a value that cannot be shown";
  }
}

/**
 * Lints a stream to its end and resolves with the report when it passes: no error finding
 * (with `failOn: "warning"`, no warning either). Otherwise it rejects with an
 * {@link AgUiStreamAssertionError} whose message is the command's text report of the
 * stream. An input that errors (an Observable's error, a body that breaks, an iterator that
 * throws) always rejects, with that error as `cause` and the findings up to it.
 *
 * @example
 * ```ts
 * import { assertValidStream } from "ag-ui-verify/testing";
 * const report = await assertValidStream([
 *   { type: "RUN_STARTED", threadId: "t1", runId: "r1" },
 *   { type: "RUN_FINISHED", threadId: "t1", runId: "r1" },
 * ]);
 * console.log(report.events); // 2
 * ```
 */
export async function assertValidStream(
  input: StreamInput,
  options?: AssertOptions,
): Promise<LintReport> {
  const verdict = await judge(input, options);
  const { report, broke } = verdict;
  if (broke !== undefined) {
    throw new AgUiStreamAssertionError(verdict.message(false), report, { cause: broke.error });
  }
  if (verdict.failing) throw new AgUiStreamAssertionError(verdict.message(false), report);
  return report;
}

/** What `expect.extend` gets back from a matcher. */
export interface MatcherResult {
  /** The stream passed (for an input that errored: whatever fails under the runner's `isNot`). */
  readonly pass: boolean;
  /** The line of what was expected, then the text report. */
  message(): string;
}

/**
 * The matchers, free of any test runner: `expect.extend(agUiMatchers)` in Jest (or any
 * `expect` with `extend`), then `await expect(input).toBeValidAgUiStream(options)`, and
 * `.not`. An input that errors fails either way. Vitest users import `ag-ui-verify/vitest`
 * instead, which registers and types them.
 *
 * @example
 * ```ts
 * import { agUiMatchers } from "ag-ui-verify/testing";
 * const result = await agUiMatchers.toBeValidAgUiStream([
 *   { type: "RUN_STARTED", threadId: "t1", runId: "r1" },
 * ]);
 * console.log(result.pass); // false
 * console.log(result.message().split("\n")[0]); // expected the stream to be a valid AG-UI stream (no error)
 * ```
 */
export const agUiMatchers: {
  /** Passes when the stream is valid (`failOn` as {@link assertValidStream}). */
  toBeValidAgUiStream(received: StreamInput, options?: AssertOptions): Promise<MatcherResult>;
} = {
  async toBeValidAgUiStream(
    this: unknown,
    received: StreamInput,
    options?: AssertOptions,
  ): Promise<MatcherResult> {
    // The runner calls a matcher with its context as `this`; `isNot` is set under `.not`.
    const not = isNot(this);
    const verdict = await judge(received, options);
    const message = () => verdict.message(not);
    // The runner fails when `pass` equals `isNot`: an input that errored fails either way.
    if (verdict.broke !== undefined) return { pass: not, message };
    return { pass: !verdict.failing, message };
  },
};

function isNot(context: unknown): boolean {
  return typeof context === "object" && context !== null && Reflect.get(context, "isNot") === true;
}
