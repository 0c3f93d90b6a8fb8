/**
 * CLIENT_REJECTS (SPEC §18.2): a model of what `verifyEvents` of `@ag-ui/client` 1.0.0 checks
 * beyond these rules, the rows of SPEC §13 where it rejects a stream this verifier accepts
 * (1, 6, 9–11, 15, 19–22). Written from 1.0.0's behaviour; nothing of the package is
 * imported.
 *
 * Only events the rules accepted reach it, and only until the client's first rejection: the
 * client's run errors there and it reads nothing more. Up to that point the client's state
 * equals the verifier's except in what is modelled here: the open reasoning blocks (1.0.0
 * pairs REASONING_START with REASONING_END) and the owners it gives the tool calls listed by
 * non-assistant messages (it reads their `toolCalls` too), kept as an overlay on the
 * verifier's tool-call owners; and, for the checks those feed, the message and reasoning
 * owners. Every other check of 1.0.0 is one these rules make too, on the same state, so an
 * event they accept passes it.
 * @module
 */

import {
  isRecord,
  listed,
  type Owner,
  ownerName,
  PARENT,
  q,
  type Rec,
} from "../verify/verifier.ts";

/** What the client objects to, in the project's words, and the field it is about. */
export interface Rejection {
  readonly text: string;
  readonly field?: string | undefined;
}

/** The model cannot follow the client any further (it would hold too many ids). */
export const GIVE_UP: Rejection = Object.freeze({ text: "" });

/** Where the run is, as both this verifier and the client see it. */
export const BEFORE = 0;
export const RUNNING = 1;
export const FINISHED = 2;
export const ERRORED = 3;
export type RunPhase = typeof BEFORE | typeof RUNNING | typeof FINISHED | typeof ERRORED;

const TAIL = "; @ag-ui/client 1.0.0's verifyEvents throws at this event and the run errors.";

function reject(text: string, field?: string): Rejection {
  return { text: text + TAIL, field };
}

/** The optional SUBAGENT_* fields 1.0.0 rejects `null` in, by type. */
const NULL_FREE: { readonly [type: string]: readonly string[] } = {
  SUBAGENT_STARTED: ["description", "parentSubagentRunId", "parentToolCallId", "parentMessageId"],
  SUBAGENT_FINISHED: ["outcome"],
  SUBAGENT_ERROR: ["code"],
};

/**
 * The client's view of one stream. Each method takes an event the rules accepted and returns
 * what the client rejects in it, or undefined when it accepts it (and records its effects).
 */
export class ClientModel {
  readonly #maxIds: number;
  /** The message and reasoning owners 1.0.0 keeps per run, as the verifier does. */
  #messages: Map<string, Owner> | undefined;
  #reasoning: Map<string, Owner> | undefined;
  /**
   * The tool calls whose owner in 1.0.0 may differ from the verifier's (a non-assistant
   * message named them last, or first in the input echo): that owner. For every other id
   * the two registries agree, so a check of 1.0.0 on it passes when the verifier's did.
   */
  #overlay: Map<string, Owner> | undefined;
  /** Open reasoning blocks (REASONING_START without its REASONING_END yet). */
  #blocks: Set<string> | undefined;

  constructor(maxIds: number) {
    this.#maxIds = maxIds;
  }

  /** RAW and CUSTOM, which this verifier accepts outside a run too. */
  outsideRun(type: string, phase: RunPhase): Rejection | undefined {
    if (phase === BEFORE) {
      return reject(
        `@ag-ui/client 1.0.0 requires RUN_STARTED (or RUN_ERROR) as the first event and rejects a ${type} before it`,
      );
    }
    if (phase === FINISHED) {
      return reject(
        `after RUN_FINISHED, @ag-ui/client 1.0.0 accepts only RUN_STARTED or RUN_ERROR and rejects a ${type} between runs`,
      );
    }
    if (phase === ERRORED) {
      return reject(
        `after RUN_ERROR, @ag-ui/client 1.0.0 accepts only RUN_STARTED and rejects a ${type} between runs`,
      );
    }
    return undefined;
  }

