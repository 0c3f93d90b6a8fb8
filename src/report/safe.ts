/**
 * What text from an input may look like on a terminal: control characters escaped, and
 * strings, lists, depths and lines bounded. Every piece of input text the reports show
 * (types, ids, messages, names, event previews) goes through here; library code, no I/O.
 * @module
 */

/**
 * `text` with every control character (C0 other than tab and LF, DEL, C1, so every ESC,
 * CSI and OSC sequence) written as `\xHH`, so that it reaches a terminal as text and not as
 * a command, and the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069, which make a line display in another order than it reads) as `\uHHHH`.
 * `lineFeeds: "escape"` (the default) writes LF as `\x0a` too, for text that must stay on
 * one line (names, ids, messages, stderr lines).
 */
export function escapeControls(text: string, lineFeeds: "keep" | "escape" = "escape"): string {
  const keep = lineFeeds === "keep" ? 10 : 9;
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 9 && c !== keep) || (c >= 0x7f && c <= 0x9f)) {
      out += `${text.slice(from, i)}\\x${c.toString(16).padStart(2, "0")}`;
      from = i + 1;
    } else if (isBidiControl(c)) {
      out += `${text.slice(from, i)}\\u${c.toString(16)}`;
      from = i + 1;
    }
  }
  return from === 0 ? text : out + text.slice(from);
}

/** U+202A–U+202E and U+2066–U+2069: what reorders the display of a line (Trojan Source). */
export const isBidiControl = (c: number): boolean =>
  (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);

export const count = (n: number): string => n.toLocaleString("en-US");

/** `text`, or its first `max` characters and its length when it is longer. */
export const clip = (text: string, max: number): string =>
  text.length <= max ? text : `${text.slice(0, max)}… (${count(text.length)} characters)`;

/** `text` clipped to `max` characters, then escaped to one line: how input text is shown. */
export const shown = (text: string, max: number): string => escapeControls(clip(text, max));

/** How much of a value {@link previewLines} and {@link previewLine} show. */
const STRING_MAX = 200;
const ARRAY_MAX = 20;
const KEYS_MAX = 50;
const DEPTH_MAX = 20;

interface Frame {
  readonly value: object;
  readonly keys: readonly string[] | undefined;
  readonly shown: number;
  readonly total: number;
  readonly depth: number;
  i: number;
}

/**
 * The pieces of `JSON.stringify(value, null, indent)` (indent 0: one line), with long
 * strings, long arrays and objects with many keys cut short and values nested deeper than
 * {@link DEPTH_MAX} shown as `[…]` or `{…}`. Lazy and without recursion, so a consumer
 * takes only what it shows, whatever the value's depth or size.
 */
function* pieces(value: unknown, indent: number): Generator<string, void, undefined> {
  const stack: Frame[] = [];
  const newline = (depth: number) => (indent === 0 ? "" : `\n${" ".repeat(indent * depth)}`);
  let next: unknown = value;
  let pending = true;
  for (;;) {
    if (pending) {
      pending = false;
      const v = next;
      const depth = stack.length;
      if (typeof v === "string") yield JSON.stringify(clip(v, STRING_MAX));
      else if (typeof v !== "object" || v === null) {
        yield typeof v === "number" || typeof v === "boolean" || v === null
          ? JSON.stringify(v)
          : clip(String(v), STRING_MAX);
      } else if (depth >= DEPTH_MAX) yield Array.isArray(v) ? "[…]" : "{…}";
      else if (Array.isArray(v)) {
        if (v.length === 0) yield "[]";
        else {
          yield "[";
          const shown = Math.min(v.length, ARRAY_MAX);
          stack.push({ value: v, keys: undefined, shown, total: v.length, depth, i: 0 });
        }
      } else {
        const keys = Object.keys(v);
        if (keys.length === 0) yield "{}";
        else {
          yield "{";
          const shown = Math.min(keys.length, KEYS_MAX);
          stack.push({ value: v, keys, shown, total: keys.length, depth, i: 0 });
        }
      }
      continue;
    }
    const top = stack[stack.length - 1];
    if (top === undefined) return;
    const array = top.keys === undefined;
    if (top.i < top.shown) {
      yield `${top.i > 0 ? "," : ""}${newline(top.depth + 1)}`;
      if (array) next = (top.value as unknown[])[top.i];
      else {
        const key = top.keys?.[top.i] ?? "";
        yield `${JSON.stringify(clip(key, STRING_MAX))}:${indent === 0 ? "" : " "}`;
        next = Reflect.get(top.value, key);
      }
      pending = true;
      top.i++;
      continue;
    }
    if (top.i === top.shown && top.total > top.shown) {
      const rest = count(top.total - top.shown);
      yield `,${newline(top.depth + 1)}`;
      yield array ? JSON.stringify(`… (${rest} more items)`) : `"…": "${rest} more keys"`;
      top.i++;
      continue;
    }
    yield `${newline(top.depth)}${array ? "]" : "}"}`;
    stack.pop();
  }
}

/**
 * `value` as one line of JSON of at most `width` characters (a longer one ends in `…`),
 * escaped for a terminal.
 */
export function previewLine(value: unknown, width: number): string {
  let text = "";
  try {
    for (const piece of pieces(value, 0)) {
      text += piece;
      if (text.length > width) break;
    }
  } catch {
    return "(cannot be shown)";
  }
  if (text.length > width) text = `${text.slice(0, width - 1)}…`;
  return escapeControls(text);
}

/** How many lines past the shown ones {@link previewLines} counts before it gives up. */
const COUNT_MAX = 10_000;

/**
 * `value` as indented JSON (two spaces), at most `maxLines` lines of it, and a last line
 * saying how many more there are; each line escaped for a terminal.
 */
export function previewLines(value: unknown, maxLines: number): string[] {
  const lines: string[] = [];
  let line = "";
  let more = 0;
  try {
    for (const piece of pieces(value, 2)) {
      const parts = piece.split("\n");
      for (const [i, part] of parts.entries()) {
        if (i > 0) {
          if (lines.length < maxLines) lines.push(line);
          else more++;
          line = "";
        }
        if (lines.length < maxLines) line += part;
      }
      if (more > COUNT_MAX) break;
    }
  } catch {
    return ["(cannot be shown)"];
  }
  if (lines.length < maxLines) lines.push(line);
  else more++;
  const shown = lines.map((l) => escapeControls(l));
  if (more > COUNT_MAX) shown.push(`… (more than ${count(COUNT_MAX)} more lines)`);
  else if (more > 0) shown.push(`… (${count(more)} more line${more === 1 ? "" : "s"})`);
  return shown;
}
