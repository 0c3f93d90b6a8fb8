// runAgent, verifyResponse and verifyingFetch in detail, under Node, against the local agent
// server (test/server/agent-server.ts) and against in-memory responses; and the real
// @ag-ui/client 1.0.0 HttpAgent with `fetch: verifyingFetch()`. (The proxy's byte-level
// properties are in test/proxy.test.ts.)

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createContext, runInContext } from "node:vm";
import { HttpAgent } from "@ag-ui/client";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it, vi } from "vitest";
import {
  type AgUiEvent,
  type EventStream,
  HttpError,
  isHttpError,
  isVerifyError,
  runAgent,
  VerifyError,
  verifyAll,
  verifyingFetch,
  verifyResponse,
} from "../../src/index.ts";
import { protobuf } from "../../src/proto/index.ts";
import { agUiSchema, type KnownAgUiEvent } from "../../src/schema/index.ts";
import { RUN_INPUT, VIOLATION_PREFIX, validRun, violationRun } from "../runtime/cases.ts";
import {
  type AgentServer,
  RICH_HEADERS,
  richSse,
  sse,
  startAgentServer,
} from "../server/agent-server.ts";

let server: AgentServer;

beforeAll(async () => {
  server = await startAgentServer();
});

afterAll(async () => {
  await server?.close();
});

const utf8 = new TextEncoder();

interface Drained {
  events: unknown[];
  errored: boolean;
  error: unknown;
}

/** Reads a stream of events to its end or its error, with `for await`. */
async function drain(stream: AsyncIterable<{ type: string }>): Promise<Drained> {
  const events: unknown[] = [];
  try {
    for await (const event of stream) events.push(event);
  } catch (error) {
    return { events, errored: true, error };
  }
  return { events, errored: false, error: undefined };
}

/** Reads a byte stream to its end or its error, decoded as UTF-8. */
async function drainText(
  body: ReadableStream<Uint8Array> | null,
): Promise<{ text: string; errored: boolean; error: unknown }> {
  if (body === null) return { text: "", errored: false, error: undefined };
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text: text + decoder.decode(), errored: false, error: undefined };
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    return { text: text + decoder.decode(), errored: true, error };
  }
}

/** Parses `data: <json>\n\n` SSE, insisting on exactly that framing. */
function parseSse(text: string): unknown[] {
  if (text === "") return [];
  expect(text.endsWith("\n\n")).toBe(true);
  return text
    .slice(0, -2)
    .split("\n\n")
    .map((block) => {
      expect(block.startsWith("data: ")).toBe(true);
      expect(block.includes("\n")).toBe(false);
      return JSON.parse(block.slice(6));
    });
}

/** Rejects when `promise` has not settled within `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`timed out after ${ms} ms: ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * How long a test waits for what happens at once on an idle machine (a request arriving, a
 * rejection, a close): generous, since CI runs the suite beside a CPU load; a hang still
 * fails, just later.
 */
const SETTLE_MS = 20_000;

