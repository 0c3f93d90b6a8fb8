/**
 * The producer duties of AG-UI 1.1 that ask nothing of a consumer (SPEC §18.5), checked on
 * the events the rules accepted: warnings, so `valid` stays the verifier's verdict. This
 * module holds the duties of the run's boundary events (ids, outcome, usage, the version
 * declaration, the pending tool calls), of activities and of encrypted values; each message
 * quotes the 1.1 sentence it enforces and names its page under `docs/spec/1.1/`.
 *
 * What it holds (SPEC §17): the stream's first `threadId`, the run ids seen per thread, the
 * tool calls this run started (with whether each was answered) and the activity ids the
 * stream created, each weighed like the verifier's ids; what no longer fits under `maxIds`
 * is not added, and the check that needs it stops rather than guess.
 * @module
 */

import { isRecord, listed, q, type Rec, weight as weigh } from "../verify/verifier.ts";
import { ChunkDuties } from "./duties-chunks.ts";
import { IdDuties } from "./duties-ids.ts";
import { type LateWarning, RequestDuties } from "./duties-request.ts";
import { SchemaDuties } from "./duties-schema.ts";
import { SubagentDuties } from "./duties-subagents.ts";
import type { Warning } from "./warnings.ts";

/** The outcome types 1.1's schema describes (`RunFinishedOutcome`). */
const OUTCOMES: ReadonlySet<unknown> = new Set(["success", "interrupt", "cancelled"]);

/** A declaration as 1.1 publishes versions: `MAJOR.MINOR`. */
const PUBLISHED = /^[0-9]+\.[0-9]+$/;

/** The longest value a message shows whole. */
const SHOWN = 40;

const STARTED = 1;
const FINISHED = 2;
const ERRORED = 3;
const CALL = 4;
const RESULT = 5;
const ACTIVITY = 6;
const DELTA = 7;
const SNAPSHOT = 8;
const TEXT = 9;
const REASONING = 10;
const CHUNK = 11;
const MESSAGE_CHUNK = 12;
const ENCRYPTED = 13;

/** The event types a duty looks at; the others cost one look-up. */
const KINDS = new Map<string, number>([
  ["RUN_STARTED", STARTED],
  ["RUN_FINISHED", FINISHED],
  ["RUN_ERROR", ERRORED],
  ["TOOL_CALL_START", CALL],
  ["TOOL_CALL_CHUNK", CHUNK],
  ["TEXT_MESSAGE_CHUNK", MESSAGE_CHUNK],
  ["REASONING_MESSAGE_CHUNK", MESSAGE_CHUNK],
  ["REASONING_ENCRYPTED_VALUE", ENCRYPTED],
  ["TEXT_MESSAGE_START", TEXT],
  ["REASONING_MESSAGE_START", REASONING],
  ["TOOL_CALL_RESULT", RESULT],
  ["ACTIVITY_SNAPSHOT", ACTIVITY],
  ["ACTIVITY_DELTA", DELTA],
  ["MESSAGES_SNAPSHOT", SNAPSHOT],
]);

/** Watches one stream for the duties of SPEC §18.5 (this module's share). */
export class RunDuties {
  readonly #maxIds: number;
  /** The duties about message and tool-call ids (duties-ids.ts). */
  readonly #ids: IdDuties;
  /** The duties about subagents (duties-subagents.ts). */
  readonly #subagents: SubagentDuties;
  /** The duty about the two spellings of an item (duties-chunks.ts). */
  readonly #chunks = new ChunkDuties();
  /** What a 1.1 client drops or strips (duties-schema.ts). */
  readonly #schema = new SchemaDuties();
  /** The duties against the run's request, when it is known (duties-request.ts). */
  readonly #request: RequestDuties | undefined;
  /** The request's `threadId`, or else the first RUN_STARTED's, when a string: the stream's thread. */
  #thread: string | undefined;
  /** Whether `#thread` is the request's. */
  readonly #requested: boolean;
  /** Per thread, the run ids its runs used. */
  readonly #runIds = new Map<string, Set<string>>();
  /** The activity ids the stream created with a snapshot. */
  readonly #activities = new Set<string>();
  /** The weight of what the two hold, for the whole stream. */
  #held = 0;
  /** This run's tool calls in the order they were made: answered or not. */
  #calls = new Map<string, boolean>();
  #callsHeld = 0;
  /** A call of this run did not fit: the pending list is not judged. */
  #callsFull = false;

  /** `request`: the run's `RunAgentInput`, when known (SPEC §18.5's "(request)" checks). */
  constructor(maxIds: number, request?: unknown) {
    this.#maxIds = maxIds;
    this.#ids = new IdDuties(maxIds);
    this.#subagents = new SubagentDuties(maxIds);
    const known = isRecord(request);
    this.#request = known ? new RequestDuties(request, maxIds) : undefined;
    const thread = known ? request.threadId : undefined;
    this.#requested = typeof thread === "string";
    if (typeof thread === "string") this.#thread = thread;
  }

