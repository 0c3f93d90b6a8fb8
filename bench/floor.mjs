/**
 * What the benchmarks time against: a pull-based body over pre-built chunks, and the
 * unverified floor that reads it (decoding and parsing only).
 */
import { EventSourceParserStream } from "eventsource-parser/stream";

/** A fresh pull-based body over pre-built chunks: one chunk per pull, then close. */
export function bodyOf(chunks) {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      controller.enqueue(chunks[i++]);
      if (i === chunks.length) controller.close();
    },
  });
}

/**
 * The floor: decode + SSE-parse + JSON.parse, nothing verified. Resolves to the number of
 * events read (values with a string `type`: the loop touches what it counts).
 */
export async function floor(body) {
  const reader = body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return n;
    if (typeof JSON.parse(value.data).type === "string") n++;
  }
}

/**
 * The bound with no stream at all: ag-ui-verify's decoding core and verifier (`lib`, its
 * `Verifier` and internal `SseDecoder`) over the chunks in a plain loop. Returns the number
 * of events verified.
 */
export function noStream(chunks, lib) {
  const verifier = new lib.Verifier();
  let n = 0;
  const decoder = new lib.SseDecoder((value) => {
    verifier.verify(value);
    n++;
  });
  for (const chunk of chunks) decoder.push(chunk);
  decoder.finish();
  verifier.end();
  return n;
}
