// A hostile or badly broken producer against the stream stages (SPEC §17.2, §17.3): the
// cost and the memory of each stage stay linear in the bytes and bounded whatever the
// chunking, and what the proxy appends stays small. Costs are checked as counts of work
// (values decoded ahead of the reader, chunks enqueued, pieces held), never as times.
import { describe, expect, it } from "vitest";
import { HeldBytes } from "../src/_util/held-bytes.ts";
import {
  SseDecoderStream,
  VerifyingTransformStream,
  verifiedEvents,
  verifyResponse,
} from "../src/index.ts";
import { PendingText } from "../src/sse/decoder.ts";

const utf8 = new TextEncoder();
const RS = 'data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}';
const RF = 'data: {"type":"RUN_FINISHED","threadId":"t","runId":"r"}';

/** A body that hands out `chunks` one per pull, then ends, or fails with `failure`. */
function body(chunks: readonly Uint8Array[], failure?: Error): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(c) {
        const chunk = chunks[i++];
        if (chunk !== undefined) c.enqueue(chunk);
        else if (failure !== undefined) c.error(failure);
        else c.close();
      },
    },
    { highWaterMark: 0 },
  );
}

/** A Standard Schema that accepts everything and counts the values it was asked about. */
function countingSchema() {
  const counter = {
    checked: 0,
    schema: {
      "~standard": {
        version: 1 as const,
        vendor: "counting",
        validate: (value: unknown) => {
          counter.checked++;
          return { value };
        },
      },
    },
  };
  return counter;
}

const byteByByte = (bytes: Uint8Array) => Array.from(bytes, (b) => Uint8Array.of(b));

/** Reads a byte stream: its chunks, and its error if it failed. */
async function readAll(stream: ReadableStream<Uint8Array> | null) {
  const chunks: Uint8Array[] = [];
  let error: unknown;
  const reader = stream?.getReader();
  try {
    for (;;) {
      const r = await reader?.read();
      if (r === undefined || r.done) break;
      chunks.push(r.value);
    }
  } catch (e) {
    error = e;
  }
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return { chunks, text: new TextDecoder().decode(bytes), error };
}

describe("the proxy on a message trickled one byte per chunk", () => {
  const message = `data: {"type":"CUSTOM","name":"n","value":"${"a".repeat(32 * 1024)}"}\n\n`;
  const input = utf8.encode(`${RS}\n\n${message}${RF}\n\n`);

  it("re-serves it byte for byte, in few chunks: no per-chunk record of what it held", async () => {
    const out = await readAll(verifyResponse(new Response(body(byteByByte(input)))).body);
    expect(out.error).toBeUndefined();
    expect(out.text).toBe(new TextDecoder().decode(input));
    // Today's code enqueued one view per upstream chunk held: 32,000 and more.
    expect(out.chunks.length).toBeLessThan(input.length / 1024);
  });

  it("holds small chunks in one doubling buffer: few pieces, bytes intact, linear copying", () => {
    const held = new HeldBytes();
    const bytes = Uint8Array.from({ length: 100_000 }, (_, i) => i % 251);
    for (const b of bytes) held.push(Uint8Array.of(b));
    expect([...held.pieces()].length).toBe(1);
    expect(held.length).toBe(bytes.length);
    const out: number[] = [];
    for (let taken = 0; taken < bytes.length; taken += 7_777) {
      held.take(7_777, (piece) => out.push(...piece));
      held.push(Uint8Array.of(1));
    }
    expect(out.slice(0, bytes.length)).toEqual(Array.from(bytes));
  });

  it("keeps big chunks as views and small ones copied, in order, whatever the mix", () => {
    const held = new HeldBytes();
    const all: number[] = [];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    const seen: number[] = [];
    for (let i = 0; i < 400; i++) {
      const size = next() % 3 === 0 ? 2048 + (next() % 5000) : next() % 40;
      const chunk = Uint8Array.from({ length: size }, () => next() % 256);
      all.push(...chunk);
      held.push(chunk);
      if (next() % 4 === 0) held.take(next() % 6000, (piece) => seen.push(...piece));
    }
    // Pieces: at most one per 2 KiB held, plus one buffer.
    expect([...held.pieces()].length).toBeLessThanOrEqual(held.length / 2048 + 2);
    held.take(held.length, (piece) => seen.push(...piece));
    expect(seen).toEqual(all);
    expect(held.length).toBe(0);
  });
});