/** Resolves once `condition()` holds, checking every few ms, for at most `ms`. */
async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms: ${what}`);
    await new Promise((done) => setTimeout(done, 5));
  }
}

/** The error `promise` rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

/** A `fetch` that answers every request with an in-memory response. */
function answering(make: () => Response) {
  return vi.fn(async (_request: Request) => make());
}

function eventStream(body: BodyInit | null, init: ResponseInit = {}): Response {
  return new Response(body, { ...init, headers: { "content-type": "text/event-stream" } });
}

describe("runAgent: the request", () => {
  it("POSTs the input as JSON, accepting text/event-stream", async () => {
    const at = server.requests.length;
    const { events, errored } = await drain(await runAgent(`${server.url}/run/valid`, RUN_INPUT));
    expect(errored).toBe(false);
    expect(events).toEqual(validRun());
    const request = server.requests[at];
    expect(request?.method).toBe("POST");
    expect(request?.url).toBe("/run/valid");
    expect(request?.headers.accept).toBe("text/event-stream");
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(request?.body ?? "")).toEqual(RUN_INPUT);
    expect(request?.body).toBe(JSON.stringify(RUN_INPUT));
  });

  it("takes a URL object", async () => {
    const at = server.requests.length;
    const { events } = await drain(await runAgent(new URL("/run/valid", server.url), RUN_INPUT));
    expect(events).toEqual(validRun());
    expect(server.requests[at]?.url).toBe("/run/valid");
  });

  it("merges extra headers", async () => {
    const at = server.requests.length;
    await drain(
      await runAgent(`${server.url}/run/valid`, RUN_INPUT, {
        headers: { authorization: "Bearer t0k3n", "X-Trace": "abc" },
      }),
    );
    const headers = server.requests[at]?.headers;
    expect(headers?.authorization).toBe("Bearer t0k3n");
    expect(headers?.["x-trace"]).toBe("abc");
    expect(headers?.accept).toBe("text/event-stream");
    expect(headers?.["content-type"]).toBe("application/json");
  });

  it("keeps the caller's own content-type and accept", async () => {
    const at = server.requests.length;
    const accept = "text/event-stream, application/json;q=0.5";
    const type = "application/vnd.example+json; charset=utf-8";
    await drain(
      await runAgent(`${server.url}/run/valid`, RUN_INPUT, {
        headers: { Accept: accept, "Content-Type": type },
      }),
    );
    expect(server.requests[at]?.headers.accept).toBe(accept);
    expect(server.requests[at]?.headers["content-type"]).toBe(type);
    // A Request's own headers count as the caller's too.
    const request = new Request(`${server.url}/run/valid`, { headers: { accept: "*/*" } });
    await drain(await runAgent(request, RUN_INPUT));
    expect(server.requests[at + 1]?.headers.accept).toBe("*/*");
    expect(server.requests[at + 1]?.headers["content-type"]).toBe("application/json");
  });

  it("takes headers as a Headers object or as pairs", async () => {
    const at = server.requests.length;
    await drain(
      await runAgent(`${server.url}/run/valid`, RUN_INPUT, {
        headers: new Headers({ "x-one": "1" }),
      }),
    );
    await drain(
      await runAgent(`${server.url}/run/valid`, RUN_INPUT, { headers: [["x-two", "2"]] }),
    );
    expect(server.requests[at]?.headers["x-one"]).toBe("1");
    expect(server.requests[at + 1]?.headers["x-two"]).toBe("2");
  });

  it("takes a Request: its URL and headers are used, the method and body are its own", async () => {
    const at = server.requests.length;
    const request = new Request(`${server.url}/run/valid?crlf=1`, {
      method: "PUT",
      headers: { authorization: "Bearer from-request", "x-both": "request" },
    });
    const { events } = await drain(
      await runAgent(request, RUN_INPUT, { headers: { "x-both": "option" } }),
    );
    expect(events).toEqual(validRun());
    const seen = server.requests[at];
    expect(seen?.method).toBe("POST");
    expect(seen?.url).toBe("/run/valid?crlf=1");
    expect(seen?.headers.authorization).toBe("Bearer from-request");
    expect(seen?.headers["x-both"]).toBe("option");
    expect(seen?.headers.accept).toBe("text/event-stream");
    expect(JSON.parse(seen?.body ?? "")).toEqual(RUN_INPUT);
  });

  it("uses the injected fetch, with one Request", async () => {
    const spy = vi.fn((request: Request) => globalThis.fetch(request));
    const at = server.requests.length;
    const { events } = await drain(
      await runAgent(`${server.url}/run/valid`, RUN_INPUT, { fetch: spy }),
    );
    expect(events).toEqual(validRun());
    expect(spy).toHaveBeenCalledTimes(1);
    const request = spy.mock.calls[0]?.[0];
    expect(request).toBeInstanceOf(Request);
    expect(request?.method).toBe("POST");
    expect(request?.url).toBe(`${server.url}/run/valid`);
    expect(request?.headers.get("accept")).toBe("text/event-stream");
    expect(server.requests.length).toBe(at + 1);
  });

  it("looks the global fetch up at call time", async () => {
    const original = globalThis.fetch;
    const spy = vi.fn((input: RequestInfo | URL, init?: RequestInit) => original(input, init));
    globalThis.fetch = spy as typeof fetch;
    try {
      const { events } = await drain(await runAgent(`${server.url}/run/valid`, RUN_INPUT));
      expect(events).toEqual(validRun());
    } finally {
      globalThis.fetch = original;
    }
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy.mock.calls[0]?.[0]).toBeInstanceOf(Request);
  });

  it("calls the global fetch without a `this` it would reject", async () => {
    const original = globalThis.fetch;
    globalThis.fetch = function (this: unknown, input: RequestInfo | URL, init?: RequestInit) {
      if (this !== undefined && this !== globalThis) throw new TypeError("Illegal invocation");
      return original(input, init);
    } as typeof fetch;
    try {
      const { events } = await drain(await runAgent(`${server.url}/run/valid`, RUN_INPUT));
      expect(events).toEqual(validRun());
    } finally {
      globalThis.fetch = original;
    }
  });
});

describe("runAgent: abort", () => {
  it("an abort before the response rejects with the reason and drops the request", async () => {
    const at = server.requests.length;
    const controller = new AbortController();
    const reason = new Error("user stopped it");
    const pending = runAgent(`${server.url}/run/valid?wait=3000`, RUN_INPUT, {
      signal: controller.signal,
    });
    await until(() => server.requests.length > at, SETTLE_MS, "the request to arrive");
    controller.abort(reason);
    expect(await within(rejection(pending), SETTLE_MS, "runAgent to reject")).toBe(reason);
    expect(await within(server.closed(at), SETTLE_MS, "the server to see the close")).toBe(
      "aborted",
    );
  });

  it("an already-aborted signal rejects with the reason", async () => {
    const reason = new Error("never mind");
    const error = await rejection(
      runAgent(`${server.url}/run/valid`, RUN_INPUT, { signal: AbortSignal.abort(reason) }),
    );
    expect(error).toBe(reason);
  });

  it("an abort during the stream errors it with the reason and closes the connection", async () => {
    const at = server.requests.length;
    const controller = new AbortController();
    const reason = new Error("user stopped the stream");
    const stream = await runAgent(`${server.url}/run/stall?events=3`, RUN_INPUT, {
      signal: controller.signal,
    });
    const reader = stream.getReader();
    const first: unknown[] = [];
    for (let i = 0; i < 3; i++) first.push((await reader.read()).value);
    expect(first).toEqual(validRun().slice(0, 3));
    // The fourth event never comes: the read waits on the network when the abort lands.
    const next = reader.read();
    setTimeout(() => controller.abort(reason), 30);
    expect(await within(rejection(next), SETTLE_MS, "the read to reject")).toBe(reason);
    expect(await within(server.closed(at), SETTLE_MS, "the server to see the close")).toBe(
      "aborted",
    );
    // The stream stays errored with the reason.
    expect(await rejection(reader.read())).toBe(reason);
  });

  it("an abort between reads errors the next read with the reason", async () => {
    const at = server.requests.length;
    const controller = new AbortController();
    const stream = await runAgent(`${server.url}/run/stall?events=5`, RUN_INPUT, {
      signal: controller.signal,
    });
    const reader = stream.getReader();
    expect((await reader.read()).value).toEqual(validRun()[0]);
    controller.abort();
    const error = await within(rejection(reader.read()), SETTLE_MS, "the read to reject");
    expect(error).toBe(controller.signal.reason);
    expect((error as Error).name).toBe("AbortError");
    expect(await within(server.closed(at), SETTLE_MS, "the server to see the close")).toBe(
      "aborted",
    );
  });

  it("a Request's own signal aborts the stream too, with its reason", async () => {
    const at = server.requests.length;
    const controller = new AbortController();
    const reason = new Error("aborted through the Request");
    const request = new Request(`${server.url}/run/stall?events=1`, { signal: controller.signal });
    const reader = (await runAgent(request, RUN_INPUT)).getReader();
    expect((await reader.read()).value).toEqual(validRun()[0]);
    const next = reader.read();
    setTimeout(() => controller.abort(reason), 30);
    expect(await within(rejection(next), SETTLE_MS, "the read to reject")).toBe(reason);
    expect(await within(server.closed(at), SETTLE_MS, "the server to see the close")).toBe(
      "aborted",
    );
  });

  it("an abort after the stream ended changes nothing", async () => {
    const controller = new AbortController();
    const { events, errored } = await drain(
      await runAgent(`${server.url}/run/valid`, RUN_INPUT, { signal: controller.signal }),
    );
    controller.abort(new Error("late"));
    expect(errored).toBe(false);
    expect(events).toEqual(validRun());
  });

  it("with a signal, a violation still errors with the VerifyError", async () => {
    const { events, error } = await drain(
      await runAgent(`${server.url}/run/violation?chunk=5`, RUN_INPUT, {
        signal: new AbortController().signal,
      }),
    );
    expect(events).toEqual(validRun().slice(0, VIOLATION_PREFIX));
    expect(isVerifyError(error) && error.code).toBe("TEXT_MESSAGE_NOT_OPEN");
  });
});

describe("runAgent: options passed through", () => {
  it("schema: a mismatch is SCHEMA_MISMATCH; the stream is typed by the schema's output", async () => {
    const robot = { type: "TEXT_MESSAGE_START", messageId: "m9", role: "robot" };
    const fetch = answering(() => eventStream(sse([...validRun().slice(0, 2), robot])));
    const url = "http://agent.test/run";

    const typed = await runAgent(url, RUN_INPUT, { fetch, schema: agUiSchema });
    expectTypeOf(typed).toEqualTypeOf<EventStream<KnownAgUiEvent>>();
    const checked = await drain(typed);
    expect(checked.events).toEqual(validRun().slice(0, 2));
    expect(isVerifyError(checked.error) && [checked.error.code, checked.error.field]).toEqual([
      "SCHEMA_MISMATCH",
      "role",
    ]);

    // verify: false checks neither the rules nor the schema, and says so in the type.
    const unchecked = await runAgent(url, RUN_INPUT, { fetch, schema: agUiSchema, verify: false });
    expectTypeOf(unchecked).toEqualTypeOf<EventStream<AgUiEvent>>();
    expect(await drain(unchecked)).toEqual({
      events: [...validRun().slice(0, 2), robot],
      errored: false,
      error: undefined,
    });
    expectTypeOf(await runAgent(url, RUN_INPUT, { fetch })).toEqualTypeOf<EventStream>();
    // Expanding chunks keeps the schema's typing (issue 27 row 7).
    const expanded = await runAgent(url, RUN_INPUT, {
      fetch,
      schema: agUiSchema,
      expandChunks: true,
    });
    expectTypeOf(expanded).toEqualTypeOf<EventStream<KnownAgUiEvent>>();
    await drain(expanded);
  });

  const twoRuns = () => {
    const run = validRun();
    const second = run.map((event) =>
      "runId" in event ? { ...event, runId: "run-2" } : { ...event },
    );
    return [...run, ...second];
  };

  it("several runs in one stream pass (SPEC version 4: no option needed)", async () => {
    const fetch = answering(() => eventStream(sse(twoRuns())));
    const both = await drain(await runAgent("http://agent.test/run", RUN_INPUT, { fetch }));
    expect(both.errored).toBe(false);
    expect(both.events).toEqual(twoRuns());
  });

  it("maxBufferSize, over the network", async () => {
    // 7-byte writes 5 ms apart: the first lines reach the parser in pieces longer than 16.
    const url = `${server.url}/run/valid?chunk=7&delay=5`;
    const { errored, error } = await drain(await runAgent(url, RUN_INPUT, { maxBufferSize: 16 }));
    expect(errored).toBe(true);
    expect(isVerifyError(error) && error.code).toBe("SSE_BUFFER_OVERFLOW");

    const roomy = await drain(await runAgent(url, RUN_INPUT, { maxBufferSize: 1000 }));
    expect(roomy.errored).toBe(false);
    expect(roomy.events).toEqual(validRun());
  });

  it("maxBufferSize, with verify: false", async () => {
    const url = `${server.url}/run/valid?chunk=7&delay=5`;
    const { error } = await drain(
      await runAgent(url, RUN_INPUT, { maxBufferSize: 16, verify: false }),
    );
    expect(isVerifyError(error) && error.code).toBe("SSE_BUFFER_OVERFLOW");
  });
});

describe("runAgent: responses that are not event streams", () => {
  it("a 502 throws an HttpError with status, headers and body", async () => {
    const url = `${server.url}/status/502`;
    const error = await rejection(runAgent(url, RUN_INPUT));
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toBeInstanceOf(Error);
    const http = error as HttpError;
    expect(http.name).toBe("HttpError");
    expect(http.message).toBe(`POST ${url} failed with 502 Bad Gateway: upstream says 502`);
    expect(http.method).toBe("POST");
    expect(http.url).toBe(url);
    expect(http.status).toBe(502);
    expect(http.statusText).toBe("Bad Gateway");
    expect(http.headers).toBeInstanceOf(Headers);
    expect(http.headers.get("x-upstream")).toBe("agent-server");
    expect(http.body).toBe("upstream says 502");
    expect(isVerifyError(error)).toBe(false);
    expect(isHttpError(error)).toBe(true);
  });

  it("keeps the Response itself", async () => {
    const original = new Response("nope", { status: 503, headers: { "retry-after": "5" } });
    const fetch = answering(() => original);
    const error = await rejection(runAgent("http://agent.test/run", RUN_INPUT, { fetch }));
    expect(isHttpError(error) && error.response).toBe(original);
    const html = new Response("<p>", { headers: { "content-type": "text/html" } });
    const second = await rejection(
      runAgent("http://agent.test/run", RUN_INPUT, { fetch: answering(() => html) }),
    );
    expect(isHttpError(second) && second.response).toBe(html);
  });

  it("isHttpError recognises an HttpError made by a copy of the library in another realm", async () => {
    // The CommonJS build (dist/index.cjs and the modules it requires; npm test builds first),
    // run in a fresh realm: its Error, and so its HttpError, are not this realm's.
    const realm = createContext({
      Request,
      Response,
      Headers,
      ReadableStream,
      TransformStream,
      TextDecoder,
      TextEncoder,
    });
    const nodeRequire = createRequire(import.meta.url);
    const loaded = new Map<string, { exports: Record<string, unknown> }>();
    const load = (file: URL): Record<string, unknown> => {
      const done = loaded.get(file.href);
      if (done !== undefined) return done.exports;
      const module: { exports: Record<string, unknown> } = { exports: {} };
      loaded.set(file.href, module);
      const code = readFileSync(file, "utf8");
      const run = runInContext(`(function (module, exports, require) {${code}\n})`, realm);
      run(module, module.exports, (specifier: string) =>
        specifier.startsWith(".") ? load(new URL(specifier, file)) : nodeRequire(specifier),
      );
      return module.exports;
    };
    const copy = { exports: load(new URL("../../dist/index.cjs", import.meta.url)) };
    const Foreign = copy.exports.HttpError;
    if (typeof Foreign !== "function") throw new Error("dist/index.cjs has no HttpError");
    const foreign: unknown = Reflect.construct(Foreign, [
      "x",
      new Request("http://agent.test/"),
      new Response(null, { status: 500 }),
      "",
    ]);
    expect(foreign instanceof Error).toBe(false);
    expect(foreign instanceof HttpError).toBe(false);
    expect(isHttpError(foreign)).toBe(true);
    expect(isHttpError(new Error("x"))).toBe(false);
    expect(isHttpError(null)).toBe(false);
    expect(
      isHttpError(
        new VerifyError("x", {
          code: "INVALID_JSON",
          index: 0,
          eventType: undefined,
          event: undefined,
          field: undefined,
        }),
      ),
    ).toBe(false);
  });

  it.each([400, 401, 404, 500, 503])("a %i throws an HttpError", async (status) => {
    const error = await rejection(runAgent(`${server.url}/status/${status}`, RUN_INPUT));
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(status);
    expect((error as HttpError).message).toContain(`failed with ${status} `);
  });

  it("keeps only the start of a long error body", async () => {
    const long = `${"x".repeat(3000)}END`;
    const fetch = answering(() => new Response(long, { status: 500, statusText: "Oops" }));
    const error = (await rejection(
      runAgent("http://agent.test/run", RUN_INPUT, { fetch }),
    )) as HttpError;
    expect(error).toBeInstanceOf(HttpError);
    expect(error.body).toBe("x".repeat(1024));
    expect(error.message).toBe(
      `POST http://agent.test/run failed with 500 Oops: ${"x".repeat(200)}`,
    );
  });

  it("an error without a status text or body reads cleanly", async () => {
    const fetch = answering(() => new Response(null, { status: 500 }));
    const error = (await rejection(
      runAgent("http://agent.test/run", RUN_INPUT, { fetch }),
    )) as HttpError;
    expect(error.message).toBe("POST http://agent.test/run failed with 500");
    expect(error.body).toBe("");
  });

  it("a 2xx text/html response throws an HttpError naming the content type", async () => {
    const url = `${server.url}/content-type/${encodeURIComponent("text/html")}`;
    const error = await rejection(runAgent(url, RUN_INPUT));
    expect(error).toBeInstanceOf(HttpError);
    const http = error as HttpError;
    expect(http.status).toBe(200);
    expect(http.message).toContain("text/html");
    expect(http.message.startsWith(`POST ${url} `)).toBe(true);
    expect(http.body).toContain("not an event stream");
  });

  it.each(["application/json", "text/plain", "text/event-streams"])(
    "a 2xx %s response throws an HttpError",
    async (type) => {
      const url = `${server.url}/content-type/${encodeURIComponent(type)}`;
      const error = await rejection(runAgent(url, RUN_INPUT));
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).message).toContain(type);
    },
  );

  it("a 2xx body without a content type throws an HttpError", async () => {
    const fetch = answering(() => new Response(new Blob([sse(validRun())]).stream()));
    const error = await rejection(runAgent("http://agent.test/run", RUN_INPUT, { fetch }));
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).message).toContain("content-type");
  });

  it.each([
    "text/event-stream; charset=utf-8",
    "Text/Event-Stream",
    "text/event-stream;charset=UTF-8",
  ])("accepts %s", async (type) => {
    const url = `${server.url}/content-type/${encodeURIComponent(type)}`;
    const { events, errored } = await drain(await runAgent(url, RUN_INPUT));
    expect(errored).toBe(false);
    expect(events).toEqual(validRun());
  });

  it("a 204 without a body gives a stream ending in STREAM_ENDED_BEFORE_RUN_STARTED", async () => {
    const { events, error } = await drain(await runAgent(`${server.url}/no-body`, RUN_INPUT));
    expect(events).toEqual([]);
    expect(error).toBeInstanceOf(VerifyError);
    expect((error as VerifyError).code).toBe("STREAM_ENDED_BEFORE_RUN_STARTED");
    expect((error as VerifyError).index).toBe(0);
  });
});

