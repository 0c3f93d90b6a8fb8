/**
 * The 1.1 consumer pipeline as streams (SPEC §20): {@link ConformStream} (boundary,
 * enforcement, chunk expansion) and {@link conformingEvents} (decoding, those stages and
 * the verifier, in one stream stage).
 * @module
 */

import type { KnownAgUiEvent } from "../events/index.ts";
import { decodedStream } from "../streams/verified-events.ts";
import { passes, Verifier } from "../verify/verifier.ts";
import { Conformer, type ConformOptions } from "./conformer.ts";

/**
 * A `TransformStream` running AG-UI 1.1's stages before verification (SPEC §20.1) on the
 * values written to it: retired `THINKING_*` events are translated, the 1.1 schema is
 * enforced (an unknown event type dropped, an undescribed property or unrecognised member
 * stripped, each with a warning to `onWarning`; a malformed known value errors the stream
 * with a `SCHEMA_MISMATCH` `VerifyError`), and chunks are expanded by 1.1's rules (a
 * malformed chunk errors it with a `CHUNK_*` code). An event from which nothing is
 * stripped comes out as the same object; the input is never written to. It does not
 * verify: pipe it into a `VerifyingTransformStream`, or use {@link conformingEvents}.
 *
 * @example
 * ```ts
 * import { ConformStream } from "ag-ui-verify/conform";
 * const events = ReadableStream.from([
 *   { type: "RUN_STARTED", threadId: "t1", runId: "r1" },
 *   { type: "FUTURE_EVENT" },
 *   { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", delta: "Hi" },
 *   { type: "RUN_FINISHED", threadId: "t1", runId: "r1" },
 * ]).pipeThrough(new ConformStream({ onWarning: (w) => console.warn(w.message) }));
 * for await (const event of events) console.log(event.type);
 * // RUN_STARTED, TEXT_MESSAGE_START, TEXT_MESSAGE_CONTENT, TEXT_MESSAGE_END, RUN_FINISHED
 * ```
 */
export class ConformStream extends TransformStream<unknown, KnownAgUiEvent> {
  /** Throws a `TypeError` for a `supportedVersion` that is not a version, or a `maxIds` that is not a bound. */
  constructor(options?: ConformOptions) {
    const conformer = new Conformer(options);
    super({
      transform(value, controller) {
        conformer.push(value, (event) => controller.enqueue(event as KnownAgUiEvent));
      },
    });
  }
}

/**
 * Decodes an SSE response body and runs AG-UI 1.1's whole consumer pipeline on it (SPEC
 * §20): the stages of {@link ConformStream}, then the verifier with the same options, in
 * one stream stage. What comes out is what a conforming 1.1 consumer delivers to its
 * application; warnings go to `onWarning`; the first violation errors the stream with the
 * `VerifyError` itself, after every event before it was read. A `null` body is empty input.
 * A `Response` is read as `verifiedEvents` reads one: a status that is not 2xx, or a
 * content type that is set and is not `text/event-stream`, is `RESPONSE_NOT_EVENTS`.
 *
 * @example
 * ```ts
 * import { conformingEvents } from "ag-ui-verify/conform";
 * // A response body, here from a string: `(await fetch(url, init)).body` in an app.
 * const body = new Response(
 *   'data: {"type":"RUN_STARTED","threadId":"t1","runId":"r1"}\n\n' +
 *     'data: {"type":"TEXT_MESSAGE_CHUNK","messageId":"m1","delta":"Hi","mood":1}\n\n' +
 *     'data: {"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}\n\n',
 * ).body;
 * const events = conformingEvents(body, { onWarning: (w) => console.warn(w.message) });
 * for await (const event of events) console.log(event.type);
 * // warns: /mood is stripped; logs RUN_STARTED, TEXT_MESSAGE_START, TEXT_MESSAGE_CONTENT,
 * //   TEXT_MESSAGE_END, RUN_FINISHED
 * ```
 */
export function conformingEvents(
  source: ReadableStream<Uint8Array> | Response | null,
  options?: ConformOptions,
): ReadableStream<KnownAgUiEvent> {
  const conformer = new Conformer(options);
  const verifier = new Verifier(options);
  return decodedStream<KnownAgUiEvent>(
    source,
    "conformingEvents",
    options,
    (value, enqueue) =>
      conformer.push(value, (event) => {
        // Always true once it returns; it throws otherwise.
        if (passes(verifier, event)) enqueue(event as KnownAgUiEvent);
      }),
    () => verifier.end(),
  );
}
