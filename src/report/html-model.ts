/**
 * What the HTML report draws for one input (SPEC §22), as plain data: its runs, a lane per
 * agent in each run (the parent, and each subagent nested under the one that started it),
 * a bar per message, tool call, reasoning message, span, step and activity from the event
 * that opened it to the one that closed it, where each event sits, and where each finding
 * is pinned. Beyond 20,000 events the middle is elided. Library code: no I/O.
 *
 * The picture draws the stream as it was sent, the findings pinned on it say what the rules
 * reject: a run starts at a RUN_STARTED outside a run and ends at its RUN_FINISHED or
 * RUN_ERROR (what is still open then ends with it, unclosed); a start opens an id that is
 * not open, an end closes one that is; chunks, results, state, raw and custom events open
 * and close nothing. A run's events belong to the lane of their subagent tag, a bar's to
 * the bar's lane (a tool call without a tag: its parent message's).
 * @module
 */

import { SseDecodeFailure } from "../errors.ts";
import type { LintReport } from "../lint/types.ts";
import {
  type BarData,
  elided,
  type FindingData,
  type InputModel,
  type LaneData,
  type RunData,
  type RunStatus,
  shownText,
} from "./html-types.ts";

/** How many rows of bars one lane stacks; more overlap in the last one. */
const MAX_ROWS = 32;

/** A string property of an event object, or undefined. */
function prop(event: object, key: string): string | undefined {
  const value: unknown = Reflect.get(event, key);
  return typeof value === "string" ? value : undefined;
}

/**
 * The type column of a value: its `type`, or what it is instead. `notJson`: the report has
 * an INVALID_JSON finding over this index (what the command keeps of such a message is its
 * data, a string).
 */
function typeName(event: unknown, notJson: boolean): string {
  if (event instanceof SseDecodeFailure) {
    return event.code === "INVALID_JSON" ? "(not JSON)" : `(${event.code})`;
  }
  if (typeof event === "string" && notJson) return "(not JSON)";
  if (typeof event !== "object" || event === null || Array.isArray(event)) {
    return "(not an object)";
  }
  const type: unknown = Reflect.get(event, "type");
  return typeof type === "string" ? shownText(type, 200) : "(no type)";
}

/** Types whose `subagentRunId` the protocol does not define (SPEC §3.1). */
const UNTAGGED = new Set(["RUN_STARTED", "RUN_FINISHED", "RUN_ERROR", "MESSAGES_SNAPSHOT"]);

/** The bar kind, the id field and the role of each event type that opens, continues or closes one. */
const ROLES: { readonly [type: string]: readonly [number, string, "open" | "on" | "close"] } = {
  TEXT_MESSAGE_START: [0, "messageId", "open"],
  TEXT_MESSAGE_CONTENT: [0, "messageId", "on"],
  TEXT_MESSAGE_END: [0, "messageId", "close"],
  TOOL_CALL_START: [1, "toolCallId", "open"],
  TOOL_CALL_ARGS: [1, "toolCallId", "on"],
  TOOL_CALL_END: [1, "toolCallId", "close"],
  REASONING_MESSAGE_START: [2, "messageId", "open"],
  REASONING_MESSAGE_CONTENT: [2, "messageId", "on"],
  REASONING_MESSAGE_END: [2, "messageId", "close"],
  REASONING_START: [3, "messageId", "open"],
  REASONING_END: [3, "messageId", "close"],
  STEP_STARTED: [4, "stepName", "open"],
  STEP_FINISHED: [4, "stepName", "close"],
  ACTIVITY_SNAPSHOT: [5, "messageId", "open"],
  ACTIVITY_DELTA: [5, "messageId", "on"],
};
const ACTIVITY = 5;
const SUBAGENT_TYPES = new Set(["SUBAGENT_STARTED", "SUBAGENT_FINISHED", "SUBAGENT_ERROR"]);
const STEP = 4;
const TEXT = 0;

