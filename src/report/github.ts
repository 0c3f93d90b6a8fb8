/**
 * `--reporter github` (SPEC §18.3): one GitHub Actions workflow command per finding,
 * `::error file=P,line=N,title=CODE::MESSAGE` or `::warning …`, which GitHub shows as an
 * annotation on the file. The summary after them is the caller's (plain lines). And the
 * job's step summary: a Markdown table of the inputs ({@link StepSummary}), which the
 * command appends to `$GITHUB_STEP_SUMMARY`. Library code: no I/O.
 * @module
 */

import type { Finding } from "../lint/types.ts";
import { type LintedInput, outcomeOf, plural, printable, TotalsCounter } from "./formats-shared.ts";
import { displayName } from "./lint-text.ts";
import { plural as counted } from "./render.ts";
import { clip, count } from "./safe.ts";

/**
 * A command's message (its data): GitHub's escaping of `%`, CR and LF (`%25`, `%0D`,
 * `%0A`), after every other control character is written as `\xHH` text and every lone
 * surrogate as U+FFFD, so none reaches the log raw.
 */
export function commandMessage(text: string): string {
  return printable(text, "\t\r\n")
    .replaceAll("%", "%25")
    .replaceAll("\r", "%0D")
    .replaceAll("\n", "%0A");
}

/** A command's property value: the message's escaping, and `:` and `,` too (`%3A`, `%2C`). */
export function commandProperty(text: string): string {
  return commandMessage(text).replaceAll(":", "%3A").replaceAll(",", "%2C");
}

type Properties = readonly (readonly [string, string | number | undefined])[];

/** `::command key=value,…::message`, the properties that are undefined left out. */
function command(name: string, properties: Properties, message: string): string {
  const props = properties
    .filter((p): p is readonly [string, string | number] => p[1] !== undefined)
    .map(([key, value]) => `${key}=${commandProperty(String(value))}`)
    .join(",");
  return `::${name}${props === "" ? "" : ` ${props}`}::${commandMessage(message)}`;
}

/** The message of a finding: its own, and a HAR entry's URL after it. */
function messageOf(input: LintedInput, f: Finding): string {
  const times = f.count > 1 ? ` (${f.count} events, #${f.index} to #${f.lastIndex})` : "";
  const where = input.url === undefined ? "" : ` [${input.url}]`;
  return `${f.message}${times}${where}`;
}

const lineOf = (f: Finding): number | undefined =>
  f.line !== undefined && Number.isSafeInteger(f.line) && f.line >= 1 ? f.line : undefined;

/**
 * The workflow commands of `inputs`, one line each (ending with a line feed): per finding,
 * in each input's order, `::error` or `::warning` with the file, the line when known and
 * the code as the title; an unreadable input is `::error file=P::why`; findings past
 * maxFindings are one `::notice`. The empty string for no finding.
 */
export function github(inputs: readonly LintedInput[]): string {
  const lines: string[] = [];
  for (const input of inputs) {
    const outcome = outcomeOf(input);
    if (outcome.problem !== undefined) {
      const where = input.url === undefined ? "" : ` [${input.url}]`;
      lines.push(command("error", [["file", input.name]], `${outcome.problem}${where}`));
      continue;
    }
    for (const f of outcome.report.findings) {
      const properties: Properties = [
        ["file", input.name],
        // A HAR entry's lines are its body's, not the HAR file's.
        ["line", input.url === undefined ? lineOf(f) : undefined],
        ["title", f.code],
      ];
      lines.push(
        command(f.severity === "error" ? "error" : "warning", properties, messageOf(input, f)),
      );
    }
    if (outcome.report.omitted > 0) {
      const more = plural(outcome.report.omitted, "more finding");
      lines.push(command("notice", [["file", input.name]], `${more} past maxFindings, not shown`));
    }
  }
  return lines.map((l) => `${l}\n`).join("");
}

const MARKDOWN_HTML: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
};

/**
 * `text` as Markdown that renders as exactly that text, in a table cell: clipped to `max`
 * characters, control characters written as `\xHH` ({@link printable}), `&`, `<`, `>` and
 * `"` as HTML entities, and every other ASCII punctuation character backslash-escaped (no
 * emphasis, link, code span, cell break `|`, emoji `:name:`, mention `@`, math `$`).
 */
