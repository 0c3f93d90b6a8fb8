/**
 * The text report of one linted input (SPEC §18.3): every finding, errors first in input
 * order, then warnings; the first error with its context (the rule in words, the line and
 * byte offset, the events before it); each finding ending with its rule page's anchor.
 * Plain data in (a LintReport and the input's name), a string out, no I/O: the command and
 * the test helpers print exactly this.
 * @module
 */

import type { Finding, LintReport } from "../lint/types.ts";
import { describeCode, errorsFirst, type LintedInput } from "./formats-shared.ts";
import { count, formatBytes, plural, ruleLines, type Style, style, wrap } from "./render.ts";
import { clip, escapeControls, previewLine, shown } from "./safe.ts";

/** One input to show: a {@link LintedInput} that was read. */
export type TextInput = LintedInput & { readonly report: LintReport };

/**
 * Where the rule pages are, as the text report names them by default: from the root of the
 * repository or of the installed package. The command passes where they really are (the
 * packaged page, relative to the working directory, or `--rules-url`).
 */
export const RULES_PAGE = "docs/rules.md";

/** `<page>#<code in lower case>`: `docs/rules.md#text_message_not_open` by default. */
export const ruleAnchor = (code: string, page: string = RULES_PAGE): string =>
  `${page}#${code.toLowerCase()}`;

/** The longest input name shown (a HAR entry's name holds its URL). */
const NAME_MAX = 1000;
/** The most findings the text lists (the rest are counted). */
const FINDINGS_MAX = 200;

/** The name an input is shown by: its path, and a HAR entry's URL after it. */
export const displayName = (input: { name: string; url?: string | undefined }): string =>
  input.url === undefined ? input.name : `${input.name}: ${input.url}`;

function formatName(input: TextInput): string {
  if (input.live === true) return "live SSE";
  if (input.array === true) return "JSON array";
  const format = input.report.input?.format;
  return format === "jsonl" ? "JSON Lines" : format === "sse" ? "SSE" : "events";
}

/**
 * A finding's message, with its code when the message does not name it. A decoding
 * failure's message names an "SSE message" (SPEC §10.3); in a JSON Lines input it was a line.
 */
function messageOf(f: Finding, input: TextInput): string {
  const { report } = input;
  const empty =
    report.input?.bytes === 0 && f.code === "STREAM_ENDED_BEFORE_RUN_STARTED"
      ? "empty input (0 bytes): "
      : "";
  const lines = report.input?.format === "jsonl" && input.array !== true;
  const message =
    lines && f.message.startsWith(SSE_SUBJECT)
      ? `JSON line${f.message.slice("SSE message".length)}`
      : f.message;
  const text = empty + shown(message, 4000);
  return f.message.includes(`[${f.code}`) ? text : `${text} [${shown(f.code, 100)}]`;
}

const SSE_SUBJECT = "SSE message at index ";

/** `(400 events, #3 to #402)` for a merged finding. */
const times = (f: Finding): string =>
  f.count > 1 ? ` (${plural(f.count, "event")}, #${f.index} to #${f.lastIndex})` : "";

/** One finding's line: its mark, line, message, how many, and its rule page. */
function findingLine(f: Finding, input: TextInput, s: Style, page: string): string {
  const mark = f.severity === "error" ? s.red("✘") : s.yellow("!");
  const unit = input.report.input?.format === "proto" ? "frame" : "line";
  const where = f.line === undefined ? "" : s.dim(`${unit} ${count(f.line)}  `);
  return `  ${mark} ${where}${messageOf(f, input)}${times(f)}  ${s.dim(shown(ruleAnchor(f.code, page), NAME_MAX))}`;
}

