// Prints an agent run's text as it streams:
//   node examples/node/print-run.mjs https://agent.example/run
// ("ag-ui-verify" resolves to this package's build: run `npm run build` first.)
import { isVerifyError, runAgent } from "ag-ui-verify";

const url = process.argv[2];
if (url === undefined) {
  console.error("usage: print-run.mjs <agent url>");
  process.exit(2);
}

const input = {
  threadId: "thread-1",
  runId: crypto.randomUUID(),
  messages: [{ id: "u1", role: "user", content: "Hello" }],
  tools: [],
  context: [],
  state: {},
  forwardedProps: {},
};

try {
  for await (const event of await runAgent(url, input)) {
    if (event.type === "TEXT_MESSAGE_CONTENT") process.stdout.write(event.delta);
    if (event.type === "TEXT_MESSAGE_END") process.stdout.write("\n");
  }
} catch (error) {
  console.error(`\n${isVerifyError(error) ? "broken stream" : "failed"}: ${error}`);
  process.exitCode = 1;
}
