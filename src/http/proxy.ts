/**
 * The proxy helper: re-serve an agent's response, verified, byte for byte (SPEC §16).
 * @module
 */

import { HeldBytes } from "../_util/held-bytes.ts";
import { isVerifyError } from "../errors.ts";
import { isEventStreamType, protobufFor } from "../sse/content-type.ts";
import { SsePositionDecoder } from "../sse/positions.ts";
import { SseReleaseDecoder } from "../sse/release.ts";
import type { SourceOptions } from "../streams/source.ts";
import { FAILED, FINISHED, Verifier, type VerifierOptions } from "../verify/verifier.ts";
import { CODE_PREFIX, MESSAGE_PREFIX, UPSTREAM_ERROR, upstreamFailure } from "./marks.ts";

/** Options of {@link verifyResponse}. */
export interface VerifyResponseOptions extends VerifierOptions, SourceOptions {
  /**
   * What the client downstream sees when the upstream stream breaks a rule. In both modes
   * the output ends at the end of the last verified message and the upstream is cancelled.
   * - `"error"` (default): the body then errors with the `VerifyError` (the connection
   *   breaks off);
   * - `"run-error"`: one final `RUN_ERROR` message is appended and the body closes cleanly,
   *   wherever AG-UI 1.1 lets a `RUN_ERROR` stand: before any run, while a run is open, and
   *   after a `RUN_FINISHED` (a late failure, so the finished run reads as failed). After a
   *   `RUN_ERROR` the body just closes: that run already failed. The appended event's
   *   `code` is `"AG_UI_VERIFY_"` followed by the `VerifyError`'s code (e.g.
   *   `"AG_UI_VERIFY_TEXT_MESSAGE_NOT_OPEN"`) and its `message` starts with
   *   `"ag-ui-verify rejected the stream:"`, so a client tells it from the producer's own
   *   `RUN_ERROR`, which passes through untouched.
   *
   * A network error of the upstream body before any run or while a run is open errors the
   * body with that error (`"error"`) or appends a `RUN_ERROR` whose `code` is
   * `"AG_UI_VERIFY_UPSTREAM_ERROR"` (`"run-error"`). After a `RUN_FINISHED` or a
   * `RUN_ERROR` nothing is lost by it: in both modes the body just closes.
   */
  onViolation?: "error" | "run-error" | undefined;
  /**
   * `"keep"` (default): the upstream's bytes exactly. `"lf"`: the same bytes with every
   * line end (CR or CRLF) written as LF, for clients that split messages only on two LFs.
   */
  lineEnds?: "keep" | "lf" | undefined;
}

/** Statuses whose responses have no body. */
const BODILESS = new Set([204, 205, 304]);
/** Headers that describe the upstream connection or encoding, not the re-served body. */
const HOP_HEADERS = [
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
];
const LF = 10;
const CR = 13;
const COLON = 58;
const NEWLINE = new Uint8Array([LF]);
const utf8 = new TextEncoder();

/**
 * A new `Response` whose body is the upstream response's own bytes, released only once
 * they are verified: an edge proxy that never forwards a broken AG-UI stream.
 *
 * - For a stream the verifier accepts, the bytes out are the bytes in, however the
 *   network cut them (BOM, comments, `id:`, `event:`, `retry:` and CR/CRLF framing kept;
 *   with `lineEnds: "lf"` every line end becomes LF). Bytes are released as soon as they
 *   are safe: up to the end of the last verified message, and a heartbeat comment (`: ping`)
 *   outside a message at once, so it reaches the client while the agent is silent. A
 *   message is never released before it is verified, a partial one never.
 * - On a violation the body ends at the last verified message, then errors or ends with a
 *   `RUN_ERROR` marked `AG_UI_VERIFY_…` (see {@link VerifyResponseOptions.onViolation}); the
 *   upstream is cancelled. An upstream network error is handled there too.
 * - The status and headers are kept, except `content-length`, `content-encoding`,
 *   `transfer-encoding`, `connection` and `keep-alive`; `content-type: text/event-stream`
 *   and `cache-control: no-cache` are added when absent. A 204, 205 or 304 passes through
 *   without a body. Cancelling the body cancels the upstream's.
 * - A response whose content type is present but not `text/event-stream` (a JSON error, an
 *   HTML error page) is returned as it is, the same object: it has no events to verify.
 * - With `{ protobuf }` (from `ag-ui-verify/proto`), a response of its media type is
 *   re-served frame for frame: the output bytes are the input bytes, each frame released
 *   once it is verified; `"run-error"` appends a `RUN_ERROR` frame. The content type is kept
 *   byte for byte.
 *
 * @example
 * ```ts
 * import { verifyResponse } from "ag-ui-verify";
 *
 * // A Worker's handler (the module's default export in a Cloudflare Worker):
 * const worker = {
 *   async fetch(request: Request): Promise<Response> {
 *     const upstream = await fetch("https://agent.internal/run", request);
 *     if (!upstream.ok) return upstream;
 *     return verifyResponse(upstream, { onViolation: "run-error" });
 *   },
 * };
 * ```
 */
