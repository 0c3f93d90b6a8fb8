/**
 * The summary of a corpus: totals, invalid inputs grouped by code (with the rule in words
 * and the first few inputs, with line numbers), what could not be read, the largest inputs.
 * Fed in input order, so it does not depend on which job finished first.
 * @module
 */

import {
  count,
  formatBytes,
  formatDuration,
  plural,
  type Report,
  ruleLines,
  type Style,
} from "./render.ts";
import { shown } from "./safe.ts";

/** What one item gave: a report per input (a HAR file gives one per event stream). */
export interface Outcome {
  readonly reports: Report[];
  /** HAR entries that are not event streams. */
  readonly skipped: number;
  /** A file a walk found that is not a regular file (a FIFO, a device…): not read. */
  readonly skippedFile?: SkippedFile | undefined;
}

/** A file a walk skipped, and what it is (`a FIFO`, `a socket`, …). */
export interface SkippedFile {
  readonly input: string;
  readonly what: string;
}

const EXAMPLES = 5;
const LARGEST = 5;
const PROBLEMS = 20;
/** The longest input name or problem shown (a HAR entry's name holds its URL). */
const NAME_MAX = 1000;

interface Group {
  readonly code: string;
  readonly rule: number;
  count: number;
  readonly examples: { input: string; line: number | null; field: string | null }[];
}

export class Summary {
  inputs = 0;
  valid = 0;
  invalid = 0;
  /** Files and directories that gave no input: unreadable, not a HAR file, nothing to check. */
  unreadable = 0;
  /** HAR entries that are not event streams. */
  skipped = 0;
  /** Files a walk found that are not regular files. */
  skippedFiles = 0;
  bytes = 0;
  /** Set when the check stopped early (SIGINT): after how many items, of how many. */
  interrupted: { readonly after: number; readonly of: number } | undefined;
  readonly #groups = new Map<string, Group>();
  readonly #problems: string[] = [];
  readonly #largest: { input: string; bytes: number }[] = [];
  readonly #skippedFiles: SkippedFile[] = [];

  add(outcome: Outcome): void {
    this.skipped += outcome.skipped;
    if (outcome.skippedFile !== undefined) {
      this.skippedFiles++;
      if (this.#skippedFiles.length < PROBLEMS) this.#skippedFiles.push(outcome.skippedFile);
    }
    for (const report of outcome.reports) this.#add(report);
  }

  #problem(text: string): void {
    this.unreadable++;
    if (this.#problems.length < PROBLEMS) this.#problems.push(text);
  }

  #add(report: Report): void {
    if (report.usageError !== undefined) {
      this.#problem(report.usageError);
      return;
    }
    const { input, error } = report;
    const bytes = report.bytes ?? 0;
    this.inputs++;
    this.bytes += bytes;
    if (error === undefined) this.valid++;
    else {
      this.invalid++;
      let group = this.#groups.get(error.code);
      if (group === undefined) {
        group = { code: error.code, rule: error.rule, count: 0, examples: [] };
        this.#groups.set(error.code, group);
      }
      group.count++;
      if (group.examples.length < EXAMPLES) {
        group.examples.push({ input, line: error.line, field: error.field });
      }
    }
    const largest = this.#largest;
    if (largest.length < LARGEST || bytes > (largest[LARGEST - 1]?.bytes ?? 0)) {
      const at = largest.findIndex((other) => bytes > other.bytes);
      largest.splice(at === -1 ? largest.length : at, 0, { input, bytes });
      largest.length = Math.min(largest.length, LARGEST);
    }
  }

