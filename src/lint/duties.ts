/**
 * The producer duties of AG-UI 1.1 that ask nothing of a consumer (SPEC §18.5), checked on
 * the events the rules accepted: warnings, so `valid` stays the verifier's verdict. This
 * module holds the duties of the run's boundary events (ids, outcome, usage, the version
 * declaration); each message quotes the 1.1 sentence it enforces and names its page under
 * `docs/spec/1.1/`.
 *
 * What it holds (SPEC §17): the stream's first `threadId`, and the run ids seen per thread,
 * weighed like the verifier's ids and no longer added once they reach `maxIds`.
 * @module
 */

import { isRecord, q, type Rec } from "../verify/verifier.ts";
import type { Warning } from "./warnings.ts";

/** The outcome types 1.1's schema describes (`RunFinishedOutcome`). */
const OUTCOMES: ReadonlySet<unknown> = new Set(["success", "interrupt", "cancelled"]);

/** A declaration as 1.1 publishes versions: `MAJOR.MINOR`. */
const PUBLISHED = /^[0-9]+\.[0-9]+$/;

/** The longest value a message shows whole. */
const SHOWN = 40;

/** Watches one stream's run boundaries for the duties of SPEC §18.5 (this module's share). */
export class RunDuties {
  readonly #maxIds: number;
  /** The first RUN_STARTED's `threadId`, when a string: the stream's thread. */
  #thread: string | undefined;
  /** Per thread, the run ids its runs used; `#held` their weight in all. */
  readonly #runIds = new Map<string, Set<string>>();
  #held = 0;

  constructor(maxIds: number) {
    this.#maxIds = maxIds;
  }

  /** An accepted event of type `type`: the warnings it gives, if any. */
  event(type: string, e: Rec): Warning[] | undefined {
    try {
      if (type === "RUN_STARTED") return this.#started(e);
      if (type === "RUN_FINISHED") return this.#finished(e);
      if (type === "RUN_ERROR") return usage(e, "RUN_ERROR", undefined);
    } catch {
      // A getter or a Proxy threw on a field the rules do not read: no duty is judged on it.
    }
    return undefined;
  }

  #started(e: Rec): Warning[] | undefined {
    let found: Warning[] | undefined;
    const threadId = e.threadId;
    const runId = e.runId;
    if (typeof threadId === "string") {
      if (this.#thread === undefined) this.#thread = threadId;
      else found = this.#thread === threadId ? found : [this.#otherThread(threadId, "RUN_STARTED")];
    }
    if (typeof runId === "string") {
      const thread = typeof threadId === "string" ? threadId : "";
      const used = this.#runIds.get(thread);
      if (used?.has(runId)) found = add(found, reused(runId, threadId));
      else this.#remember(thread, runId, used);
    }
    const version = e.protocolVersion;
    if (version === undefined) found = add(found, MISSING);
    else if (typeof version !== "string" || !PUBLISHED.test(version)) {
      found = add(found, notPublished(version));
    }
    return found;
  }

  #remember(thread: string, runId: string, used: Set<string> | undefined): void {
    const weight = weigh(runId) + (used === undefined ? weigh(thread) : 0);
    if (this.#held + weight > this.#maxIds) return;
    this.#held += weight;
    if (used === undefined) this.#runIds.set(thread, new Set([runId]));
    else used.add(runId);
  }

  #finished(e: Rec): Warning[] | undefined {
    let found: Warning[] | undefined;
    const threadId = e.threadId;
    if (typeof threadId === "string" && this.#thread !== undefined && threadId !== this.#thread) {
      found = [this.#otherThread(threadId, "RUN_FINISHED")];
    }
    const outcome = e.outcome;
    if (isRecord(outcome)) {
      const type = outcome.type;
      if (!OUTCOMES.has(type)) found = add(found, unknownOutcome(type));
      else if (type === "cancelled" && e.result !== undefined) found = add(found, CANCELLED);
      else if (type === "interrupt") found = duplicateInterrupt(outcome, found);
    }
    return usage(e, "RUN_FINISHED", found);
  }

  #otherThread(threadId: string, eventType: string): Warning {
    return {
      code: "THREAD_ID_MISMATCH",
      text: `threadId ${q(threadId)} is not the stream's thread ${q(this.#thread ?? "")}; 1.1 says every run on the stream carries the input's threadId on RUN_STARTED and RUN_FINISHED (basic/run-input), and a client files this run under another thread.`,
      eventType,
      field: "threadId",
      subject: threadId,
    };
  }
}

/** What an id weighs against `maxIds`, as the verifier weighs it (SPEC §17.1). */
function weigh(id: string): number {
  return id.length <= 64 ? 1 : Math.ceil(id.length / 64);
}

function add(found: Warning[] | undefined, w: Warning): Warning[] {
  if (found === undefined) return [w];
  found.push(w);
  return found;
}

/** A value for a message: strings quoted and cut by `q`, anything else by its JSON type. */
function shown(value: unknown): string {
  if (typeof value === "string") return q(value);
  if (typeof value === "number" || typeof value === "boolean" || value === null) {
    return String(value).slice(0, SHOWN);
  }
  return Array.isArray(value) ? "an array" : `a ${typeof value}`;
}

function reused(runId: string, threadId: unknown): Warning {
  const thread = typeof threadId === "string" ? `thread ${q(threadId)}` : "the stream's thread";
  return {
    code: "RUN_ID_REUSED",
    text: `runId ${q(runId)} was already used by an earlier run on ${thread}; 1.1 says a runId "MUST NOT be reused for another run on the same thread" (basic/index), and a client that keys runs by id merges the two.`,
    eventType: "RUN_STARTED",
    field: "runId",
    subject: runId,
  };
}

