/**
 * The agent helper with AG-UI 1.1's consumer pipeline (SPEC §20): `runAgent`'s request and
 * response handling, the body read by `conformingEvents`.
 * @module
 */

import type { KnownAgUiEvent, RunAgentInput } from "../events/index.ts";
import { type EventStream, type RequestOptions, requestEvents } from "../http/client.ts";
import type { ConformOptions } from "./conformer.ts";
import { conformingEvents } from "./stream.ts";

/** Options of {@link runConformingAgent}: the 1.1 pipeline's, and the request's. */
export interface ConformingAgentOptions extends ConformOptions, RequestOptions {}

/**
 * Runs an agent as `runAgent` of the main entry does (a POST of `input` as JSON; an
 * `HttpError` for a non-2xx or non-event-stream response; `signal`, `headers`, `fetch`),
 * and reads the response with AG-UI 1.1's whole consumer pipeline: what comes out is what
 * {@link conformingEvents} delivers, warnings to `onWarning`. The stream is async-iterable
 * in every runtime.
 *
 * @example
 * ```ts
 * import { runConformingAgent } from "ag-ui-verify/conform";
 * const input = {
 *   threadId: "t1", runId: "r1", messages: [], tools: [], context: [], state: {}, forwardedProps: {},
 * };
 * const fetch = async () =>
 *   new Response('data: {"type":"RUN_STARTED","threadId":"t1","runId":"r1"}\n\ndata: {"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}\n\n', {
 *     headers: { "content-type": "text/event-stream" },
 *   });
 * const events = await runConformingAgent("https://agent.example/run", input, { fetch });
 * for await (const event of events) console.log(event.type); // RUN_STARTED, RUN_FINISHED
 * ```
 */
export function runConformingAgent(
  urlOrRequest: string | URL | Request,
  input: RunAgentInput,
  options: ConformingAgentOptions = {},
): Promise<EventStream<KnownAgUiEvent>> {
  return requestEvents(urlOrRequest, input, options, (response) =>
    conformingEvents(response, options),
  );
}