describe("runAgent: verify: false", () => {
  it("delivers a violating run whole", async () => {
    const { events, errored } = await drain(
      await runAgent(`${server.url}/run/violation`, RUN_INPUT, { verify: false }),
    );
    expect(errored).toBe(false);
    expect(events).toEqual(violationRun());
  });

  it("still errors on [DONE] with INVALID_JSON", async () => {
    const { events, error } = await drain(
      await runAgent(`${server.url}/run/done?chunk=11`, RUN_INPUT, { verify: false }),
    );
    expect(events).toEqual(validRun());
    expect(error).toBeInstanceOf(VerifyError);
    expect((error as VerifyError).code).toBe("INVALID_JSON");
    expect((error as VerifyError).index).toBe(validRun().length);
    expect((error as VerifyError).message).toContain("[DONE]");
  });

  it("still errors on data that is not an event object", async () => {
    const fetch = answering(() => eventStream(`${sse(validRun().slice(0, 2))}data: 42\n\n`));
    const { events, error } = await drain(
      await runAgent("http://agent.test/run", RUN_INPUT, { fetch, verify: false }),
    );
    expect(events).toEqual(validRun().slice(0, 2));
    expect(isVerifyError(error) && [error.code, error.index]).toEqual(["EVENT_NOT_OBJECT", 2]);
  });

  it("does not check the run's end", async () => {
    const fetch = answering(() => eventStream(sse(validRun().slice(0, 4))));
    const { events, errored } = await drain(
      await runAgent("http://agent.test/run", RUN_INPUT, { fetch, verify: false }),
    );
    expect(errored).toBe(false);
    expect(events).toEqual(validRun().slice(0, 4));
  });
});

