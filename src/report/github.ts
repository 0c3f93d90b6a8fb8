/**
 * `--reporter github` (SPEC §18.3): one GitHub Actions workflow command per finding,
 * `::error file=P,line=N,title=CODE::MESSAGE` or `::warning …`, which GitHub shows as an
 * annotation on the file. The summary after them is the caller's (plain lines). Library
 * code: no I/O.
 * @module
 */

import type { Finding } from "../lint/types.ts";
import { type LintedInput, outcomeOf, plural, printable } from "./formats-shared.ts";

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
