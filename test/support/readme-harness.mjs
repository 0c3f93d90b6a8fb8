// Runs one README snippet (already transpiled to JavaScript) in a process of its own, as a
// reader's program would run it, and prints what it did as one JSON line.
//
// usage: node readme-harness.mjs <snippet.mjs> <capture file> <content type>
//
// The names a snippet uses without defining (the same as test/runtimes/docs-typescript's
// PRELUDE) are set on globalThis: `agentUrl`, `headers`, `input`, `body`, `response` (the
// capture as a Response), and the callbacks `render`, `append`, `startTool` and
// `showBrokenStream`, which count what reaches them. Every `fetch`, to any URL, answers with
// the capture. A snippet whose default export has a `fetch` (a Worker) is then called with
// one request and its response body read. Its own process, so that an unhandled rejection,
// `process.exitCode` or a listener the snippet adds are seen as a user's process sees them.

import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [snippet, capture, contentType] = process.argv.slice(2);
const bytes = readFileSync(capture);
const result = {
  fetches: 0,
  rendered: 0,
  broken: [],
  logged: [],
  unhandled: [],
  served: undefined,
  error: undefined,
  exitCode: undefined,
};

const describe = (error) =>
  error instanceof Error
    ? { name: error.name, code: error.code, message: error.message }
    : { name: typeof error, message: String(error) };

process.on("unhandledRejection", (reason) => {
  result.unhandled.push(describe(reason));
});

const input = {
  threadId: "thread-1",
  runId: "run-1",
  messages: [],
  tools: [],
  context: [],
  state: {},
  forwardedProps: {},
};
const answer = () => new Response(bytes, { headers: { "content-type": contentType } });
Object.assign(globalThis, {
  agentUrl: "https://agent.example/run",
  headers: { "content-type": "application/json" },
  input,
  body: JSON.stringify(input),
  response: answer(),
  fetch: async () => {
    result.fetches++;
    return answer();
  },
  render: () => {
    result.rendered++;
  },
  append: () => {
    result.rendered++;
  },
  startTool: () => {
    result.rendered++;
  },
  showBrokenStream: (message) => {
    result.broken.push(String(message));
  },
});
for (const level of ["log", "warn"])
  console[level] = (...args) => {
    result.logged.push(args.map(String).join(" "));
  };

try {
  const module = await import(pathToFileURL(snippet).href);
  if (typeof module.default?.fetch === "function") {
    const request = new Request("https://worker.example/run", { method: "POST", body: "{}" });
    const served = await module.default.fetch(request);
    result.served = { status: served.status, text: await served.text() };
  }
} catch (error) {
  result.error = describe(error);
}
// Let a rejection nobody handled surface before reporting.
await new Promise((resolve) => setTimeout(resolve, 100));
result.exitCode = process.exitCode ?? 0;
process.exitCode = 0;
process.stdout.write(`${JSON.stringify(result)}\n`);
