// A local AG-UI agent server for the runtime tests (Node only): node:http on 127.0.0.1, on a
// random port. Every route is method-agnostic.
//
//   /run/valid          validRun() as SSE (`data: <json>\n\n`, text/event-stream). Query:
//                         crlf=1     CRLF framing (`\r\n\r\n`)
//                         chunk=N    write the body N bytes at a time, each write flushed
//                         delay=ms   wait between writes (default 0)
//                         wait=ms    wait before sending the response head (default 0)
//                         events=N   a longer valid run of about N events (longValidRun)
//   /run/violation      violationRun(), same options
//   /run/schema-mismatch schemaMismatchRun(), same options: ordered, but one event that
//                       agUiSchema rejects
//   /run/rich           validRun() as richSse() writes it (BOM, heartbeat comments, id:, event:,
//                         retry:), with CORS, x-request-id and two set-cookie headers; same
//                         options
//   /run/cut            the first `events` (default 4) events of validRun(), then a clean end
//                       (the run never closes)
//   /run/done           validRun(), then `data: [DONE]`
//   /run/late           validRun(), then a STEP_STARTED after its RUN_FINISHED
//   /run/disconnect     the first `events` (default 4) events of validRun(), then the socket
//                       is destroyed mid-stream
//   /run/stall          the first `events` (default 3) events of validRun(), then SSE comments
//                       every 20 ms until the client goes away (at most 30 s)
//   /status/<code>      that status, text/plain `upstream says <code>`
//   /content-type/<t>   200 with content type decodeURIComponent(t) and a small body (validRun()
//                       as SSE when t is text/event-stream…)
//   /proto/valid        validRun() as protobuf frames (application/vnd.ag-ui.event+proto);
//                       chunk=N as for /run/valid
//   /proto/cut          the frames of the first `events` (default 4) events of validRun(), then
//                       `bytes` (default 0) bytes of the next frame, then a clean end
//   /proto/late         validRun(), then a STEP_STARTED after its RUN_FINISHED, as frames
//   /no-body            204
//   /files/<path>       a file of the repository (no `..`), typed by extension
//
// Every request is recorded in `requests`; `closed(i)` tells how the i-th response ended.

import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { encodeFrame, PROTO_MEDIA_TYPE } from "../../src/proto/index.ts";
import { longValidRun, schemaMismatchRun, validRun, violationRun } from "../runtime/cases.ts";

export interface RecordedRequest {
  method: string;
  url: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  body: string;
}

export interface AgentServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  /** Every request so far, in arrival order, recorded once its body was read. */
  requests: RecordedRequest[];
  /**
   * How the response to `requests[index]` ended: `"finished"` when it was sent whole,
   * `"aborted"` when the connection closed first (the client went away, or the server cut
   * it). Resolves once it has ended.
   */
  closed(index: number): Promise<"finished" | "aborted">;
  close(): Promise<void>;
}

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".cjs": "text/javascript; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".ts": "text/plain; charset=utf-8",
};

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** SSE for `events`, one `data:` line per event. */
export function sse(events: readonly unknown[], crlf = false): string {
  const end = crlf ? "\r\n\r\n" : "\n\n";
  return events.map((event) => `data: ${JSON.stringify(event)}${end}`).join("");
}

/** Headers /run/rich sends besides the SSE ones. */
export const RICH_HEADERS: Readonly<Record<string, string | string[]>> = {
  "access-control-allow-origin": "https://app.example",
  "access-control-expose-headers": "x-request-id",
  "x-request-id": "req-42",
  "set-cookie": ["session=abc; Path=/; HttpOnly", "theme=dark; Path=/"],
};

/**
 * SSE for `events` with everything a producer may send besides `data:`: a BOM, a leading
 * comment and `retry:` block, and before each event a heartbeat comment, then `id:` and
 * `event:` lines.
 */
export function richSse(events: readonly unknown[], crlf = false): string {
  const end = crlf ? "\r\n" : "\n";
  let out = `\ufeff: agent stream${end}retry: 3000${end}${end}`;
  for (const [i, event] of events.entries()) {
    out += `: ping${end}id: ${i + 1}${end}event: agui${end}data: ${JSON.stringify(event)}${end}${end}`;
  }
  return out;
}

function intParam(query: URLSearchParams, name: string, fallback: number): number {
  const value = query.get(name);
  if (value === null || value === "") return fallback;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : fallback;
}

function write(res: ServerResponse, chunk: Uint8Array | string): Promise<void> {
  return new Promise((done, fail) => {
    if (res.destroyed) {
      fail(new Error("response destroyed"));
      return;
    }
    res.write(chunk, (error) => (error ? fail(error) : done()));
  });
}

/** The protobuf frames of `events`, one after another. */
function frames(events: readonly unknown[]): Buffer {
  return Buffer.concat(events.map((e) => encodeFrame(e as Record<string, unknown>)));
}

/** Writes `body` as a text/event-stream response (or `body`'s own type), `chunk` bytes at a time. */
async function streamSse(
  res: ServerResponse,
  body: string | Buffer,
  query: URLSearchParams,
  headers: Readonly<Record<string, string | string[]>> = {},
) {
  const chunk = intParam(query, "chunk", 0);
  const delay = intParam(query, "delay", 0);
  res.writeHead(200, {
    "content-type": typeof body === "string" ? "text/event-stream" : PROTO_MEDIA_TYPE,
    "cache-control": "no-cache",
    ...headers,
  });
  res.flushHeaders();
  const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
  const size = chunk > 0 ? chunk : bytes.length;
  try {
    for (let at = 0; at < bytes.length; at += size) {
      if (at > 0 && delay > 0) await sleep(delay);
      await write(res, bytes.subarray(at, at + size));
    }
    res.end();
  } catch {
    res.destroy();
  }
}

