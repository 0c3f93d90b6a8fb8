/**
 * `verifyResponse` for a protobuf body (SPEC §21.3): the upstream's frames re-served byte
 * for byte, each released only once it is verified.
 * @module
 */

import { HeldBytes } from "../_util/held-bytes.ts";
import { isVerifyError } from "../errors.ts";
import { CODE_PREFIX, MESSAGE_PREFIX, UPSTREAM_ERROR, upstreamFailure } from "../http/marks.ts";
import type { VerifyResponseOptions } from "../http/proxy.ts";
import { FAILED, FINISHED, Verifier } from "../verify/verifier.ts";
import { encodeFrame, ProtoDecoder } from "./decoder.ts";

/** The most bytes of the `RUN_ERROR` frame the proxy appends (SPEC §17.2). */
const MAX_RUN_ERROR = 4096;

/** The marked `RUN_ERROR` frame, its message cut with "…" to stay under the bound. */
function runErrorFrame(message: string, code: string): Uint8Array {
  let text = MESSAGE_PREFIX + message;
  for (;;) {
    const frame = encodeFrame({ type: "RUN_ERROR", message: text, code });
    if (frame.length <= MAX_RUN_ERROR || text.length === 0) return frame;
    const keep = Math.floor((text.length * (MAX_RUN_ERROR - 64)) / frame.length);
    text = `${text.slice(0, Math.max(0, Math.min(keep, text.length - 2)))}…`;
  }
}

/**
 * The body of a verified protobuf response: upstream chunks are held, decoded and verified,
 * and released up to the end of the last verified frame. On a violation the output ends
 * there, then errors, or (`"run-error"`) gets a marked `RUN_ERROR` frame where 1.1 lets one
 * stand (not after a `RUN_ERROR`), as the SSE proxy does.
 * @internal
 */
export function verifiedFrames(
  body: ReadableStream<Uint8Array> | null,
  options: VerifyResponseOptions,
): ReadableStream<Uint8Array> {
  const upstream = body?.getReader();
  const verifier = new Verifier(options);
  const decoder = new ProtoDecoder((value) => verifier.verify(value), {
    maxFrameSize: options.maxFrameSize,
    onWarning: options.onWarning,
  });
  const runError = options.onViolation === "run-error";
  const held = new HeldBytes();
  let released = 0;
  let finished = false;
  let failure: { error: unknown } | undefined;

  const release = (controller: ReadableStreamDefaultController<Uint8Array>): boolean => {
    const size = decoder.safe - released;
    if (size <= 0) return false;
    released += size;
    held.take(size, (bytes) => controller.enqueue(bytes));
    return true;
  };

  /** Ends the output after what is verified: a RUN_ERROR frame, or the error. */
  const stop = (
    controller: ReadableStreamDefaultController<Uint8Array>,
    error: unknown,
    message: string | undefined,
    code: string | undefined,
  ): void => {
    const didRelease = release(controller);
    if (runError && message !== undefined && code !== undefined) {
      finished = true;
      if (verifier.phase !== FAILED) controller.enqueue(runErrorFrame(message, code));
      controller.close();
      return;
    }
    if (!didRelease) {
      finished = true;
      controller.error(error);
    } else failure = { error };
  };

  const violation = (controller: ReadableStreamDefaultController<Uint8Array>, error: unknown) => {
    upstream?.cancel(error).catch(() => {});
    if (isVerifyError(error)) stop(controller, error, error.message, CODE_PREFIX + error.code);
    else stop(controller, error, undefined, undefined);
  };

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (failure !== undefined) {
          finished = true;
          controller.error(failure.error);
          return;
        }
        for (;;) {
          let chunk: ReadableStreamReadResult<Uint8Array> | undefined;
          try {
            chunk = await upstream?.read();
          } catch (error) {
            if (finished) return;
            release(controller);
            const phase = verifier.phase;
            if (phase === FINISHED || phase === FAILED) {
              finished = true;
              controller.close();
            } else {
              stop(controller, error, upstreamFailure(error), UPSTREAM_ERROR);
            }
            return;
          }
          if (finished) return;
          if (chunk === undefined || chunk.done) {
            try {
              decoder.finish();
              verifier.end();
            } catch (error) {
              violation(controller, error);
              return;
            }
            finished = true;
            release(controller);
            controller.close();
            return;
          }
          if (chunk.value.length === 0) continue;
          held.push(chunk.value);
          try {
            decoder.push(chunk.value);
          } catch (error) {
            violation(controller, error);
            return;
          }
          if (release(controller)) return;
        }
      },
      cancel(reason) {
        finished = true;
        return upstream?.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
