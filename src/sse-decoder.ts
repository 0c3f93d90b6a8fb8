/**
 * The SSE decoding core (SPEC §12): bytes or strings in, one JSON value per SSE message out.
 * Every consumer uses it: `SseDecoderStream` and `verifiedEvents` as it is, the proxy and
 * the command through `SsePositionDecoder`, which also tells where each message starts.
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
 * The decoding core: UTF-8 decoding, the BOM, and eventsource-parser for the SSE grammar.
 * The parser holds a chunk-final CR back in case an LF follows, and loses it when the next
 * chunk starts with anything else; so this class holds such a CR itself, prepends it to the
 * next chunk, and feeds a confirmed lone CR as CRLF (SPEC §12: chunk boundaries never
 * change what is decoded).
 *
 * After a decode failure (passed on as an {@link SseDecodeFailure}) it is `stopped` and
 * ignores further input. If `emit` throws, the exception leaves `push`/`finish` and the
 * decoder must not be used again.
 *
 * The protected methods are the points where `SsePositionDecoder` follows the input; here
 * they only decode.
 * @internal
 */
export class SseDecoder {
  readonly #emit: (value: unknown) => void;
  readonly #parser: EventSourceParser;
  // The BOM is stripped here rather than by TextDecoder, so that string input loses it too.
  readonly #utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
  #started = false;
  #stopped = false;
  /** A CR that ended the text so far: whether it is a CRLF is not known yet. */
  #heldCR = false;

  constructor(emit: (value: unknown) => void, options?: DecoderOptions) {
    this.#emit = emit;
    this.#parser = createParser({
      onEvent: (message) => {
        if (!this.#stopped) this.dispatch(message.data);
      },
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
    // an empty first feed uses up that check. The real BOM is handled in #text.
    this.#parser.feed("");
  }

  /** True once a decode failure was passed on, or the input ended: nothing more comes out. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** Decodes one chunk: UTF-8 bytes (streaming, invalid bytes become U+FFFD) or text. */
  push(chunk: Uint8Array | string): void {
    if (this.#stopped) return;
    if (typeof chunk === "string") this.#text(chunk, undefined, false);
    else this.#text(this.#utf8.decode(chunk, { stream: true }), chunk, false);
  }

  /**
   * Ends the input. A final CR completes its line; a message without its blank line is
   * discarded.
   */
  finish(): void {
    if (this.#stopped) return;
    this.#text(this.#utf8.decode(), undefined, true);
    this.#stopped = true;
  }

  #text(text: string, bytes: Uint8Array | undefined, end: boolean): void {
    /** For string input: the offset of `text[0]` from the start of the chunk. */
    let shift = 0;
    if (!this.#started && text !== "") {
      this.#started = true;
      if (text.charCodeAt(0) === BOM) {
        text = text.slice(1);
        shift = 1;
        this.skipBom(bytes !== undefined);
      }
    }
    const held = this.#heldCR;
    if (held) {
      text = `\r${text}`;
      shift--;
    }
    if (text === "") return;
    // A final CR may be the first half of a CRLF: hold it until the next character is known.
    const hold = !end && text.charCodeAt(text.length - 1) === CR;
    this.#heldCR = hold;
    if (hold) text = text.slice(0, -1);
    this.feed(text, bytes, shift, held, hold);
  }

  /** A BOM was dropped from the start of the input (3 bytes, or 1 code unit). */
  protected skipBom(_bytes: boolean): void {}

  /**
   * Feeds `text` (which may be empty) to the parser, which dispatches the messages it
   * completes. `bytes` is the chunk it was decoded from, if bytes came in; `shift` is the
   * offset of `text[0]` from the chunk's start for string input; `held` tells whether `text`
   * starts with a CR held back from the previous chunk; `hold` whether one is held back now.
   */
  protected feed(
    text: string,
    _bytes: Uint8Array | undefined,
    _shift: number,
    _held: boolean,
    _hold: boolean,
  ): void {
    if (text === "") return;
    // Every CR left in `text` is a whole line end; the parser would hold a final one back.
    this.#parser.feed(text.charCodeAt(text.length - 1) === CR ? `${text}\n` : text);
  }

  /** Passes on a dispatched message's data: its JSON value, or a failure. */
  protected dispatch(data: string): void {
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
