/**
 * CLIENT_REJECTS (SPEC §18.2): a model of what `@ag-ui/client` 1.0.0's pipeline, as
 * `HttpAgent` runs it (`enforceEvents`, `transformChunks`, `verifyEvents`), rejects in a
 * stream these rules accept: the rows of SPEC §13 whose right-hand column says so through
 * `HttpAgent` (4, 8, 11, 13), and what follows from its enforcement stage. Written from
 * 1.0.0's behaviour; nothing of the package is imported.
 *
 * What the enforcement stage does first, and so never reaches its verifier: an event of a
 * type it does not know is dropped (rows 1, 9, 15); a property a known event does not
 * describe is stripped (row 12's run-level tag, row 10's `toolCalls` on a message that is
 * no assistant's); a replayed message of a role it does not know is dropped from its list;
 * a described field with a value its schema refuses is fatal (rows 4, 8, 11).
 *
 * What its verifier then checks beyond these rules: it keeps one owner registry for
 * reasoning spans and reasoning messages (these rules keep two), and its message owners
 * differ from the verifier's where a dropped message named an id. This model keeps the
 * client's own owner registries, per run, and compares every tag the client compares. An
 * event these rules accept passes every other check of 1.0.0, on the same state.
 *
 * Only events the rules accepted reach it, and only until the client's first rejection: the
 * client's run errors there and it reads nothing more.
 * @module
 */

import { isRecord, type Owner, ownerName, PARENT, q, type Rec } from "../verify/verifier.ts";

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

const TAIL = "; @ag-ui/client 1.0.0's HttpAgent errors the run at this event.";

function reject(text: string, field?: string): Rejection {
  return { text: text + TAIL, field };
}

/** The roles 1.0.0's schema describes; a replayed message of any other is dropped. */
const ROLES = new Set([
  "developer",
  "system",
  "assistant",
  "user",
  "tool",
  "activity",
  "reasoning",
]);

/** The optional string fields of SUBAGENT_* events 1.0.0's schema describes, by type. */
const OPTIONAL_STRINGS: { readonly [type: string]: readonly string[] } = {
  SUBAGENT_STARTED: ["description", "parentToolCallId", "parentMessageId"],
  SUBAGENT_ERROR: ["code"],
};

/** What a kind of entity is called in a message. */
type Kind = "message" | "tool call" | "reasoning";

/**
 * The client's view of one stream. Each method takes an event the rules accepted and returns
 * what the client rejects in it, or undefined when it accepts it (and records its effects).
 */
export class ClientModel {
  readonly #maxIds: number;
  /** The client's owners, per run: text and tool messages, tool calls, reasoning (both kinds). */
  #messages: Map<string, Owner> | undefined;
  #calls: Map<string, Owner> | undefined;
  #reasoning: Map<string, Owner> | undefined;

  constructor(maxIds: number) {
    this.#maxIds = maxIds;
  }

  runStarted(e: Rec): Rejection | undefined {
    // The client clears every owner at each RUN_STARTED, as the verifier does.
    this.#messages = undefined;
    this.#calls = undefined;
    this.#reasoning = undefined;
    const input = e.input;
    return this.#seed(isRecord(input) ? input.messages : undefined, false);
  }

  messagesSnapshot(e: Rec): Rejection | undefined {
    return this.#seed(e.messages, true);
  }

  runFinished(e: Rec): Rejection | undefined {
    const outcome = e.outcome;
    if (isRecord(outcome) && outcome.type === "interrupt" && Array.isArray(outcome.interrupts)) {
      const interrupts: readonly unknown[] = outcome.interrupts;
      for (let i = 0; i < interrupts.length; i++) {
        const interrupt = interrupts[i];
        if (isRecord(interrupt) && interrupt.subagentRunId === null) {
          return reject(
            `interrupt ${describeId(interrupt.id)} has a null subagentRunId, which the schema of @ag-ui/client 1.0.0 refuses (omit it)`,
            `outcome.interrupts[${i}].subagentRunId`,
          );
        }
      }
    }
    return undefined;
  }

  /** TEXT_MESSAGE_START: the first opener of an id owns it; a tagged re-open must agree. */
  textMessageStart(e: Rec): Rejection | undefined {
    return this.#open(this.#registry("message"), "message", e.messageId as string, e);
  }

  /** TEXT_MESSAGE_CONTENT and TEXT_MESSAGE_END. */
  textMessageContinues(e: Rec): Rejection | undefined {
    return this.#agrees(this.#messages, "message", e.messageId as string, e);
  }

