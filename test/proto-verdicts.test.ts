// One verdict whatever the wire (SPEC §21.1, 1.1: "Every transport answers the same way"):
// the same events as SSE and as protobuf frames reach the same outcome, code and index
// through verifiedEvents and conformingEvents, for every stream protobuf can represent.
// The streams: the official corpus's (test/conformance/ag-ui/), generated runs, and those
// runs broken at random (an event dropped, repeated, or moved; the body cut short).
// And how a Response is read by its content type (SPEC §21.3).

import { describe, expect, it } from "vitest";
import { agenticRun, chatRun, createRng, toolRun } from "../bench/runs.mjs";
import { conformingEvents } from "../src/conform/index.ts";
import { runAgent, VerifyError, verifiedEvents } from "../src/index.ts";
import { decodeEvent, encodeEvent } from "../src/proto/events.ts";
import { PROTO_MEDIA_TYPE, protobuf } from "../src/proto/index.ts";
import { RUN_INPUT } from "./runtime/cases.ts";
import { FIXTURES, VERSIONS } from "./support/conformance.ts";
import { protoBody } from "./support/proto-events.ts";
import { collect } from "./support/streams.ts";

type Rec = Record<string, unknown>;

/** Whether protobuf carries `event` unchanged: encoded and decoded, it is the same JSON. */
function representable(event: unknown): boolean {
  if (typeof event !== "object" || event === null || Array.isArray(event)) return false;
  try {
    const back = decodeEvent(encodeEvent(event as Rec));
    return JSON.stringify(canonical(back)) === JSON.stringify(canonical(event));
  } catch {
    return false;
  }
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, canonical((value as Rec)[k])]),
  );
}

function sseResponse(events: readonly unknown[]): Response {
  const text = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("");
  return new Response(text, { headers: { "content-type": "text/event-stream" } });
}

function protoResponse(bytes: Uint8Array, type = PROTO_MEDIA_TYPE): Response {
  return new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { "content-type": type } });
}

interface Verdict {
  readonly delivered: number;
  readonly code: string | undefined;
  readonly index: number | undefined;
}

async function verdictOf(stream: ReadableStream<unknown>): Promise<Verdict> {
  const got = await collect(stream);
  if (got.error !== undefined && !(got.error instanceof VerifyError)) throw got.error;
  const error = got.error as VerifyError | undefined;
  return { delivered: got.values.length, code: error?.code, index: error?.index };
}

/** The corpus's streams, and generated runs whole and broken, that protobuf can carry. */
function streams(): { name: string; events: Rec[]; draft: boolean }[] {
  const out: { name: string; events: Rec[]; draft: boolean }[] = [];
  for (const version of VERSIONS) {
    for (const f of FIXTURES[version]) {
      if (f.stream.every(representable)) {
        out.push({
          name: `${version}/${f.name}`,
          events: f.stream as Rec[],
          draft: version === "draft",
        });
      }
    }
  }
  const rng = createRng(21);
  const runs = [agenticRun(300, { seed: 1 }), chatRun(200, { seed: 2 }), toolRun(300, { seed: 3 })];
  for (const [r, run] of runs.entries()) {
    out.push({ name: `run ${r}`, events: run as Rec[], draft: false });
    for (let k = 0; k < 40; k++) {
      const broken = [...(run as Rec[])];
      const at = rng.int(1, broken.length - 2);
      const how = rng.int(0, 3);
      if (how === 0) broken.splice(at, 1);
      else if (how === 1) broken.splice(at, 0, broken[at] as Rec);
      else if (how === 2) broken.splice(rng.int(1, broken.length - 1), 0, ...broken.splice(at, 1));
      else broken.length = at;
      out.push({ name: `run ${r} broken ${k} (${how} at ${at})`, events: broken, draft: false });
    }
  }
  return out;
}

const ALL = streams();