export function markdownText(text: string, max = 300): string {
  return printable(clip(text, max)).replace(/[!-/:-@[-`{-~]/g, (c) => MARKDOWN_HTML[c] ?? `\\${c}`);
}

/** One input's row of the step summary. */
interface Row {
  /** Its place in the input order. */
  readonly at: number;
  readonly name: string;
  readonly verdict: "valid" | "invalid" | "unreadable";
  readonly errors: number;
  readonly warnings: number;
}

/** The most inputs a step summary table lists. */
export const STEP_SUMMARY_ROWS = 100;

/**
 * The job's step summary of a run: inputs added one at a time, in input order, then
 * {@link markdown}: a heading with the verdict, a table (input, verdict, errors, warnings),
 * the inputs left out, the totals. At most `maxRows` inputs are listed, the invalid and
 * unreadable ones first, then those with warnings, then the rest (each kind in input
 * order, the table in input order); memory holds no more rows than that per kind.
 */
export class StepSummary {
  readonly #max: number;
  readonly #totals = new TotalsCounter();
  /** The rows kept, by kind: failed (invalid or unreadable), warned, clean. */
  readonly #kinds: [Row[], Row[], Row[]] = [[], [], []];
  #warned = 0;

  constructor(maxRows = STEP_SUMMARY_ROWS) {
    this.#max = Math.max(0, Math.floor(maxRows));
  }

  add(input: LintedInput): void {
    const at = this.#totals.inputs;
    this.#totals.add(input);
    const outcome = outcomeOf(input);
    const name = displayName(input);
    let row: Row;
    let kind: 0 | 1 | 2;
    if (outcome.problem !== undefined) {
      row = { at, name, verdict: "unreadable", errors: 0, warnings: 0 };
      kind = 0;
    } else {
      const { valid, errors, warnings } = outcome.report;
      row = { at, name, verdict: valid ? "valid" : "invalid", errors, warnings };
      if (valid && warnings > 0) this.#warned++;
      kind = !valid ? 0 : warnings > 0 ? 1 : 2;
    }
    const rows = this.#kinds[kind];
    if (rows.length < this.#max) rows.push(row);
  }

  /** The summary as Markdown, ending with a line feed. */
  markdown(): string {
    const t = this.#totals.totals;
    const rows = this.#kinds
      .flat()
      .slice(0, this.#max)
      .sort((a, b) => a.at - b.at);
    const failed = t.invalid + t.unreadable;
    const heading =
      t.inputs === 0
        ? "no input"
        : failed === 0
          ? `${t.inputs === 1 ? "the input is" : `all ${counted(t.inputs, "input")} are`} valid`
          : `${count(failed)} of ${counted(t.inputs, "input")} ${t.invalid > 0 && t.unreadable > 0 ? "invalid or unreadable" : t.invalid > 0 ? "invalid" : "unreadable"}`;
    const lines = [`### ag-ui-verify: ${heading}`, ""];
    if (rows.length > 0) {
      lines.push("| Input | Verdict | Errors | Warnings |", "| :-- | :-- | --: | --: |");
      for (const row of rows) {
        const mark = { valid: "✔ valid", invalid: "✘ invalid", unreadable: "! unreadable" }[
          row.verdict
        ];
        const [errors, warnings] =
          row.verdict === "unreadable" ? ["–", "–"] : [count(row.errors), count(row.warnings)];
        lines.push(`| ${markdownText(row.name)} | ${mark} | ${errors} | ${warnings} |`);
      }
      lines.push("");
    }
    const left = t.inputs - rows.length;
    if (left > 0) {
      const shown = (verdict: Row["verdict"]) => rows.filter((r) => r.verdict === verdict).length;
      const kinds = [
        [t.invalid - shown("invalid"), "invalid"],
        [t.unreadable - shown("unreadable"), "unreadable"],
        [t.valid - shown("valid"), "valid"],
      ] as const;
      const parts = kinds.filter(([n]) => n > 0).map(([n, what]) => `${count(n)} ${what}`);
      lines.push(`${counted(left, "more input")} not listed: ${parts.join(", ")}.`, "");
    }
    const warned = this.#warned > 0 ? ` (${count(this.#warned)} with warnings)` : "";
    lines.push(
      `${counted(t.inputs, "input")}: ${count(t.valid)} valid${warned}, ${count(t.invalid)} invalid, ${count(t.unreadable)} unreadable; ${counted(t.errors, "error")}, ${counted(t.warnings, "warning")}.`,
      "",
    );
    return lines.join("\n");
  }
}
