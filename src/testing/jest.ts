/**
 * `ag-ui-verify/jest`: importing it (in a test file, or once in `setupFilesAfterEach`)
 * registers the matcher `toBeValidAgUiStream` with Jest's `expect` and types it, for
 * `expect` from `@jest/globals` and for the global one of `@types/jest` (SPEC §19). Jest
 * itself is not a dependency: only this module imports `@jest/globals`, which Jest provides.
 *
 * @example
 * ```ts ignore
 * import "ag-ui-verify/jest";
 * import { expect, it } from "@jest/globals";
 *
 * it("streams a valid run", async () => {
 *   await expect(agent.run(input)).toBeValidAgUiStream();
 *   await expect(brokenStream).not.toBeValidAgUiStream({ failOn: "warning" });
 * });
 * ```
 * @module
 */

import { expect } from "@jest/globals";
import { type AssertOptions, agUiMatchers } from "./index.ts";

expect.extend(agUiMatchers);

declare module "expect" {
  // The parameters as `expect` (which `@jest/globals` re-exports) declares them.
  interface Matchers<R extends void | Promise<void>, T = unknown> {
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

declare global {
  // The global `expect` of `@types/jest`, with its parameters as it declares them.
  namespace jest {
    // biome-ignore lint/complexity/noBannedTypes: the default @types/jest gives T.
    interface Matchers<R, T = {}> {
      /** See the `expect` module's `toBeValidAgUiStream` above: the same matcher. */
      toBeValidAgUiStream(options?: AssertOptions): Promise<R>;
    }
  }
}

export type { AssertOptions };
