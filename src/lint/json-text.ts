/**
 * Whether text that arrives in pieces is one JSON text, decided as `JSON.parse` decides it
 * (ECMA-404: JSON.parse accepts exactly this grammar), one character at a time: a tool call's
 * TOOL_CALL_ARGS deltas are checked as they come, never joined, and a call holds only its
 * state and one byte per open array or object (SPEC §18.2, TOOL_CALL_ARGS_NOT_JSON).
 * @module
 */

// What the next character may be.
const VALUE = 0; // a value (at the top, after ":" or after "," in an array)
const ARRAY_FIRST = 1; // a value or "]"
const OBJECT_FIRST = 2; // a key or "}"
const KEY = 3; // a key (after "," in an object)
const COLON = 4;
const AFTER = 5; // after a value: "," or a close, or only whitespace at the top
const STRING = 6;
const ESCAPE = 7;
const HEX = 8; // in \uXXXX; `#hex` digits to go
const MINUS = 9; // after "-": a digit
const ZERO = 10; // after a leading 0: ".", "e" or the number's end
const INT = 11;
const DOT = 12; // after ".": a digit
const FRACTION = 13;
const E = 14; // after "e": a sign or a digit
const E_SIGN = 15; // after the exponent's sign: a digit
const EXPONENT = 16;
const LITERAL = 17; // in true, false or null
const FAILED = 18;

const IN_OBJECT = 1;
const IN_ARRAY = 2;

const LITERALS: { readonly [first: number]: string } = { 116: "true", 102: "false", 110: "null" };

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
}

/** A number that may end here (the next character decides whether it goes on). */
function numberMayEnd(state: number): boolean {
  return state === ZERO || state === INT || state === FRACTION || state === EXPONENT;
}

/** One JSON text, read piece by piece. */
export class JsonText {
  #state = VALUE;
  /** Whether the text read so far is a string key (else a string value). */
  #key = false;
  #hex = 0;
  #literal = "";
  #at = 0;
  /** The open arrays and objects, innermost last: a bit each (1: array), in `#bits` for the
   * first 31 levels and in `#deeper` beyond. */
  #bits = 0;
  #deeper: Uint8Array | undefined;
  #depth = 0;
  /** How many characters were read, and where the first that breaks the text is (or -1). */
  #read = 0;
  #failedAt = -1;

