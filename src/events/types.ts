/**
 * The protocol's vocabulary as types (SPEC §3): the shared shapes, messages, run input and
 * outcomes, one type per event, and the list of recognised event types.
 * @module
 */

// ---------------------------------------------------------------------------------------------
// Shared shapes
// ---------------------------------------------------------------------------------------------

/**
 * What verified streams yield: any event object, since events of unknown types pass through
 * unchanged (SPEC §9.2). Narrow it to {@link KnownAgUiEvent} by checking `type` yourself.
 */
export type AgUiEvent = { type: string } & Record<string, unknown>;

/**
 * True when `value` has the shape of an {@link AgUiEvent}: a non-array object with a string
 * `type`. Only that is checked; use a `Verifier` to check an event against the rules.
 *
 * @example
 * ```ts
 * import { isAgUiEvent } from "ag-ui-verify";
 * isAgUiEvent({ type: "RAW", event: {} }); // true
 * isAgUiEvent([{ type: "RAW" }]); // false
 * ```
 */
export function isAgUiEvent(value: unknown): value is AgUiEvent {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    "type" in value &&
    typeof value.type === "string"
  );
}

/** Extra information attached to an event, a message or an interrupt. Any JSON under a key. */
export type Metadata = Record<string, unknown>;

/**
 * The fields every event may carry. `subagentRunId` is the tag (SPEC §3.1): the subagent
 * invocation the event belongs to; absent means the parent agent. The protocol defines no
 * tag on run-level events and `MESSAGES_SNAPSHOT`; the verifier ignores a string tag there.
 */
export type BaseEventFields = {
  /** When the event was created, conventionally milliseconds since the Unix epoch. */
  timestamp?: number | undefined;
  /** The provider-native event this one was translated from. Any JSON value. */
  rawEvent?: unknown;
  /** Extra information attached to this event. */
  metadata?: Metadata | undefined;
  /** The subagent invocation this event belongs to. Absent: the parent agent. */
  subagentRunId?: string | undefined;
};

/** The roles a streamed text message may take (`tool` travels as `TOOL_CALL_RESULT`). */
export type TextMessageRole = "developer" | "system" | "assistant" | "user";

/** One RFC 6902 JSON Patch operation. */
export type JsonPatchOperation =
  | { op: "add"; path: string; value: unknown }
  | { op: "remove"; path: string }
  | { op: "replace"; path: string; value: unknown }
  | { op: "move"; from: string; path: string }
  | { op: "copy"; from: string; path: string }
  | { op: "test"; path: string; value: unknown };

/** An RFC 6902 JSON Patch document: operations applied in order. */
export type JsonPatch = JsonPatchOperation[];

/** Where a media part's bytes come from: inline, by URL, or a provider-issued file handle. */
export type PartSource =
  | { type: "data"; value: string; mimeType: string }
  | { type: "url"; value: string; mimeType?: string | undefined }
  | { type: "file"; value: string; provider?: string | undefined; mimeType?: string | undefined };

/** One part of a user message's or a tool result's content: text, or a media part. */
export type ContentPart =
  | { type: "text"; id?: string | undefined; text: string; metadata?: unknown }
  | {
      type: "image" | "audio" | "video" | "document";
      id?: string | undefined;
      source: PartSource;
      metadata?: unknown;
    };

/** A token count a run or run error reports, per provider and model. */
export type TokenUsage = {
  provider?: string | undefined;
  model?: string | undefined;
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  totalTokens?: number | undefined;
  reasoningTokens?: number | undefined;
  cachedInputTokens?: number | undefined;
  cacheWriteInputTokens?: number | undefined;
};

// ---------------------------------------------------------------------------------------------
// Messages (SPEC §3.3)
// ---------------------------------------------------------------------------------------------

/** A call an assistant message made. It inherits its message's `subagentRunId`. */
export type ToolCall = {
  /** The call's id; the answering tool message carries it as `toolCallId`. */
  id: string;
  type: "function";
  /** What is called, with its arguments as a JSON string (kept as the model wrote it). */
  function: { name: string; arguments: string };
  encryptedValue?: string | undefined;
  metadata?: Metadata | undefined;
};

