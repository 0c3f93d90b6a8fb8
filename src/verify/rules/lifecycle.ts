/**
 * The run's lifecycle: rules 1 and 2 (what may come outside a run), 7 and 8 (what
 * RUN_FINISHED requires), and the run-level events' entries of the rule table.
 * @module
 */

import {
  badField,
  optStr,
  outcomeLacksInterrupts,
  readMessages,
  reqStr,
  type SeedMessage,
} from "../fields.ts";
import {
  BEFORE_RUN,
  FAILED,
  FINISHED,
  isRecord,
  newRun,
  PARENT,
  type Phase,
  type Rec,
  type Run,
} from "../state.ts";
import { describeSubagents, listed, ownerName, q, Violation } from "../violations.ts";
import { REASONING, SPAN, TEXT, TOOL } from "./messages.ts";
import { rule13NoActiveSubagents, seed } from "./ownership.ts";

// ---------------------------------------------------------------------------------------
// Rule 1 — a stream begins with RUN_STARTED or RUN_ERROR
// Rule 2 — after a run closes: a new run, or a late failure of a finished one
//
// Both check the phase, before the type's own checks (SPEC §6 step 3), and only for the
// recognised types: an unknown type passes every phase (SPEC §9.2). RUN_FINISHED and
// RUN_ERROR return the new phase from RULES; RUN_STARTED returns its new run.

/** Rules 1 and 2 outside a run, for an event of a recognised type. */
export function checkOutsideRun(phase: Phase, type: string): void {
  if (type === "RUN_STARTED") return;
  if (phase === BEFORE_RUN) {
    if (type !== "RUN_ERROR") {
      throw new Violation(
        "EVENT_BEFORE_RUN_STARTED",
        "no run has started; expected RUN_STARTED (or RUN_ERROR, for a run that failed before it began) first.",
      );
    }
  } else if (phase === FAILED) {
    throw new Violation(
      "EVENT_AFTER_RUN_CLOSED",
      "the run ended with RUN_ERROR; expected nothing more, or RUN_STARTED for a new run.",
    );
  } else if (type !== "RUN_ERROR") {
    throw new Violation(
      "EVENT_AFTER_RUN_CLOSED",
      "the run has finished; expected nothing more, RUN_STARTED for a new run, or RUN_ERROR for a late failure.",
    );
  }
}

export function runAlreadyStarted(): Violation {
  return new Violation(
    "RUN_ALREADY_STARTED",
    "a run is still open; expected RUN_FINISHED or RUN_ERROR before the next run starts.",
  );
}

export function streamEndedBeforeRunStarted(): Violation {
  return new Violation(
    "STREAM_ENDED_BEFORE_RUN_STARTED",
    "the stream ended before any run started; expected RUN_STARTED (or RUN_ERROR).",
  );
}

/** STREAM_ENDED_BEFORE_RUN_STARTED for a body with no byte at all: say so (SPEC §21.3). */
export function streamEmpty(response: boolean): Violation {
  return new Violation(
    "STREAM_ENDED_BEFORE_RUN_STARTED",
    `the ${response ? "response " : ""}body was empty (0 bytes), so no run started; expected RUN_STARTED (or RUN_ERROR).`,
  );
}

export function streamEndedInRun(run: Run): Violation {
  const open = [describeOpen(run), describeSubagents(run.activeSubagents)].filter((p) => p !== "");
  const summary = open.length === 0 ? "" : ` (open: ${open.join(", ")})`;
  return new Violation(
    "STREAM_ENDED_BEFORE_RUN_CLOSED",
    `the run is still open${summary}; expected RUN_FINISHED or RUN_ERROR.`,
  );
}

// ---------------------------------------------------------------------------------------
// Rule 7 — everything open is closed before RUN_FINISHED

export function rule7NothingOpen(run: Run): void {
  const open =
    run.messages.open.size +
    run.toolCalls.open.size +
    run.reasoning.open.size +
    run.spans.open.size +
    run.openSteps.size;
  if (open > 0) {
    throw new Violation(
      "OPEN_AT_RUN_FINISHED",
      `${describeOpen(run)} still open; expected them closed first.`,
    );
  }
}

// ---------------------------------------------------------------------------------------
// Rule 8 — an interrupt outcome carries at least one interrupt
//
// The outcome is read (rule 0) by `outcomeLacksInterrupts`, before rule 7 runs.

export const EMPTY_INTERRUPT = "the interrupt outcome has no interrupts; expected one or more.";

export function rule8InterruptsPresent(lacksInterrupts: boolean): void {
  if (lacksInterrupts) throw new Violation("INTERRUPT_OUTCOME_EMPTY", EMPTY_INTERRUPT);
}

// ---------------------------------------------------------------------------------------
// The table's entries for the run events, and for the events nothing orders (rules/table.ts). Each reads and checks all its
// fields (rule 0) before any other check or effect.

/** Chunks, state events, RAW and CUSTOM: the tag is read, nothing is ordered. */
export function tagOnly(_run: Run, e: Rec): undefined {
  optStr(e.subagentRunId, "subagentRunId");
  return undefined;
}

