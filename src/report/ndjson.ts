/**
 * `--reporter ndjson` (`--json`, SPEC §18.3): one JSON object per input, one line each, then
 * one summary object: the same shape for one input as for many. Library code: no I/O.
 * @module
 */

import type { Finding, LintReport } from "../lint/types.ts";
import {
  jsonText,
  type LintedInput,
  outcomeOf,
  type Totals,
  totals,
  wellFormed,
} from "./formats-shared.ts";

/** A finding as NDJSON writes it: every key present, `null` where unknown. */
export interface FindingObject {
  code: string;
  severity: "error" | "warning";
  rule: number | null;
  index: number;
  lastIndex: number;
  count: number;
  eventType: string | null;
  field: string | null;
  message: string;
  line: number | null;
  offset: number | null;
}

/** The line of one input. An unreadable input has `valid: false`, no finding and a `problem`. */
export interface InputObject {
  name: string;
  url?: string;
  valid: boolean;
  errors: number;
  warnings: number;
  omitted: number;
  events: number;
  /** `lintStream`: the input's format and size, and where an unterminated last SSE message starts. */
  input?: {
    format: "sse" | "jsonl" | "proto";
    bytes: number;
    unterminated?: { line: number; offset: number };
  };
  findings: FindingObject[];
  problem?: string;
}

/** A finding's plain fields (not the events before it, which are any values). */
export function findingObject(f: Finding): FindingObject {
  return {
    code: f.code,
    severity: f.severity === "error" ? "error" : "warning",
    rule: f.rule ?? null,
    index: f.index,
    lastIndex: f.lastIndex,
    count: f.count,
    eventType: f.eventType ?? null,
    field: f.field ?? null,
    message: f.message,
    line: f.line ?? null,
    offset: f.offset ?? null,
  };
}

/** The `input` of an input's line: format, size, and the unterminated last message, if any. */
function inputOf(input: NonNullable<LintReport["input"]>): NonNullable<InputObject["input"]> {
  const { format, bytes, unterminated: u } = input;
  return u === undefined
    ? { format, bytes }
    : { format, bytes, unterminated: { line: u.line, offset: u.offset } };
}

/** The object of one input's line. */
export function inputObject(input: LintedInput): InputObject {
  const url = input.url === undefined ? {} : { url: input.url };
  const outcome = outcomeOf(input);
  if (outcome.problem !== undefined) {
    return {
      name: input.name,
      ...url,
      valid: false,
      errors: 0,
      warnings: 0,
      omitted: 0,
      events: 0,
      findings: [],
      problem: outcome.problem,
    };
  }
  const { report } = outcome;
  return {
    name: input.name,
    ...url,
    valid: report.valid,
    errors: report.errors,
    warnings: report.warnings,
    omitted: report.omitted,
    events: report.events,
    ...(report.input === undefined ? {} : { input: inputOf(report.input) }),
    findings: report.findings.map(findingObject),
  };
}

/**
 * The summary line's object: {@link Totals} (`byCode` counts kept findings), then the
 * caller's `extra` fields (a duration, skipped entries…), which cannot replace a total.
 */
export function summaryObject(
  inputs: readonly LintedInput[] | Totals,
  extra: Readonly<Record<string, unknown>> = {},
): { summary: Totals & Readonly<Record<string, unknown>> } {
  const t = Array.isArray(inputs) ? totals(inputs) : (inputs as Totals);
  const more = Object.entries(extra)
    .filter(([key]) => !Object.hasOwn(t, key))
    .map(([key, value]) => [wellFormed(key), value] as const);
  return { summary: { ...t, ...Object.fromEntries(more) } };
}

/**
 * The NDJSON report of `inputs`: one line per input, in order, then the summary line, each
 * ending with a line feed. Every string is JSON-escaped, control characters included.
 */
export function ndjson(
  inputs: readonly LintedInput[],
  summary?: Readonly<Record<string, unknown>>,
): string {
  const lines = inputs.map((input) => jsonText(inputObject(input)));
  lines.push(jsonText(summaryObject(inputs, summary)));
  return lines.map((l) => `${l}\n`).join("");
}