describe("runAgent: the stream", () => {
  it("with verification on, [DONE] after the run is a VerifyError", async () => {
    const { events, error } = await drain(await runAgent(`${server.url}/run/done`, RUN_INPUT));
    expect(events).toEqual(validRun());
    expect(isVerifyError(error)).toBe(true);
  });

  it.each(["1", "3", "7", "64"])("decodes the run written %s bytes at a time", async (chunk) => {
    const url = `${server.url}/run/valid?chunk=${chunk}&crlf=${chunk === "3" ? 1 : 0}`;
    const { events, errored } = await drain(await runAgent(url, RUN_INPUT));
    expect(errored).toBe(false);
    expect(events).toEqual(validRun());
  });

  it("a long run, with delays between writes", async () => {
    const url = `${server.url}/run/valid?events=400&chunk=512&delay=1`;
    const { events, errored } = await drain(await runAgent(url, RUN_INPUT));
    expect(errored).toBe(false);
    expect(events.length).toBe(400);
    expect(() => verifyAll(events)).not.toThrow();
  });

  it("a mid-stream disconnect errors the stream, never ends it cleanly", async () => {
    const { events, errored, error } = await drain(
      await runAgent(`${server.url}/run/disconnect?events=4`, RUN_INPUT),
    );
    expect(events).toEqual(validRun().slice(0, 4));
    expect(errored).toBe(true);
    // Node's fetch reports the cut as a network error (TypeError "terminated"); a runtime
    // that reads it as the end of the body gets STREAM_ENDED_BEFORE_RUN_CLOSED instead.
    if (isVerifyError(error)) expect(error.code).toBe("STREAM_ENDED_BEFORE_RUN_CLOSED");
    else expect(error).toBeInstanceOf(TypeError);
  });

  it("is a ReadableStream and async-iterable", async () => {
    const stream = await runAgent(`${server.url}/run/valid`, RUN_INPUT);
    expect(stream).toBeInstanceOf(ReadableStream);
    expect(typeof stream[Symbol.asyncIterator]).toBe("function");
    await stream.cancel();
  });

  it("breaking out of for await cancels the stream and closes the connection", async () => {
    const at = server.requests.length;
    const seen: AgUiEvent[] = [];
    for await (const event of await runAgent(`${server.url}/run/stall?events=3`, RUN_INPUT)) {
      seen.push(event);
      if (seen.length === 2) break;
    }
    expect(seen).toEqual(validRun().slice(0, 2));
    expect(await within(server.closed(at), SETTLE_MS, "the server to see the close")).toBe(
      "aborted",
    );
  });

  describe("where ReadableStream lacks async iteration", () => {
    const proto = ReadableStream.prototype;
    const descriptor = Object.getOwnPropertyDescriptor(proto, Symbol.asyncIterator);

    /**
     * Runs `body` with `ReadableStream.prototype[Symbol.asyncIterator]` deleted, except
     * inside `fetch` (below): Node's fetch itself iterates the request body that way.
     */
    async function withoutAsyncIterator<T>(body: () => Promise<T>): Promise<T> {
      expect(descriptor).toBeDefined();
      Reflect.deleteProperty(proto, Symbol.asyncIterator);
      try {
        expect(Symbol.asyncIterator in new ReadableStream()).toBe(false);
        return await body();
      } finally {
        if (descriptor) Object.defineProperty(proto, Symbol.asyncIterator, descriptor);
      }
    }

    /** The global fetch, with the prototype's async iterator back while it sends the request. */
    async function fetch(request: Request): Promise<Response> {
      if (descriptor) Object.defineProperty(proto, Symbol.asyncIterator, descriptor);
      try {
        return await globalThis.fetch(request);
      } finally {
        Reflect.deleteProperty(proto, Symbol.asyncIterator);
      }
    }

    it("for await reads the run", async () => {
      await withoutAsyncIterator(async () => {
        const stream = await runAgent(`${server.url}/run/valid?chunk=9`, RUN_INPUT, { fetch });
        expect(Object.hasOwn(stream, Symbol.asyncIterator)).toBe(true);
        const { events, errored } = await drain(stream);
        expect(errored).toBe(false);
        expect(events).toEqual(validRun());
        // The iterator released its lock at the end.
        expect(stream.locked).toBe(false);
      });
    });

    it("for await surfaces a violation after the earlier events", async () => {
      await withoutAsyncIterator(async () => {
        const { events, error } = await drain(
          await runAgent(`${server.url}/run/violation`, RUN_INPUT, {
            fetch,
            signal: new AbortController().signal,
          }),
        );
        expect(events).toEqual(validRun().slice(0, VIOLATION_PREFIX));
        expect(isVerifyError(error) && error.code).toBe("TEXT_MESSAGE_NOT_OPEN");
      });
    });

    it("break cancels the stream and closes the connection", async () => {
      await withoutAsyncIterator(async () => {
        const at = server.requests.length;
        const stream = await runAgent(`${server.url}/run/stall?events=3`, RUN_INPUT, { fetch });
        const seen: AgUiEvent[] = [];
        for await (const event of stream) {
          seen.push(event);
          if (seen.length === 2) break;
        }
        expect(seen).toEqual(validRun().slice(0, 2));
        expect(await within(server.closed(at), SETTLE_MS, "the server to see the close")).toBe(
          "aborted",
        );
      });
    });

    it("behaves like the native iterator at the end and after an error", async () => {
      await withoutAsyncIterator(async () => {
        const done = await runAgent(`${server.url}/run/valid`, RUN_INPUT, { fetch });
        const it = done[Symbol.asyncIterator]();
        while (!(await it.next()).done) {}
        expect(await it.return?.()).toEqual({ done: true, value: undefined });
        const failed = await runAgent(`${server.url}/run/violation`, RUN_INPUT, { fetch });
        const { error } = await drain(failed);
        expect(isVerifyError(error)).toBe(true);
        expect(failed.locked).toBe(false);
      });
    });

    it("break with a signal cancels the stream and closes the connection", async () => {
      await withoutAsyncIterator(async () => {
        const at = server.requests.length;
        const stream = await runAgent(`${server.url}/run/stall?events=3`, RUN_INPUT, {
          fetch,
          signal: new AbortController().signal,
        });
        for await (const event of stream) {
          expect(event.type).toBe("RUN_STARTED");
          break;
        }
        expect(await within(server.closed(at), SETTLE_MS, "the server to see the close")).toBe(
          "aborted",
        );
      });
    });
  });
});

