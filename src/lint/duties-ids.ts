/**
 * The producer duties of AG-UI 1.1 about message and tool-call ids across a stream (SPEC
 * §18.5): a message id names one message (`MESSAGE_ID_NOT_UNIQUE`), and a re-opening start
 * agrees with what it re-opens (`TEXT_REOPEN_MISMATCH`, `TOOL_CALL_REOPEN_MISMATCH`). Per
 * stream: a message of an earlier run is still the same message.
 *
 * What it holds (SPEC §17): per message id its kind, per text message its role, name and
 * owner, per tool call its name, parent and owner; each weighed by its strings' length like
 * the verifier's ids, and nothing more is added once they reach `maxIds` (a later use of an
 * id it could not record is not judged).
 * @module
 */

import { isRecord, q, type Rec, weight } from "../verify/verifier.ts";
import type { Warning } from "./warnings.ts";

/** A text message as its first start made it. */
interface Text {
  readonly role: string;
  readonly name: string | undefined;
  /** Its subagent tag, or null for the parent agent. */
  readonly owner: string | null;
}

/** A tool call as its first start made it. */
interface Call {
  readonly name: string | undefined;
  readonly parent: string | undefined;
  readonly owner: string | null;
}

/** What a string weighs against `maxIds`, as the verifier weighs ids (SPEC §17.1); none for none. */
function weigh(text: string | undefined): number {
  return text === undefined ? 0 : weight(text);
}

const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** Watches one stream's message and tool-call ids. */
export class IdDuties {
  readonly #maxIds: number;
  #held = 0;
  /** Message id → its kind: a text message's role, "tool", "reasoning", "activity", or a snapshot message's role. */
  readonly #kinds = new Map<string, string>();
  /** The tool messages a TOOL_CALL_RESULT minted. */
  readonly #minted = new Set<string>();
  readonly #texts = new Map<string, Text>();
  readonly #calls = new Map<string, Call>();
  /** Tool calls known otherwise: by chunk, in a snapshot or in the input echo. */
  readonly #otherCalls = new Set<string>();
  /** Messages of the input echo. */
  readonly #echoed = new Set<string>();
  /** Something did not fit: an id not found may be one not recorded. */
  #full = false;

  constructor(maxIds: number) {
    this.#maxIds = maxIds;
  }

