/**
 * The rule table (SPEC §6): each event type's checks and effects, in the order of the SPEC
 * §6 table. Types it does not list are checked by rule 0 and the phase checks only.
 * @module
 */

import type { Rule } from "../state.ts";
import {
  runError,
  runFinished,
  runFinishedDraft,
  runStarted,
  runStartedDraft,
  tagOnly,
} from "./lifecycle.ts";
import {
  activityDelta,
  activitySnapshot,
  messagesSnapshot,
  reasoningEncryptedValue,
  reasoningEnd,
  reasoningMessageContent,
  reasoningMessageEnd,
  reasoningMessageStart,
  reasoningStart,
  textMessageContent,
  textMessageEnd,
  textMessageStart,
  toolCallArgs,
  toolCallEnd,
  toolCallResult,
  toolCallStart,
} from "./messages.ts";
import { subagentClosed, subagentStarted } from "./ownership.ts";
import { stepFinished, stepStarted } from "./steps.ts";

// ---------------------------------------------------------------------------------------
// The rules by event type (SPEC §6 table).
//
// Invariant: each function reads and validates ALL the fields it reads (rule 0, in the
// order of SPEC §3.2) before any check or effect. So a field problem is reported before
// any rule, whatever the state, and the slow path can rerun a function on a scratch run
// to find the field whose getter threw.

export const RULES = new Map<string, Rule>([
  ["RUN_STARTED", runStarted],
  ["RUN_FINISHED", runFinished],
  ["RUN_ERROR", runError],
  ["STEP_STARTED", stepStarted],
  ["STEP_FINISHED", stepFinished],
  ["TEXT_MESSAGE_START", textMessageStart],
  ["TEXT_MESSAGE_CONTENT", textMessageContent],
  ["TEXT_MESSAGE_END", textMessageEnd],
  ["TEXT_MESSAGE_CHUNK", tagOnly],
  ["TOOL_CALL_START", toolCallStart],
  ["TOOL_CALL_ARGS", toolCallArgs],
  ["TOOL_CALL_END", toolCallEnd],
  ["TOOL_CALL_CHUNK", tagOnly],
  ["TOOL_CALL_RESULT", toolCallResult],
  ["REASONING_START", reasoningStart],
  ["REASONING_MESSAGE_START", reasoningMessageStart],
  ["REASONING_MESSAGE_CONTENT", reasoningMessageContent],
  ["REASONING_MESSAGE_END", reasoningMessageEnd],
  ["REASONING_MESSAGE_CHUNK", tagOnly],
  ["REASONING_END", reasoningEnd],
  ["REASONING_ENCRYPTED_VALUE", reasoningEncryptedValue],
  ["ACTIVITY_SNAPSHOT", activitySnapshot],
  ["ACTIVITY_DELTA", activityDelta],
  ["STATE_SNAPSHOT", tagOnly],
  ["STATE_DELTA", tagOnly],
  ["MESSAGES_SNAPSHOT", messagesSnapshot],
  ["RAW", tagOnly],
  ["CUSTOM", tagOnly],
  ["SUBAGENT_STARTED", subagentStarted],
  ["SUBAGENT_FINISHED", subagentClosed],
  ["SUBAGENT_ERROR", subagentClosed],
]);

/** The same with protocol draft (SPEC §9.14): the run's two boundary events read their ids. */
export const DRAFT_RULES = new Map<string, Rule>([
  ...RULES,
  ["RUN_STARTED", runStartedDraft],
  ["RUN_FINISHED", runFinishedDraft],
]);
