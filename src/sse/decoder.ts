/**
 * The SSE decoding core (SPEC §12): bytes or strings in, one JSON value per SSE message out.
 * Every consumer uses it: `SseDecoderStream` and `verifiedEvents` as it is, the proxy and
 * the command through the subclasses in sse-positions.ts, which also tell where messages
 * start and how much of the input is done with.
 * @module
 */

import { createParser, type EventSourceParser } from "eventsource-parser";
import { SseDecodeFailure } from "../errors.ts";

/** Options of the SSE decoder. */
export interface DecoderOptions {
  /**
   * The most characters the SSE parser may buffer (SPEC §12), as the longest SSE message
   * to accept, in UTF-16 code units of the decoded text. Default 10 * 1024 * 1024.
   *
   * A message is measured from the start of its first line that is not a comment to the
   * end of its last line (the line ends between its lines count, its blank line does not);
   * a line outside a message (a comment before it) is measured alone, without its line
   * end. One longer than `maxBufferSize` is an `SseDecodeFailure` with code
   * `SSE_BUFFER_OVERFLOW`, whatever the chunking: it is passed on after every message
   * before it, as soon as the message has grown past the limit (so memory stays bounded,
   * and a message the input never ends counts too).
   */
  maxBufferSize?: number | undefined;
}

const DEFAULT_MAX_BUFFER_SIZE = 10 * 1024 * 1024;
const LF = 10;
const CR = 13;
const COLON = 58;
const BOM = 0xfeff;
/** How much text #limit keeps unwalked at most. */
const KEEP = 256 * 1024;

/**
 * Whether `text` ends with a blank line: an LF (alone or after a CR) right after another
 * line end.
 */
function endsWithBlankLine(text: string): boolean {
  let i = text.length - 1;
  if (text.charCodeAt(i) !== LF) return false;
  if (text.charCodeAt(i - 1) === CR) i--;
  const before = text.charCodeAt(i - 1);
  return before === LF || before === CR;
}

/**
 * Where the last blank line of `text` ends, or -1 if none is seen: walks back over its line
 * ends, each search starting where the last one stopped (searching a string backwards is
 * slow, so a text without a CR is not searched for one). A blank line at the very start of
 * `text`, after a line end before it, is not seen: callers treat -1 as "look further".
 */
function afterLastBlankLine(text: string): number {
  let lf = text.lastIndexOf("\n");
  let cr = text.indexOf("\r") === -1 ? -1 : text.lastIndexOf("\r");
  for (;;) {
    const at = Math.max(lf, cr);
    if (at < 1) return -1;
    // The line end that ends at `at` starts at `start`; a line end right before it makes the
    // line between them blank.
    const start = text.charCodeAt(at) === LF && text.charCodeAt(at - 1) === CR ? at - 1 : at;
    const before = text.charCodeAt(start - 1);
    if (before === LF || before === CR) return at + 1;
    if (start < 2) return -1;
    if (lf >= start) lf = text.lastIndexOf("\n", start - 1);
    if (cr >= start) cr = text.lastIndexOf("\r", start - 1);
  }
}

/** A CR, or a CRLF: one line end (SPEC §12). */
const CR_LINE_END = /\r\n?/g;

/**
 * Texts without a line end, in order, held as a few strings: each push joins the last two
 * while the one below is at most twice the top's length, so the strings held stay O(log n)
 * and each code unit is copied O(log n) times, whatever the chunking.
 * @internal
 */
export class PendingText {
  #texts: string[] = [];

  /** How many strings are held (for tests). */
  get strings(): number {
    return this.#texts.length;
  }

  push(text: string): void {
    const texts = this.#texts;
    texts.push(text);
    for (let n = texts.length; n > 1; n--) {
      const top = texts[n - 1] as string;
      const below = texts[n - 2] as string;
      if (below.length > 2 * top.length) break;
      texts.length = n - 1;
      texts[n - 2] = [below, top].join("");
    }
  }

  /** The texts held and then `text`, as one string; holds nothing after. */
  take(text: string): string {
    const texts = this.#texts;
    if (texts.length === 0) return text;
    texts.push(text);
    const joined = texts.join("");
    this.#texts = [];
    return joined;
  }
}

