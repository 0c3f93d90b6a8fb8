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
  type SeedMessage,
} from "../fields.ts";
import {
  BEFORE_RUN,
  CLOSED,
  isRecord,
  PARENT,
  type Phase,
  type Rec,
  RUNNING,
  type Run,
} from "../state.ts";
import {
  describeSubagents,
  isNotOpen,
  isOpen,
  listed,
  ownerName,
  q,
  Violation,
} from "../violations.ts";
import { REASONING, TEXT, TOOL } from "./messages.ts";
import { rule13NoActiveSubagents, seed } from "./ownership.ts";

// ---------------------------------------------------------------------------------------
// Rule 1 — RUN_STARTED opens the stream, exactly once; only RAW and CUSTOM may precede it
// Rule 2 — RUN_FINISHED and RUN_ERROR close the run; nothing may follow
//
// Both check the phase, before the type's own checks (SPEC §6 step 3); RUN_FINISHED and
// RUN_ERROR return the new phase from RULES.

/** Rules 1 and 2 outside a run: what may come before the first run and after a close. */
export function checkOutsideRun(phase: Phase, type: string, sequential: boolean): void {
  const opensOrUnordered = type === "RUN_STARTED" || type === "RAW" || type === "CUSTOM";
  if (phase === BEFORE_RUN) {
    if (!opensOrUnordered) throw isNotOpen("EVENT_BEFORE_RUN_STARTED", "the run");
  } else if (!sequential || !opensOrUnordered) {
    throw new Violation(
      "EVENT_AFTER_RUN_CLOSED",
      `the run is closed; expected ${sequential ? "RAW, CUSTOM or RUN_STARTED" : "nothing more (see allowSequentialRuns)"}.`,
    );
  }
}

export function runAlreadyStarted(): Violation {
  return isOpen("RUN_ALREADY_STARTED", "the run");
}

export function streamEndedBeforeRunStarted(): Violation {
  return isNotOpen("STREAM_ENDED_BEFORE_RUN_STARTED", "the run");
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
    run.messages.open.size + run.toolCalls.open.size + run.reasoning.open.size + run.openSteps.size;
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

export function runStarted(run: Run, e: Rec): Phase {
  optStr(e.subagentRunId, "subagentRunId");
  const input = e.input;
  let messages: SeedMessage[] | undefined;
  if (input !== undefined) {
    if (!isRecord(input)) throw badField("input", input, "an object");
    const m = input.messages;
    if (m !== undefined) messages = readMessages(m, "input.messages");
  }
  if (messages !== undefined) seed(run, messages, false);
  return RUNNING;
}

export function runFinished(run: Run, e: Rec): Phase {
  optStr(e.subagentRunId, "subagentRunId");
  const outcome = e.outcome;
  const lacksInterrupts = outcome !== undefined && outcomeLacksInterrupts(outcome);
  rule7NothingOpen(run);
  rule8InterruptsPresent(lacksInterrupts);
  rule13NoActiveSubagents(run);
  return CLOSED;
}

export function runError(_run: Run, e: Rec): Phase {
  optStr(e.subagentRunId, "subagentRunId");
  return CLOSED;
}

// ---------------------------------------------------------------------------------------
// What is still open, for the messages of rule 7 and of the end of input.

export function describeOpen(run: Run): string {
  let steps = 0;
  for (const owners of run.openSteps.values()) steps += owners.size;
  const total = run.messages.open.size + run.toolCalls.open.size + run.reasoning.open.size + steps;
  return listed(openEntities(run), total);
}

function* openEntities(run: Run): Generator<string> {
  for (const [f, lane] of [
    [TEXT, run.messages],
    [TOOL, run.toolCalls],
    [REASONING, run.reasoning],
  ] as const) {
    for (const id of lane.open.values()) {
      yield `${f.noun} ${q(id)} of ${ownerName(lane.owners.get(id) ?? PARENT)}`;
    }
  }
  for (const [name, owners] of run.openSteps) {
    for (const owner of owners) yield `step ${q(name)} of ${ownerName(owner)}`;
  }
}
