/**
 * The SSE decoding core with positions, for the proxy and the command: where each message
 * starts, and how much of the input is done with. `SsePositionDecoder` follows every line
 * (the command reports lines and offsets; the proxy asks it where a violation leaves the
 * output); `SseReleaseDecoder` (release.ts) only tells, per chunk, how far the input is done
 * with (the proxy's hot path). A test holds the two to the same answer after every chunk.
 * @module
 */

import { SseDecoder } from "./decoder.ts";

/**
 * A place in the input: a 1-based line number and an offset (in bytes for byte input, in
 * UTF-16 code units for string input).
 */
export interface SsePosition {
  readonly line: number;
  readonly offset: number;
}

const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;
const BOM_BYTES = 3;

/**
 * Whether the line in `s` from `i` (ending at `end`, or -1 if not known) is a `data` field:
 * "data:…", or "data" alone.
 */
function isData(s: string, i: number, end: number): boolean {
  return (
    s.charCodeAt(i) === 100 &&
    s.charCodeAt(i + 1) === 97 &&
    s.charCodeAt(i + 2) === 116 &&
    s.charCodeAt(i + 3) === 97 &&
    (s.charCodeAt(i + 4) === COLON || end - i === 4)
  );
}

/**
 * Whether the line at `i` (up to `end`, or its first characters) names a field SSE knows:
 * `data`, `event`, `id` or `retry`, then a colon or the line's end. Six characters decide.
 */
function knownField(s: string, i: number, end: number): boolean {
  let n = 0;
  while (n < 6 && i + n < end && s.charCodeAt(i + n) !== COLON) n++;
  if (n === 4) return s.startsWith("data", i);
  if (n === 5) return s.startsWith("event", i) || s.startsWith("retry", i);
  return n === 2 && s.startsWith("id", i);
}

/**
 * {@link SseDecoder}, which also walks the lines of what it feeds, to tell where each message
 * starts ({@link SsePositionDecoder.messageStart}) and how much of the input is done with
 * ({@link SsePositionDecoder.safe}): up to the end of each message as the parser dispatches
 * it, and the rest after the chunk. Offsets are in bytes for byte input, in UTF-16 code
 * units for string input. It is a module of its own so that the decoder's other users do
 * not download the walk.
 * @internal
 */
export class SsePositionDecoder extends SseDecoder {
  /** The held CR's offset. */
  #heldAt = 0;
  /** Offset of the first byte (code unit) of the current chunk. */
  #base = 0;

  // The line walk. The current line has started when #lineHead is not empty: it holds the
  // line's first characters (enough to tell a `data` field), and #headLength counts them all.
  #line = 1;
  #lineStart = 0;
  #lineHead = "";
  #headLength = 0;
  /** Whether the message being assembled has a field line, and a `data` one. */
  #assembling = false;
  #hasData = false;
  #messageLine = 1;
  #messageOffset = 0;
  /** The end of the last blank line or heartbeat comment walked. */
  #boundary = 0;
  /** {@link SsePositionDecoder.seekIgnored}: the walk stops after a line of an unknown field. */
  #seeking = false;
  #ignoredAt: SsePosition | undefined;
  /** Where the message being emitted starts and ends; #currentEnd is -1 outside one. */
  #currentLine = 1;
  #currentOffset = 0;
  #currentEnd = -1;
  #safe = 0;
  // The text being fed and its bytes. The walk has read it up to code unit #at, and (see
  // #lineEnd) byte #byteAt of the chunk, give or take #slack.
  #fed = "";
  #bytes: Uint8Array | undefined = undefined;
  /** For string input: the offset of `#fed[0]` from the start of the chunk. */
  #shift = 0;
  /** The offset of a held CR that #fed starts with, or -1. */
  #heldStart = -1;
  #at = 0;
  #byteAt = 0;
  #slack = 0;
  /** The next CR and LF in #fed (if not below #at); -1: none left, -2: not looked for. */
  #cr = -2;
  #lf = -2;

  /**
   * How far the input is decoded and done with: the offset just after the last message
   * whose value was emitted (and `emit` returned), or after a later blank line or heartbeat
   * comment (a comment line outside a message). Everything before it has had its effect;
   * nothing after it has.
   */
  get safe(): number {
    return this.#safe;
  }

