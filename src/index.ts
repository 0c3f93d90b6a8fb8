export * from "./encoder.ts";
export * from "./errors.ts";
export * from "./events.ts";
export { type DecoderOptions, SseDecoderStream } from "./sse-decoder.ts";
export * from "./verified-events.ts";
export * from "./verifier.ts";
export * from "./verifying-stream.ts";