describe("the decoder on text without line ends", () => {
  it("holds a trickled line as O(log n) strings, joined in order", () => {
    const pending = new PendingText();
    let most = 0;
    for (let i = 0; i < 200_000; i++) {
      pending.push(String.fromCharCode(97 + (i % 26)));
      most = Math.max(most, pending.strings);
    }
    expect(most).toBeLessThanOrEqual(40);
    const text = pending.take("!");
    expect(text.length).toBe(200_001);
    expect(text.slice(0, 28)).toBe("abcdefghijklmnopqrstuvwxyzab");
    expect(text.endsWith("!")).toBe(true);
    expect(pending.strings).toBe(0);
  });
});

describe("one huge chunk (a buffered body) through verifiedEvents", () => {
  it("decodes a slice at a time as the reader asks, not every event at once", async () => {
    const n = 50_000;
    let sse = `${RS}\n\n`;
    for (let i = 0; i < n; i++) sse += `data: {"type":"CUSTOM","name":"n","value":${i}}\n\n`;
    sse += `${RF}\n\n`;
    const counter = countingSchema();
    const schema = counter.schema;
    const reader = verifiedEvents(body([utf8.encode(sse)]), { schema }).getReader();
    await reader.read();
    // Today's code checked (and queued) all 50,002 events at the first read.
    expect(counter.checked).toBeGreaterThan(0);
    expect(counter.checked).toBeLessThan(5_000);
    let read = 1;
    while (!(await reader.read()).done) read++;
    expect(read).toBe(n + 2);
    expect(counter.checked).toBe(n + 2);
  });
});

describe("one huge chunk through SseDecoderStream and VerifyingTransformStream", () => {
  it("decodes it a slice at a time as the reader asks, and cancels the body on cancel", async () => {
    const n = 50_000;
    let sse = `${RS}\n\n`;
    for (let i = 0; i < n; i++) sse += `data: {"type":"CUSTOM","name":"n","value":${i}}\n\n`;
    sse += `${RF}\n\n`;
    const counter = countingSchema();
    const schema = counter.schema;
    const events = body([utf8.encode(sse)])
      .pipeThrough(new SseDecoderStream())
      .pipeThrough(new VerifyingTransformStream({ schema }));
    const reader = events.getReader();
    await reader.read();
    // Today's code decoded (and queued) all 50,002 events at the first read.
    expect(counter.checked).toBeLessThan(5_000);
    let read = 1;
    while (!(await reader.read()).done) read++;
    expect({ read, checked: counter.checked }).toEqual({ read: n + 2, checked: n + 2 });
  });

  it("fails cleanly when a value before data that is not JSON breaks a rule", async () => {
    // Node 20 threw an uncaught TypeError here when the decoder terminated its stream.
    const sse = `${RS}\n\ndata: {"type":"TEXT_MESSAGE_END","messageId":"m"}\n\ndata: x\n\n`;
    const reader = body([utf8.encode(sse)])
      .pipeThrough(new SseDecoderStream())
      .pipeThrough(new VerifyingTransformStream())
      .getReader();
    expect((await reader.read()).value).toMatchObject({ type: "RUN_STARTED" });
    await expect(reader.read()).rejects.toMatchObject({ code: "TEXT_MESSAGE_NOT_OPEN" });
    await new Promise((r) => setTimeout(r, 20));
  });

  it("still cancels its source when the reader cancels", async () => {
    const reason = new Error("not needed");
    let cancelled: unknown;
    const source = new ReadableStream<Uint8Array>({
      pull(c) {
        c.enqueue(utf8.encode(`${RS}\n\n`.repeat(1)));
      },
      cancel(r) {
        cancelled = r;
      },
    });
    const reader = source.pipeThrough(new SseDecoderStream()).getReader();
    await reader.read();
    await reader.cancel(reason);
    for (let i = 0; i < 20 && cancelled === undefined; i++)
      await new Promise((r) => setTimeout(r, 5));
    expect(cancelled).toBe(reason);
  });
});

