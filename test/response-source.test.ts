// The event APIs take the Response itself (SPEC §21.3): the decoder is chosen by its
// Content-Type, a status that is not 2xx or a content type that carries no events is
// RESPONSE_NOT_EVENTS naming both (§21.2), an empty body says it was empty, and anything
// else is a TypeError naming what was passed. Web-standard only: it runs on the edge too.
import { describe, expect, it } from "vitest";
import { conformingEvents } from "../src/conform/index.ts";
import { runAgent, VerifyError, verifiedEvents } from "../src/index.ts";
import { RUN_INPUT } from "./runtime/cases.ts";
import { collect } from "./support/streams.ts";

const RUN =
  'data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\n' +
  'data: {"type":"RUN_FINISHED","threadId":"t","runId":"r"}\n\n';

function response(body: BodyInit | null, status: number, type: string | null): Response {
  const headers = new Headers();
  if (type !== null) headers.set("content-type", type);
  return new Response(body, { status, headers });
}

/** A response body with no content type: a stream body sets none. */
function untyped(text: string): Response {
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      if (bytes.length > 0) c.enqueue(bytes);
      c.close();
    },
  });
  return new Response(body, { status: 200 });
}

const APIS = [
  ["verifiedEvents", (source: Response | null) => verifiedEvents(source)],
  ["conformingEvents", (source: Response | null) => conformingEvents(source)],
] as const;

describe.each(APIS)("%s(response)", (api, read) => {
  it("reads an SSE response by its content type, in any case and with parameters", async () => {
    for (const type of ["text/event-stream", "Text/Event-Stream; charset=utf-8"]) {
      const got = await collect(read(response(RUN, 200, type)));
      expect(got.error).toBeUndefined();
      expect(got.values.map((e) => e.type)).toEqual(["RUN_STARTED", "RUN_FINISHED"]);
    }
  });

  it("reads a response without a content type as SSE, as verifyingFetch does", async () => {
    const got = await collect(read(untyped(RUN)));
    expect(got.error).toBeUndefined();
    expect(got.values).toHaveLength(2);
  });

  it("fails a 404 page with RESPONSE_NOT_EVENTS naming the status and the content type, its body left to read", async () => {
    const page = response("<h1>no such agent</h1>", 404, "text/html");
    const got = await collect(read(page));
    expect(got.values).toEqual([]);
    expect(got.error).toBeInstanceOf(VerifyError);
    expect(got.error).toMatchObject({
      code: "RESPONSE_NOT_EVENTS",
      rule: 0,
      index: 0,
      event: undefined,
      eventType: undefined,
    });
    // SPEC §21.2's example, word for word.
    expect((got.error as VerifyError).message).toBe(
      "response at index 0: HTTP 404 with content type text/html; expected 200 with text/event-stream. [RESPONSE_NOT_EVENTS, rule 0]",
    );
    expect(page.bodyUsed).toBe(false);
    await expect(page.text()).resolves.toBe("<h1>no such agent</h1>");
  });

  it("fails a 2xx answer that is not an event stream (a JSON error object, plain text)", async () => {
    const json = await collect(read(response('{"error":"quota"}', 200, "application/json")));
    expect(json.error).toMatchObject({ code: "RESPONSE_NOT_EVENTS", index: 0 });
    expect((json.error as Error).message).toContain("HTTP 200 with content type application/json");
    // new Response(text) sets text/plain: not an event stream either.
    const text = await collect(read(new Response(RUN)));
    expect((text.error as Error).message).toContain("content type text/plain;charset=UTF-8");
  });

  it("fails a 5xx even when it says text/event-stream, and names a missing content type", async () => {
    const got = await collect(read(response(RUN, 503, "text/event-stream")));
    expect(got.values).toEqual([]);
    expect((got.error as Error).message).toContain("HTTP 503 with content type text/event-stream;");
    const bare = await collect(read(response(null, 502, null)));
    expect((bare.error as Error).message).toContain("HTTP 502 with no content type;");
  });

  it("says the response body was empty, for an empty body and for none", async () => {
    for (const empty of [response("", 200, "text/event-stream"), response(null, 204, null)]) {
      const got = await collect(read(empty));
      expect(got.error).toMatchObject({ code: "STREAM_ENDED_BEFORE_RUN_STARTED", index: 0 });
      expect((got.error as Error).message).toBe(
        "end of input at index 0: the response body was empty (0 bytes), so no run started; expected RUN_STARTED (or RUN_ERROR). [STREAM_ENDED_BEFORE_RUN_STARTED, rule 1]",
      );
    }
  });

  it("keeps the usual words for a body that held bytes but no run", async () => {
    const got = await collect(read(response(": keep-alive\n\n", 200, "text/event-stream")));
    expect(got.error).toMatchObject({ code: "STREAM_ENDED_BEFORE_RUN_STARTED" });
    expect((got.error as Error).message).not.toContain("empty");
  });

  it("reads a Response-shaped object of another realm by its shape", async () => {
    const real = response(RUN, 200, "text/event-stream");
    const foreign = { status: 200, ok: true, headers: real.headers, body: real.body };
    const got = await collect(read(foreign as unknown as Response));
    expect(got.values).toHaveLength(2);
  });

  it("throws a TypeError naming what was passed and what it reads, at once", () => {
    const cases: [unknown, RegExp][] = [
      ["data: x\n\n", /got a string \(wrap bytes or text: new Response\(x\)\.body\)/],
      [new Uint8Array(1), /got a Uint8Array \(wrap bytes or text/],
      [{ pipe() {}, on() {} }, /got a Node\.js stream \(convert it: Readable\.toWeb\)/],
      [42, /got a Number/],
      [new Map(), /got a Map/],
      [Object.create(null), /got a value of type object/],
    ];
    for (const [value, words] of cases) {
      let thrown: unknown;
      try {
        read(value as Response);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, String(words)).toBeInstanceOf(TypeError);
      const message = (thrown as Error).message;
      expect(message).toMatch(words);
      expect(message).toContain(`${api} reads a ReadableStream<Uint8Array>, a Response or null`);
    }
  });
});

describe("an empty body through the other doors", () => {
  it("says the body was empty for an empty byte stream", async () => {
    const empty = new ReadableStream<Uint8Array>({ start: (c) => c.close() });
    const got = await collect(verifiedEvents(empty));
    expect((got.error as Error).message).toContain("the body was empty (0 bytes)");
    const chunks = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new Uint8Array(0));
        c.close();
      },
    });
    expect((await collect(verifiedEvents(chunks))).error).toMatchObject({
      message: expect.stringContaining("the body was empty"),
    });
  });

  it("runAgent says the response body was empty", async () => {
    const events = await runAgent("https://agent.test/run", RUN_INPUT, {
      fetch: async () => response("", 200, "text/event-stream"),
    });
    const got = await collect(events);
    expect((got.error as Error).message).toContain("the response body was empty (0 bytes)");
  });
});