describe("verifyResponse over the network", () => {
  const post = (path: string) => fetch(`${server.url}${path}`, { method: "POST" });

  it("re-serves a rich stream byte for byte, with its headers, however it was chunked", async () => {
    for (const query of ["", "?chunk=1", "?chunk=7&crlf=1", "?chunk=64"]) {
      const response = verifyResponse(await post(`/run/rich${query}`));
      expect(response.status).toBe(200);
      expect(response.headers.get("access-control-allow-origin")).toBe("https://app.example");
      expect(response.headers.get("x-request-id")).toBe("req-42");
      expect(response.headers.getSetCookie()).toEqual(RICH_HEADERS["set-cookie"]);
      expect(response.headers.get("content-type")).toBe("text/event-stream");
      expect(response.headers.has("transfer-encoding")).toBe(false);
      expect(response.headers.has("connection")).toBe(false);
      expect(response.headers.has("keep-alive")).toBe(false);
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(bytes).toEqual(utf8.encode(richSse(validRun(), query.includes("crlf"))));
    }
  });

  it("a JSON or an HTML 200 passes through untouched, body byte for byte", async () => {
    for (const type of ["application/json", "text/html; charset=utf-8"]) {
      const path = `/content-type/${encodeURIComponent(type)}`;
      const sent = new Uint8Array(await (await post(path)).arrayBuffer());
      const upstream = await post(path);
      for (const onViolation of ["error", "run-error"] as const) {
        expect(verifyResponse(upstream, { onViolation })).toBe(upstream);
      }
      expect(upstream.headers.get("content-type")).toBe(type);
      expect(new Uint8Array(await upstream.arrayBuffer())).toEqual(sent);
    }
  });

  it('lineEnds "lf" turns a CRLF stream into the same stream with LF', async () => {
    const response = verifyResponse(await post("/run/rich?chunk=5&crlf=1"), { lineEnds: "lf" });
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(bytes).toEqual(utf8.encode(richSse(validRun())));
  });

  it('a connection reset mid-run: "error" errors the body with the network error', async () => {
    const { text, errored, error } = await drainText(
      verifyResponse(await post("/run/disconnect?events=4")).body,
    );
    expect(text).toBe(sse(validRun().slice(0, 4)));
    expect(errored).toBe(true);
    expect(error).toBeInstanceOf(TypeError);
    expect(isVerifyError(error)).toBe(false);
  });

  it('a connection reset mid-run: "run-error" ends with RUN_ERROR AG_UI_VERIFY_UPSTREAM_ERROR', async () => {
    const response = verifyResponse(await post("/run/disconnect?events=4"), {
      onViolation: "run-error",
    });
    const { text, errored } = await drainText(response.body);
    expect(errored).toBe(false);
    const events = parseSse(text);
    expect(events.slice(0, -1)).toEqual(validRun().slice(0, 4));
    // Node's fetch reports the cut as TypeError "terminated": the runtime's words come last.
    expect(events.at(-1)).toEqual({
      type: "RUN_ERROR",
      message:
        "ag-ui-verify rejected the stream: the agent's response body failed before the stream ended: terminated",
      code: "AG_UI_VERIFY_UPSTREAM_ERROR",
    });
    expect(() => verifyAll(events)).not.toThrow();
  });

  it("a violation cancels the upstream: the agent server sees the connection go", async () => {
    const at = server.requests.length;
    const upstream = await post("/run/violation?chunk=64&delay=20");
    const { text, error } = await drainText(verifyResponse(upstream).body);
    expect(parseSse(text)).toEqual(validRun().slice(0, VIOLATION_PREFIX));
    expect(isVerifyError(error) && error.code).toBe("TEXT_MESSAGE_NOT_OPEN");
    expect(await within(server.closed(at), SETTLE_MS, "the server to see the close")).toBe(
      "aborted",
    );
  });

  it("proxies an agent-server run end to end through runAgent", async () => {
    // The proxy's output is itself a valid agent response.
    const fetch = vi.fn(async (request: Request) =>
      verifyResponse(await globalThis.fetch(request), { onViolation: "run-error" }),
    );
    const ok = await drain(await runAgent(`${server.url}/run/rich?chunk=3`, RUN_INPUT, { fetch }));
    expect(ok.errored).toBe(false);
    expect(ok.events).toEqual(validRun());

    const bad = await drain(await runAgent(`${server.url}/run/violation`, RUN_INPUT, { fetch }));
    expect(bad.errored).toBe(false);
    expect(bad.events.slice(0, -1)).toEqual(validRun().slice(0, VIOLATION_PREFIX));
    expect(bad.events.at(-1)).toMatchObject({
      type: "RUN_ERROR",
      code: "AG_UI_VERIFY_TEXT_MESSAGE_NOT_OPEN",
    });
  });
});

