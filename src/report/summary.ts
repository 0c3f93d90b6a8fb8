/**
 * The summary of a corpus (SPEC §18.3): totals, the codes found (errors, then warnings,
 * each with the rule in words and the first few inputs, with the line of the first
 * finding), what could not be read, the largest inputs. Fed in input order, so it does not
 * depend on which job finished first. Plain data in, text or an object out: no I/O.
 * @module
 */

import {
  describeCode,
  type LintedInput,
  outcomeOf,
  type Totals,
  TotalsCounter,
} from "./formats-shared.ts";
import { displayName, RULES_PAGE, ruleAnchor } from "./lint-text.ts";
import { summaryObject } from "./ndjson.ts";
import {
  count,
  formatBytes,
  formatDuration,
  plural,
  ruleLines,
  type Style,
  wrap,
} from "./render.ts";
import { shown } from "./safe.ts";

/** What one item gave: an input each (a HAR file gives one per event stream). */
export interface Outcome {
  readonly inputs: readonly LintedInput[];
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

/** One code's inputs: how many, how many findings, the first few with a line. */
interface Group {
  readonly code: string;
  readonly severity: "error" | "warning";
  readonly rule: number | null;
  inputs: number;
  findings: number;
  readonly examples: { input: string; line: number | null; field: string | null }[];
}

export class Summary {
  /** Valid inputs with at least one warning. */
  warned = 0;
  /** HAR entries that are not event streams. */
  skipped = 0;
  /** Files a walk found that are not regular files. */
  skippedFiles = 0;
  bytes = 0;
  /** Set when the check stopped early (SIGINT): after how many items, of how many. */
  interrupted: { readonly after: number; readonly of: number } | undefined;
  readonly #totals = new TotalsCounter();
  readonly #groups = new Map<string, Group>();
  readonly #problems: string[] = [];
  readonly #largest: { input: string; bytes: number }[] = [];
  readonly #skippedFiles: SkippedFile[] = [];

  /** What every format counts: inputs, errors, warnings, findings by code. */
  get totals(): Totals {
    return this.#totals.totals;
  }

  /** Every input: valid, invalid or unreadable. */
  get inputs(): number {
    return this.#totals.inputs;
  }

  get valid(): number {
    return this.#totals.valid;
  }

  get invalid(): number {
    return this.#totals.invalid;
  }

  /** Files and directories that gave no input: unreadable, not a HAR file, nothing to check. */
  get unreadable(): number {
    return this.#totals.unreadable;
  }

  add(outcome: Outcome): void {
    this.skipped += outcome.skipped;
    if (outcome.skippedFile !== undefined) {
      this.skippedFiles++;
      if (this.#skippedFiles.length < PROBLEMS) this.#skippedFiles.push(outcome.skippedFile);
    }
    for (const input of outcome.inputs) this.#add(input);
  }

  #add(input: LintedInput): void {
    this.#totals.add(input);
    const outcome = outcomeOf(input);
    if (outcome.problem !== undefined) {
      // A file's problem names the file; a HAR entry's is about the entry.
      const text =
        input.url === undefined ? outcome.problem : `${displayName(input)}: ${outcome.problem}`;
      if (this.#problems.length < PROBLEMS) this.#problems.push(text);
      return;
    }
    const { report } = outcome;
    const name = displayName(input);
    const bytes = report.input?.bytes ?? 0;
    this.bytes += bytes;
    if (report.valid && report.warnings > 0) this.warned++;
    const seen = new Set<string>();
    for (const f of report.findings) {
      let group = this.#groups.get(f.code);
      if (group === undefined) {
        const severity = f.severity === "error" ? "error" : "warning";
        const rule = f.rule ?? null;
        group = { code: f.code, severity, rule, inputs: 0, findings: 0, examples: [] };
        this.#groups.set(f.code, group);
      }
      group.findings++;
      if (seen.has(f.code)) continue;
      seen.add(f.code);
      group.inputs++;
      if (group.examples.length < EXAMPLES) {
        group.examples.push({ input: name, line: f.line ?? null, field: f.field ?? null });
      }
    }
    const largest = this.#largest;
    if (largest.length < LARGEST || bytes > (largest[LARGEST - 1]?.bytes ?? 0)) {
      const at = largest.findIndex((other) => bytes > other.bytes);
      largest.splice(at === -1 ? largest.length : at, 0, { input: name, bytes });
      largest.length = Math.min(largest.length, LARGEST);
    }
  }

  /** Errors first; then the most inputs first; equal counts by code. */
  #byCode(): Group[] {
    return [...this.#groups.values()].sort(
      (a, b) =>
        (a.severity === b.severity ? 0 : a.severity === "error" ? -1 : 1) ||
        b.inputs - a.inputs ||
        (a.code < b.code ? -1 : 1),
    );
  }

  /**
   * The last NDJSON line: the totals every format shares (`byCode` counts findings), then
   * what the command adds: the codes with their first inputs, problems, the largest inputs.
   * `skippedFiles` and `interrupted` are there only when something was skipped, or the
   * check was interrupted.
   */
  json(durationMs: number): { summary: Readonly<Record<string, unknown>> } {
    const { skipped, bytes, interrupted } = this;
    return summaryObject(this.#totals.totals, {
      skippedHarEntries: skipped,
      bytes,
      durationMs: Math.round(durationMs * 100) / 100,
      codes: this.#byCode(),
      problems: this.#problems,
      largest: this.#largest,
      ...(this.skippedFiles === 0
        ? {}
        : { skippedFiles: { count: this.skippedFiles, examples: this.#skippedFiles } }),
      ...(interrupted === undefined ? {} : { interrupted }),
    });
  }

  /**
   * The summary as text (colours from `s`); each code names its rule page, `rulesPage`
   * (default {@link RULES_PAGE}) and the code's anchor.
   */
  text(s: Style, durationMs: number, rulesPage: string = RULES_PAGE): string {
    const lines = [
      s.bold(`Checked ${plural(this.inputs, "input")}`),
      `  ${s.green("✔")} ${count(this.valid)} valid${this.warned > 0 ? `, ${count(this.warned)} of them with warnings` : ""}`,
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
      const error = group.severity === "error";
      const name = shown(group.code, 100);
      const findings =
        group.findings > group.inputs ? `, ${plural(group.findings, "finding")}` : "";
      const page = s.dim(shown(ruleAnchor(group.code, rulesPage), NAME_MAX));
      lines.push(
        "",
        `${error ? s.red(name) : s.yellow(name)}  ${plural(group.inputs, "input")}${findings}${error ? "" : s.dim(" (warning)")}  ${page}`,
        group.rule === null
          ? wrap("  ", describeCode(group.code))
          : ruleLines(group.code, group.rule, s),
      );
      const width = Math.max(...group.examples.map((e) => String(e.line ?? "?").length));
      for (const { input, line, field } of group.examples) {
        const at = field === null ? "" : s.dim(`  (${shown(field, 200)})`);
        const where = s.dim(`line ${String(line ?? "?").padEnd(width)}`);
        lines.push(`    ${where}  ${shown(input, NAME_MAX)}${at}`);
      }
      if (group.inputs > group.examples.length) {
        lines.push(`    … and ${count(group.inputs - group.examples.length)} more`);
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
