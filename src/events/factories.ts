/**
 * One small factory per event type, for producers and tests: each returns a plain event
 * object of the type in `types.ts`.
 * @module
 */

import type {
  ActivityDeltaEvent,
  ActivitySnapshotEvent,
  ContentPart,
  CustomEvent,
  JsonPatch,
  Message,
  MessagesSnapshotEvent,
  RawEvent,
  ReasoningEncryptedValueEvent,
  ReasoningEncryptedValueSubtype,
  ReasoningEndEvent,
  ReasoningMessageChunkEvent,
  ReasoningMessageContentEvent,
  ReasoningMessageEndEvent,
  ReasoningMessageStartEvent,
  ReasoningStartEvent,
  RunErrorEvent,
  RunFinishedEvent,
  RunStartedEvent,
  StateDeltaEvent,
  StateSnapshotEvent,
  StepFinishedEvent,
  StepStartedEvent,
  SubagentErrorEvent,
  SubagentFinishedEvent,
  SubagentStartedEvent,
  TextMessageChunkEvent,
  TextMessageContentEvent,
  TextMessageEndEvent,
  TextMessageStartEvent,
  ToolCallArgsEvent,
  ToolCallChunkEvent,
  ToolCallEndEvent,
  ToolCallResultEvent,
  ToolCallStartEvent,
} from "./types.ts";

// ---------------------------------------------------------------------------------------------
// Factories. Each takes the event's required fields positionally (or, for the run events and
// chunks, as one object) and its optional fields as `extra`. Only keys that were given are
// set: an omitted option produces no key.
// ---------------------------------------------------------------------------------------------

/**
 * What a factory takes for `Event` besides its positional fields `Given`: the other fields,
 * where an omitted option is left out rather than set to `undefined` (so the event gets no
 * such key).
 *
 * @example
 * ```ts
 * import type { EventOptions, TextMessageEndEvent } from "ag-ui-verify";
 * const extra: EventOptions<TextMessageEndEvent, "type" | "messageId"> = { subagentRunId: "s1" };
 * ```
 */
export type EventOptions<Event, Given extends keyof Event> = {
  [K in keyof Event as K extends Given ? never : K]: Exclude<Event[K], undefined>;
};

/**
 * A `RUN_STARTED` event.
 *
 * @example
 * ```ts
 * import { runStarted } from "ag-ui-verify";
 * runStarted({ threadId: "t1", runId: "r1" }); // { type: "RUN_STARTED", threadId: "t1", runId: "r1" }
 * ```
 */
export function runStarted(fields: EventOptions<RunStartedEvent, "type">): RunStartedEvent {
  return { type: "RUN_STARTED", ...fields };
}

/**
 * A `RUN_FINISHED` event; `outcome` absent means success.
 *
 * @example
 * ```ts
 * import { runFinished } from "ag-ui-verify";
 * runFinished({
 *   threadId: "t1",
 *   runId: "r1",
 *   outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "confirmation" }] },
 * });
 * ```
 */
export function runFinished(fields: EventOptions<RunFinishedEvent, "type">): RunFinishedEvent {
  return { type: "RUN_FINISHED", ...fields };
}

/** A `RUN_ERROR` event. */
export function runError(
  message: string,
  extra?: EventOptions<RunErrorEvent, "type" | "message">,
): RunErrorEvent {
  return { type: "RUN_ERROR", message, ...extra };
}

/** A `STEP_STARTED` event. */
export function stepStarted(
  stepName: string,
  extra?: EventOptions<StepStartedEvent, "type" | "stepName">,
): StepStartedEvent {
  return { type: "STEP_STARTED", stepName, ...extra };
}

/** A `STEP_FINISHED` event. */
export function stepFinished(
  stepName: string,
  extra?: EventOptions<StepFinishedEvent, "type" | "stepName">,
): StepFinishedEvent {
  return { type: "STEP_FINISHED", stepName, ...extra };
}

/**
 * A `TEXT_MESSAGE_START` event. `role` is set to `"assistant"` unless `extra.role` says
 * otherwise.
 *
 * @example
 * ```ts
 * import { textMessageStart } from "ag-ui-verify";
 * textMessageStart("m1", { subagentRunId: "s1" });
 * // { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant", subagentRunId: "s1" }
 * ```
 */
export function textMessageStart(
  messageId: string,
  extra?: EventOptions<TextMessageStartEvent, "type" | "messageId">,
): TextMessageStartEvent {
  return { type: "TEXT_MESSAGE_START", messageId, role: "assistant", ...extra };
}

/** A `TEXT_MESSAGE_CONTENT` event. */
export function textMessageContent(
  messageId: string,
  delta: string,
  extra?: EventOptions<TextMessageContentEvent, "type" | "messageId" | "delta">,
): TextMessageContentEvent {
  return { type: "TEXT_MESSAGE_CONTENT", messageId, delta, ...extra };
}

