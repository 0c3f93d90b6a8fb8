/**
 * `lintStream`: an SSE or JSON Lines input linted as it is read (SPEC §18.1), each finding
 * placed by the line and byte offset where its event starts.
 * @module
 */

import type { BodyDecoder } from "../_util/transport.ts";
import { SseDecodeFailure } from "../errors.ts";
import { saysProtobuf } from "../sse/content-type.ts";
import { concat, type Format, JsonLines, sniff } from "../sse/json-lines.ts";
import { type SsePosition, SsePositionDecoder } from "../sse/positions.ts";
import { isResponse, unreadable } from "../streams/source.ts";
import { lineEndsNotLf } from "./duties.ts";
import { Linter } from "./linter.ts";
import type { LintOptions, LintReport } from "./types.ts";
import { ignoredLine, type Warning } from "./warnings.ts";

/** A protobuf frame dropped for an event it does not name: the decoder's words. */
function droppedFrame(message: string): Warning {
  const text = message
    .replace(/^frame at index \d+: /, "")
    .replace(/ \[UNKNOWN_EVENT_DROPPED, warning\]$/, "");
  return { code: "UNKNOWN_EVENT_DROPPED", text, eventType: undefined };
}

const DEFAULT_MAX_BUFFER_SIZE = 10 * 1024 * 1024;
/** How many bytes may go by before the format must be told (blank lines, a BOM). */
const SNIFF_LIMIT = 64 * 1024;
const CR = 13;

/** A value's `type`, when it is an event with a string one. */
function typeOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const type = (value as { type?: unknown }).type;
  return typeof type === "string" ? type : undefined;
}

/**
 * The SSE decoder as the linter reads with it: a message whose data is not JSON is a
 * finding and decoding goes on with the next message; a line the parser ignores is a
 * warning; `SSE_BUFFER_OVERFLOW` still stops it.
 */
class LintDecoder extends SsePositionDecoder {
  readonly #invalid: (failure: SseDecodeFailure) => void;
  readonly #ignored: (line: string | undefined, at: SsePosition | undefined) => void;

  constructor(
    emit: (value: unknown) => void,
    invalid: (failure: SseDecodeFailure) => void,
    ignored: (line: string | undefined, at: SsePosition | undefined) => void,
    maxBufferSize: number,
  ) {
    super(emit, { maxBufferSize });
    this.#invalid = invalid;
    this.#ignored = ignored;
  }

  protected override invalid(failure: SseDecodeFailure): void {
    this.#invalid(failure);
  }

  /** An ignored line, placed where it starts. */
  protected override ignored(line: string | undefined): void {
    this.#ignored(line, this.seekIgnored());
  }
}

/** What a {@link LintReader} reads with: the linter's options, the format if forced, and a watcher. */
export interface LintReaderOptions extends LintOptions {
  readonly format?: Format | undefined;
  /** Called with each value the linter gets (an event, or a message that was not JSON), in order. */
  readonly onValue?: ((value: unknown) => void) | undefined;
}

/**
 * One input, pushed chunk by chunk (the bytes are not kept: the caller may reuse its
 * buffer), then finished: the format is told from the first bytes, each value goes to the
 * linter with where it starts. The command and the test helpers read with it too.
 * @internal
 */
export class LintReader {
  readonly linter: Linter;
  format: Format | undefined;
  bytes = 0;
  /** SSE, after `finish`: the start of a last message with no blank line (discarded). */
  unterminated: SsePosition | undefined;
  readonly #max: number;
  #decoder: LintDecoder | undefined;
  #lines: JsonLines | undefined;
  /** Protobuf frames: the decoder `options.protobuf` makes, and the frames read. */
  #frames: BodyDecoder | undefined;
  readonly #protobuf: LintOptions["protobuf"];
  readonly #maxFrameSize: number | undefined;
  #frameCount = 0;
  #held: Uint8Array[] = [];
  #stopped = false;
  /** SSE: the byte offset of the first CR fed to the decoder, or -1 (SSE_LINE_ENDINGS_NOT_LF). */
  #cr = -1;
  #fed = 0;
  #crReported = false;
  /** Sees each value the linter gets, in order (the HTML report keeps events with it). */
  readonly #onValue: ((value: unknown) => void) | undefined;