/** The first error's context: the rule in words, where, the events before it. */
function contextLines(f: Finding, input: TextInput, s: Style): string[] {
  const lines: string[] = [];
  const { report } = input;
  if (f.rule !== undefined) lines.push(ruleLines(f.code, f.rule, s, "      "));
  else lines.push(wrap("      ", describeCode(f.code)));
  const atEnd = f.code.startsWith("STREAM_ENDED");
  const jsonl = report.input?.format === "jsonl" && input.array !== true;
  if (report.input?.bytes === 0 && f.code === "STREAM_ENDED_BEFORE_RUN_STARTED") {
    lines.push("      The input is empty (0 bytes): nothing was sent, so no run was opened.");
  } else if (f.line !== undefined && f.offset !== undefined) {
    const proto = report.input?.format === "proto";
    const at = `${proto ? "frame" : "line"} ${f.line}, byte offset ${f.offset}`;
    if (atEnd) lines.push(`      At the end of the input: ${at}.`);
    else if (proto) lines.push(`      At ${at}, where the offending frame starts.`);
    else if (jsonl) lines.push(`      At ${at}, where the offending JSON line starts.`);
    else lines.push(`      At ${at}, where the offending SSE message starts.`);
  }
  const u = report.input?.unterminated;
  if (atEnd && u !== undefined) {
    const note = `the last SSE message (line ${u.line}, byte offset ${u.offset}) has no blank line after it, so SSE discards it.`;
    lines.push(`      ${s.yellow("Note:")}${wrap("      Note: ", note).slice(11)}`);
  }
  const before = f.before ?? [];
  if (before.length > 0) {
    const n = plural(before.length, "event");
    lines.push("", atEnd ? `      The last ${n}:` : `      The ${n} before it:`);
    const first = f.index - before.length;
    const width = `#${f.index}`.length;
    before.forEach((event, i) => {
      const { type, ...rest } =
        typeof event === "object" && event !== null && !Array.isArray(event)
          ? (event as Record<string, unknown>)
          : { type: undefined };
      const fields = previewLine(rest, 80);
      const label = s.dim(`#${first + i}`.padEnd(width));
      lines.push(`        ${label}  ${s.cyan(shown(String(type), 60))} ${fields}`);
    });
  }
  return lines;
}

/**
 * The text report of one input, as the command prints it (colours from `s`; without one,
 * none). Every piece of input text is escaped for a terminal. `rulesPage` is where the rule
 * pages are (default {@link RULES_PAGE}): each finding ends with `<rulesPage>#<code>`.
 */
export function lintText(
  input: TextInput,
  s: Style = style(false),
  rulesPage: string = RULES_PAGE,
): string {
  const { report } = input;
  const what = `${shown(displayName(input), NAME_MAX)} ${s.dim(`(${formatName(input)})`)}`;
  const verdict = report.valid ? s.green(s.bold("✔ valid")) : s.red(s.bold("✘ invalid"));
  const counts = `${plural(report.errors, "error")}, ${plural(report.warnings, "warning")}`;
  const lines = [`${verdict}  ${what}: ${counts}`];
  const findings = errorsFirst(report.findings);
  const firstError = findings.find((f) => f.severity === "error");
  let shownCount = 0;
  let heading: string | undefined;
  for (const f of findings) {
    if (shownCount++ >= FINDINGS_MAX) break;
    const head = f.severity === "error" ? "Errors" : "Warnings";
    if (head !== heading) {
      lines.push("", s.bold(head));
      heading = head;
    }
    lines.push(findingLine(f, input, s, rulesPage));
    if (f === firstError) lines.push(...contextLines(f, input, s), "");
  }
  const hidden = findings.length - Math.min(findings.length, FINDINGS_MAX) + report.omitted;
  if (hidden > 0) lines.push(`  … and ${plural(hidden, "more finding")}`);
  if (lines[lines.length - 1] !== "") lines.push("");
  const size = report.input === undefined ? "" : `${formatBytes(report.input.bytes)}, `;
  lines.push(s.dim(`  Read ${size}${plural(report.events, "event")}.`), "");
  return lines.join("\n");
}

/** The one line on stderr, for logs, about an invalid input: its name, line, code. */
export function invalidLine(input: TextInput): string | undefined {
  const f = input.report.findings.find((x) => x.severity === "error");
  if (input.report.valid) return undefined;
  if (f === undefined) return `invalid stream (${shown(displayName(input), NAME_MAX)})`;
  const unit = input.report.input?.format === "proto" ? "frame" : "line";
  const where = f.line === undefined ? "" : `, ${unit} ${f.line}`;
  const rule = f.rule === undefined ? "" : ` (rule ${f.rule})`;
  return `invalid stream (${shown(displayName(input), NAME_MAX)}${where}): ${escapeControls(clip(f.code, 100))}${rule} at index ${f.index}`;
}
