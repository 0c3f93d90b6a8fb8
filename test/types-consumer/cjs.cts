// The same package through `require` (dist/*.d.cts), for a CommonJS consumer.
import { isVerifyError, runAgent } from "ag-ui-verify";
import { agUiSchema } from "ag-ui-verify/schema";
import { AgUiStreamAssertionError, assertValidStream } from "ag-ui-verify/testing";

export async function consume(url: string): Promise<void> {
  const input = {
    threadId: "t1",
    runId: "r1",
    messages: [],
    tools: [],
    context: [],
    state: {},
    forwardedProps: {},
  };
  try {
    for await (const event of await runAgent(url, input, { schema: agUiSchema })) {
      console.log(event.type);
    }
  } catch (error) {
    if (isVerifyError(error)) console.log(error.code);
  }
}

export async function assertRun(body: Response): Promise<number> {
  try {
    return (await assertValidStream(body, { failOn: "warning" })).events;
  } catch (error) {
    if (error instanceof AgUiStreamAssertionError) return error.report.errors;
    throw error;
  }
}
