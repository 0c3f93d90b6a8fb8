// Small event lists for the test files that run outside Vitest against the built package
// (test/node/ under node:test, test/jest/ under Jest): written once here.

export const RS = { type: "RUN_STARTED", threadId: "t1", runId: "r1" };
export const RF = { type: "RUN_FINISHED", threadId: "t1", runId: "r1" };

/** A valid run: one text message. */
export const VALID = [
  RS,
  { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Hello" },
  { type: "TEXT_MESSAGE_END", messageId: "m1" },
  RF,
];

/** A content event for a message that was never opened (index 1). */
export const BROKEN = [RS, { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Hi" }, RF];

/** Valid, with one warning: the tool call's arguments are not JSON (TOOL_CALL_END, index 3). */
export const WARNED = [
  RS,
  { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "f" },
  { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: "{" },
  { type: "TOOL_CALL_END", toolCallId: "c1" },
  // Answered, so that no call is left pending (PENDING_TOOL_CALL_IDS_OMITTED).
  { type: "TOOL_CALL_RESULT", toolCallId: "c1", messageId: "t1", content: "done" },
  RF,
];
