/**
 * `verifyingFetch`: a `fetch` whose event-stream responses come back verified (SPEC §16).
 * @module
 */

import { type VerifyResponseOptions, verifyResponse } from "./proxy.ts";

/**
 * A function with `fetch`'s signature, written with types every runtime declares (the DOM
 * lib's `RequestInfo` is `Request | string`).
 */
export type FetchFunction = (
  input: Request | string | URL,
  init?: RequestInit,
) => Promise<Response>;

/** Options of {@link verifyingFetch}. */
export interface VerifyingFetchOptions extends VerifyResponseOptions {
  /** The `fetch` to wrap; by default the global one, looked up at each call. */
  fetch?: FetchFunction | undefined;
}

/**
 * True when a content type names an SSE stream (`text/event-stream`, any case, any
 * parameters).
 * @internal
 */
export function isEventStreamType(type: string | null): boolean {
  return type !== null && /^\s*text\/event-stream\s*(;|$)/i.test(type);
}

/**
 * A `fetch` that verifies event streams: a 2xx `text/event-stream` response comes back
 * through {@link verifyResponse}; any other response, and any thrown error, comes back
 * untouched. Here `onViolation` defaults to `"run-error"` and `lineEnds` to `"lf"`, so a
 * client such as `@ag-ui/client`'s `HttpAgent` sees a broken stream as a `RUN_ERROR` event
 * instead of a silent success, and can split CRLF-framed streams (it splits messages only
 * on two LFs).
 *
 * @example
 * ```ts
 * import { HttpAgent } from "@ag-ui/client";
 * import { verifyingFetch } from "ag-ui-verify";
 * const agent = new HttpAgent({ url: "https://agent.example/run", fetch: verifyingFetch() });
 * ```
 */
export function verifyingFetch(options: VerifyingFetchOptions = {}): FetchFunction {
  const proxy: VerifyResponseOptions = {
    ...options,
    onViolation: options.onViolation ?? "run-error",
    lineEnds: options.lineEnds ?? "lf",
  };
  const wrapped = options.fetch;
  return async (input, init) => {
    // The global is looked up now, not when wrapping, so a fetch installed later is used.
    const response = await (wrapped === undefined ? fetch(input, init) : wrapped(input, init));
    if (!response.ok || !isEventStreamType(response.headers.get("content-type"))) return response;
    return verifyResponse(response, proxy);
  };
}
