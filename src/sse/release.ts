/**
 * `SseReleaseDecoder`: the proxy's hot path, which tells per chunk how far the input is done
 * with, without following every line (positions.ts has the decoder that does).
 * @module
 */

import { SseDecoder } from "./decoder.ts";

const LF = 10;
const CR = 13;
const COLON = 58;
const BOM_BYTES = 3;

/**
 * {@link SseDecoder} for byte input that tells after each chunk how far the input is done
 * with ({@link SseReleaseDecoder.safe}: the same offset as {@link SsePositionDecoder.safe}
 * after that chunk) without following every line: it looks back from the chunk's last line
 * end to the last point where no message was being assembled, which is usually inside the
 * chunk's last message. The proxy's hot path so pays per network chunk, not per message;
 * where a message starts is found, when needed, by {@link SsePositionDecoder} over the same
 * bytes.
 * @internal
 */
export class SseReleaseDecoder extends SseDecoder {
  /** Offset of the current chunk's first byte. */
  #base = 0;
  /** Where the first line whose end has not been seen starts, and its first byte (-1: none). */
  #lineStart = 0;
  #lineFirst = -1;
  /** At #lineStart: whether a message is being assembled (it then starts at #safe). */
  #assembling = false;
  #safe = 0;
  /** Offset of the CR the decoder holds back, or -1; whether bytes followed it in its chunk. */
  #pendingCR = -1;
  #pendingLone = false;
  #bom = false;
  /** Whether the chunk's text has a CR (one held back from before aside). */
  #crs = false;
  /**
   * Whether the decoder holds back a CR that ended the text so far (it may be a CRLF's).
   * Every chunk that can change it reaches `feed`.
   */
  #holdsCR = false;
  /** Where the backward searches for an LF and a CR stopped (-1: none left). */
  #lf = -1;
  #cr = -1;

  /**
   * How far the input is done with after the last chunk: the end of the last line after
   * which no message was being assembled (a blank line, or a comment outside a message).
   * Every message before it was emitted; nothing after it was.
   */
  get safe(): number {
    return this.#safe;
  }

  /** Decodes one chunk of bytes. */
  override push(chunk: Uint8Array | string): void {
    if (typeof chunk === "string") throw new TypeError("SseReleaseDecoder reads bytes only");
    if (this.stopped) return;
    this.#crs = false;
    super.push(chunk);
    if (!this.stopped) this.#look(chunk);
    this.#base += chunk.length;
  }

  protected override feed(
    text: string,
    bytes: Uint8Array | undefined,
    shift: number,
    held: boolean,
    hold: boolean,
  ): void {
    // Searching a string costs far less than searching bytes.
    this.#crs = text.indexOf("\r", held ? 1 : 0) !== -1;
    this.#holdsCR = hold;
    super.feed(text, bytes, shift, held, hold);
  }

  protected override skipBom(): void {
    this.#bom = true;
    this.#lineStart = BOM_BYTES;
    this.#lineFirst = -1;
  }

  /** Moves #safe past the lines `bytes` completes. */
  #look(bytes: Uint8Array): void {
    const base = this.#base;
    const length = bytes.length;
    let end = length;
    let held = -1;
    if (this.#holdsCR) {
      held = bytes.lastIndexOf(CR);
      if (held === -1) {
        // Still the CR held before (what follows is part of a character): nothing has
        // ended, and that CR is no CRLF's.
        if (length !== 0) this.#pendingLone = true;
        return;
      }
      end = held;
    }
    if (this.#pendingCR !== -1) {
      // The CR held before ended its line: the line's end is known now.
      const next = this.#pendingCR + (!this.#pendingLone && bytes[0] === LF ? 2 : 1);
      this.#step(this.#lineStart === this.#pendingCR, this.#lineFirst, next);
      this.#lineStart = next;
      this.#lineFirst = -1;
      this.#pendingCR = -1;
    }
    if (held !== -1) {
      this.#pendingCR = base + held;
      this.#pendingLone = held < length - 1;
    }
    const from = Math.max(0, this.#lineStart - base);
    this.#lf = end;
    this.#cr = this.#crs ? end : -1;
    const last = this.#lineEndBefore(bytes, end, from);
    if (last === -1) {
      this.#noteFirst(bytes, end);
      return;
    }
    // Back from the last complete line to a blank line, or to #lineStart.
    const after = last + 1;
    let lineEnd = contentEnd(bytes, last, from);
    /** Where the earliest field line walked back to starts (below 0: in an earlier chunk). */
    let field = 0;
    let hasField = false;
    let blank = false;
    for (;;) {
      const previous = this.#lineEndBefore(bytes, lineEnd, from);
      const start = previous === -1 ? this.#lineStart - base : previous + 1;
      if (start === lineEnd) {
        blank = true;
        break;
      }
      if ((start >= 0 ? bytes[start] : this.#lineFirst) !== COLON) {
        field = start;
        hasField = true;
      }
      if (previous === -1) break;
      lineEnd = contentEnd(bytes, previous, from);
    }
    if (blank || !this.#assembling) {
      if (hasField) this.#messageAt(base + field);
      else this.#safe = base + after;
      this.#assembling = hasField;
    }
    this.#lineStart = base + after;
    this.#lineFirst = -1;
    this.#noteFirst(bytes, end);
  }

  /**
   * The line at #lineStart, ended by the CR held before, whose line end ends at `next`: a
   * blank one, or one whose first byte is `first` (-1: one that is part of a character).
   */
  #step(blank: boolean, first: number, next: number): void {
    if (blank) {
      this.#assembling = false;
      this.#safe = next;
    } else if (first === COLON) {
      if (!this.#assembling) this.#safe = next;
    } else if (!this.#assembling) {
      this.#assembling = true;
      this.#messageAt(this.#lineStart);
    }
  }

  /**
   * A message starts at `start`: the offset is safe up to there, or only up to 0 when it is
   * the first line after a BOM (as SsePositionDecoder counts it).
   */
  #messageAt(start: number): void {
    this.#safe = this.#bom && start === BOM_BYTES ? 0 : start;
  }

  /**
   * The last CR or LF in `bytes` before `end` and at or after `from`, or -1. The searches
   * go back from where the last ones stopped (#lf, #cr), so a walk back reads each byte
   * once; a chunk whose text has no CR is not searched for one.
   */
  #lineEndBefore(bytes: Uint8Array, end: number, from: number): number {
    if (end <= from) return -1;
    if (this.#lf >= end) this.#lf = bytes.lastIndexOf(LF, end - 1);
    if (this.#cr >= end) this.#cr = bytes.lastIndexOf(CR, end - 1);
    const at = Math.max(this.#lf, this.#cr);
    return at >= from ? at : -1;
  }

  /** Notes the first byte of the line at #lineStart, if it is in `bytes` before `end`. */
  #noteFirst(bytes: Uint8Array, end: number): void {
    const at = this.#lineStart - this.#base;
    if (this.#lineFirst === -1 && at >= 0 && at < end) this.#lineFirst = bytes[at] ?? -1;
  }
}

/** Where the line whose end's last byte is at `at` ends its content (before a CRLF's CR). */
function contentEnd(bytes: Uint8Array, at: number, from: number): number {
  return bytes[at] === LF && at > from && bytes[at - 1] === CR ? at - 1 : at;
}
