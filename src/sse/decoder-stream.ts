/**
 * The SSE decoding stage (SPEC §12): the decoding core as a `TransformStream`.
 * @module
 */

import type { SseDecodeFailure } from "../errors.ts";
import { type DecoderOptions, SseDecoder } from "./decoder.ts";

/** The most bytes (or UTF-16 code units) of one written chunk decoded at a time. */
const SLICE = 64 * 1024;

/** The getter of TransformStream's own writable side. */
const ownWritable = Object.getOwnPropertyDescriptor(TransformStream.prototype, "writable")?.get as (
  this: TransformStream,
) => WritableStream;

/**
 * A `TransformStream` from SSE bytes (or already-decoded strings) to one JSON value per SSE
 * message. The value is passed on whatever its JSON type; the verifier judges it. Data that
 * is not JSON, and a message that outgrows `maxBufferSize`, travel on as an
 * {@link SseDecodeFailure} value (not as a stream error, which would discard what is queued
 * before it), after which the stream closes and stops reading its input.
 *
 * A chunk longer than 64 KiB (a buffered body) is decoded 64 KiB at a time, each part once
 * the reader has taken the values of the one before (SPEC §17.3): a stream's queue is not
 * linear in Node for many values at once.
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
  readonly #writable: WritableStream<Uint8Array | string>;

  /** A decoder for one stream; `maxBufferSize` bounds the length of a message. */
  constructor(options?: DecoderOptions) {
    let controller: TransformStreamDefaultController<unknown> | undefined;
    const decoder = new SseDecoder((value) => controller?.enqueue(value), options);
    super({
      start(c) {
        controller = c;
      },
      transform(chunk) {
        decoder.push(chunk);
      },
      flush() {
        decoder.finish();
      },
    });
    // The writable side that callers see: it hands a long chunk to the transform in slices,
    // each write waiting (as every write to a TransformStream does) until the reader has
    // drained the values of the slice before.
    const inner = ownWritable.call(this).getWriter();
    // After a decode failure the readable side closes once its values are read, and this
    // side errors, so that a pipe into it stops reading (and cancels) its source. (Not
    // `terminate()`: Node 20 then throws an uncaught TypeError when the reader cancels.)
    const stopped = () => {
      inner.close().catch(() => {});
      throw new TypeError("SseDecoderStream: decoding stopped at a decode failure");
    };
    const inSlices = async (chunk: Uint8Array | string) => {
      for (let at = 0; at < chunk.length && !decoder.stopped; at += SLICE) {
        await inner.write(chunk.slice(at, at + SLICE));
      }
    };
    this.#writable = new WritableStream<Uint8Array | string>({
      start(outer) {
        // A cancelled reader or a decode failure errors the transform's own writable side:
        // this one follows, so that a pipe into it cancels its source.
        inner.closed.catch((reason: unknown) => outer.error(reason));
      },
      write(chunk) {
        // The chunk after the one that stopped the decoder is not read.
        if (decoder.stopped) stopped();
        return chunk.length <= SLICE ? inner.write(chunk) : inSlices(chunk);
      },
      close() {
        return inner.close();
      },
      abort(reason) {
        return inner.abort(reason);
      },
    });
  }

  /** The side to write SSE bytes or strings to. */
  override get writable(): WritableStream<Uint8Array | string> {
    return this.#writable;
  }
}
