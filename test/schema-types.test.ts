// Compile-time tests of KnownAgUiEvent and agUiSchema's types, checked by `tsc --noEmit`
// (npm run typecheck); the few runtime assertions only show the code runs.
//
// Each of the 31 members of KnownAgUiEvent is assignable both ways to the output type of the
// matching @ag-ui/core zod schema once its `type` is the string literal (zod types `type` as
// a member of the EventType enum). `Out<S>` is `S["_zod"]["output"]`, which is how zod 4
// defines `z.infer` / `z.output`.

import type * as S from "@ag-ui/core/schemas";
import { describe, expect, expectTypeOf, it } from "vitest";
import type * as E from "../src/events/index.ts";
import { agUiSchema, type KnownAgUiEvent, type StandardSchemaV1 } from "../src/schema/index.ts";

type Out<Schema extends { _zod: { output: unknown } }> = Schema["_zod"]["output"];

/** `T` with its `type` replaced by the literal `L` (optional modifiers kept). */
type Retyped<T, L> = { [K in keyof T as K extends "type" ? never : K]: T[K] } & { type: L };

/** Whether A and B are assignable to each other (under this project's strict settings). */
type Mutual<A, B> = [A] extends [B]
  ? [B] extends [A]
    ? true
    : "zod's is not assignable to ours"
  : "ours is not assignable to zod's";

/** Each event type: our member and the matching @ag-ui/core schema. */
interface Pairs {
  RUN_STARTED: [E.RunStartedEvent, typeof S.RunStartedEventSchema];
  RUN_FINISHED: [E.RunFinishedEvent, typeof S.RunFinishedEventSchema];
  RUN_ERROR: [E.RunErrorEvent, typeof S.RunErrorEventSchema];
  STEP_STARTED: [E.StepStartedEvent, typeof S.StepStartedEventSchema];
  STEP_FINISHED: [E.StepFinishedEvent, typeof S.StepFinishedEventSchema];
  TEXT_MESSAGE_START: [E.TextMessageStartEvent, typeof S.TextMessageStartEventSchema];
  TEXT_MESSAGE_CONTENT: [E.TextMessageContentEvent, typeof S.TextMessageContentEventSchema];
  TEXT_MESSAGE_END: [E.TextMessageEndEvent, typeof S.TextMessageEndEventSchema];
  TEXT_MESSAGE_CHUNK: [E.TextMessageChunkEvent, typeof S.TextMessageChunkEventSchema];
  TOOL_CALL_START: [E.ToolCallStartEvent, typeof S.ToolCallStartEventSchema];
  TOOL_CALL_ARGS: [E.ToolCallArgsEvent, typeof S.ToolCallArgsEventSchema];
  TOOL_CALL_END: [E.ToolCallEndEvent, typeof S.ToolCallEndEventSchema];
  TOOL_CALL_CHUNK: [E.ToolCallChunkEvent, typeof S.ToolCallChunkEventSchema];
  TOOL_CALL_RESULT: [E.ToolCallResultEvent, typeof S.ToolCallResultEventSchema];
  REASONING_START: [E.ReasoningStartEvent, typeof S.ReasoningStartEventSchema];
  REASONING_MESSAGE_START: [
    E.ReasoningMessageStartEvent,
    typeof S.ReasoningMessageStartEventSchema,
  ];
  REASONING_MESSAGE_CONTENT: [
    E.ReasoningMessageContentEvent,
    typeof S.ReasoningMessageContentEventSchema,
  ];
  REASONING_MESSAGE_END: [E.ReasoningMessageEndEvent, typeof S.ReasoningMessageEndEventSchema];
  REASONING_MESSAGE_CHUNK: [
    E.ReasoningMessageChunkEvent,
    typeof S.ReasoningMessageChunkEventSchema,
  ];
  REASONING_END: [E.ReasoningEndEvent, typeof S.ReasoningEndEventSchema];
  REASONING_ENCRYPTED_VALUE: [
    E.ReasoningEncryptedValueEvent,
    typeof S.ReasoningEncryptedValueEventSchema,
  ];
  ACTIVITY_SNAPSHOT: [E.ActivitySnapshotEvent, typeof S.ActivitySnapshotEventSchema];
  ACTIVITY_DELTA: [E.ActivityDeltaEvent, typeof S.ActivityDeltaEventSchema];
  STATE_SNAPSHOT: [E.StateSnapshotEvent, typeof S.StateSnapshotEventSchema];
  STATE_DELTA: [E.StateDeltaEvent, typeof S.StateDeltaEventSchema];
  MESSAGES_SNAPSHOT: [E.MessagesSnapshotEvent, typeof S.MessagesSnapshotEventSchema];
  RAW: [E.RawEvent, typeof S.RawEventSchema];
  CUSTOM: [E.CustomEvent, typeof S.CustomEventSchema];
  SUBAGENT_STARTED: [E.SubagentStartedEvent, typeof S.SubagentStartedEventSchema];
  SUBAGENT_FINISHED: [E.SubagentFinishedEvent, typeof S.SubagentFinishedEventSchema];
  SUBAGENT_ERROR: [E.SubagentErrorEvent, typeof S.SubagentErrorEventSchema];
}

