/**
 * The SSE decoding core (SPEC §12): bytes or strings in, one JSON value per SSE message out,
 * with where each message starts and ends. Every consumer uses it: `SseDecoderStream`,
 * `verifiedEvents`, the proxy and the command.
 * @module
 */

import { createParser, type EventSourceParser, type ParseError } from "eventsource-parser";
import { SseDecodeFailure } from "./errors.ts";

/** Options of the SSE decoder. */
export interface DecoderOptions {
  /** Most characters the SSE parser may buffer (SPEC §12). Default 10 * 1024 * 1024. */
  maxBufferSize?: number | undefined;
}

/**
 * A place in the input: a 1-based line number and an offset (in bytes for byte input, in
 * UTF-16 code units for string input).
 */
export interface SsePosition {
  readonly line: number;
  readonly offset: number;
}

const DEFAULT_MAX_BUFFER_SIZE = 10 * 1024 * 1024;
const LF = 10;
const CR = 13;
const COLON = 58;
const BOM = 0xfeff;
const BOM_BYTES = 3;

/**
 * The decoding core: UTF-8 decoding, the BOM, and eventsource-parser for the SSE grammar.
 * The parser holds a chunk-final CR back in case an LF follows, and loses it when the next
 * chunk starts with anything else; so this class holds such a CR itself, prepends it to the
 * next chunk, and feeds a confirmed lone CR as CRLF (SPEC §12: chunk boundaries never
 * change what is decoded).
 *
 * With `positions: true` it also walks the line ends of what it feeds, to tell where each
 * message starts ({@link SseDecoder.messageStart}) and how much of the input is done with
 * ({@link SseDecoder.safe}), for the proxy and the command. Offsets are in bytes for byte
 * input, in UTF-16 code units for string input.
 *
 * After a decode failure (passed on as an {@link SseDecodeFailure}) it is `stopped` and
 * ignores further input. If `emit` throws, the exception leaves `push`/`finish` and the
 * decoder must not be used again.
 * @internal
 */
export class SseDecoder {
  readonly #emit: (value: unknown) => void;
  readonly #parser: EventSourceParser;
  // The BOM is stripped here rather than by TextDecoder, so that string input loses it too.
  readonly #utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
  readonly #positions: boolean;
  #started = false;
  #stopped = false;
  /** A CR that ended the text so far: whether it is a CRLF is not known yet. */
  #heldCR = false;
  /** The held CR's offset. */
  #heldAt = 0;
  /** Offset of the first byte (code unit) of the current chunk. */
  #base = 0;

  // The line walk (positions only). The current line has started when #lineHead is not
  // empty; it holds the line's first characters, enough to tell a `data` field.
  #line = 1;
  #lineHead = "";
  #lineStart = 0;
  /** Whether the message being assembled has a field line, and a `data` one. */
  #assembling = false;
  #hasData = false;
  #messageLine = 1;
  #messageOffset = 0;
  /** The end of the last blank line or heartbeat comment walked. */
  #boundary = 0;
  /**
   * Messages walked in the current chunk, for the parser to dispatch: four numbers each
   * (start line, start offset, safe offset before it, end), numbers rather than objects
   * because there is one per event. #queued counts the numbers in use, #next is the next
   * message's first.
   */
  readonly #spans: number[] = [];
  #queued = 0;
  #next = 0;
  /** Where the message being emitted starts and ends; #currentEnd is -1 outside one. */
  #currentLine = 1;
  #currentOffset = 0;
  #currentEnd = -1;
  #safe = 0;

  constructor(
    emit: (value: unknown) => void,
    options?: DecoderOptions & { readonly positions?: boolean },
  ) {
    this.#emit = emit;
    this.#positions = options?.positions === true;
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
    // an empty first feed uses up that check. The real BOM is handled in #text.
    this.#parser.feed("");
  }

  /** True once a decode failure was passed on, or the input ended: nothing more comes out. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /**
   * (positions) How far the input is decoded and done with: the offset just after the last
   * message whose value was emitted (and `emit` returned), or after a later blank line or
   * heartbeat comment (a comment line outside a message). Everything before it has had its
   * effect; nothing after it has.
   */
  get safe(): number {
    return this.#safe;
  }

