/**
 * Verify AG-UI agent event streams against the protocol's ordering rules, in any runtime
 * with web-standard streams: each event passes through once it is checked, and the first
 * event that breaks a rule stops the stream with one {@link VerifyError}.
 *
 * - {@link verifiedEvents}: SSE bytes (a response body) in, verified events out;
 * - {@link runAgent}: POST a run to an agent endpoint and iterate its verified events;
 * - {@link verifyResponse}: re-serve an agent's response, verified, byte for byte;
 * - {@link Verifier} and {@link verifyAll}: the rules over events you already have;
 * - `ag-ui-verify/schema`: `agUiSchema`, to check every event's fields too.
 *
 * @example
 * ```ts
 * import { isVerifyError, verifyAll } from "ag-ui-verify";
 *
 * try {
 *   verifyAll([
 *     { type: "RUN_STARTED", threadId: "t1", runId: "r1" },
 *     { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Hello" },
 *   ]);
 * } catch (error) {
 *   if (isVerifyError(error)) console.log(error.code); // "TEXT_MESSAGE_NOT_OPEN"
 * }
 * ```
 * @module
 */

export * from "./errors.ts";
export * from "./events/index.ts";
export * from "./http/client.ts";
export { type FetchFunction, type VerifyingFetchOptions, verifyingFetch } from "./http/fetch.ts";
export * from "./http/proxy.ts";
export type { DecoderOptions } from "./sse/decoder.ts";
export * from "./sse/decoder-stream.ts";
export * from "./sse/encoder.ts";
export * from "./streams/chunk-expander.ts";
export type { ProtobufSupport, SourceOptions } from "./streams/source.ts";
export * from "./streams/verified-events.ts";
export * from "./streams/verifying-stream.ts";
export {
  type EventOf,
  Verifier,
  type VerifierOptions,
  validateRunOutcome,
  verifyAll,
} from "./verify/verifier.ts";
