/**
 * AG-UI's second wire (SPEC §21): `application/vnd.ag-ui.event+proto`, each event a frame
 * of a 4-byte big-endian length and an `Event` message. Frames in, events out, and back.
 * @module
 */

import { WIRE_FAILURE, type WireFailureInfo } from "../_util/transport.ts";
import type { ConformWarning } from "../conform/conformer.ts";
import { decodeEvent, encodeEvent, UnknownArm } from "./events.ts";
import { WireError } from "./wire.ts";

/** The protobuf transport's media type (1.1 basic/transports/http-protobuf). */
export const PROTO_MEDIA_TYPE = "application/vnd.ag-ui.event+proto";

/** Options of {@link ProtoDecoderStream}. */
export interface ProtoDecoderOptions {
  /** The largest frame, its 4-byte length included. Default 10 MiB, as `@ag-ui/client`. */
  maxFrameSize?: number | undefined;
  /** Warnings (a dropped frame), shaped as the 1.1 pipeline's. Default: none. */
  onWarning?: ((warning: ConformWarning) => void) | undefined;
}

const DEFAULT_MAX_FRAME_SIZE = 10 * 1024 * 1024;

/** The codes a protobuf decoding failure carries (rule 0, SPEC §21.2). */
export type ProtoDecodeFailureCode =
  | "PROTO_DECODE_FAILED"
  | "PROTO_TRUNCATED"
  | "PROTO_FRAME_TOO_LARGE";

/**
 * What the protobuf decoder passes downstream, in order, when a frame cannot become an
 * event: a frame that is not an `Event` message, a body ending inside a frame, a frame
 * longer than `maxFrameSize`. A value, not an error, so that the events decoded before it
 * still reach the reader; the verifier turns it into a rule 0 `VerifyError` at its index,
 * as it does an `SseDecodeFailure`.
 *
 * @example
 * ```ts
 * import { isVerifyError, Verifier } from "ag-ui-verify";
 * import { ProtoDecodeFailure } from "ag-ui-verify/proto";
 * try {
 *   new Verifier().verify(new ProtoDecodeFailure("PROTO_TRUNCATED", 0, undefined, "the body ends inside a frame"));
 * } catch (e) {
 *   if (isVerifyError(e)) console.log(e.code); // "PROTO_TRUNCATED"
 * }
 * ```
 */
export class ProtoDecodeFailure {
  /** Why decoding failed: a frame that is no Event, a body cut inside a frame, a frame too long. */
  readonly code: ProtoDecodeFailureCode;
  /** The byte offset of the frame's start in the body. */
  readonly offset: number;
  /** What the decoder threw, if anything. */
  readonly cause: unknown;
  /** What happened, in words: the verifier's message says it after "frame at index N: ". */
  readonly text: string;

  /** Made by the decoder; tests and other decoders may make one too. */
  constructor(code: ProtoDecodeFailureCode, offset: number, cause: unknown, text: string) {
    this.code = code;
    this.offset = offset;
    this.cause = cause;
    this.text = text;
  }

  /** @internal */
  get [WIRE_FAILURE](): WireFailureInfo {
    return { code: this.code, text: this.text, cause: this.cause };
  }
}

const count = (n: number): string => n.toLocaleString("en-US");

/** The 4-byte big-endian unsigned length at `at`. */
function bigEndian(bytes: Uint8Array, at: number): number {
  const b0 = bytes[at] as number;
  const b1 = bytes[at + 1] as number;
  const b2 = bytes[at + 2] as number;
  const b3 = bytes[at + 3] as number;
  return ((b0 << 24) | (b1 << 16) | (b2 << 8) | b3) >>> 0;
}

/**
 * The framing and decoding under {@link ProtoDecoderStream}: {@link ProtoDecoder.push} the
 * body's bytes as they come, {@link ProtoDecoder.finish} at its end; each event (or
 * failure) goes to `emit`. A frame within one chunk is decoded where it lies; one split
 * across chunks is copied once, when its last byte arrives, so the cost is linear in the
 * bytes however they are cut. After a failure nothing more is read.
 * @internal
 */
