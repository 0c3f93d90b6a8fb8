/**
 * The producer duties of AG-UI 1.1 that need the run's request (SPEC §18.5, "(request)"):
 * run only when the linter is given the `RunAgentInput` the stream answers (the command
 * reads it from a HAR entry's request body). A producer does not answer a frontend tool
 * (`FRONTEND_TOOL_ANSWERED`), the requested run echoes the input's `runId`
 * (`REQUESTED_RUN_ID_MISMATCH`, judged at the end of input), and the deltas before the
 * requested run's first snapshot apply to the input's `state` (`STATE_DELTA_WRONG_BASELINE`).
 * (`THREAD_ID_MISMATCH` against the request's `threadId` is the run duties'.)
 *
 * What it holds (SPEC §17): the request's frontend tool names and the ids of the calls made
 * to them, each weighed like the verifier's ids (past `maxIds` nothing more is added, and a
 * call it could not record is not judged); the state as the input's deltas leave it.
 * @module
 */

import { isRecord, q, type Rec, weight as weigh } from "../verify/verifier.ts";
import { describeFailure, PatchDoc } from "./patches.ts";
import type { Warning } from "./warnings.ts";

const STARTED = 1;
const CALL = 2;
const RESULT = 3;
const SNAPSHOT = 4;
const DELTA = 5;

const KINDS = new Map<string, number>([
  ["RUN_STARTED", STARTED],
  ["TOOL_CALL_START", CALL],
  ["TOOL_CALL_CHUNK", CALL],
  ["TOOL_CALL_RESULT", RESULT],
  ["STATE_SNAPSHOT", SNAPSHOT],
  ["STATE_DELTA", DELTA],
]);

/** A finding known only at the end of input, with the event it is reported at. */
export interface LateWarning {
  readonly warning: Warning;
  readonly index: number;
}

/** Watches one stream against the request it answers. */
export class RequestDuties {
  readonly #maxIds: number;
  #held = 0;
  /** The request's `runId`, when a string. */
  readonly #runId: string | undefined;
  /** The request's `state`, or `{}` when it has none. */
  readonly #state: unknown;
  /** The names of the tools the request offers: frontend tools. */
  readonly #tools = new Set<string>();
  /** The calls made to them, by id. */
  readonly #frontendCalls = new Map<string, string>();
  /** The last RUN_STARTED's `runId` and index. */
  #lastRunId: unknown;
  #lastStart = -1;
  #runs = 0;
  /** The state the requested run's deltas apply to, until its first snapshot. */
  #doc: PatchDoc | undefined;

  constructor(request: Rec, maxIds: number) {
    this.#maxIds = maxIds;
    const runId = request.runId;
    this.#runId = typeof runId === "string" ? runId : undefined;
    this.#state = request.state === undefined ? {} : request.state;
    const tools = request.tools;
    if (Array.isArray(tools)) {
      for (const tool of tools) {
        const name = isRecord(tool) ? tool.name : undefined;
        if (typeof name === "string" && this.#fits(weigh(name))) this.#tools.add(name);
      }
    }
  }

  #fits(weight: number): boolean {
    if (this.#held + weight > this.#maxIds) return false;
    this.#held += weight;
    return true;
  }

  /** An accepted event at `index`: the warnings it gives, if any. */
  event(type: string, e: Rec, index: number): Warning[] | undefined {
    switch (KINDS.get(type)) {
      case STARTED: {
        this.#lastRunId = e.runId;
        this.#lastStart = index;
        // The requested run: the one with the request's run id (the first, if it has none).
        const requested = this.#runId === undefined ? this.#runs === 0 : e.runId === this.#runId;
        this.#runs++;
        this.#doc = requested ? new PatchDoc(this.#state, false) : undefined;
        return undefined;
      }
      case CALL: {
        const id = e.toolCallId;
        const name = e.toolCallName;
        if (typeof id !== "string" || typeof name !== "string" || !this.#tools.has(name)) {
          return undefined;
        }
        if (!this.#frontendCalls.has(id) && this.#fits(weigh(id)))
          this.#frontendCalls.set(id, name);
        return undefined;
      }
      case RESULT:
        return this.#result(e.toolCallId as string);
      case SNAPSHOT:
        this.#doc = undefined;
        return undefined;
      case DELTA:
        return this.#delta(e.delta);
      default:
        return undefined;
    }
  }

  #result(id: string): Warning[] | undefined {
    const name = this.#frontendCalls.get(id);
    if (name === undefined) return undefined;
    return [
      {
        code: "FRONTEND_TOOL_ANSWERED",
        text: `tool call ${q(id)} calls ${q(name)}, a tool the request offers (a frontend tool), and the producer answered it itself; 1.1 says "A producer that calls a frontend tool MUST NOT answer it" (events/tool-calls), and the client that runs the tool then answers a call that is already closed.`,
        eventType: "TOOL_CALL_RESULT",
        field: "toolCallId",
        subject: id,
      },
    ];
  }

  #delta(patch: unknown): Warning[] | undefined {
    const doc = this.#doc;
    if (doc === undefined) return undefined;
    const failure = doc.apply(patch);
    if (failure === undefined) return undefined;
    // Judged once per run: after a failed delta the state is no longer the input's.
    this.#doc = undefined;
    return [
      {
        code: "STATE_DELTA_WRONG_BASELINE",
        text: `the delta does not apply to the request's state (${describeFailure(failure)}), and no snapshot came before it in the requested run; 1.1 says deltas before the run's first snapshot are computed against the input's state, or {} (basic/run-input), and the client applies them to the state it sent.`,
        eventType: "STATE_DELTA",
        field: "delta",
      },
    ];
  }

  /** REQUESTED_RUN_ID_MISMATCH, at the end of input: the last run's id. */
  end(): LateWarning | undefined {
    const requested = this.#runId;
    if (requested === undefined || this.#lastStart < 0 || this.#lastRunId === requested) {
      return undefined;
    }
    const got = this.#lastRunId;
    return {
      index: this.#lastStart,
      warning: {
        code: "REQUESTED_RUN_ID_MISMATCH",
        text: `the last run has runId ${typeof got === "string" ? q(got) : "none"}, not the request's ${q(requested)}; 1.1 says "The requested run echoes this input's runId" (basic/run-input), and a client waiting for the run it asked for never sees it.`,
        eventType: "RUN_STARTED",
        field: "runId",
        subject: requested,
      },
    };
  }
}
