/**
 * The words and the typography the text reports share: the rules in words, styles,
 * wrapping, counts, sizes and durations.
 * @module
 */

import { count } from "./safe.ts";

export { count };

/** The rules 0–13 in plain words. */
export const RULES_IN_WORDS: readonly string[] = [
  "Every event is a JSON object with a string `type`, and every field the verifier reads is present when required, not null, and of the right JSON type.",
  "A stream begins with RUN_STARTED, or with RUN_ERROR for a run that failed before it began. RUN_STARTED is not repeated while its run is open, and a stream without a run is incomplete.",
  "After RUN_FINISHED only a new RUN_STARTED or one late RUN_ERROR may follow; after RUN_ERROR only a new RUN_STARTED. A stream that ends while its run is open was cut off.",
  "A text message opens with TEXT_MESSAGE_START, continues and ends by its messageId: content and end need an open message, and an open id cannot be started again.",
  "Tool calls (TOOL_CALL_*), reasoning messages (REASONING_MESSAGE_*) and reasoning spans (REASONING_START/END) open, continue and end by id, like text messages, each in its own open set.",
  "Retired in SPEC version 4: a TOOL_CALL_RESULT for a call that is still open is the linter's warning TOOL_CALL_RESULT_BEFORE_END.",
  "STEP_FINISHED needs a matching STEP_STARTED, and a step cannot be started again while it is open.",
  "Everything open (text messages, tool calls, reasoning messages, reasoning spans, steps) is closed before RUN_FINISHED.",
  "A RUN_FINISHED interrupt outcome carries at least one interrupt.",
  "An event tagged with a subagentRunId names the agent that owns the message, tool call, reasoning message, reasoning span or activity it is about (or carries no tag).",
  "A tool call belongs to the agent that owns the message its parentMessageId names.",
  "A step is finished by the agent that started it.",
  "Subagents start once and close once: SUBAGENT_STARTED names a new id (and a parentSubagentRunId that was started); SUBAGENT_FINISHED and SUBAGENT_ERROR name an active one.",
  "Every started subagent finishes (or errors) before RUN_FINISHED.",
];

/** ANSI styling, or none. */
export type Style = Record<
  "bold" | "dim" | "red" | "green" | "yellow" | "cyan",
  (text: string) => string
>;

export function style(color: boolean): Style {
  const sgr = (open: number, close: number) => (text: string) =>
    color ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    cyan: sgr(36, 39),
  };
}

/** Word-wraps `text` after `first`, which sets the indent of the lines that follow. */
export function wrap(first: string, text: string, width = 92): string {
  const lines: string[] = [];
  let line = first;
  for (const word of text.split(" ")) {
    if (line.length + word.length > width && line.length > first.length) {
      lines.push(line.trimEnd());
      line = " ".repeat(first.length);
    }
    line += `${word} `;
  }
  lines.push(line.trimEnd());
  return lines.join("\n");
}

/** What `--strict` adds to rule 0, in plain words. */
export const SCHEMA_IN_WORDS =
  "With --strict, every event also matches the AG-UI event schema (that of @ag-ui/core 1.0.0): a known type, every required field, and every field of the right JSON type with an allowed value.";

/** `Rule 3: <the rule in words>` (for `code`), wrapped, with the label styled. */
export function ruleLines(code: string, rule: number, s: Style, indent = "  "): string {
  const label = `Rule ${rule}:`;
  const words = code === "SCHEMA_MISMATCH" ? SCHEMA_IN_WORDS : (RULES_IN_WORDS[rule] ?? "");
  const text = wrap(`${indent}${label} `, words);
  return `${indent}${s.yellow(label)}${text.slice(indent.length + label.length)}`;
}

export const plural = (n: number, one: string, many = `${one}s`): string =>
  `${count(n)} ${n === 1 ? one : many}`;

/** `1,534 bytes (1.5 KiB)`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return plural(bytes, "byte");
  const [value, unit] =
    bytes < 1024 ** 2
      ? [bytes / 1024, "KiB"]
      : bytes < 1024 ** 3
        ? [bytes / 1024 ** 2, "MiB"]
        : [bytes / 1024 ** 3, "GiB"];
  return `${count(bytes)} bytes (${value.toFixed(1)} ${unit})`;
}

/** `12 ms`, `3.40 s`. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}
