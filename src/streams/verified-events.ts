/**
 * `verifiedEvents`: bytes in, verified events out, in one stream stage (SPEC §12).
 * @module
 */

import { VerifyError } from "../errors.ts";
import {
  type EventOf,
  passes,
  streamEmpty,
  toVerifyError,
  Verifier,
  type VerifierOptions,
} from "../verify/verifier.ts";
import { openSource, type SourceOptions } from "./source.ts";

/** The most bytes of one chunk decoded per pull. */
const SLICE = 64 * 1024;

/**
 * Decodes and verifies an SSE response body: the events of a valid run come out one by
 * one, and the first violation (including undecodable data and a stream cut off mid-run)
 * errors the stream with the `VerifyError` itself, after every earlier event was read.
 * A `null` body counts as empty input.
 *
 * It takes the `Response` itself too. One whose status is not 2xx, or whose content type
 * is set and is not `text/event-stream`, errors the stream with `RESPONSE_NOT_EVENTS`
 * (naming both) before anything is read, and its body is left untouched for the caller
 * to read (an error page, a JSON error). Anything but a stream, a `Response` or `null`
 * throws a `TypeError` at once. An empty body errors with `STREAM_ENDED_BEFORE_RUN_STARTED`,
 * saying the body was empty.
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
  O extends VerifierOptions & SourceOptions = VerifierOptions & SourceOptions,
>(source: ReadableStream<Uint8Array> | Response | null, options?: O): ReadableStream<EventOf<O>> {
  const verifier = new Verifier(options);
  return decodedStream<EventOf<O>>(
    source,
    "verifiedEvents",
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
 * at the end of input, `end` runs the end-of-input checks. `api` names the caller in the
 * `TypeError` for a source it cannot read.
 * @internal
 */
export function decodedStream<T>(
  input: ReadableStream<Uint8Array> | Response | null,
  api: string,
  options: SourceOptions | undefined,
  take: (value: unknown, enqueue: (event: T) => void) => void,
  end: () => void,
): ReadableStream<T> {
  const opened = openSource(input, api, options);
  const source = opened.failure === undefined ? opened.body?.getReader() : undefined;
  /** Whether any byte arrived: an empty body's end says so. */
  let sawBytes = false;
  let output: ReadableStreamDefaultController<T> | undefined;
  let delivered = 0;
  const enqueue = (event: T) => {
    output?.enqueue(event);
    delivered++;
  };
  const decoder = opened.decoder((value) => take(value, enqueue));
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
        if (opened.failure !== undefined) {
          controller.error(opened.failure);
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
                if (sawBytes) end();
                else endEmpty(end, opened.response);
                controller.close();
                return;
              }
              bytes = chunk.value;
              if (bytes.length > 0) sawBytes = true;
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

/**
 * The end of a body that held no byte: a `STREAM_ENDED_BEFORE_RUN_STARTED` from `end` says
 * the body was empty (SPEC §21.3), which is what happened; any other outcome stands.
 */
function endEmpty(end: () => void, response: boolean): void {
  try {
    end();
  } catch (error) {
    if (error instanceof VerifyError && error.code === "STREAM_ENDED_BEFORE_RUN_STARTED") {
      throw toVerifyError(streamEmpty(response), 0, undefined, undefined);
    }
    throw error;
  }
}
