/**
 * The `ag-ui-verify` command's reports: a one-screen text for people and one JSON object
 * for programs, from the result of a check. Pure functions, web-standard only; the command
 * (src/cli.ts) prints them. Not part of the library's API.
 * @module
 */

import type { Position, RunOutcome, SubagentNode, Tally } from "./capture.ts";
import { SseDecodeFailure, type VerifyError } from "./errors.ts";
import { EVENT_TYPES, isAgUiEvent } from "./events.ts";

/** What was checked, and how it went. */
export interface CheckResult {
  /** The file name as given, `-` for stdin, or the URL. */
  readonly input: string;
  readonly format: "sse" | "jsonl" | "url";
  readonly tally: Tally;
  readonly bytes: number;
  readonly durationMs: number;
  /** The violation, if the stream broke a rule. */
  readonly error?: VerifyError | undefined;
  /** Files: where the offending message starts (the end of the input for end-of-input errors). */
  readonly position?: Position | undefined;
  /** SSE files: a final message with data but no blank line after it (discarded). */
  readonly unterminated?: Position | undefined;
}

/** The rules 0–13 in plain words (README "The rules"). */
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
export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

const sgr =
  (open: number, close: number) =>
  (text: string): string =>
    `\u001b[${open}m${text}\u001b[${close}m`;

/** Styles with ANSI colours, or plain text. */
export function style(color: boolean): Style {
  if (!color) {
    const plain = (text: string) => text;
    return { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain };
  }
  return {
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    cyan: sgr(36, 39),
  };
}

/** Word-wraps `text` after `first` (which sets the indent of the following lines). */
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

const count = (n: number): string => n.toLocaleString("en-US");

function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}

/** `1,534 bytes (1.5 KiB)`. */
export function formatBytes(bytes: number): string {
  const units = ["KiB", "MiB", "GiB"];
  let value = bytes;
  let unit = "";
  for (const u of units) {
    if (value < 1024) break;
    value /= 1024;
    unit = u;
  }
  return unit === ""
    ? plural(bytes, "byte")
    : `${count(bytes)} bytes (${value.toFixed(1)} ${unit})`;
}

/** `12 ms`, `3.40 s`. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

const FORMAT_NAMES = { sse: "SSE", jsonl: "JSON Lines", url: "live SSE" } as const;

function at(position: Position): string {
  return `line ${position.line}, byte offset ${position.offset}`;
}

function outcomeText(outcome: RunOutcome | undefined): string {
  if (outcome === undefined) return "still open";
  if (outcome.event === "RUN_ERROR") {
    const code = outcome.code === undefined ? "" : ` (code ${JSON.stringify(outcome.code)})`;
    return `RUN_ERROR${code}: ${clipString(outcome.message ?? "", 200)}`;
  }
  const interrupts =
    outcome.interrupts === undefined ? "" : ` (${plural(outcome.interrupts, "interrupt")})`;
  return `RUN_FINISHED, ${outcome.type}${interrupts}`;
}

function q(id: string | undefined): string {
  return id === undefined ? "(none)" : JSON.stringify(clipString(id, 80));
}

// Truncation ---------------------------------------------------------------------------

const MAX_STRING = 200;
const MAX_ITEMS = 20;
const MAX_DEPTH = 6;

function clipString(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${count(text.length)} characters)`;
}

/** A copy of a JSON value with long strings, long arrays and deep nesting cut short. */
export function clip(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return clipString(value, MAX_STRING);
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    if (depth >= MAX_DEPTH)
      return value.length === 0 ? [] : [`… (${plural(value.length, "item")})`];
    const items = value.slice(0, MAX_ITEMS).map((item) => clip(item, depth + 1));
    if (value.length > MAX_ITEMS) items.push(`… (${count(value.length - MAX_ITEMS)} more items)`);
    return items;
  }
  const keys = Object.keys(value);
  const out: Record<string, unknown> = {};
  const put = (key: string, v: unknown) =>
    Object.defineProperty(out, key, { value: v, enumerable: true, writable: true });
  if (depth >= MAX_DEPTH) {
    if (keys.length > 0) put("…", `${plural(keys.length, "key")}`);
    return out;
  }
  for (const key of keys.slice(0, MAX_ITEMS)) put(key, clip(Reflect.get(value, key), depth + 1));
  if (keys.length > MAX_ITEMS) put("…", `${count(keys.length - MAX_ITEMS)} more keys`);
  return out;
}