export class ProtoDecoder {
  readonly #emit: (value: unknown) => void;
  readonly #max: number;
  readonly #onWarning: ProtoDecoderOptions["onWarning"];
  /** Byte offset of the next byte pushed. */
  #offset = 0;
  /** The length prefix read so far, across chunks. */
  readonly #head = new Uint8Array(4);
  #headLength = 0;
  /** The frame being gathered: where it starts, its payload length, the parts so far. */
  #frameStart = 0;
  #need = -1;
  #parts: Uint8Array[] = [];
  #have = 0;
  /** Values emitted: the index the next one gets. */
  #index = 0;
  #stopped = false;
  /** The offset after the last frame handed on (or dropped) without a throw. */
  #safe = 0;

  constructor(emit: (value: unknown) => void, options?: ProtoDecoderOptions) {
    this.#emit = emit;
    const max = options?.maxFrameSize ?? DEFAULT_MAX_FRAME_SIZE;
    if (typeof max !== "number" || !(max >= 4)) {
      throw new TypeError(`maxFrameSize must be a number from 4 up; got ${String(max)}`);
    }
    this.#max = max;
    this.#onWarning = options?.onWarning;
  }

  push(chunk: Uint8Array): void {
    let i = 0;
    const end = chunk.length;
    while (i < end && !this.#stopped) {
      if (this.#need === -1) {
        // The length prefix: read in place when the chunk holds all four bytes.
        if (this.#headLength === 0) this.#frameStart = this.#offset + i;
        if (this.#headLength === 0 && end - i >= 4) {
          this.#need = bigEndian(chunk, i);
          i += 4;
        } else {
          while (this.#headLength < 4 && i < end)
            this.#head[this.#headLength++] = chunk[i++] as number;
          if (this.#headLength < 4) break;
          this.#need = bigEndian(this.#head, 0);
          this.#headLength = 0;
        }
        if (this.#need + 4 > this.#max) {
          this.#fail(
            "PROTO_FRAME_TOO_LARGE",
            undefined,
            `the frame at byte offset ${count(this.#frameStart)} declares ${count(this.#need)} bytes, more than maxFrameSize allows (${count(this.#max)}, its 4-byte length included); expected a smaller frame (raise maxFrameSize for events this large).`,
          );
          return;
        }
        if (end - i >= this.#need) {
          const payload = chunk.subarray(i, i + this.#need);
          i += this.#need;
          this.#need = -1;
          this.#frame(payload);
          this.#safe = this.#offset + i;
          continue;
        }
      }
      // The rest of a frame split across chunks.
      const take = Math.min(this.#need - this.#have, end - i);
      this.#parts.push(chunk.subarray(i, i + take));
      this.#have += take;
      i += take;
      if (this.#have === this.#need) {
        const payload = new Uint8Array(this.#need);
        let at = 0;
        for (const part of this.#parts) {
          payload.set(part, at);
          at += part.length;
        }
        this.#parts = [];
        this.#have = 0;
        this.#need = -1;
        this.#frame(payload);
        this.#safe = this.#offset + i;
      }
    }
    this.#offset += end;
  }

  /** While a value is handed on: the byte offset where its frame starts. */
  get frameStart(): number {
    return this.#frameStart;
  }

  /**
   * The byte offset up to which every frame was handed on and accepted: the end of the last
   * frame whose `emit` returned (a dropped frame counts). What the proxy may release.
   */
  get safe(): number {
    return this.#safe;
  }

  /** The end of the body: inside a frame, it is a truncated run. */
  finish(): void {
    if (this.#stopped) return;
    if (this.#headLength > 0) {
      this.#fail(
        "PROTO_TRUNCATED",
        undefined,
        `the body ends inside the length of the frame at byte offset ${count(this.#frameStart)} (${this.#headLength} of its 4 bytes arrived); expected the body to end between frames.`,
      );
    } else if (this.#need !== -1) {
      this.#fail(
        "PROTO_TRUNCATED",
        undefined,
        `the body ends inside the frame at byte offset ${count(this.#frameStart)} (${count(this.#have)} of its ${count(this.#need)} bytes arrived); expected the body to end between frames.`,
      );
    }
  }

  #frame(payload: Uint8Array): void {
    let event: unknown;
    try {
      event = decodeEvent(payload);
    } catch (error) {
      const why = error instanceof WireError ? error.message : String(error);
      this.#fail(
        "PROTO_DECODE_FAILED",
        error,
        `the frame at byte offset ${count(this.#frameStart)} (${count(payload.length)} bytes) is not an AG-UI Event message (${why.slice(0, 200)}); expected an Event of AG-UI's .proto files.`,
      );
      return;
    }
    if (event instanceof UnknownArm) {
      // 1.1 (basic/transports/http-protobuf): "An *event* whose envelope arm this build
      // predates carries no type string to hand onward, so the binding drops the frame with
      // a warning".
      this.#onWarning?.({
        code: "UNKNOWN_EVENT_DROPPED",
        message: `frame at index ${this.#index}: the frame at byte offset ${count(this.#frameStart)} carries an event this consumer does not know (no Event variant of its .proto files), so it is dropped (1.1 basic/transports/http-protobuf). [UNKNOWN_EVENT_DROPPED, warning]`,
        index: this.#index,
        eventType: undefined,
        path: "",
      });
      return;
    }
    this.#index++;
    this.#emit(event);
  }

