// Prints an agent run's text as it streams:
//   deno run --allow-net examples/deno/print-run.ts https://agent.example/run
import { isVerifyError, runAgent } from "../../src/index.ts";

const url = Deno.args[0];
if (url === undefined) {
  console.error("usage: print-run.ts <agent url>");
  Deno.exit(2);
}

const input = {
  threadId: "thread-1",
  runId: crypto.randomUUID(),
  messages: [{ id: "u1", role: "user" as const, content: "Hello" }],
  tools: [],
  context: [],
  state: {},
  forwardedProps: {},
};

const encoder = new TextEncoder();
try {
  for await (const event of await runAgent(url, input)) {
    // Verified events are typed loosely (unknown event types pass through): check `delta`.
    if (event.type === "TEXT_MESSAGE_CONTENT" && typeof event.delta === "string") {
      await Deno.stdout.write(encoder.encode(event.delta));
    }
    if (event.type === "TEXT_MESSAGE_END") await Deno.stdout.write(encoder.encode("\n"));
  }
} catch (error) {
  console.error(`\n${isVerifyError(error) ? "broken stream" : "failed"}: ${error}`);
  Deno.exit(1);
}
