/**
 * SSE decoding (SPEC §12): bytes or strings in, one JSON value per SSE message out, built
 * on eventsource-parser's `createParser`.
 * @module
 */

import { createParser, type EventSourceParser, type ParseError } from "eventsource-parser";
import { SseDecodeFailure } from "./errors.ts";

/** Options of the SSE decoder. */
export interface DecoderOptions {
  /** Most characters the SSE parser may buffer (SPEC §12). Default 10 * 1024 * 1024. */
  maxBufferSize?: number | undefined;
}

const DEFAULT_MAX_BUFFER_SIZE = 10 * 1024 * 1024;
const CR = 13;
const BOM = 0xfeff;

/**
 * The decoding core shared by {@link SseDecoderStream} and `verifiedEvents`: it turns
 * chunks into values and hands each to `emit`, in order. After a decode failure (passed on
 * as an {@link SseDecodeFailure}) it is `stopped` and ignores further input.
 * @internal
 */
export class SseDecoder {
  readonly #emit: (value: unknown) => void;
  readonly #parser: EventSourceParser;
  // The BOM is stripped here rather than by TextDecoder, so that string input loses it too.
  readonly #utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
  #started = false;
  #endsWithCR = false;
  #stopped = false;

  constructor(emit: (value: unknown) => void, options?: DecoderOptions) {
    this.#emit = emit;
    this.#parser = createParser({
      onEvent: (message) => this.#message(message.data),
      onError: (error: ParseError) => {
        // Invalid `retry` values and unknown fields are ignored, as the SSE standard says.
        if (error.type === "max-buffer-size-exceeded") {
          this.#fail(new SseDecodeFailure("SSE_BUFFER_OVERFLOW", undefined, error));
        }
      },
      maxBufferSize: options?.maxBufferSize ?? DEFAULT_MAX_BUFFER_SIZE,
    });
    // The parser drops the characters "ï»¿" (a UTF-8 BOM misread as Latin-1) from the start of
    // the first string it is fed. Our input is already decoded, so those would be real text:
    // an empty first feed uses up that check. The real BOM is handled in #feed.
    this.#parser.feed("");
  }

  /** True once a decode failure was passed on: nothing more will come out. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** Decodes one chunk: UTF-8 bytes (streaming, invalid bytes become U+FFFD) or text. */
  push(chunk: Uint8Array | string): void {
    if (this.#stopped) return;
    this.#feed(typeof chunk === "string" ? chunk : this.#utf8.decode(chunk, { stream: true }));
  }

  /**
   * Ends the input. A line ended by a final CR is complete (the parser holds it back,
   * waiting for a possible LF); a message without its blank line is discarded.
   */
  finish(): void {
    if (this.#stopped) return;
    this.#feed(this.#utf8.decode());
    if (this.#endsWithCR && !this.#stopped) this.#parser.feed("\n");
    this.#stopped = true;
  }

  #feed(text: string): void {
    if (text === "") return;
    if (!this.#started) {
      this.#started = true;
      if (text.charCodeAt(0) === BOM) {
        text = text.slice(1);
        if (text === "") return;
      }
    }
    this.#endsWithCR = text.charCodeAt(text.length - 1) === CR;
    this.#parser.feed(text);
  }

  #message(data: string): void {
    if (this.#stopped) return;
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch (cause) {
      this.#fail(new SseDecodeFailure("INVALID_JSON", data, cause));
      return;
    }
    this.#emit(value);
  }

  #fail(failure: SseDecodeFailure): void {
    this.#stopped = true;
    this.#emit(failure);
  }
}

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
