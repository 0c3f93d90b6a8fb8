/**
 * Checking one recorded stream: SSE or JSON Lines bytes in, chunk by chunk; each message
 * verified as it completes and counted. With `positions`, the SSE decoder also tells where
 * each message starts, so a violation can be placed by line and byte offset.
 * @module
 */

import { isVerifyError, SseDecodeFailure, type VerifyError } from "../errors.ts";
import { agUiSchema } from "../schema/index.ts";
import { SseDecoder } from "../sse/decoder.ts";
import { type SsePosition, SsePositionDecoder } from "../sse/positions.ts";
import { Verifier } from "../verify/verifier.ts";
import { Tally } from "./tally.ts";

export type Format = "sse" | "jsonl";

/** What every input is checked with. */
export interface CheckOptions {
  readonly format?: Format | undefined;
  readonly allowSequentialRuns?: boolean | undefined;
  /** Check every event against `agUiSchema` too (`--strict`). */
  readonly strict?: boolean | undefined;
  readonly maxBufferSize?: number | undefined;
  /** The most ids one run may hold (VerifierOptions.maxIds; `--max-ids`). */
  readonly maxIds?: number | undefined;
}

const DEFAULT_MAX_BUFFER_SIZE = 10 * 1024 * 1024;
const SNIFF_LIMIT = 64 * 1024;
const BOM = [0xef, 0xbb, 0xbf];
const LF = 10;
const CR = 13;

/**
 * The format from the first bytes: JSON Lines when the first character that is not
 * whitespace (after a BOM) is `{` or `[`; SSE otherwise. Undefined while undecided.
 */
function sniff(bytes: Uint8Array): Format | undefined {
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
 * One input's check. `push` each chunk (the bytes are not kept: the caller may reuse its
 * buffer), then `finish`. The first violation ends it: `error` holds it and `position`
 * where the offending message starts (the input's end for end-of-input errors).
 */
export class Check {
  format: Format | undefined;
  readonly tally: Tally;
  bytes = 0;
  error: VerifyError | undefined;
  position: SsePosition | undefined;
  /** SSE, after `finish`: the start of a last message with no blank line after it (discarded). */
  unterminated: SsePosition | undefined;
  readonly #positions: boolean;
  readonly #verifier: Verifier;
  readonly #maxBufferSize: number;
  #decoder: SseDecoder | undefined;
  #lines: JsonLines | undefined;
  #held: Uint8Array[] = [];
  #at: SsePosition | undefined;

  constructor(options: CheckOptions, positions: boolean) {
    this.format = options.format;
    this.#positions = positions;
    this.tally = new Tally(positions);
    this.#verifier = new Verifier({
      allowSequentialRuns: options.allowSequentialRuns,
      schema: options.strict === true ? agUiSchema : undefined,
      maxIds: options.maxIds,
    });
    this.#maxBufferSize = options.maxBufferSize ?? DEFAULT_MAX_BUFFER_SIZE;
  }

  /** Checks the next chunk; false once a violation decided the verdict. */
  push(chunk: Uint8Array): boolean {
    if (this.error !== undefined) return false;
    this.bytes += chunk.length;
    if (this.#decoder !== undefined || this.#lines !== undefined) return this.#feed(chunk);
    const held = this.#held.length === 0 ? chunk : concat([...this.#held, chunk]);
    const format = this.format ?? sniff(held);
    if (format === undefined && held.length < SNIFF_LIMIT) {
      this.#held.push(chunk.slice());
      return true;
    }
    this.#held = [];
    this.#start(format ?? "sse");
    return this.#feed(held);
  }

  /** Ends the input: a last line without its line end, then the end-of-input check. */
  finish(): void {
    if (this.#decoder === undefined && this.#lines === undefined) {
      const held = concat(this.#held);
      this.#start(this.format ?? sniff(held) ?? "sse");
      this.#feed(held);
    }
    if (this.error !== undefined) return;
    try {
      if (this.#decoder !== undefined) {
        this.#decoder.finish();
        if (this.#decoder instanceof SsePositionDecoder) {
          this.#at = this.#decoder.position;
          this.unterminated = this.#decoder.unfinished;
        }
      } else this.#at = this.#lines?.finish();
      this.#verifier.end();
    } catch (error) {
      this.#fail(error);
    }
  }

  #feed(chunk: Uint8Array): boolean {
    try {
      if (this.#decoder !== undefined) this.#decoder.push(chunk);
      else this.#lines?.push(chunk);
    } catch (error) {
      this.#fail(error);
    }
    return this.error === undefined;
  }

  #start(format: Format): void {
    this.format = format;
    const verifier = this.#verifier;
    const tally = this.tally;
    // A value the verifier accepted is an object with a string `type`; asking again would
    // cost more than the count (the events' many shapes make every property read slow).
    const accept = (value: unknown, at: SsePosition | undefined) => {
      this.#at = at;
      verifier.verify(value);
      tally.add(value as Record<string, unknown>, at);
    };
    if (format === "jsonl") {
      this.#lines = new JsonLines(accept, this.#maxBufferSize);
      return;
    }
    const options = { positions: this.#positions, maxBufferSize: this.#maxBufferSize };
    if (!this.#positions) {
      this.#decoder = new SseDecoder((value) => {
        verifier.verify(value);
        tally.add(value as Record<string, unknown>);
      }, options);
      return;
    }
    const decoder = new SsePositionDecoder((value) => {
      const overflow = value instanceof SseDecodeFailure && value.code === "SSE_BUFFER_OVERFLOW";
      accept(value, overflow ? (decoder.unfinished ?? decoder.position) : decoder.messageStart);
    }, options);
    this.#decoder = decoder;
  }

  #fail(error: unknown): void {
    if (!isVerifyError(error)) throw error;
    this.error = error;
    this.position = this.#at;
  }
}

/**
 * JSON Lines: one JSON value per LF-ended line (a CR before the LF is dropped, blank lines
 * are skipped), each handed on with where its line starts.
 */
class JsonLines {
  readonly #emit: (value: unknown, at: SsePosition) => void;
  readonly #max: number;
  readonly #utf8 = new TextDecoder();
  #line = 1;
  #lineStart = 0;
  #base = 0;
  /** The current line's bytes so far, when it spans chunks. */
  #parts: Uint8Array[] = [];
  #partBytes = 0;

  constructor(emit: (value: unknown, at: SsePosition) => void, max: number) {
    this.#emit = emit;
    this.#max = max;
  }

  push(chunk: Uint8Array): void {
    let i = 0;
    for (let lf = chunk.indexOf(LF); lf !== -1; lf = chunk.indexOf(LF, i)) {
      let line = chunk.subarray(i, lf);
      if (this.#parts.length > 0) line = concat([...this.#parts, line]);
      this.#parts = [];
      this.#partBytes = 0;
      this.#value(line);
      i = lf + 1;
      this.#line++;
      this.#lineStart = this.#base + i;
    }
    if (i < chunk.length) {
      this.#parts.push(chunk.slice(i));
      this.#partBytes += chunk.length - i;
      // A line longer than the limit fails as it grows, so memory stays bounded.
      if (this.#partBytes > this.#max) this.#overflow();
    }
    this.#base += chunk.length;
  }

  /** Reads a last line without its LF; returns where the input ends (its last line). */
  finish(): SsePosition {
    const partial = this.#parts.length > 0;
    if (partial) this.#value(concat(this.#parts));
    this.#parts = [];
    return { line: partial || this.#line === 1 ? this.#line : this.#line - 1, offset: this.#base };
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
function concat(parts: readonly Uint8Array[]): Uint8Array {
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
