/**
 * `--reporter junit` (SPEC §18.3): one `<testsuites>` with one `<testsuite>`, one
 * `<testcase>` per input, its classname the input's folder. An invalid input has one `<failure>` (its first error) listing
 * every finding; warnings go to the test case's `<system-out>`; an unreadable input is an
 * `<error>`. Valid against the JUnit schema of Jenkins' xUnit plugin. Library code: no I/O.
 * @module
 */

import type { Finding } from "../lint/types.ts";
import {
  errorsFirst,
  folderOf,
  type LintedInput,
  outcomeOf,
  plural,
  printable,
  type ToolInfo,
  totals,
} from "./formats-shared.ts";

const XML_TEXT: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };
const XML_ATTRIBUTE: Readonly<Record<string, string>> = {
  ...XML_TEXT,
  '"': "&quot;",
  "'": "&apos;",
  "\t": "&#9;",
  "\n": "&#10;",
  "\r": "&#13;",
};

/**
 * Character data: `text` made {@link printable} (controls other than those in `keep`
 * written as `\xHH`, no character XML 1.0 forbids), then `&`, `<` and `>` escaped.
 */
export function xmlText(text: string, keep = ""): string {
  return printable(text, keep).replace(/[&<>]/g, (c) => XML_TEXT[c] ?? c);
}

/** An attribute value (between double quotes): one line, every special character escaped. */
export function xmlAttribute(text: string): string {
  return printable(text, "\t").replace(/[&<>"'\t\n\r]/g, (c) => XML_ATTRIBUTE[c] ?? c);
}

/** A test case's name: the path, or the path and a HAR entry's URL. */
export function testCaseName(input: LintedInput): string {
  return input.url === undefined ? input.name : `${input.name} ${input.url}`;
}

/** One finding on one line: severity, code, line if known, index, count, message. */
export function findingLine(f: Finding): string {
  const line = f.line === undefined ? "" : `line ${f.line}, `;
  return `${f.severity} ${f.code} ${line}event #${f.index}, count ${f.count}: ${f.message}`;
}

const omittedLine = (omitted: number): string =>
  `… and ${plural(omitted, "more finding")} past maxFindings, not kept`;

/** The lines of a test case's body, each made printable and escaped. */
const body = (lines: readonly string[]): string => lines.map((l) => xmlText(l, "\t")).join("\n");

/** The `<testcase>` of one input, classed by its folder (CI tools group test cases by class). */
function testCase(input: LintedInput): string {
  const classname = xmlAttribute(folderOf(input));
  const open = `    <testcase name="${xmlAttribute(testCaseName(input))}" classname="${classname}"`;
  const outcome = outcomeOf(input);
  if (outcome.problem !== undefined) {
    const problem = xmlAttribute(outcome.problem);
    return `${open}>\n      <error message="${problem}" type="unreadable">${xmlText(outcome.problem, "\t")}</error>\n    </testcase>`;
  }
  const { report } = outcome;
  const parts: string[] = [];
  const warnings = report.findings.filter((f) => f.severity !== "error").map(findingLine);
  if (!report.valid) {
    const first = report.findings.find((f) => f.severity === "error");
    const message = first?.message ?? `${plural(report.errors, "error")}, none kept (maxFindings)`;
    const lines = errorsFirst(report.findings).map(findingLine);
    if (report.omitted > 0) lines.push(omittedLine(report.omitted));
    parts.push(
      `      <failure message="${xmlAttribute(message)}" type="${xmlAttribute(first?.code ?? "invalid")}">${body(lines)}</failure>`,
    );
  } else if (report.omitted > 0) {
    warnings.push(omittedLine(report.omitted));
  }
  if (warnings.length > 0) parts.push(`      <system-out>${body(warnings)}</system-out>`);
  return parts.length === 0 ? `${open}/>` : `${open}>\n${parts.join("\n")}\n    </testcase>`;
}

/**
 * The JUnit XML report of `inputs`: one test case per input, in order. `failures` counts the
 * invalid inputs, `errors` the unreadable ones; the suite's properties name the tool's
 * version (and its rule pages, when `tool.rulesUrl` is given).
 *
 * @example
 * ```ts
 * import { lint } from "ag-ui-verify/lint";
 * const report = lint([{ type: "RUN_STARTED", threadId: "t", runId: "r" }]);
 * const xml = junit([{ name: "run.sse", report }], { name: "ag-ui-verify", version: "0.1.0" });
 * ```
 */
export function junit(inputs: readonly LintedInput[], tool: ToolInfo): string {
  const t = totals(inputs);
  const counts = `tests="${t.inputs}" failures="${t.invalid}" errors="${t.unreadable}"`;
  const properties = [
    `      <property name="version" value="${xmlAttribute(tool.version)}"/>`,
    ...(tool.rulesUrl === undefined
      ? []
      : [`      <property name="rules" value="${xmlAttribute(tool.rulesUrl)}"/>`]),
  ];
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="ag-ui-verify" ${counts}>`,
    `  <testsuite name="ag-ui-verify" ${counts} skipped="0">`,
    "    <properties>",
    ...properties,
    "    </properties>",
    ...inputs.map(testCase),
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
