/**
 * The producer duties of AG-UI 1.1 about subagents (SPEC §18.5), per run: an invocation is
 * announced before any event attributed to it (`SUBAGENT_ANNOUNCED_AFTER_USE`), nothing
 * new is opened for it after its terminal event (`SUBAGENT_EVENT_AFTER_TERMINAL`), and the
 * interrupt ids it suspended on are interrupts the run raised for it
 * (`SUSPENDED_INTERRUPT_ID_UNKNOWN`). None breaks a rule (SPEC §9.1 (d) accepts the first
 * two orders), so all are warnings.
 *
 * "Attributed" is a tagged opener or continuation of a message, tool call, reasoning
 * message or span, activity or step; tags on `CUSTOM`, `RAW` and the state events are
 * provenance and do not count. An opener is a `*_START`, `STEP_STARTED`, a first chunk of
 * an id, or an `ACTIVITY_SNAPSHOT` that mints an activity new to the run.
 *
 * What it holds (SPEC §17), per run: the tags seen before their announcement, the finished
 * subagents, and the chunk and activity ids that tell an opener from a continuation, each
 * weighed like the verifier's ids; past `maxIds` nothing more is added, and an event it
 * could not tell is not judged.
 * @module
 */

import { isRecord, listed, q, type Rec, weight as weigh } from "../verify/verifier.ts";
import type { Warning } from "./warnings.ts";

/** What an event is to attribution. */
const OPENER = 1;
const CONTINUATION = 2;
const CHUNK = 3;
const ACTIVITY = 4;
const STARTED = 5;
const CLOSED = 6;
const RUN_FINISHED = 7;
const RUN_ERROR = 8;

const ROLES = new Map<string, number>([
  ["TEXT_MESSAGE_START", OPENER],
  ["TOOL_CALL_START", OPENER],
  ["REASONING_START", OPENER],
  ["REASONING_MESSAGE_START", OPENER],
  ["STEP_STARTED", OPENER],
  ["TEXT_MESSAGE_CONTENT", CONTINUATION],
  ["TEXT_MESSAGE_END", CONTINUATION],
  ["TOOL_CALL_ARGS", CONTINUATION],
  ["TOOL_CALL_END", CONTINUATION],
  ["TOOL_CALL_RESULT", CONTINUATION],
  ["REASONING_MESSAGE_CONTENT", CONTINUATION],
  ["REASONING_MESSAGE_END", CONTINUATION],
  ["REASONING_END", CONTINUATION],
  ["REASONING_ENCRYPTED_VALUE", CONTINUATION],
  ["ACTIVITY_DELTA", CONTINUATION],
  ["STEP_FINISHED", CONTINUATION],
  ["TEXT_MESSAGE_CHUNK", CHUNK],
  ["TOOL_CALL_CHUNK", CHUNK],
  ["REASONING_MESSAGE_CHUNK", CHUNK],
  ["ACTIVITY_SNAPSHOT", ACTIVITY],
  ["SUBAGENT_STARTED", STARTED],
  ["SUBAGENT_FINISHED", CLOSED],
  ["SUBAGENT_ERROR", CLOSED],
  ["RUN_FINISHED", RUN_FINISHED],
  ["RUN_ERROR", RUN_ERROR],
]);

/** The id a chunk or an activity streams by, and the letter that keeps each kind apart. */
const KEYS: { readonly [type: string]: readonly [string, string] } = {
  TEXT_MESSAGE_CHUNK: ["messageId", "t"],
  TOOL_CALL_CHUNK: ["toolCallId", "c"],
  REASONING_MESSAGE_CHUNK: ["messageId", "r"],
  ACTIVITY_SNAPSHOT: ["messageId", "a"],
};

/** Watches one stream's subagent attribution, run by run. */
export class SubagentDuties {
  readonly #maxIds: number;
  #held = 0;
  /** Tags attributed in this run before (or without) their SUBAGENT_STARTED. */
  #used = new Set<string>();
  /** Subagents announced in this run. */
  #announced = new Set<string>();
  /** Subagents whose terminal event came in this run. */
  #finished = new Set<string>();
  /** Chunked ids and activities this run opened: a later one of them continues. */
  #opened = new Set<string>();
  /** The interrupt ids each subagent suspended on in this run. */
  #suspended = new Map<string, string[]>();

  constructor(maxIds: number) {
    this.#maxIds = maxIds;
  }

  /** A new run: nothing of the last one counts (per run). */
  reset(): void {
    this.#held = 0;
    this.#used = new Set();
    this.#announced = new Set();
    this.#finished = new Set();
    this.#opened = new Set();
    this.#suspended = new Map();
  }

  /** Adds `id` to `set` when it fits under `maxIds`; whether it is (now) held. */
  #hold(set: Set<string>, id: string): boolean {
    if (set.has(id)) return true;
    const weight = weigh(id);
    if (this.#held + weight > this.#maxIds) return false;
    this.#held += weight;
    set.add(id);
    return true;
  }