  /** TOOL_CALL_RESULT mints a tool message under its own tag, the newest mint winning. */
  toolCallResult(e: Rec): Rejection | undefined {
    return this.#record(this.#registry("message"), e.messageId as string, tagOf(e));
  }

  toolCallStart(e: Rec): Rejection | undefined {
    const id = e.toolCallId as string;
    const tag = e.subagentRunId as string | undefined;
    const parentId = e.parentMessageId as string | undefined;
    const inherited = parentId === undefined ? undefined : this.#messages?.get(parentId);
    if (inherited !== undefined && tag !== undefined && tag !== inherited) {
      // These rules make the same check on their own registry (rule 10); the two differ
      // only where a dropped message named the parent.
      return reject(
        `the client holds message ${q(parentId as string)}, the call's parent, as owned by ${ownerName(inherited)}, not subagent ${q(tag)}`,
        "subagentRunId",
      );
    }
    const calls = this.#registry("tool call");
    const owner = calls.get(id);
    if (owner === undefined) {
      return this.#record(calls, id, tag !== undefined ? tag : (inherited ?? PARENT));
    }
    if (tag !== undefined) return tag === owner ? undefined : mismatch("tool call", id, owner, tag);
    if (inherited === undefined || inherited === owner) return undefined;
    return reject(
      `the client holds tool call ${q(id)} as owned by ${ownerName(owner)}, but its parent message ${q(parentId as string)} as owned by ${ownerName(inherited)}`,
      "parentMessageId",
    );
  }

  /** TOOL_CALL_ARGS and TOOL_CALL_END. */
  toolCallContinues(e: Rec): Rejection | undefined {
    return this.#agrees(this.#calls, "tool call", e.toolCallId as string, e);
  }

  /** REASONING_START and REASONING_MESSAGE_START: one registry for both in 1.0.0 (row 13). */
  reasoningOpens(e: Rec): Rejection | undefined {
    return this.#open(this.#registry("reasoning"), "reasoning", e.messageId as string, e);
  }

  /** REASONING_MESSAGE_CONTENT, REASONING_MESSAGE_END and REASONING_END. */
  reasoningContinues(e: Rec): Rejection | undefined {
    return this.#agrees(this.#reasoning, "reasoning", e.messageId as string, e);
  }

  reasoningEncryptedValue(e: Rec): Rejection | undefined {
    const subtype = e.subtype as string;
    if (subtype !== "message" && subtype !== "tool-call") {
      // Row 8: the schema knows two subtypes, and a value outside them is fatal.
      return reject(
        `subtype ${q(subtype)} is neither "message" nor "tool-call", and the schema of @ag-ui/client 1.0.0 refuses any other`,
        "subtype",
      );
    }
    const tag = e.subagentRunId as string | undefined;
    if (tag === undefined) return undefined;
    const id = e.entityId as string;
    if (subtype === "tool-call") {
      const owner = this.#calls?.get(id);
      return owner === undefined || owner === tag
        ? undefined
        : mismatch("tool call", id, owner, tag);
    }
    // "message": a text or tool message's owner, else a reasoning one's (spans included).
    const text = this.#messages?.get(id);
    const owner = text !== undefined ? text : this.#reasoning?.get(id);
    return owner === undefined || owner === tag ? undefined : mismatch("message", id, owner, tag);
  }