  #fits(weight: number): boolean {
    if (this.#held + weight > this.#maxIds) {
      this.#full = true;
      return false;
    }
    this.#held += weight;
    return true;
  }

  /** Adds `id` to `set` when it fits. */
  #hold(set: Set<string>, id: unknown): void {
    if (typeof id === "string" && !set.has(id) && this.#fits(weigh(id))) set.add(id);
  }

  /** Whether `id` names a tool call the stream (or its input echo) holds. */
  #isCall(id: string): boolean {
    return this.#calls.has(id) || this.#otherCalls.has(id);
  }

  /** A chunk: the message or call it streams is known from now on. */
  chunk(type: string, e: Rec): void {
    if (type === "TOOL_CALL_CHUNK") {
      if (!this.#calls.has(e.toolCallId as string)) this.#hold(this.#otherCalls, e.toolCallId);
      return;
    }
    const id = e.messageId;
    if (typeof id !== "string" || this.#kinds.has(id)) return;
    const kind = type === "TEXT_MESSAGE_CHUNK" ? (str(e.role) ?? "assistant") : "reasoning";
    if (this.#fits(weigh(id))) this.#kinds.set(id, kind);
  }

  /** The messages of a RUN_STARTED's input echo, and their tool calls. */
  echo(messages: unknown): void {
    if (!Array.isArray(messages)) return;
    for (const m of messages) {
      if (!isRecord(m)) continue;
      this.#hold(this.#echoed, m.id);
      this.#toolCalls(m.toolCalls);
    }
  }

  #toolCalls(calls: unknown): void {
    if (!Array.isArray(calls)) return;
    for (const c of calls) {
      if (isRecord(c) && !this.#calls.has(c.id as string)) this.#hold(this.#otherCalls, c.id);
    }
  }

  /**
   * ENCRYPTED_VALUE_UNKNOWN_ENTITY: an entity id naming nothing the stream or its input echo
   * holds, an activity, or the other kind than `subtype` says. Other subtypes are not judged.
   */
  encrypted(e: Rec): Warning[] | undefined {
    const subtype = e.subtype;
    const id = e.entityId as string;
    let what: string;
    if (subtype === "message") {
      const kind = this.#kinds.get(id);
      if (kind === undefined) {
        if (this.#echoed.has(id)) return undefined;
        if (this.#isCall(id)) what = "a tool call, not a message";
        else if (this.#full) return undefined;
        else what = "no message the stream or its input holds";
      } else if (kind === "activity") what = "an activity, which carries no encrypted value";
      else return undefined;
    } else if (subtype === "tool-call") {
      if (this.#isCall(id)) return undefined;
      if (this.#kinds.has(id) || this.#echoed.has(id)) what = "a message, not a tool call";
      else if (this.#full) return undefined;
      else what = "no tool call the stream or its input holds";
    } else return undefined;
    return [
      {
        code: "ENCRYPTED_VALUE_UNKNOWN_ENTITY",
        text: `entityId ${q(id)} (subtype ${q(subtype)}) names ${what}; 1.1 says an encrypted value whose entityId "names nothing the consumer knows cannot be stored where it belongs" and a consumer "SHOULD warn and MAY drop it" (events/reasoning), so the value never returns to the producer.`,
        eventType: "REASONING_ENCRYPTED_VALUE",
        field: "entityId",
        subject: id,
      },
    ];
  }

  /** The kind `id` is recorded as, or records it (when it fits). */
  #kindOf(id: string, kind: string): string | undefined {
    const known = this.#kinds.get(id);
    if (known === undefined && this.#fits(weigh(id))) this.#kinds.set(id, kind);
    return known;
  }

  textStart(e: Rec): Warning[] | undefined {
    const id = e.messageId as string;
    const role = str(e.role) ?? "assistant";
    const name = str(e.name);
    const owner = str(e.subagentRunId) ?? null;
    const text = this.#texts.get(id);
    if (text !== undefined) {
      const tag = str(e.subagentRunId);
      const field =
        role !== text.role
          ? "role"
          : name !== undefined && name !== text.name
            ? "name"
            : tag !== undefined && tag !== text.owner
              ? "subagentRunId"
              : undefined;
      return field === undefined ? undefined : [reopenText(id, field, e, text)];
    }
    const kind = this.#kindOf(id, role);
    if (this.#fits(weigh(name) + 1)) this.#texts.set(id, { role, name, owner });
    return kind === undefined || kind === role
      ? undefined
      : [notUnique(id, kind, role, "TEXT_MESSAGE_START", "messageId")];
  }

  toolStart(e: Rec): Warning[] | undefined {
    const id = e.toolCallId as string;
    const name = str(e.toolCallName);
    const parent = str(e.parentMessageId);
    const tag = str(e.subagentRunId);
    const call = this.#calls.get(id);
    if (call !== undefined) {
      const field =
        name !== undefined && name !== call.name
          ? "toolCallName"
          : parent !== undefined && parent !== call.parent
            ? "parentMessageId"
            : tag !== undefined && tag !== call.owner
              ? "subagentRunId"
              : undefined;
      return field === undefined ? undefined : [reopenCall(id, field, e, call)];
    }
    // An untagged call belongs to its parent message's agent (SPEC §8.2).
    const owner = tag ?? (parent === undefined ? null : (this.#texts.get(parent)?.owner ?? null));
    if (this.#fits(weigh(id) + weigh(name) + weigh(parent))) {
      this.#calls.set(id, { name, parent, owner });
    }
    return undefined;
  }

  /** A tool message minted by a result: a second result for it mints it twice. */
  result(e: Rec): Warning[] | undefined {
    const id = e.messageId as string;
    if (this.#minted.has(id)) {
      return [
        {
          code: "MESSAGE_ID_NOT_UNIQUE",
          text: `tool message ${q(id)} was already minted by an earlier TOOL_CALL_RESULT; ${UNIQUE}`,
          eventType: "TOOL_CALL_RESULT",
          field: "messageId",
          subject: id,
        },
      ];
    }
    const kind = this.#kindOf(id, "tool");
    if (kind !== undefined && kind !== "tool") {
      return [notUnique(id, kind, "tool", "TOOL_CALL_RESULT", "messageId")];
    }
    // Held as long as its kind is (the entry shares the kind's id).
    if (this.#kinds.has(id)) this.#minted.add(id);
    return undefined;
  }

  /** A reasoning message's or an activity's id (`kind` "reasoning" or "activity"). */
  opened(e: Rec, kind: string, eventType: string): Warning[] | undefined {
    const id = e.messageId;
    if (typeof id !== "string") return undefined;
    const known = this.#kindOf(id, kind);
    return known === undefined || known === kind
      ? undefined
      : [notUnique(id, known, kind, eventType, "messageId")];
  }

  snapshot(messages: unknown): Warning[] | undefined {
    if (!Array.isArray(messages)) return undefined;
    let found: Warning[] | undefined;
    const seen = new Set<string>();
    for (let i = 0; i < messages.length; i++) {
      const m: unknown = messages[i];
      if (!isRecord(m)) continue;
      this.#toolCalls(m.toolCalls);
      const id = m.id;
      const role = m.role;
      if (typeof id !== "string" || typeof role !== "string") continue;
      const field = `messages[${i}].id`;
      let w: Warning | undefined;
      if (seen.has(id)) {
        w = {
          code: "MESSAGE_ID_NOT_UNIQUE",
          text: `message id ${q(id)} appears twice in the snapshot; ${UNIQUE}`,
          eventType: "MESSAGES_SNAPSHOT",
          field,
          subject: id,
        };
      } else {
        seen.add(id);
        const known = this.#kindOf(id, role);
        if (known !== undefined && known !== role) {
          w = notUnique(id, known, role, "MESSAGES_SNAPSHOT", field);
        }
      }
      if (w !== undefined) found = found === undefined ? [w] : [...found, w];
    }
    return found;
  }
}

const UNIQUE =
  '1.1 says "messageId … MUST be unique within its thread" (basic/index), and a client that keys messages by id shows one message where two were sent.';

/** A kind as a message names it. */
function kindName(kind: string): string {
  if (kind === "tool") return "a tool message";
  if (kind === "reasoning") return "a reasoning message";
  if (kind === "activity") return "an activity";
  return `a message with role ${q(kind)}`;
}

function notUnique(
  id: string,
  was: string,
  now: string,
  eventType: string,
  field: string,
): Warning {
  return {
    code: "MESSAGE_ID_NOT_UNIQUE",
    text: `message id ${q(id)} already names ${kindName(was)}, not ${kindName(now)}; ${UNIQUE}`,
    eventType,
    field,
    subject: id,
  };
}

function shownValue(value: unknown): string {
  return typeof value === "string" ? q(value) : "none";
}

function reopenText(id: string, field: string, e: Rec, text: Text): Warning {
  const was =
    field === "role"
      ? q(text.role)
      : field === "name"
        ? shownValue(text.name)
        : text.owner === null
          ? "the parent agent"
          : q(text.owner);
  const now = field === "role" ? q(str(e.role) ?? "assistant") : q(String(e[field]));
  return {
    code: "TEXT_REOPEN_MISMATCH",
    text: `re-opening text message ${q(id)} with ${field} ${now}, where it had ${was}; 1.1 says "A reopening TEXT_MESSAGE_START MUST agree with the message it reopens — the same owner, the same role, the same name" (events/text-messages), and a client may keep either value.`,
    eventType: "TEXT_MESSAGE_START",
    field,
    subject: id,
  };
}

function reopenCall(id: string, field: string, e: Rec, call: Call): Warning {
  const was =
    field === "toolCallName"
      ? shownValue(call.name)
      : field === "parentMessageId"
        ? shownValue(call.parent)
        : call.owner === null
          ? "the parent agent"
          : q(call.owner);
  return {
    code: "TOOL_CALL_REOPEN_MISMATCH",
    text: `re-opening tool call ${q(id)} with ${field} ${q(String(e[field]))}, where it had ${was}; 1.1 says "A reopening start MUST agree with the call it reopens — the same toolCallName, the same parentMessageId, the same owner" (events/tool-calls), and a client may keep either value.`,
    eventType: "TOOL_CALL_START",
    field,
    subject: id,
  };
}
