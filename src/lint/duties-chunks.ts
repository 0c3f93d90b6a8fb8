/**
 * The producer duty of AG-UI 1.1 about the two spellings of a streamed item (SPEC §18.5,
 * `CHUNK_TRIAD_MIXED`): an item opened by a `*_START` is continued and closed explicitly,
 * and one opened by a chunk is continued in chunks. Per run, while the item is open: an id
 * closed and re-opened in the other form is legal.
 *
 * A chunk stream stays open, in its lane (the parent agent's, or a subagent's by its tag),
 * until 1.1's streaming page says it can no longer continue: a chunk of another item in the
 * lane; a message, tool-call, step, state, custom or reasoning event in the lane (`RAW`,
 * the activity events, `REASONING_ENCRYPTED_VALUE` and `SUBAGENT_STARTED` close nothing);
 * a run-level event or `MESSAGES_SNAPSHOT` (every lane); the lane's subagent terminating.
 *
 * What it holds (SPEC §17), per run: the items opened by a start and not yet ended (the
 * verifier holds the same ones, within `maxIds`), and one chunk stream per lane.
 * @module
 */

import { q, type Rec } from "../verify/verifier.ts";
import type { Warning } from "./warnings.ts";

/** The three kinds of streamed item, and what else an event is to a chunk stream. */
type Kind = 0 | 1 | 2;
const TEXT = 0;
const CALL = 1;
const REASONING = 2;
/** Bits: the event's kind (low two bits) and its part. */
const START = 4;
const MIDDLE = 8;
const END = 16;
const CHUNK = 32;
/** Closes the lane it is in. */
const LANE = 64;
/** Closes every lane. */
const ALL = 128;
/** Closes the lane of the subagent it names. */
const TERMINAL = 256;

const ROLES = new Map<string, number>([
  ["TEXT_MESSAGE_START", TEXT | START],
  ["TEXT_MESSAGE_CONTENT", TEXT | MIDDLE],
  ["TEXT_MESSAGE_END", TEXT | END],
  ["TEXT_MESSAGE_CHUNK", TEXT | CHUNK],
  ["TOOL_CALL_START", CALL | START],
  ["TOOL_CALL_ARGS", CALL | MIDDLE],
  ["TOOL_CALL_END", CALL | END],
  ["TOOL_CALL_CHUNK", CALL | CHUNK],
  ["REASONING_MESSAGE_START", REASONING | START],
  ["REASONING_MESSAGE_CONTENT", REASONING | MIDDLE],
  ["REASONING_MESSAGE_END", REASONING | END],
  ["REASONING_MESSAGE_CHUNK", REASONING | CHUNK],
  ["TOOL_CALL_RESULT", LANE],
  ["REASONING_START", LANE],
  ["REASONING_END", LANE],
  ["STEP_STARTED", LANE],
  ["STEP_FINISHED", LANE],
  ["STATE_SNAPSHOT", LANE],
  ["STATE_DELTA", LANE],
  ["CUSTOM", LANE],
  ["RUN_STARTED", ALL],
  ["RUN_FINISHED", ALL],
  ["RUN_ERROR", ALL],
  ["MESSAGES_SNAPSHOT", ALL],
  ["SUBAGENT_FINISHED", TERMINAL],
  ["SUBAGENT_ERROR", TERMINAL],
]);

const ID = ["messageId", "toolCallId", "messageId"] as const;
const NOUN = ["text message", "tool call", "reasoning message"] as const;

/** A chunk stream being assembled. */
interface Open {
  readonly kind: Kind;
  readonly id: string;
}

/** The parent agent's lane. */
const PARENT = "";

/** Watches one stream for items spelled both ways. */
export class ChunkDuties {
  /** Per kind, the items a start opened in this run and no end closed yet. */
  #explicit: [Set<string>, Set<string>, Set<string>] = [new Set(), new Set(), new Set()];
  /** Per lane, its open chunk stream. */
  #lanes = new Map<string, Open>();
  /** Per kind, the lane of each open chunk stream, by id. */
  #chunked: [Map<string, string>, Map<string, string>, Map<string, string>] = [
    new Map(),
    new Map(),
    new Map(),
  ];

  event(type: string, e: Rec): Warning[] | undefined {
    const role = ROLES.get(type);
    if (role === undefined) return undefined;
    if (role & ALL) {
      if (type === "RUN_STARTED") this.#explicit = [new Set(), new Set(), new Set()];
      if (this.#lanes.size > 0) {
        this.#lanes = new Map();
        this.#chunked = [new Map(), new Map(), new Map()];
      }
      return undefined;
    }
    // With no chunk stream open, only a chunk, a start or an end changes anything.
    if (this.#lanes.size === 0 && (role & (START | END | CHUNK)) === 0) return undefined;
    const tag = e.subagentRunId;
    const lane = typeof tag === "string" ? tag : PARENT;
    if (role & (TERMINAL | LANE)) {
      this.#close(lane);
      return undefined;
    }
    const kind = (role & 3) as Kind;
    const id = e[ID[kind]];
    if (role & CHUNK) {
      // An id-less chunk continues what is open: nothing is spelled twice.
      if (typeof id !== "string") return undefined;
      const open = this.#lanes.get(lane);
      if (open !== undefined && open.kind === kind && open.id === id) return undefined;
      this.#close(lane);
      // A chunk of an item a start opened: the item stays the explicit one (one finding).
      if (this.#explicit[kind].has(id)) return [mixed(type, kind, id, "a start opened")];
      this.#lanes.set(lane, { kind, id });
      this.#chunked[kind].set(id, lane);
      return undefined;
    }
    // An explicit start, content or end: the verifier accepted it, so its id is a string.
    const key = id as string;
    const chunkLane = this.#chunked[kind].get(key);
    let found: Warning[] | undefined;
    if (chunkLane !== undefined) {
      found = [mixed(type, kind, key, "a chunk opened")];
      this.#close(chunkLane);
    }
    this.#close(lane);
    if (role & START) this.#explicit[kind].add(key);
    else if (role & END) this.#explicit[kind].delete(key);
    return found;
  }

  #close(lane: string): void {
    const open = this.#lanes.get(lane);
    if (open === undefined) return;
    this.#lanes.delete(lane);
    const chunked = this.#chunked[open.kind];
    if (chunked.get(open.id) === lane) chunked.delete(open.id);
  }
}

function mixed(type: string, kind: Kind, id: string, how: string): Warning {
  const spelled = how === "a chunk opened" ? "an explicit event" : "a chunk";
  return {
    code: "CHUNK_TRIAD_MIXED",
    text: `${spelled} continues ${NOUN[kind]} ${q(id)}, which ${how} and is still open; 1.1 calls mixing the chunk and explicit forms within one item "a malformed sequence a producer MUST NOT emit" (basic/patterns/streaming), and a client that expands chunks ends the item early or opens it twice.`,
    eventType: type,
    field: ID[kind],
    subject: id,
  };
}
