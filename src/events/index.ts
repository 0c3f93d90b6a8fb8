/**
 * Types for the AG-UI protocol's events (SPEC §3), and one small factory per event type for
 * producers and tests. The types describe the protocol as it is sent; the verifier itself
 * reads only the fields SPEC §3.2 lists and lets everything else pass untouched.
 *
 * The deprecated `THINKING_*` types (removed in protocol 1.0) are not modelled: the verifier
 * treats them as unknown types (SPEC §9.5), which {@link AgUiEvent} already covers.
 *
 * @example
 * ```ts
 * import {
 *   runFinished, runStarted, textMessageContent, textMessageEnd, textMessageStart, verifyAll,
 * } from "ag-ui-verify";
 *
 * const events = [
 *   runStarted({ threadId: "t1", runId: "r1" }),
 *   textMessageStart("m1"),
 *   textMessageContent("m1", "Hello"),
 *   textMessageEnd("m1"),
 *   runFinished({ threadId: "t1", runId: "r1" }),
 * ];
 * verifyAll(events); // returns normally: the run is well-formed
 * ```
 * @module
 */

export * from "./factories.ts";
export * from "./types.ts";
