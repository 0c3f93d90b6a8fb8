/**
 * What the command keeps of an input's events for the HTML report (SPEC §22), bounded: a
 * bounded copy of each of the first and the last 10,000 events (all of them, up to 20,000),
 * and of the events between only a stand-in for those that open or close something (what
 * the timeline needs to draw a run or a bar across the elided part). Library code: no I/O.
 * @module
 */

import { boundedCopy } from "./html-json.ts";
import { stubOf } from "./html-model.ts";
import { KEEP } from "./html-types.ts";

/** Keeps events as they are read; {@link EventKeeper.events} gives what `renderHtml` takes. */
export class EventKeeper {
  readonly #head: unknown[] = [];
  /** The last {@link KEEP} events, as read (copied at the end): a ring. */
  readonly #tail: unknown[] = [];
  /** Stand-ins of the events that left the ring, by index. */
  readonly #stubs = new Map<number, object>();
  #count = 0;

  /** How many events were pushed. */
  get count(): number {
    return this.#count;
  }

  push(value: unknown): void {
    const i = this.#count++;
    if (i < KEEP) {
      this.#head.push(boundedCopy(value));
      return;
    }
    const slot = (i - KEEP) % KEEP;
    if (i >= 2 * KEEP) {
      // The event `KEEP` back leaves the ring: it lies in the elided part whatever comes next.
      const stub = stubOf(this.#tail[slot]);
      if (stub !== undefined) this.#stubs.set(i - KEEP, stub);
    }
    this.#tail[slot] = value;
  }

  /** The events, index for index: bounded copies where shown, stand-ins or holes in between. */
  events(): unknown[] {
    const n = this.#count;
    const out: unknown[] = new Array(n);
    for (const [i, value] of this.#head.entries()) out[i] = value;
    for (const [i, stub] of this.#stubs) out[i] = stub;
    for (let i = Math.max(KEEP, n - KEEP); i < n; i++) {
      out[i] = boundedCopy(this.#tail[(i - KEEP) % KEEP]);
    }
    return out;
  }
}
