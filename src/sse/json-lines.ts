/**
 * JSON Lines input (one JSON value per line), and telling it from SSE by its first bytes.
 * @module
 */

import { HeldBytes } from "../_util/held-bytes.ts";
import { SseDecodeFailure } from "../errors.ts";
import type { SsePosition } from "./positions.ts";

/** An input's format: Server-Sent Events, or JSON Lines. */
export type Format = "sse" | "jsonl" | "proto";

const BOM = [0xef, 0xbb, 0xbf];
const LF = 10;
const CR = 13;

/**
 * The format from the first bytes: with `proto` (a reader that can read protobuf), protobuf
 * frames when the first byte is 0 (a frame's 4-byte length, under 16 MiB; text never starts
 * with it); JSON Lines when the first character that is not whitespace (after a BOM) is `{`
 * or `[`; SSE otherwise. Undefined while undecided.
 */
export function sniff(bytes: Uint8Array, proto = false): Format | undefined {
  if (proto && bytes[0] === 0) return "proto";
  let i = 0;
  while (i < 3 && i < bytes.length && bytes[i] === BOM[i]) i++;
  if (i === bytes.length && i < 3) return undefined;
  if (i < 3) i = 0;
  for (; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x20 || b === 0x09 || b === LF || b === CR) continue;
    return b === 0x7b || b === 0x5b ? "jsonl" : "sse";
  }
  return undefined;
}

/**
 * JSON Lines: one JSON value per LF-ended line (a CR before the LF is dropped, blank lines
 * are skipped), each handed on with where its line starts. A line longer than `max` bytes
 * is an `SSE_BUFFER_OVERFLOW` as soon as it grows past it. With `goOn`, a line that is not
 * JSON is an `INVALID_JSON` value and the next line is read (the linter); without, the
 * caller stops at it.
 * @internal
 */
export class JsonLines {
  readonly #emit: (value: unknown, at: SsePosition) => void;
  readonly #max: number;
  readonly #utf8 = new TextDecoder();
  #line = 1;
  #lineStart = 0;
  #base = 0;
  /** The current line's bytes so far, when it spans chunks (copied: chunks may be reused). */
  readonly #held = new HeldBytes();

  constructor(emit: (value: unknown, at: SsePosition) => void, max: number) {
    this.#emit = emit;
    this.#max = max;
  }

  push(chunk: Uint8Array): void {
    let i = 0;
    for (let lf = chunk.indexOf(LF); lf !== -1; lf = chunk.indexOf(LF, i)) {
      let line = chunk.subarray(i, lf);
      if (this.#held.length > 0) line = this.#joined(line);
      this.#value(line);
      i = lf + 1;
      this.#line++;
      this.#lineStart = this.#base + i;
    }
    if (i < chunk.length) {
      this.#held.push(chunk.slice(i));
      // A line longer than the limit fails as it grows, so memory stays bounded.
      if (this.#held.length > this.#max) this.#overflow();
    }
    this.#base += chunk.length;
  }

  /** Reads a last line without its LF; returns where the input ends (its last line). */
  finish(): SsePosition {
    const partial = this.#held.length > 0;
    if (partial) this.#value(this.#joined(new Uint8Array(0)));
    return { line: partial || this.#line === 1 ? this.#line : this.#line - 1, offset: this.#base };
  }

  /** The held bytes and then `tail`, as one array; holds nothing after. */
  #joined(tail: Uint8Array): Uint8Array {
    const parts: Uint8Array[] = [];
    this.#held.take(this.#held.length, (piece) => parts.push(piece));
    parts.push(tail);
    return concat(parts);
  }

  #at(): SsePosition {
    return { line: this.#line, offset: this.#lineStart };
  }

  #overflow(): void {
    this.#emit(new SseDecodeFailure("SSE_BUFFER_OVERFLOW"), this.#at());
  }

  #value(bytes: Uint8Array): void {
    if (bytes.length > this.#max) {
      this.#overflow();
      return;
    }
    const bom = this.#lineStart === 0 && BOM.every((b, i) => bytes[i] === b);
    const start = bom ? 3 : 0;
    const end = bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length;
    if (start >= end) return;
    const text = this.#utf8.decode(bytes.subarray(start, end));
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (cause) {
      value = new SseDecodeFailure("INVALID_JSON", text, cause);
    }
    this.#emit(value, this.#at());
  }
}

/** The bytes of `parts`, in order, in one array. */
export function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