/**
 * The decoding core: UTF-8 decoding, the BOM, and eventsource-parser for the SSE grammar.
 * The parser holds a chunk-final CR back in case an LF follows, and loses it when the next
 * chunk starts with anything else; so this class holds such a CR itself, prepends it to the
 * next chunk, and feeds a confirmed lone CR as CRLF (SPEC §12: chunk boundaries never
 * change what is decoded).
 *
 * It enforces `maxBufferSize` itself (see {@link DecoderOptions.maxBufferSize}): the parser
 * checks its buffer only after each string it is fed, so its verdict would depend on the
 * chunking.
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
  /** Text with no line end, not yet given to the parser. */
  readonly #pending = new PendingText();

  // The length limit (#limit). Offsets count the code units of the texts fed. The lines
  // are walked up to #walked, only when the limit could have been reached; the texts fed
  // since are in #unwalked.
  readonly #max: number;
  #total = 0;
  #walked = 0;
  #unwalked: string[] = [];
  /** At #walked: whether a message, and a line, have started and not ended. */
  #inMessage = false;
  #inLine = false;
  /** At #walked: where the message or line being measured starts; else #walked. */
  #from = 0;

  /**
   * `resume`: the input starts in the middle of a stream, at the start of a line outside a
   * message (no BOM to drop there).
   */
  constructor(emit: (value: unknown) => void, options?: DecoderOptions, resume = false) {
    this.#emit = emit;
    this.#started = resume;
    this.#max = options?.maxBufferSize ?? DEFAULT_MAX_BUFFER_SIZE;
    // Its errors (invalid `retry` values, unknown fields) are ignored, as the SSE standard
    // says; #limit bounds what it buffers.
    this.#parser = createParser({
      onEvent: (message) => {
        if (!this.#stopped) this.dispatch(message.data);
      },
      onError: (error) => {
        if (error.type === "unknown-field") this.ignored(error.line);
      },
      maxBufferSize: undefined,
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
    const cut = text === "" ? -1 : this.#limit(text);
    if (cut === -1) {
      this.feed(text, bytes, shift, held, hold);
      return;
    }
    // Everything before the message that outgrew the limit is decoded first.
    this.feed(text.slice(0, cut), bytes, shift, held, false);
    if (!this.#stopped) this.#fail(new SseDecodeFailure("SSE_BUFFER_OVERFLOW"));
  }

  /**
   * Counts `text` against `maxBufferSize`: -1 if nothing has outgrown it, else the offset in
   * `text` where the message (or line) that did starts, 0 if it started earlier.
   *
   * The length of what was fed since #from (where the walk left off, or the start of the
   * message or line it was measuring then) bounds the current message's from above. While
   * that stays within the limit, the text is only kept, and a blank line at its end (where
   * a server's chunk usually ends) moves the walk there, as no message is open after it;
   * this also lets go of small chunks early. Past the limit the kept texts and this one are
   * walked line by line. Past {@link KEEP} characters kept (but within the
   * limit, so nothing kept can have outgrown it), the walk moves to the last blank line
   * kept, and only the lines after it are walked.
   */
  #limit(text: string): number {
    const total = this.#total + text.length;
    this.#total = total;
    if (total - this.#from > this.#max) return this.#walkKept(text);
    if (endsWithBlankLine(text)) {
      // Setting an array's length costs more than the rest of this path: only when needed.
      if (this.#unwalked.length !== 0) this.#unwalked.length = 0;
      this.#walked = this.#from = total;
      this.#inMessage = this.#inLine = false;
      return -1;
    }
    this.#unwalked.push(text);
    if (total - this.#walked > KEEP) this.#skipToLastBlankLine(total);
    return -1;
  }

  /**
   * Moves the walk to the last blank line in the texts kept (which end at offset `total`),
   * then walks the lines after it; walks them all if none has one. Within the limit, so the
   * walk finds nothing: it only brings #walked up to date. (The texts are searched one by
   * one, from the last: joining them costs more than the rest.)
   */
  #skipToLastBlankLine(total: number): void {
    const kept = this.#unwalked;
    this.#unwalked = [];
    let first = 0;
    let end = total;
    for (let i = kept.length - 1; i >= 0; i--) {
      const text = kept[i] ?? "";
      const after = afterLastBlankLine(text);
      end -= text.length;
      if (after === -1) continue;
      this.#walked = this.#from = end + after;
      this.#inMessage = this.#inLine = false;
      kept[i] = text.slice(after);
      first = i;
      break;
    }
    for (let i = first; i < kept.length; i++) this.#walkLines(kept[i] ?? "");
  }

  /** Walks the texts kept, then `text`, which alone can outgrow the limit: see #limit. */
  #walkKept(text: string): number {
    for (const kept of this.#unwalked) this.#walkLines(kept);
    this.#unwalked = [];
    return this.#walkLines(text);
  }

  /**
   * Walks the lines of `text`, which starts at #walked: -1 if no message or line outside
   * a message outgrows the limit, else where in `text` it starts (0 if earlier).
   */
  #walkLines(text: string): number {
    const length = text.length;
    const base = this.#walked;
    const max = this.#max;
    let inMessage = this.#inMessage;
    let inLine = this.#inLine;
    let from = this.#from;
    let i = 0;
    // The next CR, LF and "\n\n" at or after i; -1: none left, -2: not looked for.
    let cr = -2;
    let lf = -2;
    let blank = -2;
    while (i < length) {
      if (!inLine) {
        const code = text.charCodeAt(i);
        if (code === LF || code === CR) {
          // A blank line ends the message.
          inMessage = false;
          i += code === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
          continue;
        }
        inLine = true;
        if (!inMessage) {
          from = base + i;
          inMessage = code !== COLON;
        }
      }
      if (cr !== -1 && cr < i) cr = text.indexOf("\r", i);
      if (inMessage && blank !== -1) {
        // With no CR before it, the message ends at the next "\n\n", and so does its
        // longest part: one search for the whole message.
        if (blank < i) blank = text.indexOf("\n\n", i);
        if (blank !== -1 && (cr === -1 || cr > blank)) {
          if (base + blank - from > max) return Math.max(0, from - base);
          inMessage = inLine = false;
          i = blank + 2;
          continue;
        }
      }
      if (lf !== -1 && lf < i) lf = text.indexOf("\n", i);
      let t = cr === -1 ? lf : lf === -1 || cr < lf ? cr : lf;
      if (t === -1) t = length;
      if (base + t - from > max) return Math.max(0, from - base);
      if (t === length) break;
      inLine = false;
      i = t + (text.charCodeAt(t) === CR && text.charCodeAt(t + 1) === LF ? 2 : 1);
    }
    this.#walked = base + length;
    this.#inMessage = inMessage;
    this.#inLine = inLine;
    this.#from = inMessage || inLine ? from : base + length;
    return -1;
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
    if (text.indexOf("\r") !== -1) {
      // Every CR left in `text` is a whole line end (see #text). The parser, once it sees a
      // CR, looks for the next CR and the next LF at every line: with one of them far off or
      // missing (CR-only framing, or one CR late in a long text) that is quadratic. Line ends
      // all mean the same, so it is given LFs only.
      text = text.replace(CR_LINE_END, "\n");
    } else if (text.indexOf("\n") === -1) {
      // No line end: nothing can be dispatched. The parser would keep one fragment per
      // chunk (a message trickled byte by byte costs a string per byte); hold it here.
      this.#pending.push(text);
      return;
    }
    this.#parser.feed(this.#pending.take(text));
  }

  /** Passes on a dispatched message's data: its JSON value, or a failure. */
  protected dispatch(data: string): void {
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch (cause) {
      this.invalid(new SseDecodeFailure("INVALID_JSON", data, cause));
      return;
    }
    this.#emit(value);
  }

  /** A message whose data is not JSON: passed on, and decoding stops (SPEC §12). */
  protected invalid(failure: SseDecodeFailure): void {
    this.#fail(failure);
  }

  /**
   * A line the parser ignored, its field being none of data, event, id and retry (the
   * line's text, when the parser gives it). Nothing by default.
   */
  protected ignored(_line: string | undefined): void {}

  #fail(failure: SseDecodeFailure): void {
    this.#stopped = true;
    this.#emit(failure);
  }
}
