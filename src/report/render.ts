/**
 * One input's report: a screen for people, one JSON object for programs.
 * @module
 */

import { SseDecodeFailure, type VerifyError } from "../errors.ts";
import { EVENT_TYPES } from "../events/index.ts";
import type { SsePosition } from "../sse/positions.ts";
import type { Format } from "./check.ts";
import { clip, count, escapeControls, previewLine, previewLines, shown } from "./safe.ts";
import type { RunOutcome, Seen, SubagentNode, Tally } from "./tally.ts";

export { count };

/** What was checked, and how it went. */
export interface Result {
  /** The file name as given, `-` for stdin, a HAR entry's name, or the URL. */
  readonly input: string;
  readonly format: Format | "url";
  readonly tally: Tally;
  readonly bytes: number;
  readonly durationMs: number;
  readonly error?: VerifyError | undefined;
  /** Where the offending message starts (the input's end for end-of-input errors). */
  readonly position?: SsePosition | undefined;
  /** SSE: a last message with no blank line after it, which SSE discards. */
  readonly unterminated?: SsePosition | undefined;
}

/** The `--json` object of one input (one NDJSON line per input when there are several). */
export interface Report {
  valid: boolean;
  input: string;
  format?: Format | "url";
  error?: {
    code: string;
    rule: number;
    index: number;
    field: string | null;
    eventType: string | null;
    message: string;
    line: number | null;
    offset: number | null;
  };
  counts?: {
    events: number;
    runs: number;
    byType: Record<string, number>;
    messages: number;
    toolCalls: number;
    reasoningMessages: number;
    steps: number;
    subagents: number;
  };
  outcome?: RunOutcome;
  bytes?: number;
  durationMs?: number;
  /** An input that could not be read (or a usage problem): what went wrong. */
  usageError?: string;
}

