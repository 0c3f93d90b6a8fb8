/**
 * Checking one recorded stream: SSE or JSON Lines bytes in, chunk by chunk; each message
 * verified as it completes and counted. With `positions`, the SSE decoder also tells where
 * each message starts, so a violation can be placed by line and byte offset.
 * @module
 */

import { isVerifyError, SseDecodeFailure, type VerifyError } from "../errors.ts";
import { agUiSchema } from "../schema/index.ts";
import { SseDecoder } from "../sse/decoder.ts";
import { concat, type Format, JsonLines, sniff } from "../sse/json-lines.ts";
import { type SsePosition, SsePositionDecoder } from "../sse/positions.ts";
import { Verifier } from "../verify/verifier.ts";
import { Tally } from "./tally.ts";

export type { Format } from "../sse/json-lines.ts";

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
