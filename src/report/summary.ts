/**
 * The summary of a corpus (SPEC §18.3): totals, the inputs by folder (each folder's counts
 * and codes), the codes found (errors, then warnings, each with the rule in words and the
 * first few inputs, with the line of the first finding), what could not be read, the
 * largest inputs. Fed in input order, so it does not depend on which job finished first.
 * Bounded in size and memory however large the corpus. Plain data in, text or an object
 * out: no I/O.
 * @module
 */

import {
  describeCode,
  folderOf,
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

/** The most folders the summary keeps apart; inputs in folders past them are counted together. */
const FOLDERS_KEPT = 10_000;
/** The most folders the text lists, and codes per folder. */
const FOLDERS_SHOWN = 20;
const FOLDER_CODES = 6;

/** One folder's inputs: how many, each verdict, and the inputs per code. */
interface Folder {
  readonly name: string;
  inputs: number;
  valid: number;
  warned: number;
  invalid: number;
  unreadable: number;
  /** Inputs per code, and whether the code was an error. */
  readonly codes: Map<string, { inputs: number; error: boolean }>;
}

const newFolder = (name: string): Folder => ({
  name,
  inputs: 0,
  valid: 0,
  warned: 0,
  invalid: 0,
  unreadable: 0,
  codes: new Map(),
});

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
  readonly #folders = new Map<string, Folder>();
  /** The inputs in folders past the first {@link FOLDERS_KEPT}, counted together. */
  readonly #otherFolders = newFolder("");

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

  /** The folder of `input`, kept or counted with the others. */
  #folderOf(input: LintedInput): Folder {
    const name = folderOf(input);
    const kept = this.#folders.get(name);
    if (kept !== undefined) return kept;
    if (this.#folders.size < FOLDERS_KEPT) {
      const folder = newFolder(name);
      this.#folders.set(name, folder);
      return folder;
    }
    return this.#otherFolders;
  }

  #add(input: LintedInput): void {
    this.#totals.add(input);
    const outcome = outcomeOf(input);
    const folder = this.#folderOf(input);
    folder.inputs++;
    if (outcome.problem !== undefined) folder.unreadable++;
    else if (!outcome.report.valid) folder.invalid++;
    else {
      folder.valid++;
      if (outcome.report.warnings > 0) folder.warned++;
    }
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
      const inFolder = folder.codes.get(f.code);
      if (inFolder === undefined) {
        folder.codes.set(f.code, { inputs: 1, error: f.severity === "error" });
      } else inFolder.inputs++;
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
   * The inputs by folder, when they are in more than one: each folder's counts and its
   * codes (inputs per code, errors then warnings, most first), the folders with the most
   * invalid or unreadable inputs first, then the most with warnings, then by name; at most
   * {@link FOLDERS_SHOWN} folders and {@link FOLDER_CODES} codes each, the rest counted.
   */
  #folderLines(s: Style): string[] {
    const other = this.#otherFolders;
    const folders = [...this.#folders.values()];
    if (folders.length + (other.inputs > 0 ? 1 : 0) < 2) return [];
    folders.sort(
      (a, b) =>
        b.invalid + b.unreadable - (a.invalid + a.unreadable) ||
        b.warned - a.warned ||
        (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    );
    const shownFolders = folders.slice(0, FOLDERS_SHOWN);
    const lines = ["", `${s.bold("By folder")}${s.dim(" (each code: the inputs that have it)")}`];
    for (const folder of shownFolders) lines.push(...folderLines(folder, s));
    const rest = folders.slice(FOLDERS_SHOWN);
    if (other.inputs > 0 || rest.length > 0) {
      const inputs = rest.reduce((n, f) => n + f.inputs, other.inputs);
      const invalid = rest.reduce((n, f) => n + f.invalid, other.invalid);
      const unreadable = rest.reduce((n, f) => n + f.unreadable, other.unreadable);
      const more = rest.length > 0 ? plural(rest.length, "more folder") : "";
      const others = other.inputs > 0 ? "other folders" : "";
      const what = [more, others].filter((x) => x !== "").join(" and ");
      const bad = unreadable > 0 ? `, ${count(unreadable)} unreadable` : "";
      lines.push(`  … and ${what}: ${plural(inputs, "input")}, ${count(invalid)} invalid${bad}`);
    }
    return lines;
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
    lines.push(...this.#folderLines(s));
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

/** A folder's lines: its name and counts, then its codes (errors, then warnings). */
function folderLines(folder: Folder, s: Style): string[] {
  const name = shown(folder.name, NAME_MAX);
  const counts = [
    `${count(folder.valid)} valid${folder.warned > 0 ? ` (${count(folder.warned)} with warnings)` : ""}`,
    `${count(folder.invalid)} invalid`,
    ...(folder.unreadable > 0 ? [`${count(folder.unreadable)} unreadable`] : []),
  ];
  const lines = [`  ${s.bold(name)}  ${plural(folder.inputs, "input")}: ${counts.join(", ")}`];
  const codes = [...folder.codes].sort(
    ([a, x], [b, y]) =>
      (x.error === y.error ? 0 : x.error ? -1 : 1) || y.inputs - x.inputs || (a < b ? -1 : 1),
  );
  const listed = codes.slice(0, FOLDER_CODES);
  for (const error of [true, false]) {
    const these = listed.filter(([, c]) => c.error === error);
    if (these.length === 0) continue;
    const text = these.map(([code, c]) => `${shown(code, 100)} ${count(c.inputs)}`).join(", ");
    const mark = error ? s.red("✘") : s.yellow("!");
    const wrapped = wrap("      ", text);
    lines.push(`    ${mark} ${wrapped.slice(6)}`);
  }
  if (codes.length > listed.length) {
    lines.push(`      … and ${plural(codes.length - listed.length, "more code")}`);
  }
  return lines;
}