  #fail(code: ProtoDecodeFailureCode, cause: unknown, text: string): void {
    this.#stopped = true;
    this.#parts = [];
    this.#emit(new ProtoDecodeFailure(code, this.#frameStart, cause, text));
  }
}

/**
 * A `TransformStream` from a protobuf body (`application/vnd.ag-ui.event+proto`) to the
 * AG-UI events its frames carry, each the object `@ag-ui/proto` 1.0.0's `decode` returns
 * for it. A frame that cannot be decoded, a body ending inside a frame and a frame longer
 * than `maxFrameSize` (reported before any of it is buffered) come out as a
 * {@link ProtoDecodeFailure}, after every event before it, and end the decoding; pipe the
 * stream into a `VerifyingTransformStream` to have them fail the stream. A frame that sets
 * only an event variant this build does not know is dropped with an
 * `UNKNOWN_EVENT_DROPPED` warning.
 *
 * @example
 * ```ts
 * import { VerifyingTransformStream } from "ag-ui-verify";
 * import { ProtoDecoderStream, ProtoEncoderStream } from "ag-ui-verify/proto";
 * const body = ReadableStream.from([
 *   { type: "RUN_STARTED", threadId: "t1", runId: "r1" },
 *   { type: "RUN_FINISHED", threadId: "t1", runId: "r1" },
 * ]).pipeThrough(new ProtoEncoderStream());
 * const events = body.pipeThrough(new ProtoDecoderStream()).pipeThrough(new VerifyingTransformStream());
 * for await (const event of events) console.log(event.type); // RUN_STARTED, RUN_FINISHED
 * ```
 */
export class ProtoDecoderStream extends TransformStream<Uint8Array, unknown> {
  /** Throws a `TypeError` for a `maxFrameSize` below 4. */
  constructor(options?: ProtoDecoderOptions) {
    let output: TransformStreamDefaultController<unknown> | undefined;
    const decoder = new ProtoDecoder((value) => output?.enqueue(value), options);
    super({
      start(controller) {
        output = controller;
      },
      transform(chunk) {
        decoder.push(chunk);
      },
      flush() {
        decoder.finish();
      },
    });
  }
}

/** One event as a protobuf frame: the 4-byte big-endian length, then the `Event` message. */
export function encodeFrame(event: Record<string, unknown>): Uint8Array {
  const message = encodeEvent(event);
  const frame = new Uint8Array(message.length + 4);
  new DataView(frame.buffer).setUint32(0, message.length);
  frame.set(message, 4);
  return frame;
}

/**
 * A `TransformStream` from AG-UI events to a protobuf body: each event one frame, with the
 * bytes `@ag-ui/proto` 1.0.0's `encode` writes for it. An event protobuf cannot carry (a
 * type AG-UI's `Event` has no variant for, such as the retired `THINKING_*`) errors the
 * stream with a `TypeError`.
 *
 * @example
 * ```ts
 * import { ProtoEncoderStream } from "ag-ui-verify/proto";
 * const body = ReadableStream.from([{ type: "RUN_STARTED", threadId: "t1", runId: "r1" }])
 *   .pipeThrough(new ProtoEncoderStream());
 * const response = new Response(body, {
 *   headers: { "content-type": "application/vnd.ag-ui.event+proto" },
 * });
 * ```
 */
export class ProtoEncoderStream extends TransformStream<unknown, Uint8Array> {
  constructor() {
    super({
      transform(event, controller) {
        if (typeof event !== "object" || event === null || Array.isArray(event)) {
          throw new TypeError("ProtoEncoderStream takes event objects");
        }
        controller.enqueue(encodeFrame(event as Record<string, unknown>));
      },
    });
  }
}
