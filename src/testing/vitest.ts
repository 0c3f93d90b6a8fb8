/**
 * `ag-ui-verify/vitest`: importing it (in a test file, or once in `setupFiles`) registers
 * the matcher `toBeValidAgUiStream` with Vitest's `expect` and adds it to the `Assertion`
 * type (SPEC §19). `vitest` is an optional peer dependency: only this module imports it.
 *
 * @example
 * ```ts ignore
 * import "ag-ui-verify/vitest";
 * import { expect, it } from "vitest";
 *
 * it("streams a valid run", async () => {
 *   await expect(agent.run(input)).toBeValidAgUiStream();
 *   await expect(brokenStream).not.toBeValidAgUiStream({ failOn: "warning" });
 * });
 * ```
 * @module
 */

import { type Assertion, expect } from "vitest";
import { type AssertOptions, agUiMatchers } from "./index.ts";

expect.extend(agUiMatchers);

declare module "vitest" {
  // biome-ignore lint/suspicious/noExplicitAny: the parameter must read as Vitest declares it.
  interface Assertion<T = any> {
    /**
     * Lints the received stream (events, SSE or JSON Lines text, a `Response`, a
     * `ReadableStream`, an Observable) to its end; passes when it has no error finding
     * (with `failOn: "warning"`, no warning either). Await it. A failure's message is the
     * `ag-ui-verify` command's text report of the stream. An input that errors fails, also
     * under `.not`.
     */
    toBeValidAgUiStream(options?: AssertOptions): Promise<void>;
  }
}

/**
 * Vitest's `expect(value)`, which has `toBeValidAgUiStream` once this module is imported:
 * for a helper of the tests' own that takes one. (Exporting it also keeps the import of
 * `vitest` in the built declarations, which the augmentation above needs.)
 */
export type AgUiAssertion<T = unknown> = Assertion<T>;

export type { AssertOptions };
