/**
 * Ownership and subagents (SPEC §8): rules 9 (a tag names the owner), 10 (a tool call and
 * its parent message have one owner), 12 (subagent lifecycle) and 13 (every subagent closed
 * before RUN_FINISHED), the seeding from replayed history, and the SUBAGENT_* table entries.
 * @module
 */

import { hold, keep, optStr, reqStr, reserve, type SeedMessage, weight } from "../fields.ts";
import { type Owner, PARENT, type Rec, type Registry, type Run } from "../state.ts";
import { describeSubagents, isNotOpen, isOpen, ownerName, q, Violation } from "../violations.ts";

// ---------------------------------------------------------------------------------------
// Rule 9 — a continuation, terminator or re-open that names a subagent names the owner

export function ownerMismatch(noun: string, id: string, owner: Owner, tag: string): Violation {
  return new Violation(
    "OWNER_MISMATCH",
    `${noun} ${q(id)} is owned by ${ownerName(owner)}, not subagent ${q(tag)}; expected its owner or no tag.`,
  );
}

/** A tag must agree with the owner recorded for the id, if there is one (SPEC §0). */
export function checkAgrees(
  noun: string,
  id: string,
  owner: Owner | undefined,
  tag: string | undefined,
): void {
  if (tag !== undefined && owner !== undefined && owner !== tag) {
    throw ownerMismatch(noun, id, owner, tag);
  }
}

/** For continuations and terminators, which never record an owner (SPEC §8.2). */
export function checkOwner(
  owners: Registry,
  id: string,
  tag: string | undefined,
  noun: string,
): void {
  if (tag !== undefined) checkAgrees(noun, id, owners.get(id), tag);
}

/**
 * For openers: check the recorded owner, or record the opener's when there is none (a new
 * id, counted against `maxIds`). The opener's last check and first effect.
 */
export function recordOrCheckOwner(
  run: Run,
  owners: Registry,
  id: string,
  tag: string | undefined,
  noun: string,
): void {
  const owner = owners.get(id);
  if (owner !== undefined) checkAgrees(noun, id, owner, tag);
  else owners.set(id, hold(run, tag === undefined ? PARENT : tag, weight(id)));
}

/**
 * Records the owners a replayed history names (SPEC §8.5). An authoritative snapshot
 * overwrites; the input echo only fills ids that have no owner yet.
 */
export function seed(run: Run, messages: readonly SeedMessage[], authoritative: boolean): void {
  reserve(run, newIds(run, messages));
  for (const m of messages) {
    const owner = keep(run, m.owner); // weighed by newIds

    const registry = registryOf(run, m.role);
    if (authoritative || !registry.has(m.id)) registry.set(m.id, owner);
    if (m.toolCallIds === undefined) continue;
    for (const id of m.toolCallIds) {
      if (authoritative || !run.toolCalls.owners.has(id)) run.toolCalls.owners.set(id, owner);
    }
  }
}

/** The owner registry a replayed message's role selects (SPEC §8.5). */
function registryOf(run: Run, role: string): Registry {
  return role === "reasoning"
    ? run.reasoning.owners
    : role === "activity"
      ? run.activityOwners
      : run.messages.owners;
}

/**
 * What the ids seeding `messages` would add weigh (SPEC §17.1): those no registry holds yet,
 * and the subagent ids of their owners that the run does not hold yet, each once. Stops
 * counting past what the run may still hold, so the count costs no more than the limit.
 */
function newIds(run: Run, messages: readonly SeedMessage[]): number {
  const room = run.maxIds - run.held;
  const seen = new Set<string>();
  let count = 0;
  const add = (registry: { has(id: string): boolean }, kind: string, id: string) => {
    if (count > room || registry.has(id)) return;
    const key = `${kind}${id}`;
    if (seen.has(key)) return;
    seen.add(key);
    count += weight(id);
  };
  for (const m of messages) {
    if (typeof m.owner === "string") add(run.tags, "s", m.owner);
    add(
      registryOf(run, m.role),
      m.role === "reasoning" ? "r" : m.role === "activity" ? "a" : "m",
      m.id,
    );
    for (const id of m.toolCallIds ?? []) add(run.toolCalls.owners, "c", id);
  }
  return count;
}

// ---------------------------------------------------------------------------------------
// Rule 10 — a tool call belongs to the message its parentMessageId names

/**
 * `claimed` is the call's tag or, untagged, the owner already recorded for the call (it
 * inherits the parent message's owner, so that one must agree too).
 */
export function rule10ParentOwner(
  id: string,
  parentId: string,
  parent: Owner,
  claimed: Owner | undefined,
): void {
  if (claimed !== undefined && claimed !== parent) {
    throw new Violation(
      "TOOL_CALL_PARENT_OWNER_MISMATCH",
      `tool call ${q(id)} is owned by ${ownerName(claimed)}, its parent message ${q(parentId)} by ${ownerName(parent)}; expected one owner.`,
    );
  }
}

// ---------------------------------------------------------------------------------------
// Rule 12 — subagent lifecycle

export function rule12StartSubagent(run: Run, id: string, parentId: string | undefined): void {
  if (run.activeSubagents.has(id)) {
    throw isOpen("SUBAGENT_ALREADY_ACTIVE", `subagent ${q(id)}`);
  }
  if (run.finishedSubagents.has(id)) {
    throw new Violation(
      "SUBAGENT_ALREADY_FINISHED",
      `subagent ${q(id)} already finished; expected a new id.`,
    );
  }
  if (
    parentId !== undefined &&
    !run.activeSubagents.has(parentId) &&
    !run.finishedSubagents.has(parentId)
  ) {
    throw isNotOpen("SUBAGENT_PARENT_NOT_STARTED", `parent subagent ${q(parentId)}`);
  }
  run.activeSubagents.add(hold(run, id, 0) as string);
}

export function rule12CloseSubagent(run: Run, id: string): void {
  if (!run.activeSubagents.delete(id)) {
    throw isNotOpen("SUBAGENT_NOT_ACTIVE", `subagent ${q(id)}`);
  }
  run.finishedSubagents.add(id);
}

// ---------------------------------------------------------------------------------------
// Rule 13 — every started subagent is closed before RUN_FINISHED, not before RUN_ERROR

export function rule13NoActiveSubagents(run: Run): void {
  if (run.activeSubagents.size > 0) {
    throw new Violation(
      "SUBAGENT_OPEN_AT_RUN_FINISHED",
      `${describeSubagents(run.activeSubagents)} still open; expected them closed first.`,
    );
  }
}

// ---------------------------------------------------------------------------------------
// The table's entries for the SUBAGENT_* events (rules/table.ts). Each reads and checks all its
// fields (rule 0) before any other check or effect.

export function subagentStarted(run: Run, e: Rec): undefined {
  const id = reqStr(e.subagentRunId, "subagentRunId");
  const parentId = optStr(e.parentSubagentRunId, "parentSubagentRunId");
  rule12StartSubagent(run, id, parentId);
  return undefined;
}

export function subagentClosed(run: Run, e: Rec): undefined {
  rule12CloseSubagent(run, reqStr(e.subagentRunId, "subagentRunId"));
  return undefined;
}