const MISSING: Warning = {
  code: "PROTOCOL_VERSION_MISSING",
  text: 'no protocolVersion is declared; 1.1 says "An implementation of this version MUST send its declaration" (basic/versioning), and a consumer cannot tell which version the stream follows.',
  eventType: "RUN_STARTED",
  field: "protocolVersion",
};

function notPublished(version: unknown): Warning {
  return {
    code: "PROTOCOL_VERSION_NOT_PUBLISHED",
    text: `protocolVersion ${shown(version)} is not a published version; 1.1 says the declaration is "MAJOR.MINOR" (basic/versioning), such as "1.1", and a consumer that compares versions cannot read it.`,
    eventType: "RUN_STARTED",
    field: "protocolVersion",
  };
}

function unknownOutcome(type: unknown): Warning {
  return {
    code: "UNKNOWN_RUN_OUTCOME",
    text: `outcome type ${shown(type)} is none the 1.1 schema describes (success, interrupt, cancelled); 1.1 says "A producer MUST NOT send an outcome value the schema does not describe" (events/lifecycle), and a 1.1 consumer strips it and shows the run as a success.`,
    eventType: "RUN_FINISHED",
    field: "outcome.type",
  };
}

const CANCELLED: Warning = {
  code: "CANCELLED_RUN_HAS_RESULT",
  text: 'a cancelled run carries a result; 1.1 says "A cancelled run has no return value: result SHOULD be absent" (events/lifecycle), and a UI may present the partial result as the run\'s answer.',
  eventType: "RUN_FINISHED",
  field: "result",
};

/** INTERRUPT_ID_DUPLICATE: the string ids of one interrupt outcome, compared. */
function duplicateInterrupt(outcome: Rec, found: Warning[] | undefined): Warning[] | undefined {
  const interrupts = outcome.interrupts;
  if (!Array.isArray(interrupts)) return found;
  const seen = new Set<string>();
  for (let i = 0; i < interrupts.length; i++) {
    const item: unknown = interrupts[i];
    const id = isRecord(item) ? item.id : undefined;
    if (typeof id !== "string") continue;
    if (seen.has(id)) {
      return add(found, {
        code: "INTERRUPT_ID_DUPLICATE",
        text: `interrupt id ${q(id)} appears twice in the outcome; 1.1 says "Each interrupt's id MUST be unique within the run" (basic/patterns/interrupt-resume), and a client that resumes by id answers only one of them.`,
        eventType: "RUN_FINISHED",
        field: `outcome.interrupts[${i}].id`,
        subject: id,
      });
    }
    seen.add(id);
  }
  return found;
}

/** The parts of each total: `[part, total]`, as 1.1's token accounting names them. */
const PARTS = [
  ["cachedInputTokens", "inputTokens"],
  ["cacheWriteInputTokens", "inputTokens"],
  ["reasoningTokens", "outputTokens"],
] as const;

/** USAGE_TOTAL_MISMATCH and USAGE_PART_EXCEEDS_TOTAL, for each entry of `usage`. */
function usage(e: Rec, eventType: string, found: Warning[] | undefined): Warning[] | undefined {
  const entries = e.usage;
  if (!Array.isArray(entries)) return found;
  for (let i = 0; i < entries.length; i++) {
    const entry: unknown = entries[i];
    if (!isRecord(entry)) continue;
    const count = (key: string): number | undefined => {
      const n = entry[key];
      return typeof n === "number" ? n : undefined;
    };
    const input = count("inputTokens");
    const output = count("outputTokens");
    const total = count("totalTokens");
    const at = `usage[${i}]`;
    if (input !== undefined && output !== undefined && total !== undefined) {
      if (total !== input + output) {
        found = add(found, {
          code: "USAGE_TOTAL_MISMATCH",
          text: `totalTokens ${total} is not inputTokens ${input} plus outputTokens ${output}; 1.1 says "totalTokens is inputTokens plus outputTokens" (events/lifecycle), and a dashboard that sums totals counts this run wrong.`,
          eventType,
          field: `${at}.totalTokens`,
        });
      }
    }
    for (const [part, of] of PARTS) {
      const n = count(part);
      const whole = part === "reasoningTokens" ? output : input;
      if (n !== undefined && whole !== undefined && n > whole) {
        const what = `${part} ${n} exceeds ${of} ${whole}`;
        found = add(found, exceeds(eventType, `${at}.${part}`, what));
      }
    }
    const cached = count("cachedInputTokens");
    const written = count("cacheWriteInputTokens");
    if (
      cached !== undefined &&
      written !== undefined &&
      input !== undefined &&
      cached <= input &&
      written <= input &&
      cached + written > input
    ) {
      const what = `cachedInputTokens ${cached} and cacheWriteInputTokens ${written} together exceed inputTokens ${input}`;
      found = add(found, exceeds(eventType, `${at}.cacheWriteInputTokens`, what));
    }
  }
  return found;
}

function exceeds(eventType: string, field: string, what: string): Warning {
  return {
    code: "USAGE_PART_EXCEEDS_TOTAL",
    text: `${what}; 1.1 says cached, cache-write and reasoning counts "are parts of those totals, never additions to them" and the two cache counts are disjoint (events/lifecycle), and a cost computed from the parts is wrong.`,
    eventType,
    field,
  };
}
