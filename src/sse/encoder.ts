/**
 * SSE encoding: events in, `data: <json>` messages out, for proxies and producers.
 * @module
 */

import type { AgUiEvent } from "../events/index.ts";

/**
 * A `TransformStream` from events to SSE bytes: one `data: <json>` line and a blank line
 * per event. JSON never contains a raw line break, so each event is exactly one message,
 * and decoding the output gives the events back. A value JSON cannot represent (a
 * `BigInt`, a cycle, `undefined`, nesting too deep to write) errors the stream with a
 * `TypeError`, whose `cause` is what `JSON.stringify` threw, if anything.
 *
 * @example
 * ```ts
 * import { SseDecoderStream, SseEncoderStream, VerifyingTransformStream } from "ag-ui-verify";
 * // A proxy that forwards only a valid stream:
 * function forward(upstream: Response): Response {
 *   const body = upstream.body!
 *     .pipeThrough(new SseDecoderStream())
 *     .pipeThrough(new VerifyingTransformStream())
 *     .pipeThrough(new SseEncoderStream());
 *   return new Response(body, { headers: { "content-type": "text/event-stream" } });
 * }
 * ```
 */
export class SseEncoderStream extends TransformStream<AgUiEvent, Uint8Array> {
  constructor() {
    const utf8 = new TextEncoder();
    super({
      transform(event, controller) {
        let json: unknown;
        try {
          json = JSON.stringify(event);
        } catch (cause) {
          // A RangeError (too deep) too: what reaches the reader is this contract's TypeError.
          throw new TypeError("SseEncoderStream: the event cannot be encoded as JSON", { cause });
        }
        if (typeof json !== "string") {
          throw new TypeError(`SseEncoderStream: ${typeof event} cannot be encoded as JSON`);
        }
        controller.enqueue(utf8.encode(`data: ${json}\n\n`));
      },
    });
  }
}
