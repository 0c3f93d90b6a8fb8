/**
 * What the verifier knows about one run (SPEC §5): the phase, the open entities and the
 * owner registries. A new run replaces the whole object, so nothing can be left behind by a
 * forgotten reset. Plain data and constant-time helpers; no checks.
 * @module
 */

import { keepShape } from "../_util/shapes.ts";

/** Who produced an entity: a subagent id, or `null` for the parent agent. */
export type Owner = string | null;
export const PARENT = null;

/** A JSON object, as far as the verifier is concerned. */
export type Rec = Record<string, unknown>;

export function isRecord(value: unknown): value is Rec {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isArray(value: unknown): value is readonly unknown[] {
  return Array.isArray(value);
}

/** The stream's phase (SPEC §5): before the first run, in a run, after one closed. */
export const BEFORE_RUN = 0;
export const RUNNING = 1;
/** After RUN_FINISHED: a new run, or one late RUN_ERROR, may follow (rules 1 and 2). */
export const FINISHED = 2;
/** After RUN_ERROR: only a new run may follow. */
export const FAILED = 3;
export type Phase = typeof BEFORE_RUN | typeof RUNNING | typeof FINISHED | typeof FAILED;

/**
 * Everything one run knows. A new run replaces the whole object, so nothing can be left
 * behind by a forgotten reset.
 */
export interface Run {
  /** Open text messages; the message registry (text, tool and seeded messages). */
  readonly messages: Lane;
  readonly toolCalls: Lane;
  /** Open reasoning messages; the reasoning registry (reasoning messages and seeded ones). */
  readonly reasoning: Lane;
  /** Open reasoning spans (REASONING_START / _END); the span registry, a namespace of its own. */
  readonly spans: Lane;
  readonly activityOwners: Registry;
  /** step name → the owners that hold a step of that name open (never empty). */
  readonly openSteps: Map<string, Set<Owner>>;
  readonly activeSubagents: Set<string>;
  readonly finishedSubagents: Set<string>;
  /**
   * Every subagent id the run holds (announced, or recorded as an owner), mapped to the one
   * copy that the registries share (see `hold`).
   */
  readonly tags: Map<string, string>;
  /**
   * How many ids the run holds (SPEC §17.1): the entries of the owner registries, the
   * subagent ids (announced or recorded as owners) and the open (owner, step name) pairs.
   */
  held: number;
  /** The most ids it may hold: `maxIds`. */
  readonly maxIds: number;
  /**
   * With protocol draft (SPEC §9.14): the stream's thread, from its first RUN_STARTED (carried
   * from run to run), and this run's `runId`.
   */
  readonly threadId: string | undefined;
  readonly runId: string | undefined;
}

/**
 * A run with nothing recorded; `maxIds` bounds what it may hold (none for a scratch run). The
 * ids are the draft's (SPEC §9.14), undefined otherwise.
 */
export function newRun(maxIds = Number.POSITIVE_INFINITY, threadId?: string, runId?: string): Run {
  return {
    messages: newLane(),
    toolCalls: newLane(),
    reasoning: newLane(),
    spans: newLane(),
    activityOwners: new Registry(),
    openSteps: new Map(),
    activeSubagents: new Set(),
    finishedSubagents: new Set(),
    tags: new Map(),
    held: 0,
    maxIds,
    threadId,
    runId,
  };
}

/**
 * One kind of entity that streams by id (text messages, tool calls, reasoning messages, spans):
 * the ids open now, and the kind's owner registry, which outlives the close.
 */
export interface Lane {
  readonly open: OpenIds;
  readonly owners: Registry;
}

export function newLane(): Lane {
  return { open: new OpenIds(), owners: new Registry() };
}

/**
 * An owner registry: each id's owner, kept for the rest of the run. One map at first; past
 * {@link SPLIT_AT} ids, 16 maps, chosen by the id's last character. V8 moves a Map's table
 * out to its large-object space once it outgrows a regular object (some 5,000 entries), and
 * each growth there costs several times more per entry (8,579 tool call ids: about 190 ns
 * per insert into one Map, 55 ns spread over 16). Runs that hold few ids keep one map, so
 * a stream of many small runs allocates only the registry objects themselves more.
 */
export class Registry {
  /** The one map, until the split; then undefined. */
  #one: Map<string, Owner> | undefined = new Map();
  /** After the split: the 16 maps (before it, one empty list all registries share). */
  #maps: readonly Map<string, Owner>[] = UNSPLIT;

  get(id: string): Owner | undefined {
    const one = this.#one;
    return one !== undefined ? one.get(id) : this.#shard(id).get(id);
  }

  /** An owner is a string or null, never undefined. */
  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  set(id: string, owner: Owner): void {
    const one = this.#one;
    if (one === undefined) {
      this.#shard(id).set(id, owner);
      return;
    }
    one.set(id, owner);
    if (one.size > SPLIT_AT) {
      const maps: Map<string, Owner>[] = [];
      for (let i = 0; i < 16; i++) maps.push(new Map());
      this.#maps = maps;
      this.#one = undefined;
      for (const [key, value] of one) this.#shard(key).set(key, value);
    }
  }

  /** The map of `id` once split: by the last character's code, its low 4 bits. */
  #shard(id: string): Map<string, Owner> {
    return this.#maps[id.charCodeAt(id.length - 1) & 15] as Map<string, Owner>;
  }
}

/** How many ids a {@link Registry} holds in one map. */
const SPLIT_AT = 2_048;
const UNSPLIT: readonly Map<string, Owner>[] = [];

keepShape(new Registry());

/**
 * The ids of one kind that are open now. Messages and tool calls stream token by token, a
 * few at a time, so most continuations name one of a few ids: a handful of slots, chosen by
 * an id's last character, remember ids known to be open, and a string comparison then
 * spares the set look-up, which would hash the (fresh, JSON-parsed) id string every time.
 */
export class OpenIds {
  readonly #ids = new Set<string>();
  /** Each slot holds an open id, or nothing; closing an id clears its slot. */
  readonly #recent: (string | undefined)[] = [undefined, undefined, undefined, undefined];

  get size(): number {
    return this.#ids.size;
  }

  has(id: string): boolean {
    const slot = slotOf(id);
    if (id === this.#recent[slot]) return true;
    if (!this.#ids.has(id)) return false;
    this.#recent[slot] = id;
    return true;
  }

  add(id: string): void {
    this.#ids.add(id);
    this.#recent[slotOf(id)] = id;
  }

  delete(id: string): void {
    this.#ids.delete(id);
    const slot = slotOf(id);
    if (id === this.#recent[slot]) this.#recent[slot] = undefined;
  }

  values(): IterableIterator<string> {
    return this.#ids.values();
  }
}

keepShape(new OpenIds());

/** One of the four slots of {@link OpenIds}. */
export function slotOf(id: string): number {
  return id.charCodeAt(id.length - 1) & 3;
}

/**
 * A type's checks and effects (SPEC §6 table); returns the new phase for the run-level events.
 * RUN_STARTED's rule instead returns the new run it opens (SPEC §9.6): the verifier keeps
 * that run from then on, once every check passed.
 */
export type Rule = (run: Run, e: Rec) => Phase | Run | undefined;
