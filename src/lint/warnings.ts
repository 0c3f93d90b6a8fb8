/**
 * The warnings of SPEC §18.2: what `@ag-ui/client` 1.0.0 would silently lose in a stream the
 * rules accept. Only events the verifier accepted reach these checks.
 *
 * What each warning watches, and what it holds (SPEC §17): the open tool calls' arguments
 * (at most `maxBufferSize` characters in all, dropped when the call ends), the tool-call ids
 * the input started or listed (at most `maxIds`), the state document and each activity's
 * content as the input gave them, the run's ids, and the client model of client-rules.ts.
 * @module
 */

import { q, type Rec, slotOf } from "../verify/verifier.ts";
import {
  BEFORE,
  ClientModel,
  ERRORED,
  FINISHED,
  GIVE_UP,
  type Rejection,
  RUNNING,
  type RunPhase,
} from "./client-rules.ts";
import { JsonText } from "./json-text.ts";
import { describeFailure, PatchDoc } from "./patches.ts";
import type { LintOptions, WarningCode } from "./types.ts";

/** One warning: its code, the middle of its message, and what it merges by. */
export interface Warning {
  readonly code: WarningCode;
  /** What happened and what the client does, ending with "." (the linter adds the rest). */
  readonly text: string;
  readonly eventType: string | undefined;
  readonly field?: string | undefined;
  /** The entity it is about (kind and quoted id), for merging. */
  readonly subject?: string | undefined;
}

/**
 * SSE_LINE_IGNORED (SPEC §18.2), which the stream reader reports: a line whose field the SSE
 * parser does not know (`line`: the line, when the reader has it).
 */
export function ignoredLine(line: string | undefined): Warning {
  const shown = line === undefined ? "a line" : `the line ${q(line)}`;
  return {
    code: "SSE_LINE_IGNORED",
    text: `${shown} has none of the fields data, event, id, retry; the client's SSE parser ignores it, and an event it carries is lost (expected "data: " before the JSON).`,
    eventType: undefined,
    subject: line === undefined ? undefined : line.slice(0, line.indexOf(":") + 1 || 20),
  };
}

const DEFAULT_MAX_BUFFER_SIZE = 10 * 1024 * 1024;
const DEFAULT_MAX_IDS = 100_000;

/** What the watch does per event type (a type missing from the table is unknown here). */
const NOTHING = 0;
const UNKNOWN = 1;
const RUN_STARTED = 3;
const RUN_FINISHED = 4;
const RUN_ERROR = 5;
const TEXT_START = 6;
const TOOL_START = 7;
const TOOL_ARGS = 8;
const TOOL_END = 9;
const TOOL_CHUNK = 10;
const TOOL_RESULT = 11;
const REASONING_START = 12;
const REASONING_MESSAGE_START = 13;
const REASONING_END = 14;
const ENCRYPTED_VALUE = 15;
const STATE_SNAPSHOT = 16;
const STATE_DELTA = 17;
const ACTIVITY_SNAPSHOT = 18;
const ACTIVITY_DELTA = 19;
const MESSAGES_SNAPSHOT = 20;
const SUBAGENT = 21;
const TEXT_CONTINUES = 22;
const REASONING_CONTINUES = 23;

const KINDS = new Map<string, number>([
  ["RUN_STARTED", RUN_STARTED],
  ["RUN_FINISHED", RUN_FINISHED],
  ["RUN_ERROR", RUN_ERROR],
  ["STEP_STARTED", NOTHING],
  ["STEP_FINISHED", NOTHING],
  ["TEXT_MESSAGE_START", TEXT_START],
  ["TEXT_MESSAGE_CONTENT", TEXT_CONTINUES],
  ["TEXT_MESSAGE_END", TEXT_CONTINUES],
  ["TEXT_MESSAGE_CHUNK", NOTHING],
  ["TOOL_CALL_START", TOOL_START],
  ["TOOL_CALL_ARGS", TOOL_ARGS],
  ["TOOL_CALL_END", TOOL_END],
  ["TOOL_CALL_CHUNK", TOOL_CHUNK],
  ["TOOL_CALL_RESULT", TOOL_RESULT],
  ["REASONING_START", REASONING_START],
  ["REASONING_MESSAGE_START", REASONING_MESSAGE_START],
  ["REASONING_MESSAGE_CONTENT", REASONING_CONTINUES],
  ["REASONING_MESSAGE_END", REASONING_CONTINUES],
  ["REASONING_MESSAGE_CHUNK", NOTHING],
  ["REASONING_END", REASONING_END],
  ["REASONING_ENCRYPTED_VALUE", ENCRYPTED_VALUE],
  ["ACTIVITY_SNAPSHOT", ACTIVITY_SNAPSHOT],
  ["ACTIVITY_DELTA", ACTIVITY_DELTA],
  ["STATE_SNAPSHOT", STATE_SNAPSHOT],
  ["STATE_DELTA", STATE_DELTA],
  ["MESSAGES_SNAPSHOT", MESSAGES_SNAPSHOT],
  ["RAW", NOTHING],
  ["CUSTOM", NOTHING],
  ["SUBAGENT_STARTED", SUBAGENT],
  ["SUBAGENT_FINISHED", SUBAGENT],
  ["SUBAGENT_ERROR", SUBAGENT],
]);