/** A `TEXT_MESSAGE_END` event. */
export function textMessageEnd(
  messageId: string,
  extra?: EventOptions<TextMessageEndEvent, "type" | "messageId">,
): TextMessageEndEvent {
  return { type: "TEXT_MESSAGE_END", messageId, ...extra };
}

/** A `TEXT_MESSAGE_CHUNK` event; every field is optional. */
export function textMessageChunk(
  fields?: EventOptions<TextMessageChunkEvent, "type">,
): TextMessageChunkEvent {
  return { type: "TEXT_MESSAGE_CHUNK", ...fields };
}

/**
 * A `TOOL_CALL_START` event. `extra` may name the message that holds the call
 * (`parentMessageId`) and the subagent that makes it (`subagentRunId`).
 *
 * @example
 * ```ts
 * import { toolCallStart } from "ag-ui-verify";
 * toolCallStart("c1", "get_weather", { parentMessageId: "m1" });
 * // { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "get_weather", parentMessageId: "m1" }
 * ```
 */
export function toolCallStart(
  toolCallId: string,
  toolCallName: string,
  extra?: EventOptions<ToolCallStartEvent, "type" | "toolCallId" | "toolCallName">,
): ToolCallStartEvent {
  return { type: "TOOL_CALL_START", toolCallId, toolCallName, ...extra };
}

/** A `TOOL_CALL_ARGS` event. */
export function toolCallArgs(
  toolCallId: string,
  delta: string,
  extra?: EventOptions<ToolCallArgsEvent, "type" | "toolCallId" | "delta">,
): ToolCallArgsEvent {
  return { type: "TOOL_CALL_ARGS", toolCallId, delta, ...extra };
}

/** A `TOOL_CALL_END` event. */
export function toolCallEnd(
  toolCallId: string,
  extra?: EventOptions<ToolCallEndEvent, "type" | "toolCallId">,
): ToolCallEndEvent {
  return { type: "TOOL_CALL_END", toolCallId, ...extra };
}

/** A `TOOL_CALL_CHUNK` event; every field is optional. */
export function toolCallChunk(
  fields?: EventOptions<ToolCallChunkEvent, "type">,
): ToolCallChunkEvent {
  return { type: "TOOL_CALL_CHUNK", ...fields };
}

/** A `TOOL_CALL_RESULT` event: the result of call `toolCallId`, as the tool message `messageId`. */
export function toolCallResult(
  toolCallId: string,
  messageId: string,
  content: string | ContentPart[],
  extra?: EventOptions<ToolCallResultEvent, "type" | "toolCallId" | "messageId" | "content">,
): ToolCallResultEvent {
  return { type: "TOOL_CALL_RESULT", toolCallId, messageId, content, ...extra };
}

/** A `REASONING_START` event. */
export function reasoningStart(
  messageId: string,
  extra?: EventOptions<ReasoningStartEvent, "type" | "messageId">,
): ReasoningStartEvent {
  return { type: "REASONING_START", messageId, ...extra };
}

/** A `REASONING_MESSAGE_START` event (`role: "reasoning"` is always set). */
export function reasoningMessageStart(
  messageId: string,
  extra?: EventOptions<ReasoningMessageStartEvent, "type" | "messageId" | "role">,
): ReasoningMessageStartEvent {
  return { type: "REASONING_MESSAGE_START", messageId, role: "reasoning", ...extra };
}

/** A `REASONING_MESSAGE_CONTENT` event. */
export function reasoningMessageContent(
  messageId: string,
  delta: string,
  extra?: EventOptions<ReasoningMessageContentEvent, "type" | "messageId" | "delta">,
): ReasoningMessageContentEvent {
  return { type: "REASONING_MESSAGE_CONTENT", messageId, delta, ...extra };
}

/** A `REASONING_MESSAGE_END` event. */
export function reasoningMessageEnd(
  messageId: string,
  extra?: EventOptions<ReasoningMessageEndEvent, "type" | "messageId">,
): ReasoningMessageEndEvent {
  return { type: "REASONING_MESSAGE_END", messageId, ...extra };
}

/** A `REASONING_MESSAGE_CHUNK` event; every field is optional. */
export function reasoningMessageChunk(
  fields?: EventOptions<ReasoningMessageChunkEvent, "type">,
): ReasoningMessageChunkEvent {
  return { type: "REASONING_MESSAGE_CHUNK", ...fields };
}

/** A `REASONING_END` event. */
export function reasoningEnd(
  messageId: string,
  extra?: EventOptions<ReasoningEndEvent, "type" | "messageId">,
): ReasoningEndEvent {
  return { type: "REASONING_END", messageId, ...extra };
}

