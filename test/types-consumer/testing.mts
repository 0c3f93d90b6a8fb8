// ag-ui-verify/testing and ag-ui-verify/vitest as a Node-only ESM consumer sees them: the
// helpers' types, and importing /vitest puts a typed toBeValidAgUiStream on Vitest's
// Assertion (and nothing misspelt, and no option that does not exist).
import {
  AgUiStreamAssertionError,
  type AssertOptions,
  agUiMatchers,
  assertValidStream,
  type StreamInput,
} from "ag-ui-verify/testing";
import type { AgUiAssertion } from "ag-ui-verify/vitest";
import { expect } from "vitest";

export async function check(input: StreamInput, bytes: Uint8Array): Promise<number> {
  await expect(input).toBeValidAgUiStream();
  await expect(bytes).not.toBeValidAgUiStream({ failOn: "warning", protocol: "draft" });
  // @ts-expect-error: the matcher's name is toBeValidAgUiStream.
  await expect(input).toBeValidAgUIStream();
  // @ts-expect-error: failOn is "error" or "warning".
  await expect(input).toBeValidAgUiStream({ failOn: "none" });
  const options: AssertOptions = { severity: { TOOL_CALL_ARGS_NOT_JSON: "error" } };
  try {
    const report = await assertValidStream("data: {}\n\n", options);
    return report.errors + report.warnings;
  } catch (error) {
    if (error instanceof AgUiStreamAssertionError) return error.report.findings.length;
    throw error;
  }
}

// A Jest user's `expect.extend` gets a runner-free matcher object.
export const result: Promise<{ readonly pass: boolean; message(): string }> =
  agUiMatchers.toBeValidAgUiStream([{ type: "RUN_STARTED", threadId: "t", runId: "r" }]);

// An Observable-like object (what AbstractAgent.run() returns) is an input; a number is not.
export const observable: StreamInput = { subscribe: () => () => {} };
// @ts-expect-error: a number is no stream.
export const notAnInput: StreamInput = 42;

// A helper of the tests' own that takes an `expect(x)`.
export const strictly = (assertion: AgUiAssertion<StreamInput>): Promise<void> =>
  assertion.toBeValidAgUiStream({ failOn: "warning" });