  /** SUBAGENT_STARTED, SUBAGENT_FINISHED and SUBAGENT_ERROR: the fields these rules do not read (row 4). */
  subagent(type: string, e: Rec): Rejection | undefined {
    if (type === "SUBAGENT_STARTED" && typeof e.name !== "string") {
      return reject(
        "the schema of @ag-ui/client 1.0.0 requires a string name on SUBAGENT_STARTED",
        "name",
      );
    }
    if (type === "SUBAGENT_ERROR" && typeof e.message !== "string") {
      return reject(
        "the schema of @ag-ui/client 1.0.0 requires a string message on SUBAGENT_ERROR",
        "message",
      );
    }
    for (const field of OPTIONAL_STRINGS[type] ?? []) {
      const value = e[field];
      if (value !== undefined && typeof value !== "string") {
        return reject(
          `${field} is ${value === null ? "null" : "no string"}, and the schema of @ag-ui/client 1.0.0 takes only a string here (or the field omitted)`,
          field,
        );
      }
    }
    if (type !== "SUBAGENT_FINISHED") return undefined;
    if (e.result === null) {
      return reject(
        "result is null, which the schema of @ag-ui/client 1.0.0 refuses (omit it)",
        "result",
      );
    }
    const outcome = e.outcome;
    if (outcome === undefined) return undefined;
    if (!isRecord(outcome) || Array.isArray(outcome)) {
      return reject(
        "outcome is no object, and the schema of @ag-ui/client 1.0.0 takes only an object here (or the field omitted)",
        "outcome",
      );
    }
    // An outcome of another type is an unknown member of its union: the client drops it.
    if (outcome.type !== "suspended") return undefined;
    const ids = outcome.interruptIds;
    if (ids === undefined) return undefined;
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== "string")) {
      return reject(
        "outcome.interruptIds is not a list of strings, which the schema of @ag-ui/client 1.0.0 requires (or the field omitted)",
        "outcome.interruptIds",
      );
    }
    return undefined;
  }

  // --- the registries ---------------------------------------------------------------------

  #registry(kind: Kind): Map<string, Owner> {
    if (kind === "message") {
      if (this.#messages === undefined) this.#messages = new Map();
      return this.#messages;
    }
    if (kind === "tool call") {
      if (this.#calls === undefined) this.#calls = new Map();
      return this.#calls;
    }
    if (this.#reasoning === undefined) this.#reasoning = new Map();
    return this.#reasoning;
  }

  /** An opener: the first one records its owner; a tagged one must agree with it. */
  #open(registry: Map<string, Owner>, kind: Kind, id: string, e: Rec): Rejection | undefined {
    const owner = registry.get(id);
    if (owner === undefined) return this.#record(registry, id, tagOf(e));
    const tag = e.subagentRunId as string | undefined;
    return tag === undefined || tag === owner ? undefined : mismatch(kind, id, owner, tag);
  }

  /** A continuation: a tag must agree with the recorded owner. */
  #agrees(
    registry: Map<string, Owner> | undefined,
    kind: Kind,
    id: string,
    e: Rec,
  ): Rejection | undefined {
    const tag = e.subagentRunId as string | undefined;
    if (tag === undefined) return undefined;
    const owner = registry?.get(id);
    return owner === undefined || owner === tag ? undefined : mismatch(kind, id, owner, tag);
  }

  #record(registry: Map<string, Owner>, id: string, owner: Owner): Rejection | undefined {
    registry.set(id, owner);
    return this.#held() > this.#maxIds ? GIVE_UP : undefined;
  }

  #held(): number {
    return (this.#messages?.size ?? 0) + (this.#calls?.size ?? 0) + (this.#reasoning?.size ?? 0);
  }

  /**
   * Seeds owners from replayed messages as 1.0.0 does once its enforcement stage has run: a
   * message of a role it does not know is dropped, and only an assistant's `toolCalls` are
   * kept. A snapshot overwrites; the input echo records only ids not yet recorded. The rules
   * accepted the list, so each message is an object with string `id` and `role`.
   */
  #seed(messages: unknown, authoritative: boolean): Rejection | undefined {
    if (!Array.isArray(messages)) return undefined;
    for (const m of messages as readonly Rec[]) {
      const role = m.role as string;
      if (!ROLES.has(role) || role === "activity") continue; // activities: as the verifier
      const registry = this.#registry(role === "reasoning" ? "reasoning" : "message");
      const id = m.id as string;
      if (authoritative || !registry.has(id)) registry.set(id, tagOf(m));
      const calls = m.toolCalls;
      if (role !== "assistant" || !Array.isArray(calls)) continue;
      const owners = this.#registry("tool call");
      for (const call of calls as readonly unknown[]) {
        if (!isRecord(call) || typeof call.id !== "string") continue;
        if (authoritative || !owners.has(call.id)) owners.set(call.id, tagOf(m));
      }
      if (this.#held() > this.#maxIds) return GIVE_UP;
    }
    return undefined;
  }
}

function mismatch(kind: Kind, id: string, owner: Owner, tag: string): Rejection {
  const what = kind === "reasoning" ? "reasoning id" : kind;
  const why =
    kind === "reasoning"
      ? " (it keeps one owner per id for reasoning spans and reasoning messages)"
      : kind === "message"
        ? " (it drops replayed messages of roles it does not know, so its owners may differ from these rules')"
        : "";
  return reject(
    `the client holds ${what} ${q(id)} as owned by ${ownerName(owner)}, not subagent ${q(tag)}${why}`,
    "subagentRunId",
  );
}

/** The owner an opener's or a message's tag names (the rules accepted it: a string or absent). */
function tagOf(e: Rec): Owner {
  const tag = e.subagentRunId;
  return typeof tag === "string" ? tag : PARENT;
}

function describeId(id: unknown): string {
  return typeof id === "string" ? q(id) : "without a string id";
}