/** A `REASONING_ENCRYPTED_VALUE` event for the message or tool call `entityId`. */
export function reasoningEncryptedValue(
  subtype: ReasoningEncryptedValueSubtype,
  entityId: string,
  encryptedValue: string,
  extra?: EventOptions<
    ReasoningEncryptedValueEvent,
    "type" | "subtype" | "entityId" | "encryptedValue"
  >,
): ReasoningEncryptedValueEvent {
  return { type: "REASONING_ENCRYPTED_VALUE", subtype, entityId, encryptedValue, ...extra };
}

/** An `ACTIVITY_SNAPSHOT` event. */
export function activitySnapshot(
  messageId: string,
  activityType: string,
  content: Record<string, unknown>,
  extra?: EventOptions<ActivitySnapshotEvent, "type" | "messageId" | "activityType" | "content">,
): ActivitySnapshotEvent {
  return { type: "ACTIVITY_SNAPSHOT", messageId, activityType, content, ...extra };
}

/** An `ACTIVITY_DELTA` event. */
export function activityDelta(
  messageId: string,
  activityType: string,
  patch: JsonPatch,
  extra?: EventOptions<ActivityDeltaEvent, "type" | "messageId" | "activityType" | "patch">,
): ActivityDeltaEvent {
  return { type: "ACTIVITY_DELTA", messageId, activityType, patch, ...extra };
}

/** A `STATE_SNAPSHOT` event. */
export function stateSnapshot(
  snapshot: unknown,
  extra?: EventOptions<StateSnapshotEvent, "type" | "snapshot">,
): StateSnapshotEvent {
  return { type: "STATE_SNAPSHOT", snapshot, ...extra };
}

/** A `STATE_DELTA` event. */
export function stateDelta(
  delta: JsonPatch,
  extra?: EventOptions<StateDeltaEvent, "type" | "delta">,
): StateDeltaEvent {
  return { type: "STATE_DELTA", delta, ...extra };
}

/**
 * A `MESSAGES_SNAPSHOT` event.
 *
 * @example
 * ```ts
 * import { messagesSnapshot } from "ag-ui-verify";
 * messagesSnapshot([
 *   { id: "u1", role: "user", content: "Weather in Oslo?" },
 *   {
 *     id: "m1",
 *     role: "assistant",
 *     subagentRunId: "s1",
 *     toolCalls: [{ id: "c1", type: "function", function: { name: "get_weather", arguments: "{}" } }],
 *   },
 * ]);
 * ```
 */
export function messagesSnapshot(
  messages: Message[],
  extra?: EventOptions<MessagesSnapshotEvent, "type" | "messages">,
): MessagesSnapshotEvent {
  return { type: "MESSAGES_SNAPSHOT", messages, ...extra };
}

/** A `RAW` event carrying a provider-native `event`. */
export function raw(event: unknown, extra?: EventOptions<RawEvent, "type" | "event">): RawEvent {
  return { type: "RAW", event, ...extra };
}

/** A `CUSTOM` event. */
export function custom(
  name: string,
  value: unknown,
  extra?: EventOptions<CustomEvent, "type" | "name" | "value">,
): CustomEvent {
  return { type: "CUSTOM", name, value, ...extra };
}

/**
 * A `SUBAGENT_STARTED` event. `extra.parentSubagentRunId` nests it under another subagent.
 *
 * @example
 * ```ts
 * import { subagentStarted } from "ag-ui-verify";
 * subagentStarted("s2", "researcher", { parentSubagentRunId: "s1" });
 * // { type: "SUBAGENT_STARTED", subagentRunId: "s2", name: "researcher", parentSubagentRunId: "s1" }
 * ```
 */
export function subagentStarted(
  subagentRunId: string,
  name: string,
  extra?: EventOptions<SubagentStartedEvent, "type" | "subagentRunId" | "name">,
): SubagentStartedEvent {
  return { type: "SUBAGENT_STARTED", subagentRunId, name, ...extra };
}

/** A `SUBAGENT_FINISHED` event; `outcome` absent means success. */
export function subagentFinished(
  subagentRunId: string,
  extra?: EventOptions<SubagentFinishedEvent, "type" | "subagentRunId">,
): SubagentFinishedEvent {
  return { type: "SUBAGENT_FINISHED", subagentRunId, ...extra };
}

/** A `SUBAGENT_ERROR` event. */
export function subagentError(
  subagentRunId: string,
  message: string,
  extra?: EventOptions<SubagentErrorEvent, "type" | "subagentRunId" | "message">,
): SubagentErrorEvent {
  return { type: "SUBAGENT_ERROR", subagentRunId, message, ...extra };
}
