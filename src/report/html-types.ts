/**
 * The data the HTML report's page draws (SPEC §22), and its bounds: one input's runs,
 * lanes, bars and pinned findings as compact tuples, with the events each sits on.
 * Library code: no I/O.
 * @module
 */

import { wellFormed } from "./formats-shared.ts";
import { count } from "./safe.ts";

/** Inputs with more events than this show their first and last {@link KEEP} only. */
export const ELIDE_OVER = 20_000;
/** How many events an elided input keeps at each end. */
export const KEEP = 10_000;

/** The kinds of bar, in the order the page numbers them (`data-entity`). */
export const ENTITY_KINDS = ["text", "tool-call", "reasoning", "span", "step", "activity"] as const;

/** How many characters of an id, a name or a type the page shows. */
const MAX_ID = 1_000;

/** The elided indexes `[from, to)` of an input of `n` events, when there are any. */
export function elided(n: number): readonly [number, number] | undefined {
  return n > ELIDE_OVER ? [KEEP, n - KEEP] : undefined;
}

/** How a run ended: `open` when the input ended inside it. */
export type RunStatus = "finished" | "error" | "late-error" | "open";

/** `[from, to, status, runId]`: the run's first and last event. */
export type RunData = [number, number, RunStatus, string | null];
/**
 * `[run, parent, subagent, name, start, end, status, depth, rows]`: `parent` the lane this
 * one nests under (-1 for the run's parent lane), `subagent` null for the parent lane,
 * `start` and `end` its SUBAGENT_STARTED and terminal event (-1 when none), `rows` how many
 * rows of bars it stacks.
 */
export type LaneData = [
  number,
  number,
  string | null,
  string | null,
  number,
  number,
  string | null,
  number,
  number,
];
/** `[lane, kind, id, from, to, closed, row]`: `kind` indexes {@link ENTITY_KINDS}; `closed` 0 for an unclosed bar. */
export type BarData = [number, number, string, number, number, 0 | 1, number];
/**
 * `[code, severity (0 error, 1 warning), rule, index, lastIndex, count, eventType, field,
 * message, section, lane, line]`: pinned in `section` (see {@link InputModel.sec}) and
 * `lane` (-1: the section's first lane, or its strip).
 */
export type FindingData = [
  string,
  0 | 1,
  number | null,
  number,
  number,
  number,
  string | null,
  string | null,
  string,
  number,
  number,
  number | null,
];

/** One input's picture, without its events' JSON (which the page gets alongside). */
export interface InputModel {
  readonly name: string;
  readonly url: string | null;
  readonly valid: boolean;
  readonly errors: number;
  readonly warnings: number;
  readonly omitted: number;
  /** How many events the input had. */
  readonly events: number;
  readonly format: string | null;
  readonly bytes: number | null;
  /** The elided indexes `[from, to)`, or null. */
  readonly gap: readonly [number, number] | null;
  /** The event types shown, each once (the page's `ty` indexes them). */
  readonly types: string[];
  /**
   * Per shown event (indexes in order, the gap left out): its section, 2k for the strip
   * after k runs (events outside any run), 2k+1 for run k.
   */
  readonly sec: number[];
  /** Per shown event: its lane, or -1 (a strip). */
  readonly lane: number[];
  /** Per shown event: the bar it belongs to, or -1 (a tick). */
  readonly ent: number[];
  /** Per shown event: its type, an index into `types`. */
  readonly ty: number[];
  readonly runs: RunData[];
  readonly lanes: LaneData[];
  readonly bars: BarData[];
  readonly findings: FindingData[];
  /** Bars that lie wholly inside the gap (not drawn). */
  readonly elidedBars: number;
}

/** `text` with lone surrogates replaced, and clipped to `max` characters with its length. */
export function shownText(text: string, max = MAX_ID): string {
  if (text.length <= max) return wellFormed(text);
  const note = `… (${count(text.length)} characters)`;
  let end = max - note.length;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return wellFormed(text.slice(0, end) + note);
}