  /** (positions) Where the message being emitted starts: its first line that is not a comment. */
  get messageStart(): SsePosition {
    return this.#currentEnd === -1
      ? { line: this.#messageLine, offset: this.#messageOffset }
      : { line: this.#currentLine, offset: this.#currentOffset };
  }

  /**
   * (positions) Where the current line starts, and its number. After
   * {@link SseDecoder.finish}: the input's last line and the input's length.
   */
  get position(): SsePosition {
    return { line: this.#line, offset: this.#lineStart };
  }

  /**
   * (positions) Where the message being assembled starts, if one is: after
   * {@link SseDecoder.finish}, a message the input ended inside (fields but no blank
   * line, so SSE discarded it).
   */
  get unfinished(): SsePosition | undefined {
    return this.#assembling ? { line: this.#messageLine, offset: this.#messageOffset } : undefined;
  }

  /** Decodes one chunk: UTF-8 bytes (streaming, invalid bytes become U+FFFD) or text. */
  push(chunk: Uint8Array | string): void {
    if (this.#stopped) return;
    if (typeof chunk === "string") this.#text(chunk, undefined, false);
    else this.#text(this.#utf8.decode(chunk, { stream: true }), chunk, false);
    this.#base += chunk.length;
  }

  /**
   * Ends the input. A final CR completes its line; a message without its blank line is
   * discarded.
   */
  finish(): void {
    if (this.#stopped) return;
    this.#text(this.#utf8.decode(), undefined, true);
    this.#stopped = true;
    if (this.#lineHead === "" && this.#line > 1) this.#line--;
    this.#lineStart = this.#base;
  }

  #text(text: string, bytes: Uint8Array | undefined, end: boolean): void {
    /** For string input: the offset of `text[0]` from the start of the chunk. */
    let shift = 0;
    if (!this.#started && text !== "") {
      this.#started = true;
      if (text.charCodeAt(0) === BOM) {
        text = text.slice(1);
        shift = 1;
        this.#lineStart = bytes === undefined ? 1 : BOM_BYTES;
      }
    }
    const held = this.#heldCR;
    const heldAt = this.#heldAt;
    if (held) {
      text = `\r${text}`;
      shift--;
    }
    if (text === "") return;
    // A final CR may be the first half of a CRLF: hold it until the next character is known.
    this.#heldCR = !end && text.charCodeAt(text.length - 1) === CR;
    if (this.#heldCR) {
      text = text.slice(0, -1);
      // A new CR (not the held one again): the chunk's last CR, as bytes of an unfinished
      // character may follow it.
      if (this.#positions && (text !== "" || !held)) {
        this.#heldAt =
          this.#base + (bytes === undefined ? shift + text.length : bytes.lastIndexOf(CR));
      }
      if (text === "") return;
    }
    if (this.#positions) this.#walk(text, bytes, shift, held ? heldAt : -1);
    // Every CR left in `text` is a whole line end; the parser would hold a final one back.
    this.#parser.feed(text.charCodeAt(text.length - 1) === CR ? `${text}\n` : text);
    if (this.#positions && !this.#stopped) this.#safe = this.#boundary;
  }

  /**
   * Walks the line ends of `text` (the decoded `bytes`, when the input is bytes), queueing
   * where each message that the parser will dispatch starts and ends. `heldAt` is the
   * offset of a held CR that `text` starts with, or -1. The walk's state lives in locals
   * and is written back once.
   */
  #walk(text: string, bytes: Uint8Array | undefined, shift: number, heldAt: number): void {
    const base = this.#base;
    const spans = this.#spans;
    let queued = 0;
    let line = this.#line;
    let lineStart = this.#lineStart;
    let head = this.#lineHead;
    let assembling = this.#assembling;
    let hasData = this.#hasData;
    let messageLine = this.#messageLine;
    let messageOffset = this.#messageOffset;
    let boundary = this.#boundary;
    // A line end's byte offset is found from the text's: CR and LF are ASCII, and a
    // character takes at least as many bytes as UTF-16 code units, so the line end sits at
    // or after `byteAt` plus the line's length in code units. Only the chunk's first line
    // may start with a character whose bytes came in earlier chunks (at most two code
    // units): until a line end is found in `bytes`, the guess allows for it.
    let byteAt = 0;
    let slack = 2;
    let i = 0;
    // Where the next CR and LF are; -1: none left.
    let cr = text.indexOf("\r");
    let lf = -2;
    const length = text.length;
    while (i < length) {
      if (lf !== -1 && lf < i) lf = text.charCodeAt(i) === LF ? i : text.indexOf("\n", i);
      if (cr !== -1 && cr < i) cr = text.indexOf("\r", i);
      const t = cr === -1 ? lf : lf === -1 || cr < lf ? cr : lf;
      if (t === -1) {
        if (head.length < 5) head += text.slice(i, i + 5);
        break;
      }
      let width = 1;
      let code = LF;
      if (t === cr) {
        code = CR;
        if (text.charCodeAt(t + 1) === LF) width = 2;
      }
      let at: number;
      if (t === 0 && heldAt >= 0) {
        at = heldAt;
        byteAt = width - 1;
        if (width === 2) slack = 0;
      } else if (bytes === undefined) {
        at = base + shift + t;
      } else {
        let p = byteAt + t - i - slack;
        if (p < byteAt) p = byteAt;
        // Usually a few bytes off (the line's multi-byte characters): a loop is cheaper than
        // calling indexOf, until the line turns out long.
        for (let k = 0; bytes[p] !== code; p++) {
          if (++k === 64) {
            p = bytes.indexOf(code, p);
            break;
          }
        }
        at = base + p;
        byteAt = p + width;
        slack = 0;
      }
      const next = at + width;
      if (head === "") {
        // The whole line is in `text`: read its start there.
        if (t === i) {
          // A blank line: the end of a message, which the parser dispatches if it has data.
          if (hasData) {
            spans[queued] = messageLine;
            spans[queued + 1] = messageOffset;
            spans[queued + 2] = boundary;
            spans[queued + 3] = next;
            queued += 4;
          }
          assembling = false;
          hasData = false;
          boundary = next;
        } else if (text.charCodeAt(i) === COLON && !assembling) {
          boundary = next;
        } else {
          if (!assembling) {
            assembling = true;
            messageLine = line;
            messageOffset = lineStart;
          }
          // "data" or "data:…" (startsWith costs more than comparing codes).
          if (
            !hasData &&
            text.charCodeAt(i) === 100 &&
            text.charCodeAt(i + 1) === 97 &&
            text.charCodeAt(i + 2) === 116 &&
            text.charCodeAt(i + 3) === 97 &&
            (t - i === 4 || text.charCodeAt(i + 4) === COLON)
          )
            hasData = true;
        }
      } else {
        if (head.length < 5) head += text.slice(i, Math.min(t, i + 5));
        if (head.charCodeAt(0) === COLON && !assembling) boundary = next;
        else {
          if (!assembling) {
            assembling = true;
            messageLine = line;
            messageOffset = lineStart;
          }
          // A head shorter than five characters is the whole line.
          if (head === "data" || head.startsWith("data:")) hasData = true;
        }
        head = "";
      }
      line++;
      lineStart = next;
      i = t + width;
    }
    this.#queued = queued;
    this.#next = 0;
    this.#line = line;
    this.#lineStart = lineStart;
    this.#lineHead = head;
    this.#assembling = assembling;
    this.#hasData = hasData;
    this.#messageLine = messageLine;
    this.#messageOffset = messageOffset;
    this.#boundary = boundary;
  }

  #message(data: string): void {
    if (this.#stopped) return;
    if (this.#positions) {
      const k = this.#next;
      if (k < this.#queued) {
        const spans = this.#spans;
        this.#currentLine = spans[k] ?? 0;
        this.#currentOffset = spans[k + 1] ?? 0;
        this.#safe = spans[k + 2] ?? 0;
        this.#currentEnd = spans[k + 3] ?? 0;
        this.#next = k + 4;
      }
    }
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch (cause) {
      this.#fail(new SseDecodeFailure("INVALID_JSON", data, cause));
      return;
    }
    this.#emit(value);
    if (this.#currentEnd !== -1) {
      this.#safe = this.#currentEnd;
      this.#currentEnd = -1;
    }
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
  /** A decoder for one stream; `maxBufferSize` bounds an unfinished message. */
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