describe("one verdict on both wires", () => {
  it("compares enough streams: most of the corpus and 123 generated ones", () => {
    expect(ALL.filter((s) => !s.name.startsWith("run")).length).toBeGreaterThan(50);
    expect(ALL.filter((s) => s.name.startsWith("run")).length).toBe(123);
  });

  it.each(ALL.map((s) => [s.name, s] as const))("%s", async (_name, s) => {
    const options = s.draft ? { protocol: "draft" as const } : {};
    const bytes = protoBody(s.events);
    const viaSse = await verdictOf(verifiedEvents(sseResponse(s.events), options));
    const viaProto = await verdictOf(
      verifiedEvents(protoResponse(bytes), { ...options, protobuf }),
    );
    expect(viaProto).toEqual(viaSse);
    const conformSse = await verdictOf(conformingEvents(sseResponse(s.events), options));
    const conformProto = await verdictOf(
      conformingEvents(protoResponse(bytes), { ...options, protobuf }),
    );
    expect(conformProto).toEqual(conformSse);
  });
});

// 1.1 basic/transports/http-protobuf: "The response's `Content-Type` is exactly
// `application/vnd.ag-ui.event+proto`; the consumer selects its parser by this header", and
// "a client MUST always be prepared to receive SSE".
describe("a Response read by its content type (SPEC §21.3)", () => {
  const run: Rec[] = [
    { type: "RUN_STARTED", threadId: "t", runId: "r" },
    { type: "RUN_FINISHED", threadId: "t", runId: "r" },
  ];

  it("reads the protobuf media type in any case and with parameters, given { protobuf }", async () => {
    for (const type of [PROTO_MEDIA_TYPE, "Application/Vnd.AG-UI.Event+Proto; charset=binary"]) {
      const got = await collect(verifiedEvents(protoResponse(protoBody(run), type), { protobuf }));
      expect(got.values).toEqual(run);
    }
  });

  it("without { protobuf }, a protobuf response is RESPONSE_NOT_EVENTS that says how to read it", async () => {
    const got = await collect(verifiedEvents(protoResponse(protoBody(run))));
    expect(got.error).toMatchObject({ code: "RESPONSE_NOT_EVENTS", index: 0 });
    expect((got.error as Error).message).toBe(
      "response at index 0: HTTP 200 with content type application/vnd.ag-ui.event+proto; expected 200 with text/event-stream (to read protobuf, pass { protobuf } from ag-ui-verify/proto). [RESPONSE_NOT_EVENTS, rule 0]",
    );
    const html = await collect(
      verifiedEvents(
        new Response("<p>", { status: 404, headers: { "content-type": "text/html" } }),
        {
          protobuf,
        },
      ),
    );
    expect((html.error as Error).message).toContain(
      "expected 200 with text/event-stream or application/vnd.ag-ui.event+proto.",
    );
  });

  it("passes a dropped frame's warning to onWarning, and says an empty protobuf body was empty", async () => {
    const warnings: unknown[] = [];
    const future = Uint8Array.of(0, 0, 0, 3, 0x9a, 0x06, 0);
    const bytes = new Uint8Array([
      ...protoBody(run.slice(0, 1)),
      ...future,
      ...protoBody(run.slice(1)),
    ]);
    const got = await collect(
      verifiedEvents(protoResponse(bytes), { protobuf, onWarning: (w) => warnings.push(w) }),
    );
    expect(got.values).toEqual(run);
    expect(warnings).toEqual([
      expect.objectContaining({ code: "UNKNOWN_EVENT_DROPPED", index: 1 }),
    ]);
    const empty = await collect(verifiedEvents(protoResponse(new Uint8Array(0)), { protobuf }));
    expect((empty.error as Error).message).toContain("the response body was empty (0 bytes)");
  });

  it("runAgent asks for protobuf when it can read it, and reads the answer", async () => {
    let accept: string | null = null;
    const events = await runAgent("https://agent.test/run", RUN_INPUT, {
      protobuf,
      fetch: async (request) => {
        accept = request.headers.get("accept");
        return protoResponse(protoBody(run));
      },
    });
    expect((await collect(events)).values).toEqual(run);
    expect(accept).toBe(`${PROTO_MEDIA_TYPE}, text/event-stream`);
    const unverified = await runAgent("https://agent.test/run", RUN_INPUT, {
      protobuf,
      verify: false,
      fetch: async () => protoResponse(protoBody(run)),
    });
    expect((await collect(unverified)).values).toEqual(run);
    // Without { protobuf }, the answer is not one runAgent reads: an HttpError.
    await expect(
      runAgent("https://agent.test/run", RUN_INPUT, {
        fetch: async () => protoResponse(protoBody(run)),
      }),
    ).rejects.toMatchObject({ name: "HttpError" });
  });
});
