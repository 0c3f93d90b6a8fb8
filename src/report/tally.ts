/**
 * What a stream held, event by event: counts by type, runs and how they ended, and the
 * subagent tree. Fed each event once the verifier accepted it.
 * @module
 */

import type { SsePosition } from "../sse/positions.ts";
import { clip } from "./safe.ts";

/** How a run ended: its `RUN_FINISHED` outcome, or its `RUN_ERROR`. */
export interface RunOutcome {
  readonly event: "RUN_FINISHED" | "RUN_ERROR";
  /** `success` (also when RUN_FINISHED has no outcome), `interrupt`, …, or `error`. */
  readonly type: string;
  readonly interrupts?: number;
  readonly message?: string;
  readonly code?: string;
}

/** A subagent, with the ones it spawned. */
export interface SubagentNode {
  readonly id: string;
  readonly name: string | undefined;
  status: string;
  readonly children: SubagentNode[];
}

export interface RunSummary {
  readonly threadId: string | undefined;
  readonly runId: string | undefined;
  outcome: RunOutcome | undefined;
  /** The subagents no known subagent spawned; the rest hang below them. */
  readonly subagents: SubagentNode[];
}

/** An accepted event and where its message starts. */
export interface Seen {
  readonly index: number;
  readonly event: Record<string, unknown>;
  readonly position: SsePosition | undefined;
}

type Rec = Record<string, unknown>;
type Kind = "messages" | "toolCalls" | "reasoningMessages";

const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
/** `value[key]` when value is an object. */
const get = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null ? Reflect.get(value, key) : undefined;

/** Chunk events count once per id (their first), as a message or call of their kind. */
const CHUNK_KINDS = new Map<string, [kind: Kind, idField: string]>([
  ["TEXT_MESSAGE_CHUNK", ["messages", "messageId"]],
  ["TOOL_CALL_CHUNK", ["toolCalls", "toolCallId"]],
  ["REASONING_MESSAGE_CHUNK", ["reasoningMessages", "messageId"]],
]);

/** The longest RUN_ERROR message or code kept (a report holds it, in --json too). */
const OUTCOME_MAX = 2000;

function outcomeOf(event: Rec): RunOutcome {
  if (event.type === "RUN_ERROR") {
    const found = str(event.code);
    const code = found === undefined ? undefined : clip(found, OUTCOME_MAX);
    const message = clip(str(event.message) ?? "", OUTCOME_MAX);
    return { event: "RUN_ERROR", type: "error", message, ...(code === undefined ? {} : { code }) };
  }
  const type = str(get(event.outcome, "type")) ?? "success";
  const interrupts = get(event.outcome, "interrupts");
  return type === "interrupt" && Array.isArray(interrupts)
    ? { event: "RUN_FINISHED", type, interrupts: interrupts.length }
    : { event: "RUN_FINISHED", type };
}

/** Types that do more than count. */
const SPECIAL = new Set([
  "RUN_STARTED",
  "RUN_FINISHED",
  "RUN_ERROR",
  "SUBAGENT_STARTED",
  "SUBAGENT_FINISHED",
  "SUBAGENT_ERROR",
  ...CHUNK_KINDS.keys(),
]);

export class Tally {
  events = 0;
  readonly runs: RunSummary[] = [];
  /** The last three accepted events, oldest first; only when asked for. */
  readonly recent: Seen[] | undefined;
  readonly #counts = new Map<string, { n: number }>();
  // Events of one type come in runs (a message streams token by token): its count cell,
  // kept at hand, spares hashing the type string each time.
  #lastType = "";
  #lastCount = { n: 0 };
  #lastSpecial = false;
  readonly #chunked = { messages: 0, toolCalls: 0, reasoningMessages: 0 };
  #chunkIds = new Set<string>();
  #nodes = new Map<string, SubagentNode>();

  constructor(keepRecent: boolean) {
    this.recent = keepRecent ? [] : undefined;
  }

  /** Events by type, in the order each type first came. */
  get byType(): Map<string, number> {
    return new Map([...this.#counts].map(([type, { n }]) => [type, n]));
  }

  count(type: string): number {
    return this.#counts.get(type)?.n ?? 0;
  }

  get messages(): number {
    return this.count("TEXT_MESSAGE_START") + this.#chunked.messages;
  }
  get toolCalls(): number {
    return this.count("TOOL_CALL_START") + this.#chunked.toolCalls;
  }
  get reasoningMessages(): number {
    return this.count("REASONING_MESSAGE_START") + this.#chunked.reasoningMessages;
  }
  get steps(): number {
    return this.count("STEP_STARTED");
  }
  get subagents(): number {
    return this.count("SUBAGENT_STARTED");
  }

  /** Records one accepted event (the verifier guarantees an object with a string type). */
  add(event: Rec, position?: SsePosition): void {
    const index = this.events++;
    if (this.recent !== undefined) {
      if (this.recent.length === 3) this.recent.shift();
      this.recent.push({ index, event, position });
    }
    const type = event.type;
    if (typeof type !== "string") return;
    if (type === this.#lastType) {
      this.#lastCount.n++;
      if (!this.#lastSpecial) return;
    } else {
      let cell = this.#counts.get(type);
      if (cell === undefined) {
        cell = { n: 0 };
        this.#counts.set(type, cell);
      }
      cell.n++;
      this.#lastType = type;
      this.#lastCount = cell;
      this.#lastSpecial = SPECIAL.has(type);
      if (!this.#lastSpecial) return;
    }
    const run = this.runs[this.runs.length - 1];
    switch (type) {
      case "RUN_STARTED":
        this.runs.push({
          threadId: str(event.threadId),
          runId: str(event.runId),
          outcome: undefined,
          subagents: [],
        });
        this.#chunkIds = new Set();
        this.#nodes = new Map();
        return;
      case "RUN_FINISHED":
      case "RUN_ERROR":
        if (run !== undefined) run.outcome = outcomeOf(event);
        return;
      case "SUBAGENT_STARTED": {
        const id = str(event.subagentRunId) ?? "";
        const node: SubagentNode = { id, name: str(event.name), status: "running", children: [] };
        this.#nodes.set(id, node);
        const parent = this.#nodes.get(str(event.parentSubagentRunId) ?? "\0");
        (parent?.children ?? run?.subagents)?.push(node);
        return;
      }
      case "SUBAGENT_FINISHED":
      case "SUBAGENT_ERROR": {
        const node = this.#nodes.get(str(event.subagentRunId) ?? "");
        if (node === undefined) return;
        node.status =
          type === "SUBAGENT_ERROR" ? "error" : (str(get(event.outcome, "type")) ?? "success");
        return;
      }
    }
    const chunk = CHUNK_KINDS.get(type);
    if (chunk !== undefined) {
      const id = str(event[chunk[1]]);
      const key = `${type}\0${id}`;
      if (id !== undefined && !this.#chunkIds.has(key)) {
        this.#chunkIds.add(key);
        this.#chunked[chunk[0]]++;
      }
    }
  }
}