/** The input echo's messages, read (rule 0) but not yet seeded. */
function echoed(e: Rec): SeedMessage[] | undefined {
  const input = e.input;
  if (input === undefined) return undefined;
  if (!isRecord(input)) throw badField("input", input, "an object");
  const m = input.messages;
  return m === undefined ? undefined : readMessages(m, "input.messages");
}

/**
 * A new run, from nothing (SPEC §9.6), seeded from the input echo. The run-level events
 * carry no tag: `subagentRunId` is not read on them (SPEC §3.1).
 */
export function runStarted(run: Run, e: Rec): Run {
  const messages = echoed(e);
  const next = newRun(run.maxIds);
  if (messages !== undefined) seed(next, messages, false);
  return next;
}

export function runFinished(run: Run, e: Rec): Phase {
  const outcome = e.outcome;
  const lacksInterrupts = outcome !== undefined && outcomeLacksInterrupts(outcome);
  rule7NothingOpen(run);
  rule8InterruptsPresent(lacksInterrupts);
  rule13NoActiveSubagents(run);
  return FINISHED;
}

export function runError(): Phase {
  return FAILED;
}

// ---------------------------------------------------------------------------------------
// With protocol draft (SPEC §9.14): one thread per stream, a run's two boundary events agree
// on its runId, and interrupt ids are unique. RUN_STARTED and RUN_FINISHED read threadId and
// runId (after their other fields, as SPEC §3.2 lists them).

export function runStartedDraft(run: Run, e: Rec): Run {
  const messages = echoed(e);
  const threadId = reqStr(e.threadId, "threadId");
  const runId = reqStr(e.runId, "runId");
  if (run.threadId !== undefined && threadId !== run.threadId) {
    throw threadMismatch(threadId, run.threadId, "the stream's first run");
  }
  const next = newRun(run.maxIds, threadId, runId);
  if (messages !== undefined) seed(next, messages, false);
  return next;
}

export function runFinishedDraft(run: Run, e: Rec): Phase {
  const outcome = e.outcome;
  const lacksInterrupts = outcome !== undefined && outcomeLacksInterrupts(outcome);
  const threadId = reqStr(e.threadId, "threadId");
  const runId = reqStr(e.runId, "runId");
  if (run.runId !== undefined && runId !== run.runId) {
    throw new Violation(
      "RUN_ID_MISMATCH",
      `runId ${q(runId)} is not the run's; expected ${q(run.runId)}, as on its RUN_STARTED.`,
    );
  }
  if (run.threadId !== undefined && threadId !== run.threadId) {
    throw threadMismatch(threadId, run.threadId, "its RUN_STARTED");
  }
  rule7NothingOpen(run);
  rule8InterruptsPresent(lacksInterrupts);
  if (!lacksInterrupts && outcome !== undefined) uniqueInterruptIds(outcome as Rec);
  rule13NoActiveSubagents(run);
  return FINISHED;
}

function threadMismatch(threadId: string, expected: string, where: string): Violation {
  return new Violation(
    "THREAD_ID_MISMATCH",
    `threadId ${q(threadId)} is not the stream's thread; expected ${q(expected)}, as on ${where} (one stream carries one thread).`,
  );
}

/** Rule 8 with protocol draft: the interrupts of one outcome have distinct string ids. */
function uniqueInterruptIds(outcome: Rec): void {
  if (outcome.type !== "interrupt") return;
  // Read by outcomeLacksInterrupts: an array of objects.
  const interrupts = outcome.interrupts as readonly Rec[];
  const seen = new Set<string>();
  for (let i = 0; i < interrupts.length; i++) {
    const id = (interrupts[i] as Rec).id;
    if (typeof id !== "string") continue;
    if (seen.has(id)) {
      throw new Violation(
        "INTERRUPT_ID_DUPLICATE",
        `interrupt id ${q(id)} appears twice in the outcome; expected each interrupt's id to be unique.`,
        `outcome.interrupts[${i}].id`,
      );
    }
    seen.add(id);
  }
}

// ---------------------------------------------------------------------------------------
// What is still open, for the messages of rule 7 and of the end of input.

export function describeOpen(run: Run): string {
  let steps = 0;
  for (const owners of run.openSteps.values()) steps += owners.size;
  const total =
    run.messages.open.size +
    run.toolCalls.open.size +
    run.reasoning.open.size +
    run.spans.open.size +
    steps;
  return listed(openEntities(run), total);
}

function* openEntities(run: Run): Generator<string> {
  for (const [f, lane] of [
    [TEXT, run.messages],
    [TOOL, run.toolCalls],
    [REASONING, run.reasoning],
    [SPAN, run.spans],
  ] as const) {
    for (const id of lane.open.values()) {
      yield `${f.noun} ${q(id)} of ${ownerName(lane.owners.get(id) ?? PARENT)}`;
    }
  }
  for (const [name, owners] of run.openSteps) {
    for (const owner of owners) yield `step ${q(name)} of ${ownerName(owner)}`;
  }
}
