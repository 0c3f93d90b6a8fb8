/**
 * `ag-ui-verify/conform`: AG-UI 1.1's consumer pipeline in one import (SPEC §20): the
 * compatibility boundary, enforcement against the 1.1 JSON schema (generated from it),
 * chunk expansion by 1.1's rules, and the verifier, with the warnings 1.1 asks for.
 * @module
 */

export { type ConformingAgentOptions, runConformingAgent } from "./agent.ts";
export {
  CONFORM_WARNING_CODES,
  type ConformOptions,
  type ConformWarning,
  type ConformWarningCode,
} from "./conformer.ts";
export { ConformStream, conformingEvents } from "./stream.ts";