describe("verifyingFetch over the network", () => {
  /** verifyingFetch around the global fetch, keeping every response the global one gave. */
  function recording() {
    const responses: Response[] = [];
    const wrapped = verifyingFetch({
      fetch: async (input, init) => {
        const response = await globalThis.fetch(input, init);
        responses.push(response);
        return response;
      },
    });
    return { wrapped, responses };
  }

  it.each([
    ["an error status", "/status/502"],
    ["an HTML 200", `/content-type/${encodeURIComponent("text/html")}`],
    ["a JSON 200", `/content-type/${encodeURIComponent("application/json")}`],
    ["a 204", "/no-body"],
  ])("%s comes back untouched: the same Response object", async (_, path) => {
    const { wrapped, responses } = recording();
    const response = await wrapped(`${server.url}${path}`, { method: "POST" });
    expect(responses).toHaveLength(1);
    expect(response).toBe(responses[0]);
    await response.body?.cancel();
  });

  it("an event stream comes back verified, as a new Response", async () => {
    const { wrapped, responses } = recording();
    const response = await wrapped(`${server.url}/run/rich?crlf=1&chunk=9`, { method: "POST" });
    expect(response).not.toBe(responses[0]);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(bytes).toEqual(utf8.encode(richSse(validRun())));
  });

  it("a failed connection rejects with the fetch's own error", async () => {
    const closed = await startAgentServer();
    const url = closed.url;
    await closed.close();
    const error = await rejection(verifyingFetch()(`${url}/run/valid`));
    expect(error).toBeInstanceOf(TypeError);
  });
});

