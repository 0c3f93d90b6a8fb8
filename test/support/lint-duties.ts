// What the tests of the linter's producer duties (SPEC §18.5) share: run boundaries to build
// streams with, and the findings of one code on a stream the verifier accepts.

import { expect } from "vitest";
import { verifyAll } from "../../src/index.ts";
import { type Finding, type LintOptions, lint } from "../../src/lint/index.ts";

export type Ev = { type: string } & Record<string, unknown>;

export const RS = (fields: Record<string, unknown> = {}): Ev => ({
  type: "RUN_STARTED",
  threadId: "t1",
  runId: "r1",
  ...fields,
});
export const RF = (fields: Record<string, unknown> = {}): Ev => ({
  type: "RUN_FINISHED",
  threadId: "t1",
  runId: "r1",
  ...fields,
});
export const RE = (fields: Record<string, unknown> = {}): Ev => ({
  type: "RUN_ERROR",
  message: "boom",
  ...fields,
});

/** The findings of one code `lint` gives a stream the verifier accepts: [index, field]. */
export function found(
  code: string,
  events: readonly Ev[],
  options?: LintOptions,
): Array<[number, string | undefined]> {
  expect(() => verifyAll(events), "the stream must be valid under SPEC v4").not.toThrow();
  const report = lint(events, options);
  expect(report.valid).toBe(true);
  return report.findings.filter((f) => f.code === code).map((f) => [f.index, f.field]);
}

/** The first finding of `code` on `events`. */
export function first(
  code: string,
  events: readonly Ev[],
  options?: LintOptions,
): Finding | undefined {
  return lint(events, options).findings.find((f) => f.code === code);
}
