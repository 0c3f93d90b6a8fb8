/**
 * Checking a recorded stream (a capture) for the `ag-ui-verify` command: SSE or JSON Lines
 * bytes in, chunk by chunk, each message verified as it completes, with the line and byte
 * offset where it starts, and a {@link Tally} of what the stream held. Web-standard only:
 * the command (src/cli.ts) does the reading. Not part of the library's API.
 * @module
 */

import { SseDecodeFailure } from "./errors.ts";
import { isAgUiEvent } from "./events.ts";
import { type DecoderOptions, SseDecoder } from "./sse-decoder.ts";
import { Verifier, type VerifierOptions } from "./verifier.ts";

/** The formats a capture can be in. */
export type CaptureFormat = "sse" | "jsonl";

/** Where something starts in a capture: a 1-based line number and a 0-based byte offset. */
export interface Position {
  readonly line: number;
  readonly offset: number;
}

const LF = 10;
const CR = 13;
const DEFAULT_MAX_BUFFER_SIZE = 10 * 1024 * 1024;

function hasBom(bytes: Uint8Array): boolean {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/**
 * Guesses a capture's format from its first bytes: JSON Lines when the first character
 * that is not whitespace (after a BOM) is `{` or `[`, SSE otherwise (SSE starts with a
 * field name or a `:` comment). Undefined while the bytes are all whitespace.
 */
export function detectFormat(start: Uint8Array): CaptureFormat | undefined {
  for (let i = hasBom(start) ? 3 : 0; i < start.length; i++) {
    const b = start[i];
    if (b === 0x20 || b === 0x09 || b === LF || b === CR) continue;
    return b === 0x7b || b === 0x5b ? "jsonl" : "sse";
  }
  return undefined;
}

/** One accepted event and where it was. */
export interface Seen {
  readonly index: number;
  readonly event: unknown;
  readonly position: Position | undefined;
}

/** How a run ended: its `RUN_FINISHED` outcome, or its `RUN_ERROR`. */
export interface RunOutcome {
  readonly event: "RUN_FINISHED" | "RUN_ERROR";
  /** `success` (also when RUN_FINISHED has no outcome), `interrupt`, `cancelled`, or `error`. */
  readonly type: string;
  /** For an interrupt outcome, how many interrupts it carries. */
  readonly interrupts?: number;
  /** For RUN_ERROR, its message and code. */
  readonly message?: string;
  readonly code?: string;
}

/** A subagent invocation, with the ones it spawned (`parentSubagentRunId`). */
export interface SubagentNode {
  readonly id: string;
  readonly name: string | undefined;
  /** `running`, `success`, `suspended`, … or `error`. */
  status: string;
  readonly children: SubagentNode[];
}

/** One run of the stream. */
export interface RunSummary {
  readonly threadId: string | undefined;
  readonly runId: string | undefined;
  outcome: RunOutcome | undefined;
  /** The subagents nobody (known) spawned; the rest hang below them. */
  readonly subagents: SubagentNode[];
}

const RECENT = 3;

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function outcomeOf(event: Record<string, unknown>): RunOutcome {
  if (event.type === "RUN_ERROR") {
    const code = str(event.code);
    return {
      event: "RUN_ERROR",
      type: "error",
      message: str(event.message) ?? "",
      ...(code === undefined ? {} : { code }),
    };
  }
  const outcome = event.outcome;
  const type =
    typeof outcome === "object" && outcome !== null ? str(Reflect.get(outcome, "type")) : undefined;
  if (type === undefined || outcome === null || typeof outcome !== "object") {
    return { event: "RUN_FINISHED", type: "success" };
  }
  const interrupts = Reflect.get(outcome, "interrupts");
  return type === "interrupt" && Array.isArray(interrupts)
    ? { event: "RUN_FINISHED", type, interrupts: interrupts.length }
    : { event: "RUN_FINISHED", type };
}

/**
 * What a stream held, event by event: counts by type, runs and their outcomes, messages,
 * tool calls, reasoning messages, steps and subagents (as a tree), and the last few events.
 * Feed it each event once it was verified.
 */
export class Tally {
  events = 0;
  readonly byType = new Map<string, number>();
  readonly runs: RunSummary[] = [];
  /** Text messages: TEXT_MESSAGE_START events, plus the distinct ids of TEXT_MESSAGE_CHUNKs. */
  messages = 0;
  /** Tool calls: TOOL_CALL_START events, plus the distinct ids of TOOL_CALL_CHUNKs. */
  toolCalls = 0;
  /** REASONING_MESSAGE_START events, plus the distinct ids of REASONING_MESSAGE_CHUNKs. */
  reasoningMessages = 0;
  steps = 0;
  subagents = 0;
  /** The last few accepted events, oldest first. */
  readonly recent: Seen[] = [];
  #chunkIds = new Map<string, Set<string>>();
  #nodes = new Map<string, SubagentNode>();

  /** Records one verified event. */
  accept(event: unknown, position?: Position): void {
    const index = this.events++;
    if (this.recent.length === RECENT) this.recent.shift();
    this.recent.push({ index, event, position });
    if (!isAgUiEvent(event)) return;
    const type = event.type;
    this.byType.set(type, (this.byType.get(type) ?? 0) + 1);
    const run = this.runs[this.runs.length - 1];
    switch (type) {
      case "RUN_STARTED":
        this.runs.push({
          threadId: str(event.threadId),
          runId: str(event.runId),
          outcome: undefined,
          subagents: [],
        });
        this.#chunkIds = new Map();
        this.#nodes = new Map();
        break;
      case "RUN_FINISHED":
      case "RUN_ERROR":
        if (run !== undefined) run.outcome = outcomeOf(event);
        break;
      case "TEXT_MESSAGE_START":
        this.messages++;
        break;
      case "TOOL_CALL_START":
        this.toolCalls++;
        break;
      case "REASONING_MESSAGE_START":
        this.reasoningMessages++;
        break;
      case "TEXT_MESSAGE_CHUNK":
        if (this.#newChunkId(type, event.messageId)) this.messages++;
        break;
      case "TOOL_CALL_CHUNK":
        if (this.#newChunkId(type, event.toolCallId)) this.toolCalls++;
        break;
      case "REASONING_MESSAGE_CHUNK":
        if (this.#newChunkId(type, event.messageId)) this.reasoningMessages++;
        break;
      case "STEP_STARTED":
        this.steps++;
        break;
      case "SUBAGENT_STARTED": {
        this.subagents++;
        const id = str(event.subagentRunId) ?? "";
        const node: SubagentNode = { id, name: str(event.name), status: "running", children: [] };
        this.#nodes.set(id, node);
        const parentId = str(event.parentSubagentRunId);
        const parent = parentId === undefined ? undefined : this.#nodes.get(parentId);
        if (parent !== undefined) parent.children.push(node);
        else run?.subagents.push(node);
        break;
      }
      case "SUBAGENT_FINISHED":
      case "SUBAGENT_ERROR": {
        const node = this.#nodes.get(str(event.subagentRunId) ?? "");
        if (node === undefined) break;
        const outcome = event.outcome;
        const kind =
          typeof outcome === "object" && outcome !== null
            ? str(Reflect.get(outcome, "type"))
            : undefined;
        node.status = type === "SUBAGENT_ERROR" ? "error" : (kind ?? "success");
        break;
      }
    }
  }

  /** True the first time a chunk event names `id` in this run. */
  #newChunkId(type: string, id: unknown): boolean {
    if (typeof id !== "string") return false;
    let ids = this.#chunkIds.get(type);
    if (ids === undefined) {
      ids = new Set();
      this.#chunkIds.set(type, ids);
    }
    if (ids.has(id)) return false;
    ids.add(id);
    return true;
  }
}

/**
 * Verifies a capture pushed chunk by chunk, and knows where each message starts.
 *
 * SSE goes through the library's decoder unchanged; alongside it, a scanner follows the
 * line structure of the same bytes (LF, CR and CRLF line ends, a leading BOM) and queues
 * the start of every message that will be dispatched (a block with a `data` field, ended
 * by a blank line), so each decoded value is matched with its start. JSON Lines are split
 * at LF (a CR before it is dropped); blank lines are skipped.
 *
 * `push` and `finish` throw the {@link VerifyError} at the first violation; then
 * {@link CaptureCheck.position} tells where the offending message starts (the end of the
 * input for end-of-input errors).
 */
export class CaptureCheck {
  readonly format: CaptureFormat;
  readonly tally: Tally;
  readonly #verifier: Verifier;
  readonly #decoder: SseDecoder | undefined;
  readonly #maxBufferSize: number;
  /** Bytes before the current chunk. */
  #base = 0;
  /** The current line's number, and where it starts. */
  #line = 1;
  #lineStart = 0;
  /** Bytes of the current line so far (SSE: without a leading BOM). */
  #lineLength = 0;
  /** Its first five characters, enough to tell a `data` field. */
  #prefix = "";
  #pendingCR = false;
  /** SSE: the start of the block being read, and whether it has a data field. */
  #blockStart: Position | undefined = undefined;
  #blockHasData = false;
  /** SSE: starts of blocks that were (or are about to be) dispatched, not yet decoded. */
  #queue: Position[] = [];
  #head = 0;
  /** JSON Lines: the current line's bytes, when it spans chunks. */
  #parts: Uint8Array[] = [];
  #utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
  #position: Position | undefined = undefined;
  #unterminated: Position | undefined = undefined;
  #stopped = false;

  constructor(format: CaptureFormat, options?: VerifierOptions & DecoderOptions, tally?: Tally) {
    this.format = format;
    this.tally = tally ?? new Tally();
    this.#verifier = new Verifier(options);
    this.#maxBufferSize = options?.maxBufferSize ?? DEFAULT_MAX_BUFFER_SIZE;
    this.#decoder =
      format === "sse" ? new SseDecoder((value) => this.#sseValue(value), options) : undefined;
  }

  /** Bytes pushed so far. */
  get bytes(): number {
    return this.#base;
  }

  /**
   * Where the message being verified starts: after a violation, the offending one; after
   * an end-of-input violation, the end of the input (its last line, and its length).
   */
  get position(): Position | undefined {
    return this.#position;
  }

  /**
   * SSE: the start of a final message that had data but no blank line after it, so SSE
   * discarded it (known after `finish`).
   */
  get unterminated(): Position | undefined {
    return this.#unterminated;
  }

  /** Checks one chunk of the capture. */
  push(chunk: Uint8Array): void {
    if (this.#stopped) return;
    if (this.#decoder !== undefined) {
      this.#scanSse(chunk);
      this.#base += chunk.length;
      this.#decoder.push(chunk);
    } else {
      this.#pushJsonLines(chunk);
    }
  }

  /** Ends the capture: the last message, then the end-of-input check. */
  finish(): void {
    if (this.#stopped) return;
    // Whether the input ends inside a line (no line break after its last character).
    const partial = this.#lineLength > 0 || this.#parts.length > 0;
    if (this.#decoder !== undefined) {
      if (this.#lineLength > 0) this.#endSseLine();
      if (this.#blockHasData) this.#unterminated = this.#blockStart;
      this.#decoder.finish();
    } else if (this.#parts.length > 0) {
      const bytes = concat(this.#parts);
      this.#parts = [];
      this.#jsonLine(bytes, { line: this.#line, offset: this.#lineStart });
    }
    this.#stopped = true;
    const line = partial || this.#line === 1 ? this.#line : this.#line - 1;
    this.#position = { line, offset: this.#base };
    this.#verifier.end();
  }

  #accept(value: unknown, position: Position | undefined): void {
    this.#position = position;
    try {
      this.#verifier.verify(value);
    } catch (error) {
      this.#stopped = true;
      throw error;
    }
    this.tally.accept(value, position);
  }

  // SSE -------------------------------------------------------------------------------

  #sseValue(value: unknown): void {
    let position: Position | undefined;
    if (value instanceof SseDecodeFailure && value.code === "SSE_BUFFER_OVERFLOW") {
      position = this.#blockStart ?? { line: this.#line, offset: this.#lineStart };
    } else {
      position = this.#queue[this.#head++];
      if (this.#head === this.#queue.length) {
        this.#queue = [];
        this.#head = 0;
      }
    }
    this.#accept(value, position);
  }

  #scanSse(chunk: Uint8Array): void {
    const n = chunk.length;
    let i = 0;
    if (this.#pendingCR) {
      this.#pendingCR = false;
      if (chunk[0] === LF) i = 1;
    }
    if (this.#base === 0 && hasBom(chunk)) i = 3;
    let cr = chunk.indexOf(CR, i);
    let lf = chunk.indexOf(LF, i);
    while (i < n) {
      if (cr !== -1 && cr < i) cr = chunk.indexOf(CR, i);
      if (lf !== -1 && lf < i) lf = chunk.indexOf(LF, i);
      const t = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      if (t === -1) {
        this.#content(chunk, i, n);
        break;
      }
      this.#content(chunk, i, t);
      let end = t + 1;
      if (chunk[t] === CR) {
        if (end === n) this.#pendingCR = true;
        else if (chunk[end] === LF) end++;
      }
      this.#endSseLine();
      this.#line++;
      this.#lineStart = this.#base + end;
      i = end;
    }
  }

  #content(chunk: Uint8Array, from: number, to: number): void {
    if (to <= from) return;
    if (this.#lineLength < 5) {
      const stop = Math.min(to, from + 5 - this.#lineLength);
      for (let k = from; k < stop; k++) this.#prefix += String.fromCharCode(chunk[k] ?? 0);
    }
    this.#lineLength += to - from;
  }

  #endSseLine(): void {
    if (this.#lineLength === 0) {
      // A blank line ends the block; SSE dispatches it when it has a data field.
      if (this.#blockHasData && this.#blockStart !== undefined) this.#queue.push(this.#blockStart);
      this.#blockStart = undefined;
      this.#blockHasData = false;
      return;
    }
    this.#blockStart ??= { line: this.#line, offset: this.#lineStart };
    if (this.#prefix === "data:" || (this.#lineLength === 4 && this.#prefix === "data")) {
      this.#blockHasData = true;
    }
    this.#lineLength = 0;
    this.#prefix = "";
  }

  // JSON Lines ------------------------------------------------------------------------

  #pushJsonLines(chunk: Uint8Array): void {
    const n = chunk.length;
    const base = this.#base;
    this.#base += n;
    let i = 0;
    while (!this.#stopped) {
      const lf = chunk.indexOf(LF, i);
      const stop = lf === -1 ? n : lf;
      this.#lineLength += stop - i;
      if (this.#lineLength > this.#maxBufferSize) {
        this.#accept(new SseDecodeFailure("SSE_BUFFER_OVERFLOW"), {
          line: this.#line,
          offset: this.#lineStart,
        });
        return;
      }
      if (lf === -1) {
        if (i < n) this.#parts.push(chunk.subarray(i));
        break;
      }
      const piece = chunk.subarray(i, lf);
      let bytes = piece;
      if (this.#parts.length > 0) {
        this.#parts.push(piece);
        bytes = concat(this.#parts);
        this.#parts = [];
      }
      this.#jsonLine(bytes, { line: this.#line, offset: this.#lineStart });
      this.#line++;
      this.#lineStart = base + lf + 1;
      this.#lineLength = 0;
      i = lf + 1;
    }
  }

  #jsonLine(bytes: Uint8Array, position: Position): void {
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === CR) end--;
    const start = position.offset === 0 && hasBom(bytes) ? 3 : 0;
    const text = this.#utf8.decode(bytes.subarray(start, end));
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (cause) {
      value = new SseDecodeFailure("INVALID_JSON", text, cause);
    }
    this.#accept(value, position);
  }
}

/** Joins byte chunks into one array (the only chunk itself, when there is one). */
export function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1 && parts[0] !== undefined) return parts[0];
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