/** The fields a stand-in keeps: what {@link Timeline} reads. */
const STUB_FIELDS = [
  "messageId",
  "toolCallId",
  "stepName",
  "subagentRunId",
  "parentMessageId",
  "parentSubagentRunId",
  "runId",
  "name",
];

/**
 * What the timeline needs of an event it will not show: for one that opens or closes a
 * run, a bar or a subagent, its type and the string fields that key it; for any other,
 * undefined (nothing). The command keeps these for the elided part of a long input.
 */
export function stubOf(event: unknown): object | undefined {
  if (typeof event !== "object" || event === null || event instanceof SseDecodeFailure) {
    return undefined;
  }
  const type = prop(event, "type");
  if (type === undefined) return undefined;
  const role = ROLES[type];
  if (
    !type.startsWith("RUN_") &&
    !SUBAGENT_TYPES.has(type) &&
    (role === undefined || (role[2] === "on" && role[0] !== ACTIVITY))
  ) {
    return undefined;
  }
  const stub: Record<string, string> = { type };
  for (const key of STUB_FIELDS) {
    const value = prop(event, key);
    if (value !== undefined) stub[key] = value;
  }
  return stub;
}

interface Bar {
  lane: number;
  kind: number;
  id: string;
  from: number;
  to: number;
  closed: boolean;
}

interface Lane {
  run: number;
  sub: string | undefined;
  parent: number;
  name: string | undefined;
  start: number;
  end: number;
  status: string | undefined;
}

/** Reads the events in order and builds the picture; {@link InputModel} at the end. */
class Timeline {
  readonly runs: RunData[] = [];
  readonly lanes: Lane[] = [];
  readonly bars: Bar[] = [];
  readonly sec: number[] = [];
  readonly lane: number[] = [];
  readonly ent: number[] = [];
  readonly ty: number[] = [];
  readonly types: string[] = [];
  readonly #typeIndex = new Map<string, number>();
  readonly #gap: readonly [number, number] | undefined;
  /** The index ranges of the INVALID_JSON findings. */
  readonly #notJson: (readonly [number, number])[];
  /** "before" a run, "running", or the way the last run closed. */
  #phase: "before" | "running" | "finished" | "failed" = "before";
  /** Per run: the lane of each subagent id, the open bars, the lane of each text message. */
  #laneOf = new Map<string, number>();
  #open = new Map<string, number>();
  #messageLane = new Map<string, number>();
  #parentLane = -1;
  /** Per run: its parent lane. */
  readonly #runLane: number[] = [];
  /** Since the last run closed, whether an event sat outside it. */
  #outside = false;
  elidedBars = 0;
  /** Bar indexes in `bars` (bars wholly in the gap are dropped, and so not numbered). */
  readonly #kept: number[] = [];

  constructor(gap: readonly [number, number] | undefined, report: LintReport) {
    this.#gap = gap;
    this.#notJson = report.findings
      .filter((f) => f.code === "INVALID_JSON")
      .map((f) => [f.index, f.lastIndex] as const);
  }

