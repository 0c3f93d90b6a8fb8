// A small AG-UI agent, as a backend might have one: it answers every run by calling a
// weather tool, then saying what it found. No network: the "model" is a few fixed events.
// `lateArgs` plants a common bug: streaming a tool call's arguments after its end.

import { AbstractAgent, type BaseEvent, EventType, type RunAgentInput } from "@ag-ui/client";
import { Observable } from "rxjs";

export class WeatherAgent extends AbstractAgent {
  readonly #lateArgs: boolean;

  constructor(options: { lateArgs?: boolean } = {}) {
    super({ threadId: "thread-1" });
    this.#lateArgs = options.lateArgs === true;
  }

  run(input: RunAgentInput): Observable<BaseEvent> {
    const { threadId, runId } = input;
    const args = { type: EventType.TOOL_CALL_ARGS, toolCallId: "call-1", delta: '{"city":"Oslo"}' };
    const end = { type: EventType.TOOL_CALL_END, toolCallId: "call-1" };
    const events: BaseEvent[] = [
      { type: EventType.RUN_STARTED, threadId, runId },
      { type: EventType.TOOL_CALL_START, toolCallId: "call-1", toolCallName: "get_weather" },
      ...(this.#lateArgs ? [end, args] : [args, end]),
      {
        type: EventType.TOOL_CALL_RESULT,
        messageId: "tool-1",
        toolCallId: "call-1",
        content: "4°C, rain",
      },
      { type: EventType.TEXT_MESSAGE_START, messageId: "msg-1", role: "assistant" },
      {
        type: EventType.TEXT_MESSAGE_CONTENT,
        messageId: "msg-1",
        delta: "It is 4°C and raining in Oslo.",
      },
      { type: EventType.TEXT_MESSAGE_END, messageId: "msg-1" },
      { type: EventType.RUN_FINISHED, threadId, runId },
    ];
    // Emitted one by one, asynchronously, as a model's stream would be.
    return new Observable<BaseEvent>((subscriber) => {
      let i = 0;
      const timer = setInterval(() => {
        if (i < events.length) subscriber.next(events[i++] as BaseEvent);
        else subscriber.complete();
      }, 1);
      return () => clearInterval(timer);
    });
  }
}
