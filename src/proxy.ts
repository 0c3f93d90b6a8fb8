/**
 * The proxy helper: re-serve an agent's response, verified, for edge runtimes.
 * @module
 */

import { SseEncoderStream } from "./encoder.ts";
import { isVerifyError } from "./errors.ts";
import type { AgUiEvent } from "./events.ts";
import type { DecoderOptions } from "./sse-decoder.ts";
import { verifiedEvents } from "./verified-events.ts";
import type { VerifierOptions } from "./verifier.ts";

const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/** Options of {@link verifyResponse}. */
export interface VerifyResponseOptions extends VerifierOptions, DecoderOptions {
  /**
   * What the client downstream sees when the upstream stream breaks a rule:
   * - `"error"` (default): the downstream stream errors (the connection breaks off);
   * - `"run-error"`: while the run is open, the stream ends cleanly with a final
   *   `RUN_ERROR` event (`message` and `code` from the `VerifyError`); where a `RUN_ERROR`
   *   would itself break the protocol (no run open), the stream just ends.
   */
  onViolation?: "error" | "run-error" | undefined;
}

/**
 * A new `Response` whose body is the upstream response's events, decoded, verified and
 * re-encoded as SSE (`text/event-stream`, not cached), so that a proxy never forwards a
 * broken stream. On a violation the upstream body is cancelled, and the downstream stream
 * errors or ends with a `RUN_ERROR` (see `onViolation`). The upstream status is kept; a status
 * that allows no body (204, 205, 304) passes through without one.
 *
 * @example
 * ```ts
 * import { verifyResponse } from "ag-ui-verify";
 * export default {
 *   async fetch(request: Request): Promise<Response> {
 *     const upstream = await fetch("https://agent.internal/run", request);
 *     if (!upstream.ok) return upstream;
 *     return verifyResponse(upstream, { onViolation: "run-error" });
 *   },
 * };
 * ```
 */
export function verifyResponse(response: Response, options: VerifyResponseOptions = {}): Response {
  const init = {
    status: response.status,
    statusText: response.statusText,
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  };
  // Statuses that cannot carry a body (204, 205, 304...) pass through without one.
  if (NULL_BODY_STATUSES.has(response.status)) return new Response(null, init);
  const events = verifiedEvents(response.body, options);
  const body = (options.onViolation === "run-error" ? endWithRunError(events) : events).pipeThrough(
    new SseEncoderStream(),
  );
  return new Response(body, init);
}

/** Replaces a violation by a final RUN_ERROR while a run is open, or by the end of the stream. */
function endWithRunError(events: ReadableStream<AgUiEvent>): ReadableStream<AgUiEvent> {
  const reader = events.getReader();
  let runOpen = false;
  return new ReadableStream<AgUiEvent>(
    {
      async pull(controller) {
        let result: ReadableStreamReadResult<AgUiEvent>;
        try {
          result = await reader.read();
        } catch (error) {
          if (!isVerifyError(error)) throw error;
          if (runOpen)
            controller.enqueue({ type: "RUN_ERROR", message: error.message, code: error.code });
          controller.close();
          return;
        }
        if (result.done) {
          controller.close();
          return;
        }
        const type = result.value.type;
        if (type === "RUN_STARTED") runOpen = true;
        else if (type === "RUN_FINISHED" || type === "RUN_ERROR") runOpen = false;
        controller.enqueue(result.value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