/** Per event type: true, or why the two types differ. */
type Verdicts = {
  [K in keyof Pairs]: Mutual<Pairs[K][0], Retyped<Out<Pairs[K][1]>, K>>;
};

// The table names every event type once, and each member is the union's member for its type.
expectTypeOf<keyof Pairs>().toEqualTypeOf<KnownAgUiEvent["type"]>();
expectTypeOf<{ [K in keyof Pairs]: Pairs[K][0] }>().toEqualTypeOf<{
  [K in KnownAgUiEvent["type"]]: Extract<KnownAgUiEvent, { type: K }>;
}>();
// All 31 pairs are mutually assignable (on failure, the error names the type and the side).
expectTypeOf<Verdicts>().toEqualTypeOf<{ [K in keyof Pairs]: true }>();
// And the union as a whole, against EventSchema.
expectTypeOf<
  Mutual<KnownAgUiEvent, { [K in keyof Pairs]: Retyped<Out<Pairs[K][1]>, K> }[keyof Pairs]>
>().toEqualTypeOf<true>();

// agUiSchema's output is KnownAgUiEvent.
expectTypeOf<StandardSchemaV1.InferOutput<typeof agUiSchema>>().toEqualTypeOf<KnownAgUiEvent>();

/** What a UI does with events: every field is typed by `switch (event.type)`, no casts. */
function render(event: KnownAgUiEvent): string {
  switch (event.type) {
    case "TEXT_MESSAGE_CONTENT":
      expectTypeOf(event.delta).toEqualTypeOf<string>();
      return event.delta;
    case "TEXT_MESSAGE_START":
      expectTypeOf(event.role).toEqualTypeOf<E.TextMessageRole | undefined>();
      return event.role ?? "assistant";
    case "TEXT_MESSAGE_END":
      // @ts-expect-error TEXT_MESSAGE_END carries no delta
      return event.delta;
    case "TOOL_CALL_START":
      return `${event.toolCallName}(${event.toolCallId})`;
    case "RUN_FINISHED":
      if (event.outcome?.type === "interrupt") return event.outcome.interrupts[0]?.reason ?? "";
      return event.outcome?.type ?? "success";
    case "MESSAGES_SNAPSHOT":
      return event.messages
        .map((message) => (message.role === "tool" ? message.toolCallId : message.id))
        .join(",");
    case "SUBAGENT_STARTED":
      expectTypeOf(event.subagentRunId).toEqualTypeOf<string>();
      return event.name;
    default:
      expectTypeOf(event.type).toEqualTypeOf<
        Exclude<
          KnownAgUiEvent["type"],
          | "TEXT_MESSAGE_CONTENT"
          | "TEXT_MESSAGE_START"
          | "TEXT_MESSAGE_END"
          | "TOOL_CALL_START"
          | "RUN_FINISHED"
          | "MESSAGES_SNAPSHOT"
          | "SUBAGENT_STARTED"
        >
      >();
      return event.type;
  }
}

describe("KnownAgUiEvent", () => {
  it("narrows by type on events agUiSchema accepted", () => {
    const raw: unknown[] = [
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Hi" },
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "search" },
      {
        type: "RUN_FINISHED",
        threadId: "t",
        runId: "r",
        outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "confirm" }] },
      },
      { type: "SUBAGENT_STARTED", subagentRunId: "s1", name: "researcher" },
    ];
    const rendered = raw.map((value) => {
      const result = agUiSchema["~standard"].validate(value);
      if (result instanceof Promise || result.issues !== undefined) throw new Error("rejected");
      return render(result.value);
    });
    expect(rendered).toEqual(["Hi", "search(c1)", "confirm", "researcher"]);
  });
});