describe("@ag-ui/client 1.0.0 HttpAgent with fetch: verifyingFetch()", () => {
  interface Outcome {
    /** Event types, with the code of a RUN_ERROR. */
    seen: string[];
    messages: unknown;
    error: unknown;
  }

  async function runHttpAgent(path: string, wrapped: boolean): Promise<Outcome> {
    const agent = new HttpAgent({
      url: `${server.url}${path}`,
      ...(wrapped ? { fetch: verifyingFetch() } : {}),
    });
    const seen: string[] = [];
    const record = (type: string, code?: unknown) =>
      seen.push(code === undefined ? type : `${type} ${String(code)}`);
    // The client logs a failed run to the console; the test reads the rejection instead.
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await agent.runAgent(
        {},
        {
          onEvent: ({ event }) => {
            if (event.type !== "RUN_ERROR") record(event.type);
          },
          onRunErrorEvent: ({ event }) => {
            record(event.type, event.code);
          },
        },
      );
      return { seen, messages: agent.messages, error: undefined };
    } catch (error) {
      return { seen, messages: agent.messages, error };
    } finally {
      quiet.mockRestore();
    }
  }

  it("a valid run gives the same events and messages as without it", async () => {
    for (const path of ["/run/valid?chunk=7", "/run/rich?chunk=3"]) {
      const plain = await runHttpAgent(path, false);
      const verified = await runHttpAgent(path, true);
      expect(plain.error).toBeUndefined();
      expect(verified.error).toBeUndefined();
      expect(verified.seen).toEqual(validRun().map((event) => event.type));
      expect(verified.seen).toEqual(plain.seen);
      expect(verified.messages).toEqual(plain.messages);
      expect(Array.isArray(verified.messages) && verified.messages.length).toBeGreaterThan(0);
    }
  });

  it("a stream cut off mid-run reaches the agent as RUN_ERROR, not as a success", async () => {
    const plain = await runHttpAgent("/run/cut?events=4", false);
    // Without the wrapper the truncated run ends as if it had succeeded.
    expect(plain.error).toBeUndefined();
    expect(plain.seen).toEqual(
      validRun()
        .slice(0, 4)
        .map((event) => event.type),
    );
    const verified = await runHttpAgent("/run/cut?events=4", true);
    expect(verified.error).toBeUndefined();
    expect(verified.seen).toEqual([
      ...validRun()
        .slice(0, 4)
        .map((event) => event.type),
      "RUN_ERROR AG_UI_VERIFY_STREAM_ENDED_BEFORE_RUN_CLOSED",
    ]);
  });

  // 1.1 on a RUN_ERROR after RUN_FINISHED: "A consumer MUST treat the run as failed in that
  // case" (SPEC §9.8). SPEC §16: the proxy appends that late RUN_ERROR where the stream
  // breaks after RUN_FINISHED, so the run that reported success is failed, and the
  // application sees it fail, not succeed.
  it("a stream broken after RUN_FINISHED reaches the agent as a late RUN_ERROR, not as a success", async () => {
    const verified = await runHttpAgent("/run/late?chunk=9", true);
    expect(verified.error).toBeUndefined();
    expect(verified.seen).toEqual([
      ...validRun().map((event) => event.type),
      "RUN_ERROR AG_UI_VERIFY_EVENT_AFTER_RUN_CLOSED",
    ]);
    // The late step itself never reaches the agent.
    expect(verified.seen).not.toContain("STEP_STARTED late");
    expect(verified.seen.filter((type) => type === "STEP_STARTED")).toHaveLength(1);
  });

  it("a connection reset mid-run reaches the agent as RUN_ERROR AG_UI_VERIFY_UPSTREAM_ERROR", async () => {
    // (Without the wrapper the run rejects with the network error, and the client's own
    // teardown then rethrows it as an unhandled rejection, so that case is not run here.)
    const verified = await runHttpAgent("/run/disconnect?events=4", true);
    expect(verified.error).toBeUndefined();
    expect(verified.seen.at(-1)).toBe("RUN_ERROR AG_UI_VERIFY_UPSTREAM_ERROR");
  });

  it("a violation reaches the agent as RUN_ERROR with the rule's code", async () => {
    const verified = await runHttpAgent("/run/violation", true);
    expect(verified.seen).toEqual([
      ...validRun()
        .slice(0, VIOLATION_PREFIX)
        .map((event) => event.type),
      "RUN_ERROR AG_UI_VERIFY_TEXT_MESSAGE_NOT_OPEN",
    ]);
  });

  it("a CRLF stream completes with the wrapper (and fails without it)", async () => {
    const plain = await runHttpAgent("/run/valid?crlf=1&chunk=11", false);
    expect(plain.error).toBeInstanceOf(Error);
    const verified = await runHttpAgent("/run/valid?crlf=1&chunk=11", true);
    expect(verified.error).toBeUndefined();
    expect(verified.seen).toEqual(validRun().map((event) => event.type));
    const lf = await runHttpAgent("/run/valid?chunk=11", false);
    expect(verified.messages).toEqual(lf.messages);
  });

  it("an error response reaches the agent as it does without the wrapper", async () => {
    const plain = await runHttpAgent("/status/502", false);
    const verified = await runHttpAgent("/status/502", true);
    expect(String(verified.error)).toBe("Error: HTTP 502: upstream says 502");
    expect(String(verified.error)).toBe(String(plain.error));
  });
});

