/**
 * The verifying stream (SPEC §11): verified events pass through unchanged, and the first
 * violation errors the stream with the {@link VerifyError} itself.
 * @module
 */

import { type EventOf, passes, Verifier, type VerifierOptions } from "../verify/verifier.ts";

/**
 * A `TransformStream` that runs a {@link Verifier} over the values written to it: each
 * valid event is enqueued unchanged (the same object), the first violation errors both
 * sides with the `VerifyError` itself, and the end of input runs the end-of-input check.
 *
 * It keeps the default queuing strategies on purpose: with an empty readable queue, every
 * event accepted before a failure has reached the reader before the reader sees the error.
 * With a `schema` option, its readable side is typed by the schema's output
 * ({@link EventOf}); without, events are `AgUiEvent`s.
 *
 * @example
 * ```ts
 * import { VerifyingTransformStream } from "ag-ui-verify";
 * const events = [
 *   { type: "RUN_STARTED", threadId: "t1", runId: "r1" },
 *   { type: "RUN_FINISHED", threadId: "t1", runId: "r1" },
 * ];
 * const checked = ReadableStream.from(events).pipeThrough(new VerifyingTransformStream());
 * for await (const event of checked) console.log(event.type); // RUN_STARTED, RUN_FINISHED
 * ```
 */
export class VerifyingTransformStream<
  O extends VerifierOptions = VerifierOptions,
> extends TransformStream<unknown, EventOf<O>> {
  /** A stream with its own {@link Verifier}, built with these options. */
  constructor(options?: O) {
    const verifier = new Verifier(options);
    super({
      transform(event, controller) {
        // Always true once it returns; it throws otherwise.
        if (passes(verifier, event)) controller.enqueue(event);
      },
      flush() {
        verifier.end();
      },
    });
  }
}