/** Fields shared by every message: its id and the subagent that produced it. */
export type BaseMessageFields = {
  id: string;
  /** The subagent invocation that produced this message. Absent: the parent agent. */
  subagentRunId?: string | undefined;
};

/** Instructions from the application developer. */
export type DeveloperMessage = BaseMessageFields & {
  role: "developer";
  content: string;
  name?: string | undefined;
  encryptedValue?: string | undefined;
  metadata?: Metadata | undefined;
};

/** Instructions from the system. */
export type SystemMessage = BaseMessageFields & {
  role: "system";
  content: string;
  name?: string | undefined;
  encryptedValue?: string | undefined;
  metadata?: Metadata | undefined;
};

/** A message from the agent; `content` is optional because a turn may be only tool calls. */
export type AssistantMessage = BaseMessageFields & {
  role: "assistant";
  content?: string | undefined;
  toolCalls?: ToolCall[] | undefined;
  name?: string | undefined;
  encryptedValue?: string | undefined;
  metadata?: Metadata | undefined;
};

/** A message from the user: text, or an ordered list of parts. */
export type UserMessage = BaseMessageFields & {
  role: "user";
  content: string | ContentPart[];
  name?: string | undefined;
  encryptedValue?: string | undefined;
  metadata?: Metadata | undefined;
};

/** What a tool returned, answering the call `toolCallId`. */
export type ToolMessage = BaseMessageFields & {
  role: "tool";
  content: string | ContentPart[];
  toolCallId: string;
  error?: string | undefined;
  encryptedValue?: string | undefined;
  metadata?: Metadata | undefined;
};

/** The agent's reasoning, as a message. */
export type ReasoningMessage = BaseMessageFields & {
  role: "reasoning";
  content: string;
  encryptedValue?: string | undefined;
  metadata?: Metadata | undefined;
};

/** A structured activity (a plan, a progress card, ...) shown in the conversation. */
export type ActivityMessage = BaseMessageFields & {
  role: "activity";
  activityType: string;
  content: Record<string, unknown>;
  metadata?: Metadata | undefined;
};

/** A message of the conversation (`MESSAGES_SNAPSHOT.messages`, `RUN_STARTED.input.messages`). */
export type Message =
  | DeveloperMessage
  | SystemMessage
  | AssistantMessage
  | UserMessage
  | ToolMessage
  | ReasoningMessage
  | ActivityMessage;

// ---------------------------------------------------------------------------------------------
// Run input and outcomes (SPEC §3.4)
// ---------------------------------------------------------------------------------------------

/** A tool the client offers the agent; `parameters` is conventionally a JSON Schema. */
export type Tool = { name: string; description: string; parameters?: unknown };

/** A piece of context the client hands the agent. */
export type Context = { description: string; value: string };

/** An answer to an interrupt of an earlier run. */
export type ResumeEntry = {
  interruptId: string;
  status: "resolved" | "cancelled";
  payload?: unknown;
};

/** What a run was started with, echoed in `RUN_STARTED.input`. */
export type RunAgentInput = {
  threadId: string;
  runId: string;
  parentRunId?: string | undefined;
  protocolVersion?: string | undefined;
  /** Agent state. Any JSON value. */
  state?: unknown;
  messages: Message[];
  tools: Tool[];
  context: Context[];
  /** Anything else the client forwards. Any JSON value. */
  forwardedProps?: unknown;
  resume?: ResumeEntry[] | undefined;
};

/** A reason a run paused, awaiting outside input. */
export type Interrupt = {
  id: string;
  /** Why the run paused, e.g. `"confirmation"`. An open string. */
  reason: string;
  message?: string | undefined;
  toolCallId?: string | undefined;
  /** A JSON Schema the response must satisfy. */
  responseSchema?: Record<string, unknown> | undefined;
  /** An ISO 8601 date-time after which the interrupt lapses. */
  expiresAt?: string | undefined;
  metadata?: Metadata | undefined;
  /** The subagent invocation that raised the interrupt. Absent: the parent agent. */
  subagentRunId?: string | undefined;
};

