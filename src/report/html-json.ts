/**
 * Events as the HTML report embeds them: JSON text of a bounded copy (long strings clipped,
 * long arrays and objects cut, deep values elided), within a budget of page characters,
 * so that any capture renders and the page stays within twice the input's size (SPEC §22).
 * Library code: no I/O.
 * @module
 */

import { SseDecodeFailure } from "../errors.ts";
import { wellFormed } from "./formats-shared.ts";
import { count, isBidiControl } from "./safe.ts";

/** How much of one value the report shows. */
export const LIMITS = {
  /** Characters of a string, its clip note included. */
  string: 2_000,
  /** Characters of an object key. */
  key: 200,
  /** Items of an array, its "more items" note included. */
  items: 200,
  /** Keys of an object, its "more keys" note included. */
  keys: 200,
  /** Nesting: a container deeper than this is shown as "[…]" or "{…}". */
  depth: 20,
  /** Page characters of one event's JSON (each `<` counts 6: it is written `\u003c`; see {@link escapedInPage}). */
  event: 64 * 1024,
} as const;

/** What a budget cut leaves in place of the members it drops. */
const CUT = "… (cut: too large to show)";

/**
 * Whether the page writes this character as a `\uHHHH` escape in its data: `<` (so the
 * data cannot end its script element), U+2028, U+2029 and the bidirectional controls (so
 * its source reads as it is).
 */
export const escapedInPage = (c: number): boolean =>
  c === 0x3c || c === 0x2028 || c === 0x2029 || isBidiControl(c);

/** `json` as the page holds it: each character {@link escapedInPage} as `\uHHHH`. */
export const pageJson = (json: string): string =>
  json.replace(
    /[<\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );

/** Page characters of `text`: its length, and 5 more for each character {@link escapedInPage}. */
export function pageCost(text: string): number {
  let cost = text.length;
  for (let i = 0; i < text.length; i++) if (escapedInPage(text.charCodeAt(i))) cost += 5;
  return cost;
}

/** The longest prefix of `text` of at most `max` characters and `maxCost` page characters, not splitting a surrogate pair. */
function prefix(text: string, max: number, maxCost: number): string {
  let end = 0;
  let used = 0;
  const limit = Math.min(text.length, max);
  while (end < limit) {
    const step = escapedInPage(text.charCodeAt(end)) ? 6 : 1;
    if (used + step > maxCost) break;
    used += step;
    end++;
  }
  const last = text.charCodeAt(end - 1);
  if (end > 0 && end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end);
}

/** The note a clipped string ends with. */
const CLIP_NOTE = /… \(([\d,]+) characters\)$/;

/**
 * `text` as a JSON string literal of at most `max` characters of content and about
 * `maxCost` page characters: a longer one keeps its start and says how long it was. The
 * clipped literal is never clipped again (its content fits `max`).
 */
export function clippedLiteral(
  text: string,
  max: number,
  maxCost = Number.POSITIVE_INFINITY,
): string {
  if (text.length <= max && pageCost(text) + 2 <= maxCost) return JSON.stringify(wellFormed(text));
  // Clipped before (the command keeps events clipped): still the original length.
  const before = CLIP_NOTE.exec(text);
  const body = before === null ? text : text.slice(0, before.index);
  const note = `… (${before?.[1] ?? count(text.length)} characters)`;
  const kept = prefix(body, Math.max(max - note.length, 0), Math.max(maxCost - note.length - 2, 0));
  return JSON.stringify(wellFormed(kept + note));
}

/** A container being written. */
interface Frame {
  readonly array: boolean;
  readonly value: object;
  readonly keys: readonly string[] | undefined;
  /** Members written in full (a note takes the place of the rest). */
  readonly shown: number;
  readonly total: number;
  i: number;
}

/** A non-container value's JSON text (strings are the caller's). */
function scalar(value: unknown): string {
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "bigint") return JSON.stringify(`${value}n`);
  return "null"; // null, undefined, a function, a symbol
}

/**
 * The JSON text of `value`, bounded: strings clipped to {@link LIMITS}`.string`, arrays and
 * objects cut to {@link LIMITS}`.items` and `.keys` (a last member saying how many more),
 * containers deeper than {@link LIMITS}`.depth` written as `"[…]"` / `"{…}"`, and, once
 * `budget` page characters are written, every remaining member of every open container
 * replaced by one note. Always valid JSON; without recursion, so any depth is safe; an SSE
 * message that was not JSON is its data, as a string.
 */
