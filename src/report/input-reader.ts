/**
 * One input's bytes, linted as they come: SSE or JSON Lines (SPEC §18), or one JSON array of
 * events. The command reads every input with it, and the test helpers read text with it, so
 * both report the same. No I/O: the caller pushes the chunks.
 * @module
 */

import { Linter } from "../lint/linter.ts";
import { LintReader } from "../lint/stream.ts";
import type { LintOptions, LintReport } from "../lint/types.ts";
import { concat, type Format } from "../sse/json-lines.ts";

/** What an input is linted with: the linter's options, and the input format, if forced. */
export interface ReaderOptions extends LintOptions {
  readonly format?: Format | undefined;
  /**
   * Where the events go as they are read, for the HTML report (SPEC §22): the command's
   * `EventKeeper` (report/html-keep.ts); `finish` then gives its `events()`.
   */
  readonly keep?: EventSink | undefined;
}

/** What keeps an input's events (the HTML report's `EventKeeper`). */
export interface EventSink {
  push(value: unknown): void;
  events(): unknown[];
}

const DEFAULT_MAX_BUFFER_SIZE = 10 * 1024 * 1024;
const BOM = [0xef, 0xbb, 0xbf];

/** The first byte that is not a BOM or whitespace, or -1 when there is none yet. */
function firstByte(bytes: Uint8Array): number {
  let i = BOM.every((b, at) => bytes[at] === b) ? 3 : 0;
  for (; i < bytes.length; i++) {
    const b = bytes[i] ?? 0;
    if (b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) return b;
  }
  return -1;
}

/**
 * One input: SSE or JSON Lines through a {@link LintReader}, or, when the input turns out
 * to be one JSON array (a file some tools write instead of JSON Lines), its elements as
 * the events. An input that starts with `[` is held (up to `maxBufferSize` bytes) until
 * its end tells which; beyond that, or when it is no array, it is read as JSON Lines.
 */
export class InputReader {
  readonly #options: ReaderOptions;
  readonly #reader: LintReader;
  #held: Uint8Array[] | undefined = [];
  #heldBytes = 0;
  /** The first byte that is not whitespace, once seen. */
  #first = -1;
  readonly #keeper: EventSink | undefined;

  constructor(options: ReaderOptions = {}) {
    this.#options = options;
    const keeper = options.keep;
    this.#keeper = keeper;
    this.#reader = new LintReader(
      keeper === undefined ? options : { ...options, onValue: (value) => keeper.push(value) },
    );
  }

  /** How many events were read so far. */
  get events(): number {
    return this.#reader.linter.eventCount;
  }

  push(chunk: Uint8Array): void {
    const held = this.#held;
    if (held === undefined) {
      this.#reader.push(chunk);
      return;
    }
    // Only whitespace so far (a BOM, blank lines: at most 64 KiB of it): wait.
    if (this.#first === -1)
      this.#first = firstByte(held.length === 0 ? chunk : concat([...held, chunk]));
    const limit = this.#options.maxBufferSize ?? DEFAULT_MAX_BUFFER_SIZE;
    const array = this.#first === 0x5b && this.#options.format !== "sse";
    const waiting = this.#first === -1 && this.#heldBytes + chunk.length < 64 * 1024;
    if ((array && this.#heldBytes + chunk.length <= limit) || waiting) {
      // Copied: the caller may reuse its buffer.
      held.push(chunk.slice());
      this.#heldBytes += chunk.length;
      return;
    }
    this.#release();
    this.#reader.push(chunk);
  }

  /**
   * The report, whether the input was read as one JSON array, and with `keep` the events
   * as the HTML report takes them.
   */
  finish(): { report: LintReport; array: boolean; events?: unknown[] } {
    const held = this.#held;
    if (held !== undefined) {
      const bytes = concat(held);
      const events =
        firstByte(bytes) === 0x5b && this.#options.format !== "sse" ? arrayOf(bytes) : undefined;
      if (events !== undefined) {
        const linter = new Linter(this.#options);
        for (const event of events) {
          this.#keeper?.push(event);
          linter.push(event);
        }
        const report = linter.end();
        return {
          report: { ...report, input: { format: "jsonl", bytes: bytes.length } },
          array: true,
          ...this.#kept(),
        };
      }
      this.#release();
    }
    return { report: this.#reader.finish(), array: false, ...this.#kept() };
  }

  #kept(): { events?: unknown[] } {
    return this.#keeper === undefined ? {} : { events: this.#keeper.events() };
  }

  #release(): void {
    const held = this.#held ?? [];
    this.#held = undefined;
    for (const chunk of held) this.#reader.push(chunk);
  }
}

/** The elements of `bytes` when it is one JSON array, else undefined. */
function arrayOf(bytes: Uint8Array): unknown[] | undefined {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
