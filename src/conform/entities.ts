/**
 * The messages and tool calls a stream (or its input echo) holds, for the warning 1.1 asks
 * for on a `REASONING_ENCRYPTED_VALUE` naming none of them (events/reasoning: "a consumer
 * SHOULD warn and MAY drop it, and MUST NOT fail the run over it"). Per stream; each id
 * weighed against `maxIds` as the verifier weighs ids (SPEC §17.1): past the limit nothing
 * more is recorded, and an id not found is no longer reported.
 * @module
 */

import type { AgUiEvent } from "../events/index.ts";
import { isRecord, q, weight } from "../verify/verifier.ts";

export class Entities {
  readonly #max: number;
  #held = 0;
  #full = false;
  readonly #messages = new Set<string>();
  readonly #calls = new Set<string>();
  readonly #activities = new Set<string>();

  constructor(maxIds: number) {
    this.#max = maxIds;
  }

  #add(set: Set<string>, id: unknown): void {
    if (typeof id !== "string" || set.has(id)) return;
    const w = weight(id);
    if (this.#held + w > this.#max) {
      this.#full = true;
      return;
    }
    this.#held += w;
    set.add(id);
  }

  /** Records what `event` names; for an encrypted value naming nothing known, the words. */
  see(event: AgUiEvent): string | undefined {
    switch (event.type) {
      case "TEXT_MESSAGE_START":
      case "TEXT_MESSAGE_CHUNK":
      case "REASONING_MESSAGE_START":
      case "REASONING_MESSAGE_CHUNK":
      case "TOOL_CALL_RESULT":
        this.#add(this.#messages, event.messageId);
        return undefined;
      case "TOOL_CALL_START":
      case "TOOL_CALL_CHUNK":
        this.#add(this.#calls, event.toolCallId);
        return undefined;
      case "ACTIVITY_SNAPSHOT":
        this.#add(this.#activities, event.messageId);
        return undefined;
      case "MESSAGES_SNAPSHOT":
        this.#list(event.messages);
        return undefined;
      case "RUN_STARTED":
        if (isRecord(event.input)) this.#list(event.input.messages);
        return undefined;
      case "REASONING_ENCRYPTED_VALUE":
        return this.#unknown(event.subtype, event.entityId);
      default:
        return undefined;
    }
  }

  #list(messages: unknown): void {
    if (!Array.isArray(messages)) return;
    for (const m of messages) {
      if (!isRecord(m)) continue;
      this.#add(m.role === "activity" ? this.#activities : this.#messages, m.id);
      if (!Array.isArray(m.toolCalls)) continue;
      for (const c of m.toolCalls) if (isRecord(c)) this.#add(this.#calls, c.id);
    }
  }

  #unknown(subtype: unknown, id: unknown): string | undefined {
    if (typeof id !== "string") return undefined;
    const calls = subtype === "tool-call";
    const known = calls ? this.#calls : this.#messages;
    if (known.has(id) || (this.#full && !this.#activities.has(id))) return undefined;
    const what = this.#activities.has(id)
      ? "an activity, which carries no encrypted value"
      : calls
        ? "no tool call of the stream or its input"
        : "no message of the stream or its input";
    return `entityId ${q(id)} names ${what}; the value is delivered, and a consumer that stores it by entity has nowhere to keep it (1.1 events/reasoning: "a consumer SHOULD warn and MAY drop it").`;
  }
}
