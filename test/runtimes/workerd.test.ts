// workerd, the Cloudflare Workers runtime (the npm `workerd` binary), on 127.0.0.1.
//
// Two workers run in one `workerd serve`, both bundled with esbuild from the built package
// (`ag-ui-verify` resolves to dist/ through the package's exports, as in a user's Worker):
//   - "proxy": examples/worker/worker.ts, with the local agent server as `UPSTREAM`, plus a
//     /__runtime route reporting `navigator.userAgent`;
//   - "cases": the shared runtime cases (test/runtime/cases.ts), run on request with the
//     worker's own fetch against the agent server, answering a JSON report; `agUiSchema`
//     comes from `ag-ui-verify/schema` (dist/schema.js), as a Worker would import it.
// Needs `npm run build` first (npm test does it).

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AgUiEvent, verifyAll } from "../../src/index.ts";
import { RUN_INPUT, runtimeCases, VIOLATION_PREFIX, validRun } from "../runtime/cases.ts";
import {
  type AgentServer,
  RICH_HEADERS,
  richSse,
  sse,
  startAgentServer,
} from "../server/agent-server.ts";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
// The package is CommonJS and untyped; vitest's own import would give the string.
const WORKERD: string = createRequire(import.meta.url)("workerd").default;

const PROXY_ENTRY = `
import worker from "./examples/worker/worker.ts";
export default {
  fetch(request, env, ctx) {
    if (new URL(request.url).pathname === "/__runtime") {
      return Response.json({ userAgent: navigator.userAgent });
    }
    return worker.fetch(request, env, ctx);
  },
};
`;

const CASES_ENTRY = `
import * as main from "ag-ui-verify";
import { agUiSchema } from "ag-ui-verify/schema";
import { conformingEvents } from "ag-ui-verify/conform";
import { protobuf } from "ag-ui-verify/proto";
import { runtimeCases } from "./test/runtime/cases.ts";
export default {
  async fetch(request, env) {
    const name = new URL(request.url).searchParams.get("case");
    const cases = runtimeCases({ ...main, agUiSchema, conformingEvents, protobuf }, env.UPSTREAM).filter((c) => name === null || c.name === name);
    const report = [];
    for (const c of cases) {
      try {
        await c.run();
        report.push({ name: c.name, ok: true });
      } catch (error) {
        report.push({ name: c.name, ok: false, error: error instanceof Error ? error.stack ?? error.message : String(error) });
      }
    }
    return Response.json(report);
  },
};
`;

async function bundle(contents: string): Promise<string> {
  const result = await build({
    stdin: { contents, resolveDir: REPO, loader: "ts", sourcefile: "entry.ts" },
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  const [file] = result.outputFiles;
  if (file === undefined) throw new Error("esbuild produced no output");
  return file.text;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address !== null ? done(address.port) : fail(address),
      );
    });
  });
}

function capnp(upstream: string, proxyPort: number, casesPort: number): string {
  const worker = (file: string) => `(
  modules = [ (name = "worker.js", esModule = embed "${file}") ],
  compatibilityDate = "2025-07-01",
  bindings = [ (name = "UPSTREAM", text = ${JSON.stringify(upstream)}) ],
  globalOutbound = "loopback",
)`;
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "proxy", worker = .proxy),
    (name = "cases", worker = .cases),
    (name = "loopback", network = (allow = ["local"])),
  ],
  sockets = [
    (name = "proxy", address = "127.0.0.1:${proxyPort}", http = (), service = "proxy"),
    (name = "cases", address = "127.0.0.1:${casesPort}", http = (), service = "cases"),
  ],
);
const proxy :Workerd.Worker = ${worker("proxy.js")};
const cases :Workerd.Worker = ${worker("cases.js")};
`;
}

/** Decodes an SSE body of `data: <json>` events, LF-framed. */
function decode(body: string): unknown[] {
  return body
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const data = block
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(line.startsWith("data: ") ? 6 : 5))
        .join("\n");
      return JSON.parse(data);
    });
}

/** Reads a body to its end, or to the error that ends it; returns the text read so far. */
async function readAll(response: Response): Promise<{ text: string; error: unknown }> {
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  if (reader === undefined) return { text: "", error: undefined };
  let text = "";
  try {
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += r.value;
  } catch (error) {
    return { text, error };
  }
  return { text, error: undefined };
}

let server: AgentServer;
let dir: string;
let workerd: ChildProcess | undefined;
let proxy: string;
let casesUrl: string;
let log = "";

beforeAll(async () => {
  server = await startAgentServer();
  dir = await mkdtemp(join(tmpdir(), "ag-ui-verify-workerd-"));
  const [proxyJs, casesJs, proxyPort, casesPort] = await Promise.all([
    bundle(PROXY_ENTRY),
    bundle(CASES_ENTRY),
    freePort(),
    freePort(),
  ]);
  await writeFile(join(dir, "proxy.js"), proxyJs);
  await writeFile(join(dir, "cases.js"), casesJs);
  await writeFile(join(dir, "config.capnp"), capnp(server.url, proxyPort, casesPort));
  proxy = `http://127.0.0.1:${proxyPort}`;
  casesUrl = `http://127.0.0.1:${casesPort}`;

  const child = spawn(WORKERD, ["serve", "config.capnp"], { cwd: dir, stdio: "pipe" });
  workerd = child;
  child.stdout.on("data", (chunk: Buffer) => (log += chunk));
  child.stderr.on("data", (chunk: Buffer) => (log += chunk));
  const exited = new Promise<never>((_, fail) =>
    child.once("exit", (code, signal) =>
      fail(new Error(`workerd exited early (${code ?? signal}):\n${log}`)),
    ),
  );
  exited.catch(() => {});

  // Poll until both sockets answer.
  const deadline = Date.now() + 20_000;
  const poll = async (): Promise<void> => {
    for (;;) {
      try {
        const response = await fetch(`${proxy}/__runtime`);
        await response.body?.cancel();
        const other = await fetch(`${casesUrl}/?case=none`);
        await other.body?.cancel();
        return;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`workerd did not answer: ${error}\n${log}`);
        await new Promise((done) => setTimeout(done, 50));
      }
    }
  };
  await Promise.race([poll(), exited]);
});