  /** Where the message being emitted starts: its first line that is not a comment. */
  get messageStart(): SsePosition {
    return this.#currentEnd === -1
      ? { line: this.#messageLine, offset: this.#messageOffset }
      : { line: this.#currentLine, offset: this.#currentOffset };
  }

  /**
   * Where the current line starts, and its number. After {@link SsePositionDecoder.finish}:
   * the input's last line and the input's length.
   */
  get position(): SsePosition {
    return { line: this.#line, offset: this.#lineStart };
  }

  /**
   * Where the message being assembled starts, if one is: after
   * {@link SsePositionDecoder.finish}, a message the input ended inside (fields but no
   * blank line, so SSE discarded it).
   */
  get unfinished(): SsePosition | undefined {
    return this.#assembling ? { line: this.#messageLine, offset: this.#messageOffset } : undefined;
  }

  /**
   * Where the line the parser just ignored starts (its field being none of data, event, id
   * and retry): called from {@link SseDecoder.ignored}, while the parser reads the text
   * being fed, it walks on to the next such line, which the parser reads in the same order.
   * Undefined if there is none (a parser that ignores other lines).
   */
  protected seekIgnored(): SsePosition | undefined {
    this.#seeking = true;
    this.#ignoredAt = undefined;
    try {
      this.#walk(undefined);
    } finally {
      this.#seeking = false;
    }
    return this.#ignoredAt;
  }

  override push(chunk: Uint8Array | string): void {
    if (this.stopped) return;
    super.push(chunk);
    this.#base += chunk.length;
  }

  override finish(): void {
    if (this.stopped) return;
    super.finish();
    // A last line with no line end: if it is a field (not a comment), the message it is in
    // has no blank line either, though no line of it was walked.
    const head = this.#lineHead;
    if (head !== "" && !this.#assembling && head.charCodeAt(0) !== COLON) {
      this.#assembling = true;
      this.#messageLine = this.#line;
      this.#messageOffset = this.#lineStart;
    }
    if (this.#lineHead === "" && this.#line > 1) this.#line--;
    this.#lineStart = this.#base;
  }

  protected override skipBom(bytes: boolean): void {
    this.#lineStart = bytes ? BOM_BYTES : 1;
  }

  protected override feed(
    text: string,
    bytes: Uint8Array | undefined,
    shift: number,
    held: boolean,
    hold: boolean,
  ): void {
    const heldStart = held ? this.#heldAt : -1;
    // A new CR (not the held one again): the chunk's last CR, as bytes of an unfinished
    // character may follow it.
    if (hold && (text !== "" || !held)) {
      this.#heldAt =
        this.#base + (bytes === undefined ? shift + text.length : bytes.lastIndexOf(CR));
    }
    if (text === "") return;
    this.#fed = text;
    this.#bytes = bytes;
    this.#shift = shift;
    this.#heldStart = heldStart;
    this.#at = 0;
    this.#byteAt = 0;
    this.#slack = 2;
    this.#cr = -2;
    this.#lf = -2;
    // The parser dispatches messages as it is fed, and dispatch walks up to the end of each;
    // what is left is walked after.
    super.feed(text, bytes, shift, held, hold);
    if (!this.stopped) {
      this.#walk(undefined);
      this.#safe = this.#boundary;
    }
  }

  protected override dispatch(data: string): void {
    if (!this.#single(data)) this.#walk(data);
    super.dispatch(data);
    if (this.stopped) return;
    if (this.#currentEnd !== -1) {
      this.#safe = this.#currentEnd;
      this.#currentEnd = -1;
    }
  }

  /**
   * The offset of the line end at `t` (its first character `code`, `width` long) in the
   * text being fed, of the line that starts at `i`; moves #byteAt past it.
   *
   * In bytes it is found from the text: CR and LF are ASCII, and a character takes at least
   * as many bytes as UTF-16 code units, so the line end sits at or after #byteAt plus the
   * line's length in code units, usually right there. Only the chunk's first line may start
   * with a character whose bytes came in earlier chunks (at most two code units): #slack
   * allows for it.
   */
  #lineEnd(i: number, t: number, code: number, width: number): number {
    if (t === 0 && this.#heldStart >= 0) {
      // The held CR, from an earlier chunk: an LF after it is this chunk's first byte.
      if (width === 2) {
        this.#byteAt = 1;
        this.#slack = 0;
      }
      return this.#heldStart;
    }
    const bytes = this.#bytes;
    if (bytes === undefined) return this.#base + this.#shift + t;
    const from = this.#byteAt;
    let p = from + t - i - this.#slack;
    if (p < from) p = from;
    // A few bytes off at most, for most lines: a loop costs less than calling indexOf.
    for (let k = 0; bytes[p] !== code; p++) {
      if (++k === 64) {
        p = bytes.indexOf(code, p);
        break;
      }
    }
    this.#byteAt = p + width;
    this.#slack = 0;
    return this.#base + p;
  }

  /**
   * The usual message, at once: if the first `data` line of the message the parser
   * dispatched with `data` starts at #at, is its only one, and a blank line follows, walks
   * to the end of the message and returns true. `data` tells where that line ends, with no
   * search: right after "data:" (and a space) and `data`, if it is the only data line. If
   * the message has more, no blank line can follow there, as each further data line adds
   * "data:" and a line end to the text but only an LF to `data`.
   */
  #single(data: string): boolean {
    if (this.#hasData) return false;
    const text = this.#fed;
    const i = this.#at;
    const head = this.#lineHead;
    let t = -1;
    if (head === "") {
      if (isData(text, i, -1)) t = i + (text.charCodeAt(i + 5) === SPACE ? 6 : 5) + data.length;
    } else if (head.length >= 6 && isData(head, 0, -1)) {
      // The line started in an earlier chunk.
      t = i + (head.charCodeAt(5) === SPACE ? 6 : 5) + data.length - this.#headLength;
    }
    const code = t >= i ? text.charCodeAt(t) : 0;
    if (code !== LF && code !== CR) return false;
    const width = code === CR && text.charCodeAt(t + 1) === LF ? 2 : 1;
    const blank = text.charCodeAt(t + width);
    if (blank !== LF && blank !== CR) return false;
    const blankWidth = blank === CR && text.charCodeAt(t + width + 1) === LF ? 2 : 1;
    // The blank line follows in the bytes as in the text.
    const end = this.#lineEnd(i, t, code, width) + width + blankWidth;
    this.#at = t + width + blankWidth;
    this.#byteAt += blankWidth;
    this.#slack = 0;
    this.#currentLine = this.#assembling ? this.#messageLine : this.#line;
    this.#currentOffset = this.#assembling ? this.#messageOffset : this.#lineStart;
    this.#currentEnd = end;
    this.#safe = this.#boundary;
    this.#line += 2;
    this.#lineStart = end;
    this.#lineHead = "";
    this.#assembling = false;
    this.#boundary = end;
    return true;
  }

  /**
   * Walks the lines of the text being fed from #at, noting where messages start and where
   * safe points are. Given the `data` of a message the parser dispatched, it stops at the
   * end of that message (the next one with data), which becomes the current message;
   * otherwise it walks to the end of the text.
   */
  #walk(data: string | undefined): void {
    const text = this.#fed;
    const length = text.length;
    // The walk's state, in locals while it runs.
    let i = this.#at;
    let cr = this.#cr;
    let lf = this.#lf;
    let head = this.#lineHead;
    let line = this.#line;
    let lineStart = this.#lineStart;
    let assembling = this.#assembling;
    let hasData = this.#hasData;
    let messageLine = this.#messageLine;
    let messageOffset = this.#messageOffset;
    let boundary = this.#boundary;
    const seeking = this.#seeking;
    let found = false;
    while (i < length && !found) {
      if (data !== undefined && !hasData && (head !== "" || text.charCodeAt(i) === 100)) {
        this.#at = i;
        this.#lineHead = head;
        this.#line = line;
        this.#lineStart = lineStart;
        this.#assembling = assembling;
        this.#messageLine = messageLine;
        this.#messageOffset = messageOffset;
        this.#boundary = boundary;
        if (this.#single(data)) {
          this.#cr = cr;
          this.#lf = lf;
          return;
        }
      }
      if (lf !== -1 && lf < i) lf = text.charCodeAt(i) === LF ? i : text.indexOf("\n", i);
      if (cr !== -1 && cr < i) cr = text.indexOf("\r", i);
      const t = cr === -1 ? lf : lf === -1 || cr < lf ? cr : lf;
      if (t === -1) {
        this.#headLength = (head === "" ? 0 : this.#headLength) + length - i;
        if (head.length < 6) head += text.slice(i, i + 6);
        i = length;
        break;
      }
      const code = text.charCodeAt(t);
      const width = code === CR && text.charCodeAt(t + 1) === LF ? 2 : 1;
      const next = this.#lineEnd(i, t, code, width) + width;
      if (head === "" && t === i) {
        // A blank line: the end of a message, which the parser dispatches if it has data.
        if (hasData && data !== undefined) {
          this.#currentLine = messageLine;
          this.#currentOffset = messageOffset;
          this.#currentEnd = next;
          this.#safe = boundary;
          found = true;
        }
        assembling = false;
        hasData = false;
        boundary = next;
      } else {
        // The line's first characters: in `text`, or, if it started in an earlier chunk, in
        // `head`, completed here (then the whole line, if shorter than six).
        let start = text;
        let from = i;
        let end = t;
        if (head !== "") {
          start = head.length < 6 ? head + text.slice(i, Math.min(t, i + 6)) : head;
          from = 0;
          end = start.length;
          head = "";
        }
        if (start.charCodeAt(from) === COLON) {
          if (!assembling) boundary = next;
        } else {
          if (!assembling) {
            assembling = true;
            messageLine = line;
            messageOffset = lineStart;
          }
          if (isData(start, from, end)) hasData = true;
          else if (seeking && !knownField(start, from, end)) {
            this.#ignoredAt = { line, offset: lineStart };
            found = true;
          }
        }
      }
      line++;
      lineStart = next;
      i = t + width;
    }
    this.#at = i;
    this.#cr = cr;
    this.#lf = lf;
    this.#lineHead = head;
    this.#line = line;
    this.#lineStart = lineStart;
    this.#assembling = assembling;
    this.#hasData = hasData;
    this.#messageLine = messageLine;
    this.#messageOffset = messageOffset;
    this.#boundary = boundary;
  }
}