/** No call has arguments yet: the cache's four empty slots, never written. */
const NO_ARGS: (Args | undefined)[] = [undefined, undefined, undefined, undefined];

/** The arguments of an open tool call, read as they come; `json` undefined once unchecked. */
interface Args {
  readonly id: string;
  json: JsonText | undefined;
  /** A few characters around the first one that breaks the text, once one did. */
  near: string | undefined;
}

/**
 * Watches the accepted events of one stream as the official client would consume them.
 * @internal
 */
export class ClientWatch {
  readonly #maxArgs: number;
  readonly #maxIds: number;
  #lastType = "";
  #lastKind = UNKNOWN;
  #phase: RunPhase = BEFORE;
  /** The `runId` of the run's RUN_STARTED, when a string. */
  #runId: string | undefined;
  /** The arguments of the open tool calls, and how many characters they hold in all. */
  #args: Map<string, Args> | undefined;
  #argsHeld = 0;
  /** The calls that had arguments last, a slot each by their id's last character. */
  #recent: (Args | undefined)[] = NO_ARGS;
  /** Tool calls the input started or listed; `#callsFull` once it held `maxIds`. */
  #calls: Set<string> | undefined;
  #callsFull = false;
  /** The state as the client holds it; undefined while unknown. */
  #state: PatchDoc | undefined;
  /** Each activity's content as the client holds it (this run's, known ones only). */
  #activities: Map<string, PatchDoc> | undefined;
  /** The client's own checks; undefined once it rejected an event (or gave up following). */
  #client: ClientModel | undefined;

  constructor(options: LintOptions) {
    const maxArgs = options.maxBufferSize ?? DEFAULT_MAX_BUFFER_SIZE;
    this.#maxArgs = typeof maxArgs === "number" && maxArgs >= 0 ? maxArgs : DEFAULT_MAX_BUFFER_SIZE;
    const maxIds = options.maxIds ?? DEFAULT_MAX_IDS;
    this.#maxIds = typeof maxIds === "number" && maxIds >= 0 ? maxIds : DEFAULT_MAX_IDS;
    this.#client = new ClientModel(this.#maxIds);
  }

  /** The most ids the watch keeps (`maxIds`, or its default). */
  get maxIds(): number {
    return this.#maxIds;
  }

  /** An event the rules accepted, at `index`: the warnings it gives, if any. */
  event(event: unknown, _index: number): readonly Warning[] | undefined {
    try {
      const e = event as Rec;
      const type = e.type as string;
      let kind = this.#lastKind;
      if (type !== this.#lastType) {
        kind = KINDS.get(type) ?? UNKNOWN;
        this.#lastType = type;
        this.#lastKind = kind;
      }
      return kind === NOTHING ? undefined : this.#event(kind, type, e);
    } catch {
      // A getter or a Proxy threw on a field the rules do not read: the client would have
      // thrown there too, in a way not modelled here, so it is no longer followed.
      this.#client = undefined;
      return undefined;
    }
  }