export function verifyResponse(response: Response, options: VerifyResponseOptions = {}): Response {
  const type = response.headers.get("content-type");
  const frames = protobufFor(type, options.protobuf);
  if (frames === undefined && type !== null && !isEventStreamType(type)) return response;
  const headers = new Headers(response.headers);
  for (const name of HOP_HEADERS) headers.delete(name);
  if (!headers.has("content-type")) headers.set("content-type", "text/event-stream");
  if (!headers.has("cache-control")) headers.set("cache-control", "no-cache");
  const init = { status: response.status, statusText: response.statusText, headers };
  if (BODILESS.has(response.status)) return new Response(null, init);
  const body = frames
    ? frames.proxy(response.body, options)
    : new ReadableStream<Uint8Array>(new VerifiedBytes(response.body, options), {
        highWaterMark: 0,
      });
  return new Response(body, init);
}

/** Thrown out of a replay's `emit` once the value it looks for came out. */
const FOUND = Symbol("found");

/** The most bytes of the `RUN_ERROR` line the proxy appends (SPEC §17.2). */
const MAX_RUN_ERROR = 4096;
/**
 * The SSE message of the appended `RUN_ERROR`, at most {@link MAX_RUN_ERROR} bytes: a long
 * message (an upstream's error text, or one whose characters JSON escapes) is cut at its
 * end, with "…", so the prefix stays.
 */
function runErrorLine(message: string, code: string): Uint8Array {
  let text = MESSAGE_PREFIX + message;
  for (;;) {
    const line = utf8.encode(
      `data: ${JSON.stringify({ type: "RUN_ERROR", message: text, code })}\n\n`,
    );
    if (line.length <= MAX_RUN_ERROR || text.length === 0) return line;
    const keep = Math.floor((text.length * (MAX_RUN_ERROR - 64)) / line.length);
    text = `${text.slice(0, Math.max(0, Math.min(keep, text.length - 2)))}…`;
  }
}

/**
 * The body's source: reads an upstream chunk, keeps it, lets the decoder and the verifier
 * run over it, then releases the kept bytes up to where the decoder says everything is
 * verified. One stage, one release per network chunk that completes something.
 *
 * On the way, the decoder only finds that offset, once per chunk. Where exactly a violation
 * or the end of input leaves the output is found by reading the kept bytes again with
 * {@link SsePositionDecoder}: they start where no message is open, and are few.
 */
class VerifiedBytes implements UnderlyingDefaultSource<Uint8Array> {
  readonly #upstream: ReadableStreamDefaultReader<Uint8Array> | undefined;
  readonly #decoder: SseReleaseDecoder;
  readonly #maxBufferSize: number | undefined;
  readonly #verifier: Verifier;
  /** Values the decoder passed on during the current push or finish, the last included. */
  #emitted = 0;
  readonly #runError: boolean;
  readonly #lf: boolean;
  /** Upstream bytes read but not released; the first starts at offset `#released`. */
  readonly #held = new HeldBytes();
  #released = 0;
  #read = 0;
  /** Whether the output so far is empty or ends with a line end. */
  #atLineStart = true;
  /** (lf) Whether the last byte written was a CR, so that an LF right after it is dropped. */
  #afterCR = false;
  /** An error to raise at the next pull, once the bytes released before it are read. */
  #failure: { error: unknown } | undefined;
  #finished = false;