describe("@ag-ui/client 1.0.0 HttpAgent over protobuf through verifyingFetch({ protobuf }) (SPEC §21.3)", () => {
  async function runHttpAgent(path: string, wrapped: boolean) {
    const agent = new HttpAgent({
      url: `${server.url}${path}`,
      ...(wrapped ? { fetch: verifyingFetch({ protobuf }) } : {}),
    });
    const seen: string[] = [];
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await agent.runAgent(
        {},
        {
          onEvent: ({ event }) => {
            if (event.type !== "RUN_ERROR") seen.push(event.type);
          },
          onRunErrorEvent: ({ event }) => {
            seen.push(`${event.type} ${String(event.code)}`);
          },
        },
      );
      return { seen, messages: agent.messages, error: undefined as unknown };
    } catch (error) {
      return { seen, messages: agent.messages, error };
    } finally {
      quiet.mockRestore();
    }
  }

  const types = (n?: number) =>
    validRun()
      .slice(0, n)
      .map((event) => event.type);

  it("a valid run arrives whole, as without the wrapper, under any chunking", async () => {
    for (const path of ["/proto/valid", "/proto/valid?chunk=3"]) {
      const plain = await runHttpAgent(path, false);
      const verified = await runHttpAgent(path, true);
      expect(plain.error).toBeUndefined();
      expect(verified.error).toBeUndefined();
      expect(verified.seen).toEqual(types());
      expect(verified.messages).toEqual(plain.messages);
    }
  });

  it("a run cut cleanly between frames, which the client alone reports as a success, fails", async () => {
    const plain = await runHttpAgent("/proto/cut?events=4", false);
    expect(plain.error).toBeUndefined();
    expect(plain.seen).toEqual(types(4));
    const verified = await runHttpAgent("/proto/cut?events=4", true);
    expect(verified.seen).toEqual([
      ...types(4),
      "RUN_ERROR AG_UI_VERIFY_STREAM_ENDED_BEFORE_RUN_CLOSED",
    ]);
  });

  it("a run cut inside a frame, and a stream broken after RUN_FINISHED, fail the run", async () => {
    const cut = await runHttpAgent("/proto/cut?events=4&bytes=5", true);
    expect(cut.seen).toEqual([...types(4), "RUN_ERROR AG_UI_VERIFY_PROTO_TRUNCATED"]);
    const late = await runHttpAgent("/proto/late?chunk=9", true);
    expect(late.seen).toEqual([...types(), "RUN_ERROR AG_UI_VERIFY_EVENT_AFTER_RUN_CLOSED"]);
  });
});

describe("@ag-ui/client 1.0.0 HttpAgent and the 1.1 lifecycle through verifyingFetch (SPEC §16)", () => {
  const { threadId, runId } = RUN_INPUT;
  const STARTED = { type: "RUN_STARTED", threadId, runId };
  const FINISHED = { type: "RUN_FINISHED", threadId, runId };
  const OWN_ERROR = { type: "RUN_ERROR", message: "model overloaded", code: "RATE_LIMITED" };
  /** An event after the run closed: rule 2's EVENT_AFTER_RUN_CLOSED. */
  const LATE = { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "after the end" };

  interface Seen {
    types: string[];
    /** Every RUN_ERROR that reached onRunErrorEvent. */
    runErrors: { code?: unknown; message?: unknown }[];
    finished: number;
    error: unknown;
  }

  /** Runs an HttpAgent whose fetch is `verifyingFetch` around an in-memory answer. */
  async function runServing(events: readonly unknown[]): Promise<Seen> {
    const body = sse(events);
    const agent = new HttpAgent({
      url: "https://agent.test/run",
      fetch: verifyingFetch({
        fetch: async () => new Response(body, { headers: { "content-type": "text/event-stream" } }),
      }),
    });
    const seen: Seen = { types: [], runErrors: [], finished: 0, error: undefined };
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await agent.runAgent(
        {},
        {
          onEvent: ({ event }) => {
            seen.types.push(event.type);
          },
          onRunFinishedEvent: () => {
            seen.finished++;
          },
          onRunErrorEvent: ({ event }) => {
            seen.runErrors.push({ code: event.code, message: event.message });
          },
        },
      );
    } catch (error) {
      seen.error = error;
    } finally {
      quiet.mockRestore();
    }
    return seen;
  }

  /** How an application tells the verifier's RUN_ERROR from the producer's own (README). */
  const isRejection = (code: unknown) =>
    typeof code === "string" && code.startsWith("AG_UI_VERIFY_");

  it("RUN_STARTED, RUN_FINISHED, <violation>: the marked RUN_ERROR reaches onRunErrorEvent", async () => {
    // Version 3 closed the body after RUN_FINISHED, and runAgent resolved as a success. 1.1
    // lets one late RUN_ERROR follow RUN_FINISHED and says the run has then failed.
    const seen = await runServing([STARTED, FINISHED, LATE, FINISHED]);
    expect(seen.error).toBeUndefined(); // 1.1: a failed run surfaces and "runAgent() resolves"
    expect(seen.types).toEqual(["RUN_STARTED", "RUN_FINISHED", "RUN_ERROR"]);
    expect(seen.finished).toBe(1);
    expect(seen.runErrors).toEqual([
      {
        code: "AG_UI_VERIFY_EVENT_AFTER_RUN_CLOSED",
        message: expect.stringMatching(/^ag-ui-verify rejected the stream: /),
      },
    ]);
    expect(seen.runErrors.map((e) => isRejection(e.code))).toEqual([true]);
  });

  it("a violation before any run reaches the agent as the marked RUN_ERROR alone", async () => {
    const seen = await runServing([LATE, STARTED, FINISHED]);
    expect(seen.error).toBeUndefined();
    expect(seen.types).toEqual(["RUN_ERROR"]);
    expect(seen.runErrors).toMatchObject([{ code: "AG_UI_VERIFY_EVENT_BEFORE_RUN_STARTED" }]);
  });

  it("the producer's own RUN_ERROR passes untouched, its code unmarked", async () => {
    // 1.1: "A consumer MUST NOT present one as the other."
    for (const events of [[STARTED, OWN_ERROR], [OWN_ERROR], [STARTED, FINISHED, OWN_ERROR]]) {
      const seen = await runServing(events);
      expect(seen.error).toBeUndefined();
      expect(seen.runErrors).toEqual([{ code: "RATE_LIMITED", message: "model overloaded" }]);
      expect(seen.runErrors.map((e) => isRejection(e.code))).toEqual([false]);
    }
  });

  it("after the producer's RUN_ERROR a violation adds nothing: that run already failed", async () => {
    const seen = await runServing([STARTED, OWN_ERROR, LATE]);
    expect(seen.error).toBeUndefined();
    expect(seen.types).toEqual(["RUN_STARTED", "RUN_ERROR"]);
    expect(seen.runErrors).toEqual([{ code: "RATE_LIMITED", message: "model overloaded" }]);
  });
});
