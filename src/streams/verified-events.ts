/**
 * `verifiedEvents`: bytes in, verified events out, in one stream stage (SPEC §12).
 * @module
 */

import { type DecoderOptions, SseDecoder } from "../sse/decoder.ts";
import { type EventOf, passes, Verifier, type VerifierOptions } from "../verify/verifier.ts";

/** The most bytes of one chunk decoded per pull. */
const SLICE = 64 * 1024;

/**
 * Decodes and verifies an SSE response body: the events of a valid run come out one by
 * one, and the first violation (including undecodable data and a stream cut off mid-run)
 * errors the stream with the `VerifyError` itself, after every earlier event was read.
 * A `null` body counts as empty input.
 *
 * It behaves as `body.pipeThrough(new SseDecoderStream(options)).pipeThrough(new
 * VerifyingTransformStream(options))`, but does the work of both in a single stage, per
 * network chunk: each stream stage costs about as much per event as parsing its JSON.
 * It reads the body only when the reader asks for more, so a slow reader holds back at
 * most one network chunk's events; cancelling it cancels the body with the same reason;
 * a network error reaches the reader unchanged. With a `schema` option, the events are
 * typed by the schema's output ({@link EventOf}); without, they are `AgUiEvent`s.
 *
 * @example
 * ```ts
 * import { type RunAgentInput, verifiedEvents } from "ag-ui-verify";
 * const input: RunAgentInput = {
 *   threadId: "t1", runId: "r1", messages: [], tools: [], context: [], state: {}, forwardedProps: {},
 * };
 * const response = await fetch("https://agent.example/run", {
 *   method: "POST",
 *   headers: { "content-type": "application/json", accept: "text/event-stream" },
 *   body: JSON.stringify(input),
 * });
 * const reader = verifiedEvents(response.body).getReader();
 * for (let r = await reader.read(); !r.done; r = await reader.read()) console.log(r.value.type);
 * ```
 */
export function verifiedEvents<
  O extends VerifierOptions & DecoderOptions = VerifierOptions & DecoderOptions,
>(body: ReadableStream<Uint8Array> | null, options?: O): ReadableStream<EventOf<O>> {
  const verifier = new Verifier(options);
  return decodedStream<EventOf<O>>(
    body,
    options,
    (value, enqueue) => {
      // Always true once it returns; it throws otherwise.
      if (passes(verifier, value)) enqueue(value);
    },
    () => verifier.end(),
  );
}

/**
 * The single stage under {@link verifiedEvents} (and the 1.1 pipeline's `conformingEvents`):
 * decodes `body` a network chunk at a time, as the reader asks, handing each decoded value
 * to `take`, which enqueues what it makes of it (or throws the error the stream fails with);
 * at the end of input, `end` runs the end-of-input checks.
 * @internal
 */
export function decodedStream<T>(
  body: ReadableStream<Uint8Array> | null,
  options: DecoderOptions | undefined,
  take: (value: unknown, enqueue: (event: T) => void) => void,
  end: () => void,
): ReadableStream<T> {
  const source = body?.getReader();
  let output: ReadableStreamDefaultController<T> | undefined;
  let delivered = 0;
  const enqueue = (event: T) => {
    output?.enqueue(event);
    delivered++;
  };
  const decoder = new SseDecoder((value) => take(value, enqueue), options);
  /** A violation found after some events of the same chunk: reported once they are read. */
  let failure: { error: unknown } | undefined;
  /** What is left of a chunk longer than SLICE: decoded a slice per pull. */
  let rest: Uint8Array | undefined;

  return new ReadableStream<T>(
    {
      start(controller) {
        output = controller;
      },
      async pull(controller) {
        if (failure !== undefined) {
          controller.error(failure.error);
          return;
        }
        const before = delivered;
        // Read until a chunk yields an event, the input ends, or a violation shows up:
        // returning from pull with nothing enqueued would leave the reader waiting forever.
        for (;;) {
          let bytes = rest;
          let chunk: ReadableStreamReadResult<Uint8Array> | undefined;
          if (bytes === undefined && source !== undefined) chunk = await source.read();
          try {
            if (bytes === undefined) {
              if (chunk === undefined || chunk.done) {
                decoder.finish();
                end();
                controller.close();
                return;
              }
              bytes = chunk.value;
            }
            // A buffered body can be one huge chunk: its events are handed on a slice at a
            // time, as the reader asks, since a stream's queue is not linear in Node for
            // many values at once (SPEC §17.3).
            rest = bytes.length > SLICE ? bytes.subarray(SLICE) : undefined;
            decoder.push(rest === undefined ? bytes : bytes.subarray(0, SLICE));
          } catch (error) {
            rest = undefined;
            source?.cancel(error).catch(() => {});
            // Erroring now would discard the events of this chunk still in the queue.
            if (delivered > before) failure = { error };
            else controller.error(error);
            return;
          }
          if (delivered > before) return;
        }
      },
      cancel(reason) {
        return source?.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