function oneLine(value: unknown, width: number): string {
  const text = JSON.stringify(clip(value)) ?? String(value);
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

const MAX_LINES = 40;

function pretty(value: unknown, indent: string): string {
  const lines = (JSON.stringify(clip(value), null, 2) ?? String(value)).split("\n");
  if (lines.length > MAX_LINES) {
    const more = lines.length - MAX_LINES;
    lines.length = MAX_LINES;
    lines.push(`… (${plural(more, "more line")})`);
  }
  return lines.map((line) => indent + line).join("\n");
}

function eventLine(
  index: number,
  event: unknown,
  position: Position | undefined,
  s: Style,
  width: { index: number; line: number },
) {
  const where = position === undefined ? "" : `line ${count(position.line).padEnd(width.line)}  `;
  let type: string | undefined;
  let rest: string;
  if (isAgUiEvent(event)) {
    type = event.type;
    rest = oneLine(Object.fromEntries(Object.entries(event).filter(([k]) => k !== "type")), 80);
  } else rest = oneLine(event, 80);
  return `    ${s.dim(`#${index}`.padEnd(width.index))}  ${s.dim(where)}${type === undefined ? "" : `${s.cyan(type)} `}${rest}`;
}

// Text ---------------------------------------------------------------------------------

function typeOrder(a: string, b: string): number {
  const ia = (EVENT_TYPES as readonly string[]).indexOf(a);
  const ib = (EVENT_TYPES as readonly string[]).indexOf(b);
  if (ia !== -1 && ib !== -1) return ia - ib;
  if (ia !== -1) return -1;
  if (ib !== -1) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function byTypeLines(tally: Tally): string[] {
  const entries = [...tally.byType].sort(([a], [b]) => typeOrder(a, b));
  if (entries.length === 0) return ["  (none)"];
  const nameWidth = Math.max(...entries.map(([t]) => t.length));
  const numWidth = Math.max(...entries.map(([, n]) => count(n).length));
  const cells = entries.map(([t, n]) => `${t.padEnd(nameWidth)}  ${count(n).padStart(numWidth)}`);
  if (cells.length <= 8) return cells.map((cell) => `  ${cell}`);
  const half = Math.ceil(cells.length / 2);
  const lines: string[] = [];
  for (let i = 0; i < half; i++) {
    const right = cells[i + half];
    lines.push(`  ${cells[i]}${right === undefined ? "" : `    ${right}`}`);
  }
  return lines;
}

const MAX_TREE_LINES = 15;

function treeLines(roots: readonly SubagentNode[], s: Style, budget: { left: number }): string[] {
  const lines: string[] = [];
  const walk = (nodes: readonly SubagentNode[], prefix: string) => {
    nodes.forEach((node, i) => {
      if (budget.left <= 0) return;
      budget.left--;
      const last = i === nodes.length - 1;
      const status =
        node.status === "error"
          ? s.red(node.status)
          : node.status === "running"
            ? s.yellow(node.status)
            : node.status;
      const name = node.name === undefined ? "" : `${clipString(node.name, 60)} `;
      lines.push(`${prefix}${last ? "└─ " : "├─ "}${name}${s.dim(q(node.id))}  ${status}`);
      walk(node.children, `${prefix}${last ? "   " : "│  "}`);
    });
  };
  walk(roots, "  ");
  return lines;
}

function countsLine(tally: Tally): string {
  return [
    plural(tally.messages, "message"),
    plural(tally.toolCalls, "tool call"),
    plural(tally.reasoningMessages, "reasoning message"),
    plural(tally.steps, "step"),
    plural(tally.subagents, "subagent"),
  ].join(" · ");
}

function summaryLines(result: CheckResult, s: Style): string[] {
  const { tally } = result;
  const lines: string[] = [];
  const shown = tally.runs.slice(0, 5);
  for (const [i, run] of shown.entries()) {
    const label = tally.runs.length === 1 ? "Run" : `Run ${i + 1}`;
    lines.push(
      `  ${label} ${q(run.runId)} (thread ${q(run.threadId)}): ${outcomeText(run.outcome)}`,
    );
  }
  if (tally.runs.length > shown.length) {
    lines.push(`  … and ${plural(tally.runs.length - shown.length, "more run")}`);
  }
  lines.push(`  ${plural(tally.events, "event")}: ${countsLine(tally)}`);
  lines.push(`  ${formatBytes(result.bytes)} in ${formatDuration(result.durationMs)}`);
  lines.push("", s.bold("Events by type"), ...byTypeLines(tally));
  if (tally.subagents > 0) {
    lines.push("", s.bold("Subagents"));
    const budget = { left: MAX_TREE_LINES };
    for (const [i, run] of tally.runs.entries()) {
      if (run.subagents.length === 0) continue;
      if (tally.runs.length > 1) lines.push(`  run ${i + 1} ${q(run.runId)}`);
      lines.push(...treeLines(run.subagents, s, budget));
    }
    if (budget.left <= 0 && tally.subagents > MAX_TREE_LINES) {
      lines.push(`  … (${plural(tally.subagents - MAX_TREE_LINES, "more subagent")})`);
    }
  }
  return lines;
}

/** The report for people: a summary when the stream is valid, the violation explained otherwise. */
export function textReport(result: CheckResult, s: Style): string {
  const { error, tally } = result;
  const what = `${result.input} ${s.dim(`(${FORMAT_NAMES[result.format]})`)}`;
  if (error === undefined) {
    return [`${s.green(s.bold("✔ valid"))}  ${what}`, ...summaryLines(result, s), ""].join("\n");
  }
  const lines = [`${s.red(s.bold("✘ invalid"))}  ${what}`, `  ${s.bold(error.message)}`, ""];
  const rule = `Rule ${error.rule}: `;
  const words = wrap(`  ${rule}`, RULES_IN_WORDS[error.rule] ?? "");
  lines.push(`  ${s.yellow(rule.trimEnd())} ${words.slice(rule.length + 2)}`);
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
    const note = wrap(
      "  Note: ",
      `the last SSE message (${at(result.unterminated)}) has no blank line after it, so SSE discards it.`,
    );
    lines.push(`  ${s.yellow("Note:")}${note.slice(7)}`);
  }
  const recent = tally.recent;
  if (recent.length > 0) {
    lines.push(
      "",
      atEnd
        ? `  The last ${plural(recent.length, "event")}:`
        : `  The ${plural(recent.length, "event")} before it:`,
    );
    const width = {
      index: Math.max(...recent.map((seen) => `#${seen.index}`.length)),
      line: Math.max(...recent.map((seen) => count(seen.position?.line ?? 0).length)),
    };
    for (const seen of recent) {
      lines.push(eventLine(seen.index, seen.event, seen.position, s, width));
    }
  }
  if (!atEnd) {
    const event = error.event;
    if (event instanceof SseDecodeFailure) {
      lines.push("", `  The offending ${unit} (#${error.index}):`);
      lines.push(
        event.data === undefined
          ? "    (longer than --max-buffer-size)"
          : `    ${result.format === "jsonl" ? "" : "data: "}${clipString(event.data, 400)}`,
      );
    } else {
      lines.push("", `  The offending event (#${error.index}):`, pretty(event, "    "));
    }
  }
  lines.push(
    "",
    s.dim(
      `  Read ${formatBytes(result.bytes)} and ${plural(tally.events, "valid event")} in ${formatDuration(result.durationMs)}.`,
    ),
    "",
  );
  return lines.join("\n");
}

/** The report for programs (`--json`). */
export function jsonReport(result: CheckResult): Record<string, unknown> {
  const { error, tally } = result;
  const out: Record<string, unknown> = {
    valid: error === undefined,
    input: result.input,
    format: result.format,
  };
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
  const byType: Record<string, number> = {};
  for (const [type, n] of [...tally.byType].sort(([a], [b]) => typeOrder(a, b))) {
    Object.defineProperty(byType, type, { value: n, enumerable: true, writable: true });
  }
  out.counts = {
    events: tally.events,
    runs: tally.runs.length,
    byType,
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