  #event(kind: number, type: string, e: Rec): readonly Warning[] | undefined {
    const client = this.#client;
    switch (kind) {
      case TOOL_ARGS:
        this.#toolArgs(e);
        return client && this.#rejects(type, client.toolCallContinues(e));
      case TOOL_END: {
        const found = this.#toolEnd(e);
        return this.#also(found, type, client?.toolCallContinues(e));
      }
      case UNKNOWN:
        // The client's enforcement stage drops a type it does not know (SPEC §13 rows 1, 9, 15).
        return undefined;
      case TEXT_CONTINUES:
        return client && this.#rejects(type, client.textMessageContinues(e));
      case REASONING_CONTINUES:
        return client && this.#rejects(type, client.reasoningContinues(e));
      case RUN_STARTED:
        return this.#runStarted(type, e);
      case RUN_FINISHED: {
        const found = this.#runIds(e);
        this.#phase = FINISHED;
        return this.#also(found, type, client?.runFinished(e));
      }
      case RUN_ERROR:
        this.#phase = ERRORED;
        this.#dropArgs();
        return undefined;
      case TEXT_START:
        return client && this.#rejects(type, client.textMessageStart(e));
      case TOOL_START:
        this.#toolStart(e);
        return client && this.#rejects(type, client.toolCallStart(e));
      case TOOL_CHUNK: {
        const id = e.toolCallId;
        if (typeof id === "string") this.#known(id);
        return undefined;
      }
      case TOOL_RESULT: {
        const found = this.#also(this.#toolResult(e, type), type, client?.toolCallResult(e));
        // A tool message under an activity's id: which one the client then patches is unclear.
        this.#activities?.delete(e.messageId as string);
        return found;
      }
      case REASONING_START:
      case REASONING_MESSAGE_START:
        return client && this.#rejects(type, client.reasoningOpens(e));
      case REASONING_END:
        return client && this.#rejects(type, client.reasoningContinues(e));
      case ENCRYPTED_VALUE:
        return client && this.#rejects(type, client.reasoningEncryptedValue(e));
      case STATE_SNAPSHOT:
        this.#state = new PatchDoc(e.snapshot, false);
        return undefined;
      case STATE_DELTA:
        return this.#stateDelta(e);
      case ACTIVITY_SNAPSHOT:
        this.#activitySnapshot(e);
        return undefined;
      case ACTIVITY_DELTA:
        return this.#activityDelta(e);
      case MESSAGES_SNAPSHOT:
        this.#messagesSnapshot(e);
        return client && this.#rejects(type, client.messagesSnapshot(e));
      case SUBAGENT:
        return client && this.#rejects(type, client.subagent(type, e));
      default:
        return undefined;
    }
  }

  // --- CLIENT_REJECTS ---------------------------------------------------------------------

  /** The client's verdict on the event: a warning at its first rejection, then no more. */
  #rejects(type: string, r: Rejection | undefined): readonly Warning[] | undefined {
    if (r === undefined) return undefined;
    this.#client = undefined;
    if (r === GIVE_UP) return undefined;
    return [{ code: "CLIENT_REJECTS", text: r.text, eventType: type, field: r.field }];
  }

  #also(
    found: readonly Warning[] | undefined,
    type: string,
    r: Rejection | undefined,
  ): readonly Warning[] | undefined {
    const more = this.#rejects(type, r);
    if (more === undefined) return found;
    return found === undefined ? more : [...found, ...more];
  }

  // --- the run ----------------------------------------------------------------------------

  #runStarted(type: string, e: Rec): readonly Warning[] | undefined {
    const client = this.#client;
    const r = client?.runStarted(e);
    if (this.#phase !== BEFORE) {
      // A new run (SPEC §9.6): what the verifier forgets, this forgets too.
      this.#dropArgs();
      this.#activities = undefined;
    }
    this.#phase = RUNNING;
    const runId = e.runId;
    this.#runId = typeof runId === "string" ? runId : undefined;
    const input = e.input as Rec | undefined;
    if (input !== undefined) {
      // A `null` state is no echo of a client's (1.0.0 starts from `{}`): still unknown.
      const state = input.state;
      if (state !== undefined && state !== null) this.#state = new PatchDoc(state, false);
      this.#listed(input.messages);
    }
    return client && this.#rejects(type, r);
  }

  /**
   * RUN_ID_MISMATCH: the `runId` of RUN_FINISHED, when a string, against its RUN_STARTED's
   * (SPEC §18.5: the run id alone; a `threadId` that differs is THREAD_ID_MISMATCH's).
   */
  #runIds(e: Rec): readonly Warning[] | undefined {
    const started = this.#runId;
    const finished = e.runId;
    if (typeof finished !== "string" || started === undefined || finished === started) {
      return undefined;
    }
    return [
      {
        code: "RUN_ID_MISMATCH",
        text: `runId ${q(finished)} differs from ${q(started)} of the run's RUN_STARTED; 1.1 says "each run's two boundary events MUST agree on their runId" (basic/run-input), and a client that matches runs by id files this result under another run.`,
        eventType: "RUN_FINISHED",
        field: "runId",
      },
    ];
  }

  // --- TOOL_CALL_ARGS_NOT_JSON ------------------------------------------------------------

  #toolStart(e: Rec): void {
    const id = e.toolCallId as string;
    this.#known(id);
    const args: Args = { id, json: new JsonText(), near: undefined };
    if (this.#args === undefined) {
      this.#args = new Map();
      this.#recent = [undefined, undefined, undefined, undefined];
    }
    this.#args.set(id, args);
    this.#recent[slotOf(id)] = args;
  }

  #toolArgs(e: Rec): void {
    const id = e.toolCallId as string;
    const slot = slotOf(id);
    let args = this.#recent[slot];
    if (args === undefined || args.id !== id) {
      args = this.#args?.get(id);
      if (args === undefined) return;
      this.#recent[slot] = args;
    }
    const json = args.json;
    if (json === undefined) return;
    const delta = e.delta;
    // The client appends with `+=`: a delta that is no string joins as its string form.
    const piece =
      typeof delta === "string"
        ? delta
        : delta === null || (typeof delta !== "object" && typeof delta !== "function")
          ? typeof delta === "symbol"
            ? undefined
            : String(delta)
          : undefined;
    if (piece === undefined || this.#argsHeld + piece.length > this.#maxArgs) {
      // Not checked: beyond maxBufferSize in all, or a delta whose string form is not followed.
      this.#argsHeld -= json.length;
      args.json = undefined;
      return;
    }
    this.#argsHeld += piece.length;
    const at = json.feed(piece);
    if (at >= 0) args.near = piece.slice(Math.max(0, at - 20), at + 20);
  }

  #toolEnd(e: Rec): readonly Warning[] | undefined {
    const id = e.toolCallId as string;
    const args = this.#args?.get(id);
    if (args === undefined) return undefined;
    this.#args?.delete(id);
    const slot = slotOf(id);
    if (this.#recent[slot] === args) this.#recent[slot] = undefined;
    const json = args.json;
    if (json === undefined) return undefined;
    const length = json.length;
    this.#argsHeld -= length;
    if (length === 0 || json.end()) return undefined;
    const why =
      json.failedAt >= 0
        ? `it breaks off at position ${json.failedAt}, near ${q(args.near ?? "")}`
        : json.blank
          ? "it holds no value"
          : "it ends before its value does";
    return [
      {
        code: "TOOL_CALL_ARGS_NOT_JSON",
        text: `the arguments of tool call ${q(id)}, its TOOL_CALL_ARGS deltas joined (${length.toLocaleString("en-US")} characters), are not JSON text: ${why}; @ag-ui/client 1.0.0 cannot parse them and hands the tool {} instead.`,
        eventType: "TOOL_CALL_END",
        subject: `tool call ${q(id)}`,
      },
    ];
  }

  #dropArgs(): void {
    this.#args = undefined;
    this.#argsHeld = 0;
    this.#recent = NO_ARGS;
  }

  // --- TOOL_CALL_RESULT_UNKNOWN_CALL ------------------------------------------------------

  /** Notes a tool call the input started or listed. */
  #known(id: string): void {
    if (this.#callsFull) return;
    let calls = this.#calls;
    if (calls === undefined) {
      calls = new Set();
      this.#calls = calls;
    }
    calls.add(id);
    if (calls.size > this.#maxIds) {
      calls.delete(id);
      this.#callsFull = true;
    }
  }

  /** The calls of the assistant messages of a message list the rules accepted. */
  #listed(messages: unknown): void {
    if (!Array.isArray(messages)) return;
    for (const m of messages as readonly Rec[]) {
      if (m.role !== "assistant") continue;
      const calls = m.toolCalls;
      if (!Array.isArray(calls)) continue;
      for (const call of calls as readonly Rec[]) this.#known(call.id as string);
    }
  }

  #toolResult(e: Rec, type: string): readonly Warning[] | undefined {
    const id = e.toolCallId as string;
    // TOOL_CALL_RESULT_BEFORE_END (SPEC §18.5): the seed's rule 5, which 1.1 does not make.
    const open = this.#args?.has(id) === true;
    if (this.#callsFull || this.#calls?.has(id) === true) {
      return open ? [beforeEnd(id, type)] : undefined;
    }
    return [
      {
        code: "TOOL_CALL_RESULT_UNKNOWN_CALL",
        text: `tool call ${q(id)} was never started in this input, and no assistant message of an echoed input or an earlier MESSAGES_SNAPSHOT lists it; @ag-ui/client 1.0.0 appends a tool message that answers no call.`,
        eventType: "TOOL_CALL_RESULT",
        field: "toolCallId",
        subject: `tool call ${q(id)}`,
      },
    ];
  }

  // --- STATE_DELTA_NOT_APPLIED and ACTIVITY_DELTA_NOT_APPLIED -----------------------------

  #stateDelta(e: Rec): readonly Warning[] | undefined {
    const state = this.#state;
    if (state === undefined) return undefined; // unknown until a snapshot
    const failure = state.apply(e.delta);
    if (failure === undefined) return undefined;
    return [
      {
        code: "STATE_DELTA_NOT_APPLIED",
        text: `the delta does not apply to the current state (${describeFailure(failure)}); @ag-ui/client 1.0.0 logs a warning and keeps the state it had, so the UI's state silently stays stale.`,
        eventType: "STATE_DELTA",
        field: "delta",
      },
    ];
  }

  #activitySnapshot(e: Rec): void {
    const id = e.messageId as string;
    // Not replacing: the client keeps an activity it has, and one unknown here may be among
    // its messages already (history the stream never showed), so it stays unknown.
    if (e.replace === false) return;
    if (this.#activities === undefined) this.#activities = new Map();
    this.#activities.set(id, new PatchDoc(e.content, true));
  }

  #activityDelta(e: Rec): readonly Warning[] | undefined {
    const id = e.messageId as string;
    const activity = this.#activities?.get(id);
    if (activity === undefined) return undefined;
    // The client patches `content ?? {}`, and an absent patch is no operation.
    const failure = activity.apply(e.patch ?? []);
    if (failure === undefined) return undefined;
    return [
      {
        code: "ACTIVITY_DELTA_NOT_APPLIED",
        text: `the patch does not apply to the content of activity ${q(id)} (${describeFailure(failure)}); @ag-ui/client 1.0.0 logs a warning and keeps the activity's old content.`,
        eventType: "ACTIVITY_DELTA",
        field: "patch",
        subject: `activity ${q(id)}`,
      },
    ];
  }

  /** What a MESSAGES_SNAPSHOT the rules accepted changes here. */
  #messagesSnapshot(e: Rec): void {
    const messages = e.messages as readonly Rec[];
    this.#listed(messages);
    const tracked = this.#activities;
    if (tracked === undefined || tracked.size === 0) return;
    // The client replaces the messages it holds with the snapshot's; an activity it omits
    // may be kept or removed (metadata and the snapshot's own activities decide): unknown.
    const listed = new Map<string, Rec>();
    let activities = e.metadata !== undefined;
    for (const m of messages) {
      listed.set(m.id as string, m);
      if (m.role === "activity") activities = true;
    }
    for (const id of [...tracked.keys()]) {
      const m = listed.get(id);
      if (m?.role === "activity") tracked.set(id, new PatchDoc(m.content, true));
      else if (m !== undefined || activities) tracked.delete(id);
    }
  }
}

/** TOOL_CALL_RESULT_BEFORE_END: a result for a call whose TOOL_CALL_END has not come yet. */
function beforeEnd(id: string, type: string): Warning {
  return {
    code: "TOOL_CALL_RESULT_BEFORE_END",
    text: `tool call ${q(id)} is still open: its TOOL_CALL_END has not come. The seed's rule 5 asks a call to end before its result (1.1 is silent on the order), and a UI may show the result beside arguments that are still streaming.`,
    eventType: type,
    field: "toolCallId",
    subject: `tool call ${q(id)}`,
  };
}