/**
 * How a run ended (`RUN_FINISHED.outcome`; absent means success). An `interrupt` outcome
 * carries at least one interrupt (rule 8).
 */
export type RunFinishedOutcome =
  | { type: "success"; pendingToolCallIds?: string[] | undefined }
  | { type: "interrupt"; interrupts: Interrupt[] }
  | { type: "cancelled" };

/**
 * How a subagent's segment of the run ended (`SUBAGENT_FINISHED.outcome`; absent means
 * success). `suspended` lists the interrupts the subagent raised itself (may be empty).
 */
export type SubagentOutcome =
  | { type: "success" }
  | { type: "suspended"; interruptIds?: string[] | undefined };

// ---------------------------------------------------------------------------------------------
// Events (SPEC §3.2)
// ---------------------------------------------------------------------------------------------

/** Opens the run (rule 1). */
export type RunStartedEvent = BaseEventFields & {
  type: "RUN_STARTED";
  threadId: string;
  runId: string;
  parentRunId?: string | undefined;
  protocolVersion?: string | undefined;
  /** The input the run was started with; its `messages` seed ownership (SPEC §8.5). */
  input?: RunAgentInput | undefined;
};

/** Closes the run successfully, or paused, or cancelled (rule 2). */
export type RunFinishedEvent = BaseEventFields & {
  type: "RUN_FINISHED";
  threadId: string;
  runId: string;
  /** The run's return value. Any JSON value. */
  result?: unknown;
  outcome?: RunFinishedOutcome | undefined;
  usage?: TokenUsage[] | undefined;
};

/** Closes the run with a failure (rule 2). */
export type RunErrorEvent = BaseEventFields & {
  type: "RUN_ERROR";
  message: string;
  code?: string | undefined;
  usage?: TokenUsage[] | undefined;
};

/** Opens a step of the agent that sends it (rules 6, 11). */
export type StepStartedEvent = BaseEventFields & { type: "STEP_STARTED"; stepName: string };

/** Closes a step of the agent that sends it (rules 6, 11). */
export type StepFinishedEvent = BaseEventFields & { type: "STEP_FINISHED"; stepName: string };

/** Opens a streamed text message (rule 3). */
export type TextMessageStartEvent = BaseEventFields & {
  type: "TEXT_MESSAGE_START";
  messageId: string;
  /** Absent means `"assistant"`. */
  role?: TextMessageRole | undefined;
  name?: string | undefined;
};

/** Appends a fragment to an open text message. */
export type TextMessageContentEvent = BaseEventFields & {
  type: "TEXT_MESSAGE_CONTENT";
  messageId: string;
  delta: string;
};

/** Closes a text message. */
export type TextMessageEndEvent = BaseEventFields & {
  type: "TEXT_MESSAGE_END";
  messageId: string;
};

/** Shorthand for start/content/end; passed through unverified (SPEC §9.4). */
export type TextMessageChunkEvent = BaseEventFields & {
  type: "TEXT_MESSAGE_CHUNK";
  messageId?: string | undefined;
  role?: TextMessageRole | undefined;
  name?: string | undefined;
  delta?: string | undefined;
};

/** Opens a tool call, optionally inside the message `parentMessageId` (rules 4, 10). */
export type ToolCallStartEvent = BaseEventFields & {
  type: "TOOL_CALL_START";
  toolCallId: string;
  toolCallName: string;
  parentMessageId?: string | undefined;
};

/** Appends a fragment of a tool call's argument text. */
export type ToolCallArgsEvent = BaseEventFields & {
  type: "TOOL_CALL_ARGS";
  toolCallId: string;
  delta: string;
};

/** Closes a tool call: its arguments are complete. */
export type ToolCallEndEvent = BaseEventFields & { type: "TOOL_CALL_END"; toolCallId: string };

/** Shorthand for a tool call's start/args/end; passed through unverified (SPEC §9.4). */
export type ToolCallChunkEvent = BaseEventFields & {
  type: "TOOL_CALL_CHUNK";
  toolCallId?: string | undefined;
  toolCallName?: string | undefined;
  parentMessageId?: string | undefined;
  delta?: string | undefined;
};