  constructor(body: ReadableStream<Uint8Array> | null, options: VerifyResponseOptions) {
    this.#upstream = body?.getReader();
    this.#runError = options.onViolation === "run-error";
    this.#lf = options.lineEnds === "lf";
    const verifier = new Verifier(options);
    this.#verifier = verifier;
    this.#maxBufferSize = options.maxBufferSize;
    this.#decoder = new SseReleaseDecoder(
      // The per-event path: nothing but the count and the check. Where the stream stands
      // (before a run, in one, after one) is read from the verifier when it ends or breaks.
      (value) => {
        this.#emitted++;
        verifier.verify(value);
      },
      { maxBufferSize: options.maxBufferSize },
    );
  }

  async pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    if (this.#failure !== undefined) {
      this.#finished = true;
      controller.error(this.#failure.error);
      return;
    }
    // Read until something can be released or the stream is over: a pull that returns
    // with nothing enqueued would leave the reader waiting forever.
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array> | undefined;
      try {
        chunk = await this.#upstream?.read();
      } catch (error) {
        this.#upstreamFailed(controller, error);
        return;
      }
      if (this.#finished) return; // cancelled meanwhile
      if (chunk === undefined || chunk.done) {
        this.#end(controller);
        return;
      }
      const bytes = chunk.value;
      if (bytes.length === 0) continue;
      this.#held.push(bytes);
      this.#read += bytes.length;
      this.#emitted = 0;
      try {
        this.#decoder.push(bytes);
      } catch (error) {
        this.#violation(controller, error, this.#safeBefore(this.#emitted));
        return;
      }
      if (this.#release(controller, this.#decoder.safe)) return;
    }
  }

  cancel(reason: unknown): Promise<void> | undefined {
    this.#finished = true;
    return this.#upstream?.cancel(reason);
  }

  /** The end of the input: the last messages, the end-of-input check, then close. */
  #end(controller: ReadableStreamDefaultController<Uint8Array>): void {
    this.#emitted = 0;
    try {
      this.#decoder.finish();
    } catch (error) {
      this.#violation(controller, error, this.#safeBefore(this.#emitted));
      return;
    }
    const { safe, lastLine, unfinished } = this.#ending();
    let upTo = safe;
    // A comment line that the end of input cut short, outside a message, is released too.
    if (upTo < this.#read && !unfinished && this.#byteAt(lastLine) === COLON) upTo = this.#read;
    try {
      this.#verifier.end();
    } catch (error) {
      this.#violation(controller, error, upTo);
      return;
    }
    this.#finished = true;
    this.#release(controller, upTo);
    controller.close();
  }

  /** A decoder that reads the kept bytes again, from the released offset. */
  #replay(emit: (decoder: SsePositionDecoder) => void): SsePositionDecoder {
    const decoder: SsePositionDecoder = new SsePositionDecoder(
      () => emit(decoder),
      { maxBufferSize: this.#maxBufferSize },
      this.#released > 0,
    );
    return decoder;
  }

  /**
   * The safe offset when the value numbered `count` (from 1) of the kept bytes came out:
   * everything before that value's message.
   */
  #safeBefore(count: number): number {
    let seen = 0;
    let at = 0;
    const decoder = this.#replay((replay) => {
      if (++seen < count) return;
      at = replay.safe;
      throw FOUND;
    });
    try {
      for (const bytes of this.#held.pieces()) decoder.push(bytes);
      decoder.finish();
    } catch (error) {
      if (error !== FOUND) throw error;
    }
    return this.#released + at;
  }

  /**
   * After the end of input: the safe offset, where the last line starts, and whether a
   * message was left unfinished.
   */
  #ending(): { safe: number; lastLine: number; unfinished: boolean } {
    const decoder = this.#replay(() => {});
    for (const bytes of this.#held.pieces()) decoder.push(bytes);
    // Where the last line started: when no line end follows it, finish() leaves it alone.
    const lastLine = this.#released + decoder.position.offset;
    decoder.finish();
    return {
      safe: this.#released + decoder.safe,
      lastLine,
      unfinished: decoder.unfinished !== undefined,
    };
  }

  /** Releases what was verified, cancels the upstream, then errors or ends with RUN_ERROR. */
  #violation(
    controller: ReadableStreamDefaultController<Uint8Array>,
    error: unknown,
    upTo: number,
  ): void {
    this.#upstream?.cancel(error).catch(() => {});
    const released = this.#release(controller, upTo);
    if (this.#runError && isVerifyError(error)) {
      this.#closeWithRunError(controller, error.message, CODE_PREFIX + error.code);
      return;
    }
    this.#fail(controller, released, error);
  }

  #upstreamFailed(controller: ReadableStreamDefaultController<Uint8Array>, error: unknown): void {
    if (this.#finished) return;
    // No byte follows: a CR the decoder held back (a CRLF or not?) ends its line, and may
    // complete a message that arrived in full. Release what is verified, then fail.
    this.#emitted = 0;
    let upTo: number;
    try {
      this.#decoder.finish();
      upTo = this.#ending().safe;
    } catch {
      upTo = this.#safeBefore(this.#emitted);
    }
    const released = this.#release(controller, upTo);
    const phase = this.#verifier.phase;
    if (phase === FINISHED || phase === FAILED) {
      // The last run had closed: everything it sent is out, and nothing is lost.
      this.#finished = true;
      controller.close();
      return;
    }
    if (this.#runError) {
      this.#closeWithRunError(controller, upstreamFailure(error), UPSTREAM_ERROR);
      return;
    }
    this.#fail(controller, released, error);
  }

  /**
   * Appends the marked `RUN_ERROR` wherever 1.1 lets one stand (before any run, in a run,
   * after RUN_FINISHED), not after a RUN_ERROR; then closes.
   */
  #closeWithRunError(
    controller: ReadableStreamDefaultController<Uint8Array>,
    message: string,
    code: string,
  ): void {
    this.#finished = true;
    if (this.#verifier.phase !== FAILED) {
      if (!this.#atLineStart) controller.enqueue(NEWLINE);
      controller.enqueue(runErrorLine(message, code));
    }
    controller.close();
  }

  /** Errors the body, after the bytes just released (if any) are read. */
  #fail(
    controller: ReadableStreamDefaultController<Uint8Array>,
    released: boolean,
    error: unknown,
  ): void {
    if (!released) {
      this.#finished = true;
      controller.error(error);
      return;
    }
    // Erroring now would discard the released bytes before the reader has them.
    this.#failure = { error };
  }

  #byteAt(offset: number): number | undefined {
    return this.#held.at(offset - this.#released);
  }

  /**
   * Enqueues the held bytes before offset `upTo` (line ends converted with `lf`), as views of
   * the pieces held (the upstream's chunks, or small ones copied together): copying them
   * into one array costs more than a second enqueue. Returns whether anything was enqueued.
   */
  #release(controller: ReadableStreamDefaultController<Uint8Array>, upTo: number): boolean {
    const size = upTo - this.#released;
    if (size <= 0) return false;
    this.#released = upTo;
    let last: Uint8Array | undefined;
    this.#held.take(size, (bytes) => {
      last = bytes;
      controller.enqueue(this.#lf ? this.#toLf(bytes) : bytes);
    });
    const end = last?.[last.length - 1];
    this.#atLineStart = end === LF || end === CR;
    return true;
  }

  /** `bytes` with each CR and CRLF written as LF, across calls. */
  #toLf(bytes: Uint8Array): Uint8Array {
    const skipLF = this.#afterCR && bytes[0] === LF;
    this.#afterCR = bytes[bytes.length - 1] === CR;
    let cr = bytes.indexOf(CR);
    if (cr === -1) return skipLF ? bytes.subarray(1) : bytes;
    // A copy, compacted in place: the upstream's chunks are not ours to change.
    const out = bytes.slice(skipLF ? 1 : 0);
    if (skipLF) cr--;
    let at = cr;
    while (cr !== -1) {
      out[at++] = LF;
      const from = out[cr + 1] === LF ? cr + 2 : cr + 1;
      cr = out.indexOf(CR, from);
      const to = cr === -1 ? out.length : cr;
      out.copyWithin(at, from, to);
      at += to - from;
    }
    return out.subarray(0, at);
  }
}