  event(type: string, e: Rec): Warning[] | undefined {
    const role = ROLES.get(type);
    if (role === undefined) return undefined;
    const tag = e.subagentRunId;
    if (role === STARTED) return this.#started(tag);
    if (role === CLOSED) {
      if (typeof tag === "string" && this.#hold(this.#finished, tag)) this.#suspend(tag, e.outcome);
      return undefined;
    }
    if (role === RUN_FINISHED) return this.#unraised(e.outcome, "RUN_FINISHED");
    if (role === RUN_ERROR) return this.#unraised(undefined, "RUN_ERROR");
    let opener = role === OPENER;
    if (role === CHUNK || role === ACTIVITY) {
      const [key, kind] = KEYS[type] ?? ["messageId", "t"];
      const id = e[key];
      if (typeof id !== "string") return undefined;
      const scoped = `${kind}${id}`;
      opener = !this.#opened.has(scoped);
      if (opener && !this.#hold(this.#opened, scoped)) return undefined;
    }
    if (typeof tag !== "string") return undefined;
    if (!this.#announced.has(tag)) this.#hold(this.#used, tag);
    if (!opener || !this.#finished.has(tag)) return undefined;
    return [
      {
        code: "SUBAGENT_EVENT_AFTER_TERMINAL",
        text: `subagent ${q(tag)} already finished in this run, and this opens something new for it; 1.1 says "A producer MUST NOT reuse a subagentRunId for a second invocation within a run" (events/subagents), and a UI shows work under an invocation it already closed.`,
        eventType: type,
        field: "subagentRunId",
        subject: tag,
      },
    ];
  }

  /** A suspended outcome's interrupt ids, kept (within `maxIds`) for the run's end. */
  #suspend(tag: string, outcome: unknown): void {
    if (!isRecord(outcome) || outcome.type !== "suspended") return;
    const ids = outcome.interruptIds;
    if (!Array.isArray(ids)) return;
    const kept: string[] = [];
    for (const id of ids) {
      if (typeof id !== "string") continue;
      const weight = weigh(id);
      if (this.#held + weight > this.#maxIds) break;
      this.#held += weight;
      kept.push(id);
    }
    if (kept.length > 0) this.#suspended.set(tag, kept);
  }

  /**
   * SUSPENDED_INTERRUPT_ID_UNKNOWN: the ids each suspended subagent named that the run's
   * interrupt outcome does not raise for it (all of them when the run ends without one).
   */
  #unraised(outcome: unknown, eventType: string): Warning[] | undefined {
    const suspended = this.#suspended;
    if (suspended.size === 0) return undefined;
    // Judged once: a late RUN_ERROR after RUN_FINISHED does not judge them again.
    this.#suspended = new Map();
    const raised = new Set<string>();
    if (isRecord(outcome) && outcome.type === "interrupt" && Array.isArray(outcome.interrupts)) {
      for (const i of outcome.interrupts) {
        if (isRecord(i) && typeof i.id === "string" && typeof i.subagentRunId === "string") {
          raised.add(`${i.subagentRunId}\u0000${i.id}`);
        }
      }
    }
    let found: Warning[] | undefined;
    for (const [tag, ids] of suspended) {
      const unknown = ids.filter((id) => !raised.has(`${tag}\u0000${id}`));
      if (unknown.length === 0) continue;
      const shown = listed(
        unknown.slice(0, 5).map((id) => q(id)),
        unknown.length,
      );
      const w: Warning = {
        code: "SUSPENDED_INTERRUPT_ID_UNKNOWN",
        text: `subagent ${q(tag)} suspended on interrupt ids [${shown}] that the run ${eventType === "RUN_ERROR" ? "ends without raising (it failed)" : "does not raise for it in an interrupt outcome"}; the schema says a suspended outcome's interruptIds are "the run-level interrupts this subagent raised itself", and a client resuming the run finds nothing to answer for them.`,
        eventType,
        field: eventType === "RUN_ERROR" ? undefined : "outcome",
        subject: tag,
      };
      found = found === undefined ? [w] : [...found, w];
    }
    return found;
  }

  #started(tag: unknown): Warning[] | undefined {
    if (typeof tag !== "string") return undefined;
    this.#hold(this.#announced, tag);
    if (!this.#used.has(tag)) return undefined;
    return [
      {
        code: "SUBAGENT_ANNOUNCED_AFTER_USE",
        text: `subagent ${q(tag)} is announced after events attributed to it in this run; 1.1 says "A producer that announces an invocation MUST do so before any event attributed to it" (events/subagents), and a UI that groups work by invocation has nowhere to put what came first.`,
        eventType: "SUBAGENT_STARTED",
        field: "subagentRunId",
        subject: tag,
      },
    ];
  }
}
