// A Node-only ESM consumer of the built package (dist/*.d.ts), type-checked by
// test/runtimes/types.test.ts with Node's types and no DOM lib.
import {
  type AgUiEvent,
  isVerifyError,
  type RunAgentInput,
  runAgent,
  SseDecoderStream,
  SseEncoderStream,
  VerifyingTransformStream,
  verifiedEvents,
  verifyAll,
  verifyingFetch,
  verifyResponse,
} from "ag-ui-verify";
import { agUiSchema, type KnownAgUiEvent } from "ag-ui-verify/schema";

// This project must not see the DOM lib, or it would not show what the declarations need.
// @ts-expect-error: `document` exists only in the DOM lib.
document;

const input: RunAgentInput = {
  threadId: "t1",
  runId: "r1",
  messages: [],
  tools: [],
  context: [],
  state: {},
  forwardedProps: {},
};

export async function consume(url: string): Promise<void> {
  const headers = { authorization: "Bearer x" };
  for await (const event of await runAgent(url, input, { headers, schema: agUiSchema })) {
    const known: KnownAgUiEvent = event;
    console.log(known.type);
  }
  const response = await fetch(url, { method: "POST", body: JSON.stringify(input) });
  const reader = verifiedEvents(response.body).getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    const event: AgUiEvent = r.value;
    console.log(event.type);
  }
}

export function proxy(upstream: Response): Response {
  return verifyResponse(upstream, { onViolation: "run-error" });
}

export function reencode(upstream: Response): Response {
  const body = upstream.body
    ?.pipeThrough(new SseDecoderStream())
    .pipeThrough(new VerifyingTransformStream())
    .pipeThrough(new SseEncoderStream());
  return new Response(body, { headers: [["content-type", "text/event-stream"]] });
}

// A verifying fetch stands in for Node's own.
export const checkedFetch: typeof fetch = verifyingFetch({ fetch });

try {
  verifyAll([{ type: "RUN_STARTED", threadId: "t1", runId: "r1" }]);
} catch (error) {
  if (isVerifyError(error)) console.log(error.code);
}
