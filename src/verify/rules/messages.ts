/**
 * Entities that open, continue and close by id: rules 3 and 4 (text messages, tool calls,
 * reasoning messages, reasoning spans), with the entries of the rule table for their events
 * and for tool results, activities and message snapshots. (Rule 5 left the verifier in SPEC
 * version 4: the linter warns about a result for an open call.)
 * @module
 */

import type { VerifyErrorCode } from "../../errors.ts";
import { badField, hold, optStr, readMessages, reqStr, weight } from "../fields.ts";
import { type Lane, type Owner, PARENT, type Rec, type Run } from "../state.ts";
import { isNotOpen, isOpen, q, type Violation } from "../violations.ts";
import {
  checkAgrees,
  checkOwner,
  recordOrCheckOwner,
  rule10ParentOwner,
  seed,
} from "./ownership.ts";

// ---------------------------------------------------------------------------------------
// Rule 3 — text messages open, continue and close by id
// Rule 4 — the same, for tool calls, for reasoning messages and for reasoning spans
//
// One family per open set; the start, continue and end checks below serve all four (and
// run rule 9 on the way, in the order of the SPEC §6 table). The four open sets, and the
// registries beside them, are independent: one id may be open in all four at once.

/** An entity family that opens, continues and closes by id. */
export interface Family {
  readonly noun: string;
  readonly alreadyOpen: VerifyErrorCode;
  readonly notOpen: VerifyErrorCode;
}
export const TEXT: Family = {
  noun: "text message",
  alreadyOpen: "TEXT_MESSAGE_ALREADY_OPEN",
  notOpen: "TEXT_MESSAGE_NOT_OPEN",
};
export const TOOL: Family = {
  noun: "tool call",
  alreadyOpen: "TOOL_CALL_ALREADY_OPEN",
  notOpen: "TOOL_CALL_NOT_OPEN",
};
export const REASONING: Family = {
  noun: "reasoning message",
  alreadyOpen: "REASONING_MESSAGE_ALREADY_OPEN",
  notOpen: "REASONING_MESSAGE_NOT_OPEN",
};
export const SPAN: Family = {
  noun: "reasoning span",
  alreadyOpen: "REASONING_SPAN_ALREADY_OPEN",
  notOpen: "REASONING_SPAN_NOT_OPEN",
};

export function alreadyOpen(f: Family, id: string): Violation {
  return isOpen(f.alreadyOpen, `${f.noun} ${q(id)}`);
}

export function notOpen(f: Family, id: string): Violation {
  return isNotOpen(f.notOpen, `${f.noun} ${q(id)}`);
}

/** START of a text or reasoning message, or of a span: rule 3/4, rule 9, then open. */
export function start(run: Run, f: Family, lane: Lane, id: string, tag: string | undefined): void {
  if (lane.open.has(id)) throw alreadyOpen(f, id);
  recordOrCheckOwner(run, lane.owners, id, tag, f.noun);
  lane.open.add(id);
}

/** CONTENT / ARGS: rule 3/4, then rule 9. */
export function proceed(f: Family, lane: Lane, id: string, tag: string | undefined): void {
  if (!lane.open.has(id)) throw notOpen(f, id);
  if (tag !== undefined) checkOwner(lane.owners, id, tag, f.noun);
}

/** END: rule 3/4, rule 9, then close. */
export function close(f: Family, lane: Lane, id: string, tag: string | undefined): void {
  if (!lane.open.has(id)) throw notOpen(f, id);
  checkOwner(lane.owners, id, tag, f.noun);
  lane.open.delete(id);
}

// ---------------------------------------------------------------------------------------
// The table's entries for text, tool, reasoning and activity events (rules/table.ts). Each reads and checks all its
// fields (rule 0) before any other check or effect.

export function textMessageStart(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  start(run, TEXT, run.messages, reqStr(e.messageId, "messageId"), tag);
  return undefined;
}

export function textMessageContent(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  proceed(TEXT, run.messages, reqStr(e.messageId, "messageId"), tag);
  return undefined;
}

export function textMessageEnd(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  close(TEXT, run.messages, reqStr(e.messageId, "messageId"), tag);
  return undefined;
}

