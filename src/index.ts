export * from "./errors.ts";
export * from "./events.ts";
export * from "./verifier.ts";