async function serveFile(res: ServerResponse, path: string) {
  const file = resolve(REPO, path);
  if (path.split(/[\\/]/).includes("..") || !file.startsWith(REPO + sep)) {
    res.writeHead(403, { "content-type": "text/plain" }).end("refused");
    return;
  }
  try {
    const data = await readFile(file);
    const type = TYPES[extname(file)] ?? "application/octet-stream";
    res.writeHead(200, { "content-type": type, "cache-control": "no-store" }).end(data);
  } catch {
    res.writeHead(404, { "content-type": "text/plain" }).end(`not found: ${path}`);
  }
}

async function route(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const query = url.searchParams;
  const path = url.pathname;
  const wait = intParam(query, "wait", 0);
  if (wait > 0) await sleep(wait);
  if (res.destroyed) return;

  const crlf = query.get("crlf") === "1";
  const long = intParam(query, "events", 0);
  const run = () => (long > 0 ? longValidRun(long) : validRun());

  if (path === "/run/valid") return streamSse(res, sse(run(), crlf), query);
  if (path === "/run/violation") return streamSse(res, sse(violationRun(), crlf), query);
  if (path === "/run/schema-mismatch") {
    return streamSse(res, sse(schemaMismatchRun(), crlf), query);
  }
  if (path === "/run/rich") return streamSse(res, richSse(run(), crlf), query, RICH_HEADERS);
  if (path === "/run/cut") {
    return streamSse(res, sse(validRun().slice(0, intParam(query, "events", 4)), crlf), query);
  }
  if (path === "/run/late") {
    const late = { type: "STEP_STARTED", stepName: "late" };
    return streamSse(res, sse([...validRun(), late], crlf), query);
  }
  if (path === "/proto/valid") return streamSse(res, frames(run()), query);
  if (path === "/proto/cut") {
    const count = intParam(query, "events", 4);
    const next = encodeFrame(validRun()[count] as Record<string, unknown>);
    const body = Buffer.concat([
      frames(validRun().slice(0, count)),
      next.subarray(0, intParam(query, "bytes", 0)),
    ]);
    return streamSse(res, body, query);
  }
  if (path === "/proto/late") {
    return streamSse(
      res,
      frames([...validRun(), { type: "STEP_STARTED", stepName: "late" }]),
      query,
    );
  }
  if (path === "/run/done") {
    return streamSse(res, `${sse(run(), crlf)}data: [DONE]${crlf ? "\r\n\r\n" : "\n\n"}`, query);
  }
  if (path === "/run/disconnect") {
    const count = intParam(query, "events", 4);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    try {
      await write(res, sse(validRun().slice(0, count), crlf));
      // Let the events reach the client before the connection breaks off.
      await sleep(intParam(query, "delay", 20));
    } finally {
      res.socket?.destroy();
      res.destroy();
    }
    return;
  }
  if (path === "/run/stall") {
    const count = intParam(query, "events", 3);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    try {
      await write(res, sse(validRun().slice(0, count), crlf));
      const until = Date.now() + 30_000;
      while (!res.destroyed && Date.now() < until) {
        await sleep(20);
        await write(res, ": still thinking\n\n");
      }
      res.end();
    } catch {
      res.destroy();
    }
    return;
  }
  const status = /^\/status\/(\d{3})$/.exec(path);
  if (status) {
    const code = Number(status[1]);
    const headers = { "content-type": "text/plain; charset=utf-8", "x-upstream": "agent-server" };
    if (code === 204 || code === 205 || code === 304) res.writeHead(code, headers).end();
    else res.writeHead(code, STATUS_CODES[code] ?? "", headers).end(`upstream says ${code}`);
    return;
  }
  if (path.startsWith("/content-type/")) {
    const type = decodeURIComponent(path.slice("/content-type/".length));
    const body = /^\s*text\/event-stream/i.test(type)
      ? sse(validRun())
      : "<!doctype html><p>not an event stream</p>";
    res.writeHead(200, { "content-type": type }).end(body);
    return;
  }
  if (path === "/no-body") {
    res.writeHead(204).end();
    return;
  }
  if (path.startsWith("/files/")) return serveFile(res, decodeURIComponent(path.slice(7)));
  res.writeHead(404, { "content-type": "text/plain" }).end(`no route ${path}`);
}

/** Starts the agent server on 127.0.0.1, on a random free port. */
export async function startAgentServer(): Promise<AgentServer> {
  const requests: RecordedRequest[] = [];
  const endings: Promise<"finished" | "aborted">[] = [];

  const server = createServer((req, res) => {
    req.socket.setNoDelay(true);
    const ending = new Promise<"finished" | "aborted">((done) => {
      res.once("close", () => done(res.writableFinished ? "finished" : "aborted"));
    });
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("error", () => {});
    req.on("end", () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) {
          headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
        }
      }
      requests.push({
        method: req.method ?? "",
        url: req.url ?? "",
        headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      endings.push(ending);
      route(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
        res.end(String(error));
      });
    });
  });

  await new Promise<void>((done, fail) => {
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", fail);
      done();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    closed(index) {
      const ending = endings[index];
      if (ending === undefined) return Promise.reject(new Error(`no request ${index} yet`));
      return ending;
    },
    close() {
      return new Promise<void>((done, fail) => {
        server.close((error) => (error ? fail(error) : done()));
        server.closeAllConnections();
      });
    },
  };
}