  /** A type this verifier does not know: only `type` is read here, 1.0.0 reads the tag too. */
  unknownType(e: Rec): Rejection | undefined {
    if (e.subagentRunId !== null) return undefined;
    return reject(
      "subagentRunId is null, and @ag-ui/client 1.0.0 rejects a null subagentRunId on every event, of a type it knows or not",
      "subagentRunId",
    );
  }

  runStarted(e: Rec, phase: RunPhase): Rejection | undefined {
    if (phase === FINISHED || phase === ERRORED) {
      this.#messages = undefined;
      this.#reasoning = undefined;
      this.#overlay = undefined;
      this.#blocks = undefined;
    }
    const input = e.input;
    return this.#seed(isRecord(input) ? input.messages : undefined, false, "input.messages");
  }

  messagesSnapshot(e: Rec): Rejection | undefined {
    return this.#seed(e.messages, true, "messages");
  }

  runFinished(e: Rec): Rejection | undefined {
    const outcome = e.outcome;
    if (isRecord(outcome) && outcome.type === "interrupt" && Array.isArray(outcome.interrupts)) {
      const interrupts: readonly unknown[] = outcome.interrupts;
      for (let i = 0; i < interrupts.length; i++) {
        const interrupt = interrupts[i];
        if (isRecord(interrupt) && interrupt.subagentRunId === null) {
          return reject(
            `interrupt ${describeId(interrupt.id)} has a null subagentRunId, which @ag-ui/client 1.0.0 rejects inside an interrupt too (omit it)`,
            `outcome.interrupts[${i}].subagentRunId`,
          );
        }
      }
    }
    const blocks = this.#blocks;
    if (blocks !== undefined && blocks.size > 0) {
      const open = listed(
        (function* () {
          for (const id of blocks) yield q(id);
        })(),
        blocks.size,
      );
      return reject(
        `reasoning block ${open} ${blocks.size === 1 ? "is" : "are"} still open, and @ag-ui/client 1.0.0 requires each REASONING_START ended by its REASONING_END before RUN_FINISHED`,
      );
    }
    return undefined;
  }