  #shown(i: number): boolean {
    const gap = this.#gap;
    return gap === undefined || i < gap[0] || i >= gap[1];
  }

  /** Where event `i` sits: its section, lane and bar. */
  #place(i: number, event: unknown, lane: number, bar: number): void {
    if (!this.#shown(i)) return;
    const section =
      this.#phase === "running" || (this.#phase !== "before" && this.runs.at(-1)?.[1] === i)
        ? 2 * this.runs.length - 1
        : 2 * this.runs.length;
    const notJson =
      typeof event === "string" && this.#notJson.some(([from, to]) => from <= i && i <= to);
    const type = typeName(event, notJson);
    let t = this.#typeIndex.get(type);
    if (t === undefined) {
      t = this.types.length;
      this.types.push(type);
      this.#typeIndex.set(type, t);
    }
    this.sec.push(section);
    this.lane.push(section % 2 === 0 ? -1 : lane);
    this.ent.push(bar);
    this.ty.push(t);
  }

  /** A new lane in the current run: the parent's (`sub` undefined) or a subagent's. */
  #newLane(sub: string | undefined, parent: number): number {
    const run = this.runs.length - 1;
    this.lanes.push({ run, sub, parent, name: undefined, start: -1, end: -1, status: undefined });
    const lane = this.lanes.length - 1;
    if (sub !== undefined) this.#laneOf.set(sub, lane);
    return lane;
  }

  /** The lane of subagent `sub` (the parent's when undefined), made on first sight. */
  #laneFor(sub: string | undefined): number {
    if (sub === undefined) return this.#parentLane;
    return this.#laneOf.get(sub) ?? this.#newLane(sub, this.#parentLane);
  }

  #startRun(i: number, status: RunStatus, runId: string | undefined): void {
    this.runs.push([i, i, status, runId === undefined ? null : shownText(runId, 200)]);
    this.#laneOf = new Map();
    this.#open = new Map();
    this.#messageLane = new Map();
    this.#parentLane = this.#newLane(undefined, -1);
    this.#runLane.push(this.#parentLane);
    this.#outside = false;
  }

  /** Ends the current run at `i`: what is still open ends there, unclosed. */
  #endRun(i: number, status: RunStatus): void {
    const run = this.runs.at(-1);
    if (run === undefined) return;
    run[1] = i;
    run[2] = status;
    this.#endOpen(i);
  }

  /** What is open ends at `to` (an activity, which has no end, at its last event). */
  #endOpen(to: number): void {
    for (const b of this.#open.values()) {
      const bar = this.bars[b];
      if (bar === undefined) continue;
      if (bar.kind !== ACTIVITY) bar.to = to;
      this.#settle(b);
    }
    this.#open.clear();
  }

  /** A bar is complete: one wholly inside the gap is dropped. */
  #settle(b: number): void {
    const bar = this.bars[b];
    const gap = this.#gap;
    if (bar === undefined || gap === undefined) return;
    if (bar.from >= gap[0] && bar.to < gap[1]) {
      this.elidedBars++;
      this.#kept[b] = -1;
    }
  }

  push(i: number, event: unknown): void {
    const object =
      typeof event === "object" &&
      event !== null &&
      !Array.isArray(event) &&
      !(event instanceof SseDecodeFailure);
    const type = object ? prop(event, "type") : undefined;
    if (!object || type === undefined) {
      this.#tick(i, event, undefined);
      return;
    }
    if (type === "RUN_STARTED") {
      if (this.#phase === "running") this.#tick(i, event, undefined);
      else {
        this.#phase = "running";
        this.#startRun(i, "open", prop(event, "runId"));
        this.#place(i, event, this.#parentLane, -1);
      }
      return;
    }
    if (type === "RUN_FINISHED" || type === "RUN_ERROR") {
      this.#close(i, event, type);
      return;
    }
    if (this.#phase !== "running") {
      this.#tick(i, event, undefined);
      return;
    }
    const tag = UNTAGGED.has(type) ? undefined : prop(event, "subagentRunId");
    if (SUBAGENT_TYPES.has(type) && tag !== undefined) {
      this.#subagent(i, event, type, tag);
      return;
    }
    const role = ROLES[type];
    const id = role === undefined ? undefined : prop(event, role[1]);
    if (role === undefined || id === undefined) {
      this.#tick(i, event, tag);
      return;
    }
    const [kind, , what] = role;
    let lane = this.#laneFor(tag);
    if (kind === 1 && tag === undefined) {
      const parent = prop(event, "parentMessageId");
      lane = (parent === undefined ? undefined : this.#messageLane.get(parent)) ?? lane;
    }
    // Ids are unique within a kind; a step is known by its owner and name (rule 11).
    const key = kind === STEP ? `${kind}:${lane}:${id}` : `${kind}:${id}`;
    const open = this.#open.get(key);
    if (what === "open" && open === undefined) {
      this.bars.push({ lane, kind, id, from: i, to: i, closed: kind === ACTIVITY });
      this.#kept.push(0);
      this.#open.set(key, this.bars.length - 1);
      if (kind === TEXT) this.#messageLane.set(id, lane);
      this.#place(i, event, lane, this.bars.length - 1);
      return;
    }
    const bar = open === undefined ? undefined : this.bars[open];
    if (open === undefined || bar === undefined || (what === "open" && kind !== ACTIVITY)) {
      this.#tick(i, event, tag);
      return;
    }
    bar.to = i;
    if (what === "close") {
      bar.closed = true;
      this.#open.delete(key);
      this.#settle(open);
    }
    this.#place(i, event, bar.lane, open);
  }

  /** An event that opens, continues and closes nothing: a tick in its lane. */
  #tick(i: number, event: unknown, tag: string | undefined): void {
    if (this.#phase !== "running" || this.runs.length === 0) {
      if (this.#phase !== "before") this.#outside = true;
      this.#place(i, event, -1, -1);
      return;
    }
    this.#place(i, event, this.#laneFor(tag), -1);
  }

  #close(i: number, event: unknown, type: "RUN_FINISHED" | "RUN_ERROR"): void {
    if (this.#phase === "running") {
      this.#phase = type === "RUN_FINISHED" ? "finished" : "failed";
      this.#endRun(i, type === "RUN_FINISHED" ? "finished" : "error");
      this.#place(i, event, this.#parentLane, -1);
      return;
    }
    if (type === "RUN_ERROR" && this.#phase === "before") {
      // A run that failed before it began (SPEC §9.8).
      this.#startRun(i, "error", undefined);
      this.#phase = "failed";
      this.#place(i, event, this.#parentLane, -1);
      return;
    }
    const run = this.runs.at(-1);
    if (type === "RUN_ERROR" && this.#phase === "finished" && run !== undefined) {
      // A late failure of the finished run: the run's, when nothing came in between.
      this.#phase = "failed";
      run[2] = "late-error";
      if (!this.#outside) run[1] = i;
    }
    this.#tick(i, event, undefined);
  }

  #subagent(i: number, event: object, type: string, id: string): void {
    const lane = this.#laneFor(id);
    const entry = this.lanes[lane];
    if (entry !== undefined && type === "SUBAGENT_STARTED" && entry.start === -1) {
      entry.start = i;
      const name = prop(event, "name");
      if (name !== undefined) entry.name = shownText(name, 200);
      const parent = prop(event, "parentSubagentRunId");
      if (parent !== undefined && parent !== id) {
        const up = this.#laneFor(parent);
        if (!this.#within(up, lane)) entry.parent = up;
      }
    } else if (entry !== undefined && type !== "SUBAGENT_STARTED" && entry.end === -1) {
      entry.end = i;
      entry.status = type === "SUBAGENT_ERROR" ? "error" : "finished";
    }
    this.#place(i, event, lane, -1);
  }

  /** Whether lane `a` is `b` or nested (at any depth) under it. */
  #within(a: number, b: number): boolean {
    for (let at = a, steps = 0; at !== -1 && steps <= this.lanes.length; steps++) {
      if (at === b) return true;
      at = this.lanes[at]?.parent ?? -1;
    }
    return false;
  }

  /** The end of input: a run still open runs to it, and so does what is open in it. */
  end(n: number): void {
    if (this.#phase !== "running") return;
    const run = this.runs.at(-1);
    if (run === undefined) return;
    this.#endOpen(n);
    run[1] = Math.max(n - 1, run[0]);
    run[2] = "open";
  }

  /** The section and lane where index `i` of an input of `n` events is pinned. */
  pin(i: number, n: number, shownAt: (i: number) => number): [number, number] {
    const runs = this.runs;
    if (i >= n) {
      return runs.length === 0 ? [0, -1] : [2 * runs.length - 1, this.#runLane.at(-1) ?? -1];
    }
    const at = shownAt(i);
    if (at !== -1) return [this.sec[at] ?? 0, this.lane[at] ?? -1];
    // In the gap: the run around it, or the strip between runs.
    let lo = 0;
    let hi = runs.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((runs[mid]?.[0] ?? 0) <= i) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (found !== -1 && (runs[found]?.[1] ?? -1) >= i) {
      return [2 * found + 1, this.#runLane[found] ?? -1];
    }
    return [2 * (found + 1), -1];
  }

  /** The lanes and bars as the page gets them: bars numbered anew, rows stacked. */
  data(): { lanes: LaneData[]; bars: BarData[] } {
    const renumber: number[] = [];
    const bars: BarData[] = [];
    const rowEnds = this.lanes.map((): number[] => []);
    for (const [b, bar] of this.bars.entries()) {
      if (this.#kept[b] === -1) {
        renumber.push(-1);
        continue;
      }
      renumber.push(bars.length);
      const ends = rowEnds[bar.lane] ?? [];
      let row = ends.findIndex((end) => end < bar.from);
      if (row === -1 && ends.length < MAX_ROWS) row = ends.length;
      if (row === -1) row = ends.length - 1;
      ends[row] = Math.max(bar.to, ends[row] ?? -1);
      const id = shownText(bar.id);
      bars.push([bar.lane, bar.kind, id, bar.from, bar.to, bar.closed ? 1 : 0, row]);
    }
    for (const [at, b] of this.ent.entries()) if (b !== -1) this.ent[at] = renumber[b] ?? -1;
    const lanes = this.lanes.map((l, at): LaneData => {
      let depth = 0;
      for (let up = l.parent; up !== -1 && depth < this.lanes.length; depth++) {
        up = this.lanes[up]?.parent ?? -1;
      }
      const sub = l.sub === undefined ? null : shownText(l.sub);
      const rows = Math.max(rowEnds[at]?.length ?? 0, 1);
      return [l.run, l.parent, sub, l.name ?? null, l.start, l.end, l.status ?? null, depth, rows];
    });
    return { lanes, bars };
  }
}

/** The picture of one linted input and its events (see the module's note on `events`). */
export function inputModel(
  name: string,
  url: string | undefined,
  report: LintReport,
  events: readonly unknown[],
): InputModel {
  const n = events.length;
  const gap = elided(n);
  const timeline = new Timeline(gap, report);
  for (let i = 0; i < n; i++) timeline.push(i, events[i]);
  timeline.end(n);
  const shownAt = (i: number): number =>
    gap === undefined || i < gap[0] ? i : i >= gap[1] ? i - (gap[1] - gap[0]) : -1;
  const findings = report.findings.map((f): FindingData => {
    const [section, lane] = timeline.pin(f.index, n, shownAt);
    return [
      shownText(f.code, 200),
      f.severity === "error" ? 0 : 1,
      f.rule ?? null,
      f.index,
      f.lastIndex,
      f.count,
      f.eventType === undefined ? null : shownText(f.eventType, 200),
      f.field === undefined ? null : shownText(f.field, 200),
      shownText(f.message, 2_000),
      section,
      lane,
      f.line ?? null,
    ];
  });
  const { lanes, bars } = timeline.data();
  return {
    name: shownText(name),
    url: url === undefined ? null : shownText(url),
    valid: report.valid,
    errors: report.errors,
    warnings: report.warnings,
    omitted: report.omitted,
    events: Math.max(report.events, n),
    format: report.input?.format ?? null,
    bytes: report.input?.bytes ?? null,
    gap: gap ?? null,
    types: timeline.types,
    sec: timeline.sec,
    lane: timeline.lane,
    ent: timeline.ent,
    ty: timeline.ty,
    runs: timeline.runs,
    lanes,
    bars,
    findings,
    elidedBars: timeline.elidedBars,
  };
}