/** The rules 0–13 in plain words. */
export const RULES_IN_WORDS: readonly string[] = [
  "Every event is a JSON object with a string `type`, and every field the verifier reads is present when required, not null, and of the right JSON type.",
  "RUN_STARTED opens the stream, exactly once. Only RAW and CUSTOM may come before it, and a stream without one is incomplete.",
  "RUN_FINISHED or RUN_ERROR closes the run, and nothing may follow it. A stream that ends while its run is open was cut off.",
  "A text message opens with TEXT_MESSAGE_START, continues and ends by its messageId: content and end need an open message, and an open id cannot be started again.",
  "Tool calls (TOOL_CALL_*) and reasoning messages (REASONING_MESSAGE_*) open, continue and end by id, like text messages.",
  "A TOOL_CALL_RESULT may not answer a tool call that is still open (before its TOOL_CALL_END).",
  "STEP_FINISHED needs a matching STEP_STARTED, and a step cannot be started again while it is open.",
  "Everything open (text messages, tool calls, reasoning messages, steps) is closed before RUN_FINISHED.",
  "A RUN_FINISHED interrupt outcome carries at least one interrupt.",
  "An event tagged with a subagentRunId names the agent that owns the message, tool call, reasoning message or activity it is about (or carries no tag).",
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

/** An id or a code from the input, JSON-quoted, clipped and escaped. */
const q = (id: string | undefined): string =>
  id === undefined ? "(none)" : escapeControls(JSON.stringify(clip(id, 80)));

/** The longest input name shown (a HAR entry's name holds its URL). */
const NAME_MAX = 1000;
/** The most event types the table lists. */
const TYPES_MAX = 50;

function outcomeText(outcome: RunOutcome | undefined): string {
  if (outcome === undefined) return "still open";
  if (outcome.event === "RUN_ERROR") {
    const code = outcome.code === undefined ? "" : ` (code ${q(outcome.code)})`;
    return `RUN_ERROR${code}: ${shown(outcome.message ?? "", 200)}`;
  }
  const n = outcome.interrupts;
  return `RUN_FINISHED, ${outcome.type}${n === undefined ? "" : ` (${plural(n, "interrupt")})`}`;
}

const FORMAT_NAMES = { sse: "SSE", jsonl: "JSON Lines", url: "live SSE" } as const;
const at = (p: SsePosition): string => `line ${p.line}, byte offset ${p.offset}`;

const ORDER = new Map<string, number>(EVENT_TYPES.map((type, i) => [type, i]));

/** Types in the protocol's order, then unknown ones by name. */
function byType(tally: Tally): [string, number][] {
  const order = (t: string) => ORDER.get(t) ?? EVENT_TYPES.length;
  return [...tally.byType].sort(([a], [b]) => order(a) - order(b) || (a < b ? -1 : a > b ? 1 : 0));
}

function subagentLines(roots: readonly SubagentNode[], s: Style, budget: { left: number }) {
  const lines: string[] = [];
  const walk = (nodes: readonly SubagentNode[], prefix: string) => {
    nodes.forEach((node, i) => {
      if (budget.left-- <= 0) return;
      const last = i === nodes.length - 1;
      const status =
        node.status === "error"
          ? s.red("error")
          : node.status === "running"
            ? s.yellow("running")
            : node.status;
      const name = node.name === undefined ? "" : `${shown(node.name, 60)} `;
      lines.push(`${prefix}${last ? "└─ " : "├─ "}${name}${s.dim(q(node.id))}  ${status}`);
      walk(node.children, `${prefix}${last ? "   " : "│  "}`);
    });
  };
  walk(roots, "  ");
  return lines;
}

function summaryLines(result: Result, s: Style): string[] {
  const { tally } = result;
  const lines = tally.runs.slice(0, 5).map((run, i) => {
    const label = tally.runs.length === 1 ? "Run" : `Run ${i + 1}`;
    return `  ${label} ${q(run.runId)} (thread ${q(run.threadId)}): ${outcomeText(run.outcome)}`;
  });
  if (tally.runs.length > 5) lines.push(`  … and ${plural(tally.runs.length - 5, "more run")}`);
  const counts = [
    plural(tally.messages, "message"),
    plural(tally.toolCalls, "tool call"),
    plural(tally.reasoningMessages, "reasoning message"),
    plural(tally.steps, "step"),
    plural(tally.subagents, "subagent"),
  ];
  lines.push(`  ${plural(tally.events, "event")}: ${counts.join(" · ")}`);
  lines.push(`  ${formatBytes(result.bytes)} in ${formatDuration(result.durationMs)}`);
  const all = byType(tally);
  const types = all.slice(0, TYPES_MAX).map(([t, n]): [string, number] => [shown(t, 60), n]);
  const width = Math.max(0, ...types.map(([t]) => t.length));
  lines.push("", s.bold("Events by type"));
  if (types.length === 0) lines.push("  (none)");
  for (const [t, n] of types) lines.push(`  ${t.padEnd(width)}  ${count(n).padStart(5)}`);
  if (all.length > TYPES_MAX) lines.push(`  … and ${plural(all.length - TYPES_MAX, "more type")}`);
  if (tally.subagents > 0) {
    lines.push("", s.bold("Subagents"));
    const budget = { left: 15 };
    for (const [i, run] of tally.runs.entries()) {
      if (run.subagents.length === 0) continue;
      if (tally.runs.length > 1) lines.push(`  run ${i + 1} ${q(run.runId)}`);
      lines.push(...subagentLines(run.subagents, s, budget));
    }
    if (budget.left < 0) lines.push(`  … (${plural(tally.subagents - 15, "more subagent")})`);
  }
  return lines;
}

function recentLines(recent: readonly Seen[], s: Style): string[] {
  const indexWidth = Math.max(...recent.map((seen) => `#${seen.index}`.length));
  const lineWidth = Math.max(...recent.map((seen) => count(seen.position?.line ?? 0).length));
  return recent.map(({ index, event, position }) => {
    const where = position === undefined ? "" : `line ${count(position.line).padEnd(lineWidth)}  `;
    const { type, ...rest } = event;
    const fields = previewLine(rest, 80);
    return `    ${s.dim(`#${index}`.padEnd(indexWidth))}  ${s.dim(where)}${s.cyan(shown(String(type), 60))} ${fields}`;
  });
}

/** The data of a message that did not decode: its first 400 characters, 10 lines at most. */
function dataLines(event: SseDecodeFailure, format: Format | "url"): string[] {
  if (event.data === undefined) return ["    (longer than --max-buffer-size)"];
  const prefix = format === "jsonl" ? "" : "data: ";
  const all = clip(event.data, 400).split("\n");
  const lines = all.slice(0, 10).map((line) => `    ${prefix}${escapeControls(line)}`);
  if (all.length > 10) lines.push(`    … (${plural(all.length - 10, "more line")})`);
  return lines;
}

/** The report for people: a summary when the stream is valid, the violation explained otherwise. */
export function textReport(result: Result, s: Style): string {
  const { error, tally } = result;
  const what = `${shown(result.input, NAME_MAX)} ${s.dim(`(${FORMAT_NAMES[result.format]})`)}`;
  if (error === undefined) {
    return [`${s.green(s.bold("✔ valid"))}  ${what}`, ...summaryLines(result, s), ""].join("\n");
  }
  const message = shown(error.message, 4000);
  const lines = [`${s.red(s.bold("✘ invalid"))}  ${what}`, `  ${s.bold(message)}`, ""];
  lines.push(ruleLines(error.code, error.rule, s));
  const atEnd = error.event === undefined;
  const unit = result.format === "jsonl" ? "JSON line" : "SSE message";
  if (result.position !== undefined) {
    lines.push(
      atEnd
        ? `  At the end of the input: ${at(result.position)}.`
        : `  At ${at(result.position)}, where the offending ${unit} starts.`,
    );
  }
  if (atEnd && result.unterminated !== undefined) {
    const note = `the last SSE message (${at(result.unterminated)}) has no blank line after it, so SSE discards it.`;
    lines.push(`  ${s.yellow("Note:")}${wrap("  Note: ", note).slice(7)}`);
  }
  const recent = tally.recent ?? [];
  if (recent.length > 0) {
    const n = plural(recent.length, "event");
    lines.push("", atEnd ? `  The last ${n}:` : `  The ${n} before it:`, ...recentLines(recent, s));
  }
  const event = error.event;
  if (event instanceof SseDecodeFailure) {
    lines.push(
      "",
      `  The offending ${unit} (#${error.index}):`,
      ...dataLines(event, result.format),
    );
  } else if (!atEnd) {
    const pretty = previewLines(event, 40);
    lines.push("", `  The offending event (#${error.index}):`, ...pretty.map((l) => `    ${l}`));
  }
  const read = `Read ${formatBytes(result.bytes)} and ${plural(tally.events, "valid event")} in ${formatDuration(result.durationMs)}.`;
  lines.push("", s.dim(`  ${read}`), "");
  return lines.join("\n");
}

/** The report for programs (`--json`). */
export function jsonReport(result: Result): Report {
  const { error, tally } = result;
  const out: Report = { valid: error === undefined, input: result.input, format: result.format };
  if (error !== undefined) {
    out.error = {
      code: error.code,
      rule: error.rule,
      index: error.index,
      field: error.field ?? null,
      eventType: error.eventType ?? null,
      message: error.message,
      line: result.position?.line ?? null,
      offset: result.position?.offset ?? null,
    };
  }
  const types: Record<string, number> = {};
  for (const [t, n] of byType(tally))
    Object.defineProperty(types, t, { value: n, enumerable: true });
  out.counts = {
    events: tally.events,
    runs: tally.runs.length,
    byType: types,
    messages: tally.messages,
    toolCalls: tally.toolCalls,
    reasoningMessages: tally.reasoningMessages,
    steps: tally.steps,
    subagents: tally.subagents,
  };
  const outcome = tally.runs[tally.runs.length - 1]?.outcome;
  if (outcome !== undefined) out.outcome = outcome;
  out.bytes = result.bytes;
  out.durationMs = Math.round(result.durationMs * 100) / 100;
  return out;
}
