/**
 * The SSE decoding stage (SPEC §12): the decoding core as a `TransformStream`.
 * @module
 */

import type { SseDecodeFailure } from "../errors.ts";
import { type DecoderOptions, SseDecoder } from "./decoder.ts";

/**
 * A `TransformStream` from SSE bytes (or already-decoded strings) to one JSON value per SSE
 * message. The value is passed on whatever its JSON type; the verifier judges it. Data that
 * is not JSON, and a message that outgrows `maxBufferSize`, travel on as an
 * {@link SseDecodeFailure} value (not as a stream error, which would discard what is queued
 * before it), after which the stream closes and stops reading its input.
 *
 * @example
 * ```ts
 * import { SseDecoderStream, VerifyingTransformStream } from "ag-ui-verify";
 * const response = await fetch("https://agent.example/run", { method: "POST", body: "{}" });
 * const events = response.body!
 *   .pipeThrough(new SseDecoderStream())
 *   .pipeThrough(new VerifyingTransformStream());
 * ```
 */
export class SseDecoderStream extends TransformStream<Uint8Array | string, unknown> {
  /** A decoder for one stream; `maxBufferSize` bounds the length of a message. */
  constructor(options?: DecoderOptions) {
    let controller: TransformStreamDefaultController<unknown> | undefined;
    const decoder = new SseDecoder((value) => controller?.enqueue(value), options);
    super({
      start(c) {
        controller = c;
      },
      transform(chunk, c) {
        decoder.push(chunk);
        if (decoder.stopped) c.terminate();
      },
      flush() {
        decoder.finish();
      },
    });
  }
}