  constructor(options: LintReaderOptions = {}) {
    this.linter = new Linter(options);
    this.#onValue = options.onValue;
    this.format = options.format;
    this.#max = options.maxBufferSize ?? DEFAULT_MAX_BUFFER_SIZE;
    this.#protobuf = options.protobuf;
    this.#maxFrameSize = options.maxFrameSize;
  }

  push(chunk: Uint8Array): void {
    // The input's size counts every byte, also those after a message too long to read.
    this.bytes += chunk.length;
    if (this.#stopped || chunk.length === 0) return;
    if (this.#decoder !== undefined || this.#lines !== undefined || this.#frames !== undefined) {
      this.#feed(chunk);
      return;
    }
    // While the format is not told (at most SNIFF_LIMIT bytes of blank lines or a BOM), what
    // came is copied, as the caller may reuse its buffer; a chunk that tells it is not.
    const held = this.#held.length === 0 ? chunk : concat([...this.#held, chunk]);
    const format = this.format ?? sniff(held, this.#protobuf !== undefined);
    if (format === undefined && held.length < SNIFF_LIMIT) {
      this.#held = [held === chunk ? chunk.slice() : held];
      return;
    }
    this.#held = [];
    this.#start(format ?? "sse");
    this.#feed(held);
  }

  /** Ends the input: a last line without its line end, then the end-of-input checks. */
  finish(): LintReport {
    if (this.#decoder === undefined && this.#lines === undefined && this.#frames === undefined) {
      const held = concat(this.#held);
      this.#start(this.format ?? sniff(held, this.#protobuf !== undefined) ?? "sse");
      this.#feed(held);
    }
    let end: SsePosition | undefined;
    if (!this.#stopped) {
      if (this.#decoder !== undefined) {
        this.#decoder.finish();
        end = this.#decoder.position;
        this.unterminated = this.#decoder.unfinished;
      } else if (this.#frames !== undefined) {
        this.#frames.finish();
        end = { line: this.#frameCount + 1, offset: this.bytes };
      } else end = this.#lines?.finish();
    }
    // A CR after the last message (or in one the input cut off) is reported at the end.
    if (!this.#stopped) this.#lineEnds(Number.POSITIVE_INFINITY, undefined, end);
    const report = this.linter.end(end);
    const format = this.format ?? "sse";
    const u = this.unterminated;
    const unterminated =
      u === undefined ? {} : { unterminated: { line: u.line, offset: u.offset } };
    return { ...report, input: { format, bytes: this.bytes, ...unterminated } };
  }

  #feed(chunk: Uint8Array): void {
    if (this.#frames !== undefined) {
      this.#frames.push(chunk);
      return;
    }
    if (this.#decoder !== undefined) {
      if (this.#cr === -1) {
        const at = chunk.indexOf(CR);
        if (at !== -1) this.#cr = this.#fed + at;
      }
      this.#fed += chunk.length;
      this.#decoder.push(chunk);
    } else this.#lines?.push(chunk);
  }

  /**
   * SSE_LINE_ENDINGS_NOT_LF, once per input: at the event whose message holds the first CR
   * (the decoder has read up to `end`, the end of that message), or at the end of input.
   */
  #lineEnds(end: number, eventType: string | undefined, at: SsePosition | undefined): void {
    if (this.#cr === -1 || this.#crReported || this.#cr >= end) return;
    this.#crReported = true;
    this.linter.warnAt(lineEndsNotLf(this.#cr, eventType), at);
  }

  #start(format: Format): void {
    this.format = format;
    const linter = this.linter;
    if (format === "jsonl") {
      this.#lines = new JsonLines((value, at) => this.#value(value, at), this.#max);
      return;
    }
    if (format === "proto") {
      this.#startFrames();
      return;
    }
    const decoder: LintDecoder = new LintDecoder(
      (value) => {
        const overflow = value instanceof SseDecodeFailure && value.code === "SSE_BUFFER_OVERFLOW";
        const at = overflow ? (decoder.unfinished ?? decoder.position) : decoder.messageStart;
        // A message too long to read stops the input where it starts: a CR in it, read or
        // not depending on the chunks, is not judged.
        const end = overflow ? at.offset : decoder.position.offset;
        if (!this.#stopped) this.#lineEnds(end, typeOf(value), at);
        this.#value(value, at);
      },
      (failure) => {
        this.#lineEnds(decoder.position.offset, undefined, decoder.messageStart);
        this.#push(failure, decoder.messageStart);
      },
      (line, at) => linter.warnAt(ignoredLine(line), at),
      this.#max,
    );
    this.#decoder = decoder;
  }

  /**
   * Protobuf frames, with the decoder `options.protobuf` brings: each value placed at its
   * frame (`line` counts frames from 1, `offset` is the frame's first byte); a frame dropped
   * for an unknown event is the warning `UNKNOWN_EVENT_DROPPED`.
   */
  #startFrames(): void {
    const protobuf = this.#protobuf;
    if (protobuf === undefined) {
      throw new TypeError(
        "the input is protobuf frames: pass { protobuf } from ag-ui-verify/proto to lint it",
      );
    }
    const frames: BodyDecoder = protobuf.decoder(
      (value) => {
        this.#frameCount++;
        this.#push(value, { line: this.#frameCount, offset: frames.frameStart ?? 0 });
      },
      {
        maxFrameSize: this.#maxFrameSize,
        onWarning: (w) => {
          this.#frameCount++;
          this.linter.warnAt(droppedFrame(w.message), {
            line: this.#frameCount,
            offset: frames.frameStart ?? 0,
          });
        },
      },
    );
    this.#frames = frames;
  }

  /** One value to the linter (and to `onValue`). */
  #push(value: unknown, at: SsePosition): void {
    this.#onValue?.(value);
    this.linter.pushAt(value, at);
  }

  #value(value: unknown, at: SsePosition): void {
    if (this.#stopped) return;
    this.#push(value, at);
    // A message too long to read stops the input (SPEC §18.1); nothing after it is read.
    if (value instanceof SseDecodeFailure && value.code === "SSE_BUFFER_OVERFLOW") {
      this.#stopped = true;
    }
  }
}

/**
 * Lints an SSE or JSON Lines input (JSON Lines when its first character that is not
 * whitespace is `{` or `[`): every finding, each placed by line and byte offset. Unlike
 * the verifier, a message whose data is not JSON does not stop it; a message longer than
 * `maxBufferSize` does. A `Response` is read from its body; an error of the stream (the
 * network) rejects the promise. With `{ protobuf }` (from `ag-ui-verify/proto`), protobuf
 * frames are linted too: a `Response` of that media type, or an input whose first byte is
 * 0; there each finding's `line` counts frames from 1 and `offset` is its frame's first
 * byte (without it, such bytes are read as SSE). A value of another kind (a Node.js
 * stream) rejects with a `TypeError` naming it.
 *
 * @example
 * ```ts
 * import { lintStream } from "ag-ui-verify/lint";
 * const report = await lintStream('data: {"type":"RUN_STARTED"}\n\ndata: [DONE]\n\n');
 * for (const f of report.findings) console.log(f.line, f.code); // 3 "INVALID_JSON", …
 * ```
 */
export async function lintStream(
  input: ReadableStream<Uint8Array | string> | Response | string | Uint8Array,
  options?: LintOptions,
): Promise<LintReport> {
  const response = isResponse(input) ? input : undefined;
  // A Response that says it is protobuf is read as frames: without the transport, that fails.
  const frames = response !== undefined && saysProtobuf(response.headers.get("content-type"));
  const reader = new LintReader(frames ? { ...options, format: "proto" } : options);
  if (typeof input === "string") reader.push(utf8.encode(input));
  else if (input instanceof Uint8Array) reader.push(input);
  else {
    const stream = response !== undefined ? response.body : input;
    if (stream !== null && typeof (stream as ReadableStream).getReader !== "function") {
      throw unreadable(
        "lintStream",
        "a ReadableStream, a Response, a string or a Uint8Array",
        input,
      );
    }
    const source = (stream as ReadableStream<Uint8Array | string> | null)?.getReader();
    if (source !== undefined) {
      for (;;) {
        const { done, value } = await source.read();
        if (done) break;
        reader.push(typeof value === "string" ? utf8.encode(value) : value);
      }
    }
  }
  return reader.finish();
}

const utf8 = new TextEncoder();