  textMessageStart(e: Rec): undefined {
    recordIfNone(this.#messageOwners(), e.messageId as string, tagOf(e));
    return undefined;
  }

  toolCallResult(e: Rec): undefined {
    this.#messageOwners().set(e.messageId as string, tagOf(e));
    return undefined;
  }

  toolCallStart(e: Rec): Rejection | undefined {
    const overlay = this.#overlay;
    if (overlay === undefined || overlay.size === 0) return undefined;
    const id = e.toolCallId as string;
    const owner = overlay.get(id);
    // Not in the overlay: the client decides and records as the verifier did.
    if (owner === undefined) return undefined;
    const tag = e.subagentRunId as string | undefined;
    if (tag !== undefined) return tag === owner ? undefined : this.#toolCallOwner(id, owner, tag);
    const parentId = e.parentMessageId as string | undefined;
    const inherited = parentId === undefined ? undefined : this.#messages?.get(parentId);
    if (inherited === undefined || inherited === owner) return undefined;
    return reject(
      `@ag-ui/client 1.0.0 holds tool call ${q(id)} as owned by ${ownerName(owner)} (it also reads the toolCalls of non-assistant messages), but its parent message ${q(parentId as string)} is owned by ${ownerName(inherited)}`,
      "parentMessageId",
    );
  }

  /** TOOL_CALL_ARGS and TOOL_CALL_END: a tag must agree with the client's owner of the call. */
  toolCallContinues(e: Rec): Rejection | undefined {
    const overlay = this.#overlay;
    if (overlay === undefined || overlay.size === 0) return undefined;
    const tag = e.subagentRunId;
    if (tag === undefined) return undefined;
    const id = e.toolCallId as string;
    const owner = overlay.get(id);
    return owner === undefined || owner === tag
      ? undefined
      : this.#toolCallOwner(id, owner, tag as string);
  }

  reasoningStart(e: Rec): Rejection | undefined {
    const id = e.messageId as string;
    const blocks = this.#blocks ?? this.#newBlocks();
    if (blocks.has(id)) {
      return reject(
        `reasoning block ${q(id)} is already open, and @ag-ui/client 1.0.0 rejects a second REASONING_START before its REASONING_END`,
        "messageId",
      );
    }
    recordIfNone(this.#reasoningOwners(), id, tagOf(e));
    blocks.add(id);
    return undefined;
  }

  reasoningMessageStart(e: Rec): undefined {
    recordIfNone(this.#reasoningOwners(), e.messageId as string, tagOf(e));
    return undefined;
  }

  reasoningEnd(e: Rec): Rejection | undefined {
    const id = e.messageId as string;
    if (this.#blocks?.delete(id) !== true) {
      return reject(
        `reasoning block ${q(id)} is not open, and @ag-ui/client 1.0.0 rejects a REASONING_END without its REASONING_START`,
        "messageId",
      );
    }
    return undefined;
  }

  reasoningEncryptedValue(e: Rec): Rejection | undefined {
    const tag = e.subagentRunId;
    const subtype = e.subtype as string;
    // "message": the same registries as this verifier's, so the same verdict.
    if (tag === undefined || subtype === "message") return undefined;
    const id = e.entityId as string;
    if (subtype === "tool-call") {
      const owner = this.#overlay?.get(id);
      return owner === undefined || owner === tag
        ? undefined
        : this.#toolCallOwner(id, owner, tag as string);
    }
    const owner = this.#reasoning?.get(id);
    if (owner === undefined || owner === tag) return undefined;
    return reject(
      `@ag-ui/client 1.0.0 reads an encrypted value of subtype ${q(subtype)} as one of a reasoning message, and reasoning message ${q(id)} is owned by ${ownerName(owner)}, not subagent ${q(tag as string)}`,
      "subtype",
    );
  }

  /** SUBAGENT_STARTED, SUBAGENT_FINISHED and SUBAGENT_ERROR: the fields this verifier does not read. */
  subagent(type: string, e: Rec): Rejection | undefined {
    for (const field of NULL_FREE[type] ?? []) {
      if (e[field] === null) {
        return reject(
          `${field} is null, and @ag-ui/client 1.0.0 rejects null in this optional field (it must be omitted)`,
          field,
        );
      }
    }
    // 1.0.0 reads `outcome` on all three types.
    const outcome = e.outcome;
    if (outcome !== undefined && outcome !== null) {
      const kind = propertyOf(outcome, "type");
      if (kind !== "success" && kind !== "suspended") {
        return reject(
          `@ag-ui/client 1.0.0 accepts only an outcome whose type is "success" or "suspended" here`,
          "outcome",
        );
      }
      const ids = propertyOf(outcome, "interruptIds");
      if (ids === null) {
        return reject(
          "outcome.interruptIds is null, and @ag-ui/client 1.0.0 rejects it (it must be omitted)",
          "outcome.interruptIds",
        );
      }
      if (Array.isArray(ids) && ids.some((id) => typeof id !== "string")) {
        return reject(
          "outcome.interruptIds holds a value that is not a string, which @ag-ui/client 1.0.0 rejects",
          "outcome.interruptIds",
        );
      }
    }
    if (type === "SUBAGENT_STARTED" && typeof e.name !== "string") {
      return reject("@ag-ui/client 1.0.0 requires a string name on SUBAGENT_STARTED", "name");
    }
    if (type === "SUBAGENT_ERROR" && typeof e.message !== "string") {
      return reject("@ag-ui/client 1.0.0 requires a string message on SUBAGENT_ERROR", "message");
    }
    return undefined;
  }

  // Each registry is made when first written: most streams need few of them.
  #messageOwners(): Map<string, Owner> {
    if (this.#messages === undefined) this.#messages = new Map();
    return this.#messages;
  }

  #reasoningOwners(): Map<string, Owner> {
    if (this.#reasoning === undefined) this.#reasoning = new Map();
    return this.#reasoning;
  }

  #overlayOwners(): Map<string, Owner> {
    if (this.#overlay === undefined) this.#overlay = new Map();
    return this.#overlay;
  }

  #newBlocks(): Set<string> {
    this.#blocks = new Set();
    return this.#blocks;
  }

  #toolCallOwner(id: string, owner: Owner, tag: string): Rejection {
    return reject(
      `@ag-ui/client 1.0.0 holds tool call ${q(id)} as owned by ${ownerName(owner)} (it also reads the toolCalls of non-assistant messages), not subagent ${q(tag)}`,
      "subagentRunId",
    );
  }

  /**
   * Seeds owners from replayed messages as 1.0.0 does: like this verifier, except that it
   * reads `toolCalls` on a message of any role, and iterating a `toolCalls` that is no list
   * throws. The rules accepted the messages, so each is an object with string `id` and `role`
   * (and an assistant's `toolCalls` a list of objects with string ids). A snapshot overwrites,
   * in order; the input echo comes at the start of a run, when 1.0.0 holds no owner, and its
   * first occurrence of an id wins.
   */
  #seed(messages: unknown, authoritative: boolean, path: string): Rejection | undefined {
    if (!Array.isArray(messages)) return undefined;
    const list: readonly unknown[] = messages;
    /** The echo's call ids before the first non-assistant one (only then needed). */
    let seen: Set<string> | undefined;
    for (let i = 0; i < list.length; i++) {
      const m = list[i] as Rec;
      const id = m.id as string;
      const role = m.role as string;
      const owner = tagOf(m);
      if (role !== "activity") {
        const registry = role === "reasoning" ? this.#reasoningOwners() : this.#messageOwners();
        if (authoritative || !registry.has(id)) registry.set(id, owner);
      }
      const calls = m.toolCalls;
      if (calls === undefined || calls === null) continue;
      if (!Array.isArray(calls)) {
        if (typeof calls === "string") continue; // iterates its characters, which have no id
        if (typeof (calls as { [Symbol.iterator]?: unknown })[Symbol.iterator] === "function") {
          return GIVE_UP; // an in-process iterable: not followed
        }
        return reject(
          `@ag-ui/client 1.0.0 iterates the toolCalls of every message, and those of message ${q(id)} (role ${q(role)}) are not a list`,
          `${path}[${i}].toolCalls`,
        );
      }
      const assistant = role === "assistant";
      if (!authoritative && !assistant && seen === undefined) seen = callIdsBefore(list, i);
      for (const call of calls as readonly unknown[]) {
        if (!isRecord(call) || typeof call.id !== "string") continue;
        const callId = call.id;
        if (authoritative) {
          // The verifier takes an assistant's calls too: the two agree on them again.
          if (assistant) this.#overlay?.delete(callId);
          else this.#overlayOwners().set(callId, owner);
        } else if (seen !== undefined && !seen.has(callId)) {
          seen.add(callId);
          if (!assistant) this.#overlayOwners().set(callId, owner);
        }
        if ((this.#overlay?.size ?? 0) > this.#maxIds) return GIVE_UP;
      }
    }
    return undefined;
  }
}

/** The call ids the assistant messages of `list` before `end` name. */
function callIdsBefore(list: readonly unknown[], end: number): Set<string> {
  const seen = new Set<string>();
  for (let i = 0; i < end; i++) {
    const m = list[i] as Rec;
    if (m.role !== "assistant" || !Array.isArray(m.toolCalls)) continue;
    for (const call of m.toolCalls as readonly Rec[]) seen.add(call.id as string);
  }
  return seen;
}

/** The owner an opener's or a message's tag names (the rules accepted it: a string or absent). */
function tagOf(e: Rec): Owner {
  const tag = e.subagentRunId;
  return typeof tag === "string" ? tag : PARENT;
}

function recordIfNone(registry: Map<string, Owner>, id: string, owner: Owner): void {
  if (!registry.has(id)) registry.set(id, owner);
}

/** `value[key]` as JavaScript reads it on any value but null and undefined (a string has no `type`). */
function propertyOf(value: unknown, key: string): unknown {
  return typeof value === "object" || typeof value === "function" ? (value as Rec)[key] : undefined;
}

function describeId(id: unknown): string {
  return typeof id === "string" ? q(id) : "without a string id";
}