export function toolCallStart(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  const id = reqStr(e.toolCallId, "toolCallId");
  const parentId = optStr(e.parentMessageId, "parentMessageId");
  const calls = run.toolCalls;
  if (calls.open.has(id)) throw alreadyOpen(TOOL, id);
  const recorded = calls.owners.get(id);
  checkAgrees(TOOL.noun, id, recorded, tag);
  let parent: Owner | undefined;
  if (parentId !== undefined) {
    parent = run.messages.owners.get(parentId);
    const claimed = tag !== undefined ? tag : recorded;
    if (parent !== undefined) rule10ParentOwner(id, parentId, parent, claimed);
  }
  // An untagged call inherits its parent message's owner (SPEC §8.2).
  const owner =
    recorded === undefined
      ? hold(run, tag !== undefined ? tag : parent !== undefined ? parent : PARENT, weight(id))
      : undefined;
  calls.open.add(id);
  if (owner !== undefined) calls.owners.set(id, owner);
  return undefined;
}

export function toolCallArgs(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  proceed(TOOL, run.toolCalls, reqStr(e.toolCallId, "toolCallId"), tag);
  return undefined;
}

export function toolCallEnd(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  close(TOOL, run.toolCalls, reqStr(e.toolCallId, "toolCallId"), tag);
  return undefined;
}

export function toolCallResult(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  reqStr(e.toolCallId, "toolCallId");
  const messageId = reqStr(e.messageId, "messageId");
  const count = run.messages.owners.has(messageId) ? 0 : weight(messageId);
  // The result mints a tool message under its own attribution (SPEC §8.4).
  run.messages.owners.set(messageId, hold(run, tag === undefined ? PARENT : tag, count));
  return undefined;
}

export function reasoningStart(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  start(run, SPAN, run.spans, reqStr(e.messageId, "messageId"), tag);
  return undefined;
}

export function reasoningMessageStart(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  start(run, REASONING, run.reasoning, reqStr(e.messageId, "messageId"), tag);
  return undefined;
}

export function reasoningMessageContent(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  proceed(REASONING, run.reasoning, reqStr(e.messageId, "messageId"), tag);
  return undefined;
}

export function reasoningMessageEnd(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  close(REASONING, run.reasoning, reqStr(e.messageId, "messageId"), tag);
  return undefined;
}

export function reasoningEnd(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  close(SPAN, run.spans, reqStr(e.messageId, "messageId"), tag);
  return undefined;
}

/** Rule 9 against the registry `subtype` selects (SPEC §8.6); other subtypes check nothing. */
export function reasoningEncryptedValue(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  const subtype = reqStr(e.subtype, "subtype");
  const id = reqStr(e.entityId, "entityId");
  if (subtype === "tool-call") {
    checkOwner(run.toolCalls.owners, id, tag, "tool call");
  } else if (subtype === "message") {
    if (run.messages.owners.has(id)) checkOwner(run.messages.owners, id, tag, "message");
    else checkOwner(run.reasoning.owners, id, tag, "reasoning message");
  }
  return undefined;
}

/** Never rejected on ownership; a replacing snapshot re-mints the owner (SPEC §8.3). */
export function activitySnapshot(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  const id = reqStr(e.messageId, "messageId");
  const replace = e.replace;
  if (replace !== undefined && typeof replace !== "boolean") {
    throw badField("replace", replace, "a boolean");
  }
  const known = run.activityOwners.has(id);
  if (replace !== false || !known) {
    run.activityOwners.set(id, hold(run, tag === undefined ? PARENT : tag, known ? 0 : weight(id)));
  }
  return undefined;
}

export function activityDelta(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  checkOwner(run.activityOwners, reqStr(e.messageId, "messageId"), tag, "activity");
  return undefined;
}

/** Not tagged: `subagentRunId` is not read on it (SPEC §3.1). */
export function messagesSnapshot(run: Run, e: Rec): undefined {
  const messages = e.messages;
  if (messages === undefined) throw badField("messages", messages, "an array");
  seed(run, readMessages(messages, "messages"), true);
  return undefined;
}