/** What a tool returned; mints the tool message `messageId` (rule 5, SPEC §8.4). */
export type ToolCallResultEvent = BaseEventFields & {
  type: "TOOL_CALL_RESULT";
  toolCallId: string;
  messageId: string;
  content: string | ContentPart[];
  role?: "tool" | undefined;
};

/** Opens a reasoning block (ownership only, SPEC §9.11). */
export type ReasoningStartEvent = BaseEventFields & { type: "REASONING_START"; messageId: string };

/** Opens a reasoning message (rule 4). */
export type ReasoningMessageStartEvent = BaseEventFields & {
  type: "REASONING_MESSAGE_START";
  messageId: string;
  role: "reasoning";
};

/** Appends a fragment to an open reasoning message. */
export type ReasoningMessageContentEvent = BaseEventFields & {
  type: "REASONING_MESSAGE_CONTENT";
  messageId: string;
  delta: string;
};

/** Closes a reasoning message. */
export type ReasoningMessageEndEvent = BaseEventFields & {
  type: "REASONING_MESSAGE_END";
  messageId: string;
};

/** Shorthand for a reasoning message's start/content/end; passed through unverified. */
export type ReasoningMessageChunkEvent = BaseEventFields & {
  type: "REASONING_MESSAGE_CHUNK";
  messageId?: string | undefined;
  delta?: string | undefined;
};

/** Closes a reasoning block (ownership only). */
export type ReasoningEndEvent = BaseEventFields & { type: "REASONING_END"; messageId: string };

/** Whether a `REASONING_ENCRYPTED_VALUE` belongs to a message or to a tool call. */
export type ReasoningEncryptedValueSubtype = "tool-call" | "message";

/** A provider's opaque, encrypted reasoning artefact for a message or a tool call (SPEC §8.6). */
export type ReasoningEncryptedValueEvent = BaseEventFields & {
  type: "REASONING_ENCRYPTED_VALUE";
  subtype: ReasoningEncryptedValueSubtype;
  entityId: string;
  encryptedValue: string;
};

/** Creates or (with `replace` absent or `true`) replaces an activity message (SPEC §8.3). */
export type ActivitySnapshotEvent = BaseEventFields & {
  type: "ACTIVITY_SNAPSHOT";
  messageId: string;
  activityType: string;
  content: Record<string, unknown>;
  replace?: boolean | undefined;
};

/** Patches an activity message's content. */
export type ActivityDeltaEvent = BaseEventFields & {
  type: "ACTIVITY_DELTA";
  messageId: string;
  activityType: string;
  patch: JsonPatch;
};

/** Replaces the agent state wholesale. */
export type StateSnapshotEvent = BaseEventFields & {
  type: "STATE_SNAPSHOT";
  /** The new state. Any JSON value. */
  snapshot: unknown;
};

/** Patches the agent state. */
export type StateDeltaEvent = BaseEventFields & { type: "STATE_DELTA"; delta: JsonPatch };

/** Replaces the conversation; seeds ownership authoritatively (SPEC §8.5). */
export type MessagesSnapshotEvent = BaseEventFields & {
  type: "MESSAGES_SNAPSHOT";
  messages: Message[];
};

/** A provider-native event passed along verbatim. May precede `RUN_STARTED`. */
export type RawEvent = BaseEventFields & {
  type: "RAW";
  /** The provider's event. Any JSON value. */
  event: unknown;
  source?: string | undefined;
};

/** An application-defined event. May precede `RUN_STARTED`. */
export type CustomEvent = BaseEventFields & {
  type: "CUSTOM";
  name: string;
  /** Any JSON value. */
  value: unknown;
};

/** Fields shared by the `SUBAGENT_*` events, where `subagentRunId` is required (SPEC §3.1). */
export type SubagentEventFields = Omit<BaseEventFields, "subagentRunId"> & {
  /** The subagent invocation this event is about. */
  subagentRunId: string;
};