  /**
   * Reads the next piece of the text; returns where in it the text broke, when it did in this
   * piece, else -1.
   */
  feed(text: string): number {
    const n = text.length;
    let state = this.#state;
    if (n === 0 || state === FAILED) {
      this.#read += n;
      return -1;
    }
    let i = 0;
    while (i < n && state !== FAILED) {
      const c = text.charCodeAt(i);
      switch (state) {
        case STRING: {
          // The common case: plain characters up to the closing quote.
          let d = c;
          while (d !== 0x22 && d !== 0x5c && d >= 0x20) {
            if (++i === n) {
              this.#state = STRING;
              this.#read += n;
              return -1;
            }
            d = text.charCodeAt(i);
          }
          i++;
          state = d === 0x22 ? (this.#key ? COLON : AFTER) : d === 0x5c ? ESCAPE : FAILED;
          continue;
        }
        case ESCAPE:
          i++;
          if (c === 0x75) {
            this.#hex = 4;
            state = HEX;
          } else {
            state =
              c === 0x22 ||
              c === 0x5c ||
              c === 0x2f ||
              c === 0x62 ||
              c === 0x66 ||
              c === 0x6e ||
              c === 0x72 ||
              c === 0x74
                ? STRING
                : FAILED;
          }
          continue;
        case HEX:
          i++;
          if (!isHex(c)) state = FAILED;
          else if (--this.#hex === 0) state = STRING;
          continue;
        case LITERAL: {
          i++;
          const literal = this.#literal;
          if (c !== literal.charCodeAt(this.#at)) state = FAILED;
          else if (++this.#at === literal.length) state = AFTER;
          continue;
        }
        case MINUS:
          i++;
          state = c === 0x30 ? ZERO : isDigit(c) ? INT : FAILED;
          continue;
        case DOT:
          i++;
          state = isDigit(c) ? FRACTION : FAILED;
          continue;
        case E:
          i++;
          state = c === 0x2b || c === 0x2d ? E_SIGN : isDigit(c) ? EXPONENT : FAILED;
          continue;
        case E_SIGN:
          i++;
          state = isDigit(c) ? EXPONENT : FAILED;
          continue;
        case ZERO:
        case INT:
        case FRACTION:
        case EXPONENT:
          if (isDigit(c)) {
            if (state === ZERO) state = FAILED; // no leading zeros
            i++;
          } else if (c === 0x2e && (state === ZERO || state === INT)) {
            state = DOT;
            i++;
          } else if ((c | 0x20) === 0x65 && state !== EXPONENT) {
            state = E;
            i++;
          } else state = AFTER; // the number ended; the character is read again after it
          continue;
        case COLON:
          i++;
          if (c === 0x3a) state = VALUE;
          else if (!isSpace(c)) state = FAILED;
          continue;
        case OBJECT_FIRST:
        case KEY:
          i++;
          if (c === 0x22) {
            this.#key = true;
            state = STRING;
          } else if (c === 0x7d && state === OBJECT_FIRST) {
            this.#depth--;
            state = AFTER;
          } else if (!isSpace(c)) state = FAILED;
          continue;
        case AFTER:
          i++;
          if (isSpace(c)) continue;
          state = this.#close(c);
          continue;
        default:
          // VALUE or ARRAY_FIRST
          i++;
          if (isSpace(c)) continue;
          if (c === 0x5d && state === ARRAY_FIRST) {
            this.#depth--;
            state = AFTER;
          } else state = this.#value(c);
          continue;
      }
    }
    this.#state = state;
    const read = this.#read;
    this.#read = read + n;
    if (state !== FAILED) return -1;
    this.#failedAt = read + i - 1;
    return i - 1;
  }

  /** How many characters were read. */
  get length(): number {
    return this.#read;
  }

  /** The position of the first character that no JSON text can have there, or -1. */
  get failedAt(): number {
    return this.#failedAt;
  }

  /** Whether everything read is one JSON text (no text at all is not). */
  end(): boolean {
    const state = this.#state;
    return this.#depth === 0 && (state === AFTER || numberMayEnd(state));
  }

  /** Whether the text read holds no value at all (nothing, or only whitespace). */
  get blank(): boolean {
    return this.#state === VALUE && this.#depth === 0;
  }

  /** The state after the first character of a value. */
  #value(c: number): number {
    if (c === 0x22) {
      this.#key = false;
      return STRING;
    }
    if (c === 0x7b) return this.#open(IN_OBJECT, OBJECT_FIRST);
    if (c === 0x5b) return this.#open(IN_ARRAY, ARRAY_FIRST);
    if (c === 0x2d) return MINUS;
    if (c === 0x30) return ZERO;
    if (isDigit(c)) return INT;
    const literal = LITERALS[c];
    if (literal === undefined) return FAILED;
    this.#literal = literal;
    this.#at = 1;
    return LITERAL;
  }

  #open(kind: number, state: number): number {
    const depth = this.#depth++;
    if (depth < 31) {
      if (kind === IN_ARRAY) this.#bits |= 1 << depth;
      else this.#bits &= ~(1 << depth);
      return state;
    }
    let deeper = this.#deeper;
    if (deeper === undefined || depth - 31 === deeper.length) {
      const grown = new Uint8Array(deeper === undefined ? 64 : deeper.length * 2);
      if (deeper !== undefined) grown.set(deeper);
      deeper = grown;
      this.#deeper = deeper;
    }
    deeper[depth - 31] = kind;
    return state;
  }

  /** The kind of the innermost open array or object. */
  #innermost(): number {
    const depth = this.#depth - 1;
    if (depth < 31) return (this.#bits >>> depth) & 1 ? IN_ARRAY : IN_OBJECT;
    return (this.#deeper as Uint8Array)[depth - 31] as number;
  }

  /** After a value: "," or the close of the innermost array or object. */
  #close(c: number): number {
    const depth = this.#depth;
    if (depth === 0) return FAILED; // only whitespace may follow the top value
    const kind = this.#innermost();
    if (c === 0x2c) return kind === IN_OBJECT ? KEY : VALUE;
    if ((c === 0x7d && kind === IN_OBJECT) || (c === 0x5d && kind === IN_ARRAY)) {
      this.#depth = depth - 1;
      return AFTER;
    }
    return FAILED;
  }
}