  /** An accepted event of type `type`, at `index`: the warnings it gives, if any. */
  event(type: string, e: Rec, index: number): Warning[] | undefined {
    try {
      const kind = KINDS.get(type);
      if (kind === STARTED) this.#subagents.reset();
      let found = kind === undefined ? undefined : this.#own(kind, e);
      found = join(found, this.#subagents.event(type, e));
      found = join(found, this.#chunks.event(type, e));
      found = join(found, this.#schema.event(type, e));
      if (this.#request !== undefined) found = join(found, this.#request.event(type, e, index));
      return found;
    } catch {
      // A getter or a Proxy threw on a field the rules do not read: no duty is judged on it.
      return undefined;
    }
  }

  /** The duties judged at the end of input. */
  end(): LateWarning | undefined {
    return this.#request?.end();
  }

  #own(kind: number, e: Rec): Warning[] | undefined {
    switch (kind) {
      case STARTED:
        return this.#started(e);
      case FINISHED:
        return this.#finished(e);
      case ERRORED:
        return usage(e, "RUN_ERROR", undefined);
      case CALL:
        this.#call(e.toolCallId);
        return this.#ids.toolStart(e);
      case CHUNK:
        this.#call(e.toolCallId);
        this.#ids.chunk("TOOL_CALL_CHUNK", e);
        return undefined;
      case MESSAGE_CHUNK:
        this.#ids.chunk(e.type as string, e);
        return undefined;
      case ENCRYPTED:
        return this.#ids.encrypted(e);
      case TEXT:
        return this.#ids.textStart(e);
      case REASONING:
        return this.#ids.opened(e, "reasoning", "REASONING_MESSAGE_START");
      case RESULT:
        if (this.#calls.has(e.toolCallId as string)) {
          this.#calls.set(e.toolCallId as string, true);
        }
        return this.#ids.result(e);
      case ACTIVITY:
        this.#created(e.messageId);
        return this.#ids.opened(e, "activity", "ACTIVITY_SNAPSHOT");
      case DELTA:
        return this.#delta(e.messageId);
      default:
        return this.#snapshot(e);
    }
  }

  /** Whether `weight` more fits in the stream's share of `maxIds`; counts it if so. */
  #fits(weight: number): boolean {
    if (this.#held + weight > this.#maxIds) return false;
    this.#held += weight;
    return true;
  }

  #started(e: Rec): Warning[] | undefined {
    // A new run: its calls are its own (a call of an earlier run counts only if re-opened).
    this.#calls = new Map();
    this.#callsHeld = 0;
    this.#callsFull = false;
    let found: Warning[] | undefined;
    const threadId = e.threadId;
    const runId = e.runId;
    if (typeof threadId === "string") {
      if (this.#thread === undefined) this.#thread = threadId;
      else if (this.#thread !== threadId) found = [this.#otherThread(threadId, "RUN_STARTED")];
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
    const input = e.input;
    if (!isRecord(input)) return found;
    this.#ids.echo(input.messages);
    return encryptedTypes(input.messages, "input.messages", "RUN_STARTED", found);
  }

  #remember(thread: string, runId: string, used: Set<string> | undefined): void {
    if (!this.#fits(weigh(runId) + (used === undefined ? weigh(thread) : 0))) return;
    if (used === undefined) this.#runIds.set(thread, new Set([runId]));
    else used.add(runId);
  }

  /** A TOOL_CALL_START, or a chunk: the call's first one is when it was made. */
  #call(id: unknown): void {
    if (typeof id !== "string" || this.#calls.has(id) || this.#callsFull) return;
    const weight = weigh(id);
    if (this.#callsHeld + weight > this.#maxIds) {
      this.#callsFull = true;
      return;
    }
    this.#callsHeld += weight;
    this.#calls.set(id, false);
  }

  #created(id: unknown): void {
    if (typeof id === "string" && !this.#activities.has(id) && this.#fits(weigh(id))) {
      this.#activities.add(id);
    }
  }

  /** ACTIVITY_DELTA_WITHOUT_SNAPSHOT, per stream. */
  #delta(id: unknown): Warning[] | undefined {
    if (typeof id !== "string" || this.#activities.has(id)) return undefined;
    return [
      {
        code: "ACTIVITY_DELTA_WITHOUT_SNAPSHOT",
        text: `activity ${q(id)} was not created by a snapshot in this stream; 1.1 says "A producer MUST NOT send a delta for an activity message it has not created with a snapshot" (events/activity), and a client has no content to apply the patch to.`,
        eventType: "ACTIVITY_DELTA",
        field: "messageId",
        subject: id,
      },
    ];
  }

  #snapshot(e: Rec): Warning[] | undefined {
    const messages = e.messages;
    if (Array.isArray(messages)) {
      for (const m of messages) {
        if (isRecord(m) && m.role === "activity") this.#created(m.id);
      }
    }
    return encryptedTypes(messages, "messages", "MESSAGES_SNAPSHOT", this.#ids.snapshot(messages));
  }

  /** PENDING_TOOL_CALL_IDS_MISMATCH and _OMITTED, for a run that ends in success. */
  #pending(outcome: unknown, found: Warning[] | undefined): Warning[] | undefined {
    if (this.#callsFull) return found;
    const type = isRecord(outcome) ? outcome.type : "success";
    if (type !== "success") return found;
    const pending: string[] = [];
    for (const [id, answered] of this.#calls) if (!answered) pending.push(id);
    const sent = isRecord(outcome) ? outcome.pendingToolCallIds : undefined;
    // "Absent or empty means the producer named none" (the schema): only a list is compared.
    if (Array.isArray(sent) && sent.length > 0) {
      if (sent.length === pending.length && sent.every((id, i) => id === pending[i])) return found;
      return add(found, {
        code: "PENDING_TOOL_CALL_IDS_MISMATCH",
        text: `pendingToolCallIds names ${names(sent)} but the run left ${pending.length === 0 ? "no call" : names(pending)} unanswered; 1.1 says "the list MUST contain exactly the tool calls the run started and did not answer with TOOL_CALL_RESULT", "in the order they were made" (events/tool-calls), and a UI waits for a tool that already answered, or never runs one that did not.`,
        eventType: "RUN_FINISHED",
        field: "outcome.pendingToolCallIds",
      });
    }
    if (pending.length === 0) return found;
    return add(found, {
      code: "PENDING_TOOL_CALL_IDS_OMITTED",
      text: `the run leaves ${names(pending)} unanswered but its outcome names no pendingToolCallIds; 1.1 says "A producer SHOULD send it when a run leaves calls pending" (events/tool-calls), and a client that reads the list takes the run for one with nothing left to do.`,
      eventType: "RUN_FINISHED",
      field: isRecord(outcome) ? "outcome.pendingToolCallIds" : "outcome",
    });
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
    return usage(e, "RUN_FINISHED", this.#pending(outcome, found));
  }

  #otherThread(threadId: string, eventType: string): Warning {
    return {
      code: "THREAD_ID_MISMATCH",
      text: `threadId ${q(threadId)} is not the ${this.#requested ? "request's" : "stream's"} thread ${q(this.#thread ?? "")}; 1.1 says every run on the stream carries the input's threadId on RUN_STARTED and RUN_FINISHED (basic/run-input), and a client files this run under another thread.`,
      eventType,
      field: "threadId",
      subject: threadId,
    };
  }
}

/** Both lists of warnings, as one. */
function join(a: Warning[] | undefined, b: Warning[] | undefined): Warning[] | undefined {
  return b === undefined ? a : a === undefined ? b : [...a, ...b];
}

/** A bounded list of ids for a message: `["c1", "c2"]`, the first few and how many more. */
function names(ids: readonly unknown[]): string {
  return `[${listed(ids.slice(0, 5).map(shown), ids.length)}]`;
}

/**
 * ENCRYPTED_VALUE_TYPE_WITHOUT_VALUE, on the messages of a snapshot or an input echo and on
 * their tool calls.
 */
function encryptedTypes(
  messages: unknown,
  at: string,
  eventType: string,
  found: Warning[] | undefined,
): Warning[] | undefined {
  if (!Array.isArray(messages)) return found;
  for (let i = 0; i < messages.length; i++) {
    const m: unknown = messages[i];
    if (!isRecord(m)) continue;
    found = encryptedType(m, `${at}[${i}]`, eventType, found);
    const calls = m.toolCalls;
    if (!Array.isArray(calls)) continue;
    for (let j = 0; j < calls.length; j++) {
      const c: unknown = calls[j];
      if (isRecord(c)) found = encryptedType(c, `${at}[${i}].toolCalls[${j}]`, eventType, found);
    }
  }
  return found;
}

function encryptedType(
  item: Rec,
  at: string,
  eventType: string,
  found: Warning[] | undefined,
): Warning[] | undefined {
  if (item.encryptedValueType === undefined || item.encryptedValue !== undefined) return found;
  return add(found, {
    code: "ENCRYPTED_VALUE_TYPE_WITHOUT_VALUE",
    text: `${at} has an encryptedValueType but no encryptedValue; 1.1 says "A producer MUST NOT send encryptedValueType without encryptedValue" (events/reasoning), and a client that forwards the value to the model sends a type with nothing to decrypt.`,
    eventType,
    field: `${at}.encryptedValueType`,
  });
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

/** SSE_LINE_ENDINGS_NOT_LF: the input's first CR, at byte `offset` (the stream reader's). */
export function lineEndsNotLf(offset: number, eventType: string | undefined): Warning {
  return {
    code: "SSE_LINE_ENDINGS_NOT_LF",
    text: `the stream's line ends include a CR (the first at byte ${offset}); 1.1 says "A producer MUST frame the stream with LF (\\n) line endings" (basic/transports/http-sse), and @ag-ui/client 1.0.0's reader, which splits on LF, fails on the run.`,
    eventType,
  };
}