  /** Most frequent code first; equal counts by code. */
  #byCode(): Group[] {
    return [...this.#groups.values()].sort(
      (a, b) => b.count - a.count || (a.code < b.code ? -1 : 1),
    );
  }

  /**
   * The last NDJSON line of `--json`. `skippedFiles` (how many, and the first 20) and
   * `interrupted` are there only when something was skipped, or the check was interrupted.
   */
  json(durationMs: number): { summary: Record<string, unknown> } {
    const { inputs, valid, invalid, unreadable, skipped, bytes, interrupted } = this;
    return {
      summary: {
        inputs,
        valid,
        invalid,
        unreadable,
        skippedHarEntries: skipped,
        bytes,
        durationMs: Math.round(durationMs * 100) / 100,
        byCode: this.#byCode(),
        problems: this.#problems,
        largest: this.#largest,
        ...(this.skippedFiles === 0
          ? {}
          : { skippedFiles: { count: this.skippedFiles, examples: this.#skippedFiles } }),
        ...(interrupted === undefined ? {} : { interrupted }),
      },
    };
  }

  text(s: Style, durationMs: number): string {
    const lines = [
      s.bold(`Checked ${plural(this.inputs, "input")}`),
      `  ${s.green("✔")} ${count(this.valid)} valid`,
      `  ${s.red("✘")} ${count(this.invalid)} invalid`,
    ];
    if (this.unreadable > 0) lines.push(`  ${s.yellow("!")} ${count(this.unreadable)} unreadable`);
    if (this.skipped > 0) {
      lines.push(
        `  ${plural(this.skipped, "HAR entry", "HAR entries")} skipped: not text/event-stream`,
      );
    }
    if (this.skippedFiles > 0) {
      lines.push(`  ${plural(this.skippedFiles, "file")} skipped: not regular files`);
    }
    const { interrupted } = this;
    if (interrupted !== undefined) {
      const of = plural(interrupted.of, "input");
      lines.push(`  ${s.yellow("!")} interrupted after ${count(interrupted.after)} of ${of}`);
    }
    for (const group of this.#byCode()) {
      lines.push(
        "",
        `${s.red(shown(group.code, 100))}  ${plural(group.count, "input")}`,
        ruleLines(group.code, group.rule, s),
      );
      const width = Math.max(...group.examples.map((e) => String(e.line ?? "").length));
      for (const { input, line, field } of group.examples) {
        const at = field === null ? "" : s.dim(`  (${shown(field, 200)})`);
        const where = s.dim(`line ${String(line ?? "?").padEnd(width)}`);
        lines.push(`    ${where}  ${shown(input, NAME_MAX)}${at}`);
      }
      if (group.count > group.examples.length) {
        lines.push(`    … and ${count(group.count - group.examples.length)} more`);
      }
    }
    if (this.unreadable > 0) {
      const problems = this.#problems.map((text) => `  ${shown(text, NAME_MAX)}`);
      lines.push("", s.yellow("Unreadable"), ...problems);
      if (this.unreadable > PROBLEMS)
        lines.push(`  … and ${count(this.unreadable - PROBLEMS)} more`);
    }
    if (this.skippedFiles > 0) {
      lines.push("", s.yellow("Skipped"));
      for (const { input, what } of this.#skippedFiles) {
        lines.push(`  ${shown(input, NAME_MAX)}: ${what}, not a regular file`);
      }
      if (this.skippedFiles > PROBLEMS)
        lines.push(`  … and ${count(this.skippedFiles - PROBLEMS)} more`);
    }
    if (this.inputs > LARGEST) {
      lines.push("", s.bold("Largest inputs"));
      const width = Math.max(...this.#largest.map(({ bytes }) => formatBytes(bytes).length));
      for (const { input, bytes } of this.#largest) {
        lines.push(`  ${formatBytes(bytes).padStart(width)}  ${shown(input, NAME_MAX)}`);
      }
    }
    const seconds = durationMs / 1000;
    const rate = seconds > 0 ? ` (${(this.bytes / 1024 ** 2 / seconds).toFixed(1)} MiB/s)` : "";
    lines.push("", s.dim(`${formatBytes(this.bytes)} in ${formatDuration(durationMs)}${rate}`), "");
    return lines.join("\n");
  }
}
