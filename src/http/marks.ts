/**
 * How the proxy marks the `RUN_ERROR` it appends as its own (SPEC §16), shared by the SSE
 * proxy and the protobuf one (ag-ui-verify/proto), and kept out of the public entry.
 * @module
 */

/**
 * How the appended `RUN_ERROR` is marked as the proxy's, not the producer's (SPEC §16; 1.1:
 * "A consumer MUST NOT present one as the other"): a prefix on its code and on its message.
 */
export const CODE_PREFIX = "AG_UI_VERIFY_";
export const MESSAGE_PREFIX = "ag-ui-verify rejected the stream: ";
export const UPSTREAM_ERROR = `${CODE_PREFIX}UPSTREAM_ERROR`;

/**
 * The appended message for a network error of the upstream body: the failure in the
 * library's words, then the runtime's own text (when it can be read, and is not empty).
 */
export function upstreamFailure(error: unknown): string {
  const words = "the agent's response body failed before the stream ended";
  let own = "";
  try {
    own = String(error instanceof Error ? error.message : error);
  } catch {
    // An error whose message cannot be read: the library's words alone.
  }
  return own === "" ? words : `${words}: ${own}`;
}