/** Announces a subagent invocation (rule 12). */
export type SubagentStartedEvent = SubagentEventFields & {
  type: "SUBAGENT_STARTED";
  /** The subagent's reusable name (unlike `subagentRunId`, which names one invocation). */
  name: string;
  description?: string | undefined;
  /** The invocation that spawned this one. Absent: the parent agent. */
  parentSubagentRunId?: string | undefined;
  /** The tool call that spawned this subagent. */
  parentToolCallId?: string | undefined;
  /** The message that held the spawning tool call. */
  parentMessageId?: string | undefined;
};

/** Ends a subagent invocation's segment of the run, completed or suspended (rule 12). */
export type SubagentFinishedEvent = SubagentEventFields & {
  type: "SUBAGENT_FINISHED";
  /** The subagent's return value. Any JSON value. */
  result?: unknown;
  outcome?: SubagentOutcome | undefined;
};

/** Reports that a subagent invocation failed; the run may continue (rule 12). */
export type SubagentErrorEvent = SubagentEventFields & {
  type: "SUBAGENT_ERROR";
  message: string;
  code?: string | undefined;
};

/**
 * Any of the 31 current AG-UI events, discriminated by `type`: `switch (event.type)` narrows
 * every field. Each member is the type `@ag-ui/core` 1.0.0's zod schema for it produces
 * (test/schema-types.test.ts proves both assignable to each other). `agUiSchema`, in
 * `ag-ui-verify/schema`, checks that a value is one.
 */
export type KnownAgUiEvent =
  | RunStartedEvent
  | RunFinishedEvent
  | RunErrorEvent
  | StepStartedEvent
  | StepFinishedEvent
  | TextMessageStartEvent
  | TextMessageContentEvent
  | TextMessageEndEvent
  | TextMessageChunkEvent
  | ToolCallStartEvent
  | ToolCallArgsEvent
  | ToolCallEndEvent
  | ToolCallChunkEvent
  | ToolCallResultEvent
  | ReasoningStartEvent
  | ReasoningMessageStartEvent
  | ReasoningMessageContentEvent
  | ReasoningMessageEndEvent
  | ReasoningMessageChunkEvent
  | ReasoningEndEvent
  | ReasoningEncryptedValueEvent
  | ActivitySnapshotEvent
  | ActivityDeltaEvent
  | StateSnapshotEvent
  | StateDeltaEvent
  | MessagesSnapshotEvent
  | RawEvent
  | CustomEvent
  | SubagentStartedEvent
  | SubagentFinishedEvent
  | SubagentErrorEvent;

/** The `type` of each current AG-UI event. */
export type AgUiEventType = KnownAgUiEvent["type"];

/** The 31 current AG-UI event types, in SPEC §3.2 order (the recognised types). */
export const EVENT_TYPES: readonly AgUiEventType[] = /* @__PURE__ */ Object.freeze([
  "RUN_STARTED",
  "RUN_FINISHED",
  "RUN_ERROR",
  "STEP_STARTED",
  "STEP_FINISHED",
  "TEXT_MESSAGE_START",
  "TEXT_MESSAGE_CONTENT",
  "TEXT_MESSAGE_END",
  "TEXT_MESSAGE_CHUNK",
  "TOOL_CALL_START",
  "TOOL_CALL_ARGS",
  "TOOL_CALL_END",
  "TOOL_CALL_CHUNK",
  "TOOL_CALL_RESULT",
  "REASONING_START",
  "REASONING_MESSAGE_START",
  "REASONING_MESSAGE_CONTENT",
  "REASONING_MESSAGE_END",
  "REASONING_MESSAGE_CHUNK",
  "REASONING_END",
  "REASONING_ENCRYPTED_VALUE",
  "ACTIVITY_SNAPSHOT",
  "ACTIVITY_DELTA",
  "STATE_SNAPSHOT",
  "STATE_DELTA",
  "MESSAGES_SNAPSHOT",
  "RAW",
  "CUSTOM",
  "SUBAGENT_STARTED",
  "SUBAGENT_FINISHED",
  "SUBAGENT_ERROR",
]);
