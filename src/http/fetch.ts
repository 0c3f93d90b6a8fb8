/**
 * `verifyingFetch`: a `fetch` whose event-stream responses come back verified (SPEC §16).
 * @module
 */

import { isEventStreamType, protobufFor } from "../sse/content-type.ts";
import { type VerifyResponseOptions, verifyResponse } from "./proxy.ts";

// Also from here, where the client and the command import it.
export { isEventStreamType } from "../sse/content-type.ts";

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

/** 2xx statuses without a body: nothing to verify, so they come back untouched. */
const BODILESS_OK = new Set([204, 205]);

/**
 * A `fetch` that verifies event streams: a 2xx response whose content type is
 * `text/event-stream`, or absent (or, with `{ protobuf }` from `ag-ui-verify/proto`, the
 * protobuf media type), comes back through {@link verifyResponse}; any other
 * response (an error status, JSON, an HTML page, a 204), and any thrown error, comes back
 * untouched, the same object. Here `onViolation` defaults to `"run-error"` and `lineEnds`
 * to `"lf"`, so a client such as `@ag-ui/client`'s `HttpAgent` sees a broken stream as a
 * failed run (a `RUN_ERROR` whose `code` starts with `"AG_UI_VERIFY_"`, reaching
 * `onRunErrorEvent`) instead of a silent success, and can split CRLF-framed streams (it
 * splits messages only on two LFs). With `"error"`, `runAgent` rejects instead, but
 * `HttpAgent` 1.0.0 then leaves one unhandled promise rejection per broken stream.
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
    if (!response.ok || BODILESS_OK.has(response.status)) return response;
    const type = response.headers.get("content-type");
    const frames = protobufFor(type, proxy.protobuf) !== undefined;
    // No content type is read as SSE, as verifyResponse reads it.
    if (!frames && type !== null && !isEventStreamType(type)) return response;
    return verifyResponse(response, proxy);
  };
}