export function boundedJson(value: unknown, budget: number = LIMITS.event): string {
  const parts: string[] = [];
  let used = 0;
  const put = (text: string, cost = text.length): void => {
    parts.push(text);
    used += cost;
  };
  const stack: Frame[] = [];
  /** Writes `v` at the current depth: a scalar at once, a container's opening. */
  const start = (v: unknown): void => {
    if (v instanceof SseDecodeFailure) v = v.data ?? `(${v.code})`;
    if (typeof v === "string") {
      const literal = clippedLiteral(v, LIMITS.string, Math.max(budget - used, 40));
      put(literal, pageCost(literal));
      return;
    }
    if (typeof v !== "object" || v === null) {
      put(scalar(v));
      return;
    }
    const array = Array.isArray(v);
    if (stack.length >= LIMITS.depth) {
      put(array ? '"[…]"' : '"{…}"');
      return;
    }
    const keys = array ? undefined : Object.keys(v);
    const total = array ? (v as unknown[]).length : (keys?.length ?? 0);
    const max = array ? LIMITS.items : LIMITS.keys;
    const shown = total <= max ? total : max - 1;
    put(array ? "[" : "{");
    stack.push({ array, value: v, keys, shown, total, i: 0 });
  };
  try {
    start(value);
    for (let top = stack.at(-1); top !== undefined; top = stack.at(-1)) {
      const { array, i } = top;
      if (i >= top.total || (i > top.shown && top.shown < top.total)) {
        put(array ? "]" : "}");
        stack.pop();
        continue;
      }
      if (i > 0) put(",");
      top.i++;
      if (used >= budget) {
        // Out of budget: one note for the rest of this container.
        top.i = top.total;
        put(array ? JSON.stringify(CUT) : `"…":${JSON.stringify(CUT)}`);
        continue;
      }
      if (i === top.shown) {
        const more = count(top.total - top.shown);
        put(array ? `"… (${more} more items)"` : `"…":"${more} more keys"`);
        continue;
      }
      if (array) {
        start((top.value as unknown[])[i]);
        continue;
      }
      const key = top.keys?.[i] ?? "";
      const literal = clippedLiteral(key, LIMITS.key);
      put(`${literal}:`, pageCost(literal) + 1);
      start(Reflect.get(top.value, key));
    }
  } catch {
    // A getter or a proxy trap that throws (values from JSON have none).
    return JSON.stringify("(cannot be shown)");
  }
  return parts.join("");
}

/**
 * About how many characters `value`'s compact JSON has, counting up to `cap` (a larger
 * value stops being measured there): the yardstick of an event's page budget.
 */
export function measure(value: unknown, cap: number): number {
  let size = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0 && size <= cap) {
    const v = pending.pop();
    if (v instanceof SseDecodeFailure) size += (v.data?.length ?? 0) + 2;
    else if (typeof v === "string") size += v.length + 2;
    else if (typeof v !== "object" || v === null) size += scalar(v).length;
    else if (Array.isArray(v)) {
      size += 1 + Math.max(v.length, 1);
      for (let i = v.length - 1; i >= 0 && pending.length <= cap; i--) pending.push(v[i]);
    } else {
      const keys = Object.keys(v);
      size += 1 + Math.max(keys.length, 1);
      for (const key of keys) {
        size += key.length + 3;
        if (size > cap) break;
        pending.push(Reflect.get(v, key));
      }
    }
  }
  return size;
}

/**
 * One event's embedded JSON: {@link boundedJson} within twice its own size (and at most
 * {@link LIMITS}`.event`), so markup-heavy strings, whose every `<` takes six characters
 * in the page, are clipped before they outgrow the input.
 */
export function eventJson(value: unknown): string {
  try {
    const size = measure(value, LIMITS.event);
    return boundedJson(value, Math.min(LIMITS.event, 2 * size + 32));
  } catch {
    return JSON.stringify("(cannot be shown)");
  }
}

/**
 * A bounded copy of an event (what {@link eventJson} shows of it, as a value): what the
 * command keeps of each event it may show, so that memory stays bounded and the copy can
 * be handed between threads.
 */
export function boundedCopy(value: unknown): unknown {
  return JSON.parse(boundedJson(value));
}
