export * from "./chunk-expander.ts";
export * from "./client.ts";
export * from "./encoder.ts";
export * from "./errors.ts";
export * from "./events.ts";
export { type FetchFunction, type VerifyingFetchOptions, verifyingFetch } from "./fetch.ts";
export * from "./proxy.ts";
export { type DecoderOptions, SseDecoderStream } from "./sse-decoder.ts";
export * from "./verified-events.ts";
export {
  type EventOf,
  Verifier,
  type VerifierOptions,
  validateRunOutcome,
  verifyAll,
} from "./verifier.ts";
export * from "./verifying-stream.ts";