afterAll(async () => {
  const child = workerd;
  if (child !== undefined && child.exitCode === null && child.signalCode === null) {
    const exit = new Promise((done) => child.once("exit", done));
    child.kill("SIGTERM");
    await exit;
  }
  await server?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

const post = (path: string) =>
  fetch(`${proxy}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify(RUN_INPUT),
  });

describe("workerd: the example proxy Worker", () => {
  it("runs in workerd (navigator.userAgent)", async () => {
    const response = await fetch(`${proxy}/__runtime`);
    expect(await response.json()).toEqual({ userAgent: "Cloudflare-Workers" });
  });

  it("re-serves a valid run as text/event-stream", async () => {
    const response = await post("/run/valid?chunk=5");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    const { text, error } = await readAll(response);
    expect(error).toBeUndefined();
    expect(decode(text)).toEqual(validRun());
    // The request reached the agent as sent.
    const request = server.requests.at(-1);
    expect(request?.method).toBe("POST");
    expect(JSON.parse(request?.body ?? "null")).toEqual(RUN_INPUT);
  });

  it("forwards a heartbeat-bearing stream byte for byte, its CORS and other headers kept", async () => {
    for (const query of ["?chunk=7", "?chunk=3&crlf=1"]) {
      const response = await post(`/run/rich${query}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("access-control-allow-origin")).toBe(
        RICH_HEADERS["access-control-allow-origin"],
      );
      expect(response.headers.get("x-request-id")).toBe("req-42");
      expect(response.headers.getSetCookie()).toEqual(RICH_HEADERS["set-cookie"]);
      const bytes = new Uint8Array(await response.arrayBuffer());
      const want = new TextEncoder().encode(richSse(validRun(), query.includes("crlf")));
      expect(new TextDecoder().decode(bytes)).toBe(new TextDecoder().decode(want));
      expect(bytes).toEqual(want);
    }
  });

  it("a heartbeat reaches the client while the agent is silent", async () => {
    // The agent sends three events, then only `: still thinking` comments.
    const response = await post("/run/stall?events=3");
    const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
    if (reader === undefined) throw new Error("no body");
    let text = "";
    while (!text.includes(": still thinking\n\n: still thinking\n\n")) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`the body ended early: ${JSON.stringify(text)}`);
      text += value;
    }
    await reader.cancel();
    expect(text.startsWith(sse(validRun().slice(0, 3)))).toBe(true);
    expect(await server.closed(server.requests.length - 1)).toBe("aborted");
  });

  it('onViolation "error": the body breaks off after the earlier events', async () => {
    // Sent slowly, so the upstream is still sending when the violation arrives.
    const response = await post("/run/violation?chunk=64&delay=20&onViolation=error");
    expect(response.status).toBe(200);
    const { text, error } = await readAll(response);
    // workerd closes the connection without ending the chunked body; Node's fetch (undici)
    // rejects the read with `TypeError: terminated` (cause: SocketError "other side closed").
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe("terminated");
    const events = decode(text.slice(0, text.lastIndexOf("\n\n") + 2));
    expect(events).toEqual(validRun().slice(0, VIOLATION_PREFIX));
    // The upstream body was cancelled.
    expect(await server.closed(server.requests.length - 1)).toBe("aborted");
  });

  it('onViolation "run-error" (the default): a clean end with RUN_ERROR', async () => {
    const response = await post("/run/violation?chunk=64&delay=20");
    const { text, error } = await readAll(response);
    expect(error).toBeUndefined();
    const events = decode(text) as AgUiEvent[];
    expect(events.slice(0, -1)).toEqual(validRun().slice(0, VIOLATION_PREFIX));
    expect(events.at(-1)).toMatchObject({
      type: "RUN_ERROR",
      code: "AG_UI_VERIFY_TEXT_MESSAGE_NOT_OPEN",
      message: expect.stringMatching(/^ag-ui-verify rejected the stream: /),
    });
    expect(() => verifyAll(events)).not.toThrow();
    expect(await server.closed(server.requests.length - 1)).toBe("aborted");
  });

  it("passes an HTTP error through unchanged", async () => {
    const response = await post("/status/502");
    expect(response.status).toBe(502);
    expect(response.headers.get("x-upstream")).toBe("agent-server");
    expect(await response.text()).toBe("upstream says 502");
  });
});

describe("workerd: the runtime cases, with the Worker's own fetch", () => {
  for (const { name } of runtimeCases({} as never, "")) {
    it(name, async () => {
      const response = await fetch(`${casesUrl}/?case=${encodeURIComponent(name)}`);
      const report: { name: string; ok: boolean; error?: string }[] = await response.json();
      expect(report).toHaveLength(1);
      expect(report[0]?.error).toBeUndefined();
      expect(report[0]).toEqual({ name, ok: true });
    });
  }
});
