/**
 * Steps: rule 6 (a finish needs a matching start; a step does not nest with itself) and
 * rule 11 (steps are scoped to the agent that opened them), with their table entries.
 * @module
 */

import { hold, optStr, reqStr, weight } from "../fields.ts";
import { type Owner, PARENT, type Rec, type Run } from "../state.ts";
import { isNotOpen, isOpen, listed, ownerName, q, Violation } from "../violations.ts";

// ---------------------------------------------------------------------------------------
// Rule 6 — STEP_FINISHED needs a matching STEP_STARTED; a step does not nest with itself

export function rule6StartStep(run: Run, name: string, owner: Owner): void {
  const owners = run.openSteps.get(name);
  if (owners?.has(owner)) {
    throw isOpen("STEP_ALREADY_ACTIVE", `step ${q(name)} of ${ownerName(owner)}`);
  }
  // An open step holds its (owner, name) until it finishes (SPEC §17.1); the owner, a
  // subagent id, for the rest of the run.
  const kept = hold(run, owner, weight(name));
  if (owners === undefined) run.openSteps.set(name, new Set([kept]));
  else owners.add(kept);
}

/** Closes a step; rule 11 decides when the name is open under other owners only. */
export function rule6FinishStep(run: Run, name: string, owner: Owner): void {
  const owners = run.openSteps.get(name);
  if (owners === undefined) throw isNotOpen("STEP_NOT_STARTED", `step ${q(name)}`);
  rule11StepOwner(name, owners, owner);
  run.held -= weight(name);
  if (owners.size === 1) run.openSteps.delete(name);
  else owners.delete(owner);
}

// ---------------------------------------------------------------------------------------
// Rule 11 — steps are scoped to the agent that opened them

function* owners(holders: ReadonlySet<Owner>): Generator<string> {
  for (const owner of holders) yield ownerName(owner);
}

export function rule11StepOwner(name: string, holders: ReadonlySet<Owner>, owner: Owner): void {
  if (!holders.has(owner)) {
    throw new Violation(
      "STEP_OWNER_MISMATCH",
      `step ${q(name)} is open under ${listed(owners(holders), holders.size)}, not ${ownerName(owner)}; expected its owner.`,
    );
  }
}

// ---------------------------------------------------------------------------------------
// The table's entries for STEP_STARTED and STEP_FINISHED (rules/table.ts). Each reads and checks all its
// fields (rule 0) before any other check or effect.

export function stepStarted(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  const name = reqStr(e.stepName, "stepName");
  rule6StartStep(run, name, tag === undefined ? PARENT : tag);
  return undefined;
}

export function stepFinished(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  const name = reqStr(e.stepName, "stepName");
  rule6FinishStep(run, name, tag === undefined ? PARENT : tag);
  return undefined;
}