describe("the proxy's appended RUN_ERROR (SPEC §17.2)", () => {
  it("is at most 4 KiB for a violation whose message JSON escapes heavily", async () => {
    // A 2,000-character message of control characters: six bytes each once JSON-escaped.
    const schema = {
      "~standard": {
        version: 1 as const,
        vendor: "test",
        validate: (value: unknown) =>
          (value as { type?: unknown }).type === "RUN_STARTED"
            ? { value }
            : { issues: [{ message: "\u0001".repeat(5_000) }] },
      },
    };
    const sse = `${RS}\n\ndata: {"type":"CUSTOM"}\n\n`;
    const out = await readAll(
      verifyResponse(new Response(body([utf8.encode(sse)])), { onViolation: "run-error", schema })
        .body,
    );
    const last = out.text.slice(RS.length + 2);
    expect(last).toMatch(/^data: \{"type":"RUN_ERROR"/);
    expect(utf8.encode(last).length).toBeLessThanOrEqual(4096);
    expect(utf8.encode(last).length).toBeGreaterThan(3000);
    const event = JSON.parse(last.slice(6));
    expect(event.code).toBe("AG_UI_VERIFY_SCHEMA_MISMATCH");
    // Cut at its end: the mark at its start stays (SPEC §16).
    expect(event.message.startsWith("ag-ui-verify rejected the stream: ")).toBe(true);
    expect(event.message.endsWith("…")).toBe(true);
  });

  it("is at most 4 KiB for an upstream error with a 1 MB message", async () => {
    const out = await readAll(
      verifyResponse(new Response(body([utf8.encode(`${RS}\n\n`)], new Error("x".repeat(1e6)))), {
        onViolation: "run-error",
      }).body,
    );
    const last = out.text.slice(out.text.lastIndexOf("data: "));
    const event = JSON.parse(last.slice(6));
    expect(event).toMatchObject({ type: "RUN_ERROR", code: "AG_UI_VERIFY_UPSTREAM_ERROR" });
    expect(event.message).toMatch(/^ag-ui-verify rejected the stream: .*: xxxx.*…$/);
    expect(utf8.encode(last).length).toBeLessThanOrEqual(4096);
  });
});

describe("CR-only framing, the upstream reset right after the blank line's CR", () => {
  const input = `${RS}\r\rdata: {"type":"TEXT_MESSAGE_START","messageId":"m1"}\r\r`;

  it("releases that complete, verified message before the upstream's error", async () => {
    const reset = new Error("connection reset");
    const out = await readAll(verifyResponse(new Response(body([utf8.encode(input)], reset))).body);
    expect(out.text).toBe(input);
    expect(out.error).toBe(reset);
  });

  it("ends the run with RUN_ERROR after it in run-error mode", async () => {
    const reset = new Error("connection reset");
    const out = await readAll(
      verifyResponse(new Response(body([utf8.encode(input)], reset)), { onViolation: "run-error" })
        .body,
    );
    expect(out.error).toBeUndefined();
    expect(out.text.startsWith(input)).toBe(true);
    expect(out.text.slice(input.length)).toMatch(
      /^data: \{"type":"RUN_ERROR".*"AG_UI_VERIFY_UPSTREAM_ERROR"\}\n\n$/,
    );
  });

  it("releases nothing of a message the reset cut short", async () => {
    const cut = `${RS}\r\rdata: {"type":"TEXT_MESSAGE_START","messageId":"m1"}\r`;
    const reset = new Error("connection reset");
    const out = await readAll(verifyResponse(new Response(body([utf8.encode(cut)], reset))).body);
    expect(out.text).toBe(`${RS}\r\r`);
    expect(out.error).toBe(reset);
  });
});
