// The compatibility boundary of the 1.1 pipeline (SPEC §20.1 stage 1) against @ag-ui/client
// 1.0.0's always-on CompatibilityBoundary: on generated streams of the five retired
// THINKING_* events (with extra fields, out of order, ids missing), each translated event
// must equal the client's, the ids either side mints for spans and messages the producer
// never identified compared by order of appearance (the client mints random UUIDs).

import { CompatibilityBoundary } from "@ag-ui/client";
import { from } from "rxjs";
import { beforeAll, describe, expect, it } from "vitest";
import { createRng } from "../bench/runs.mjs";
import { Boundary } from "../src/conform/boundary.ts";

type Rec = Record<string, unknown>;

const THINKING = [
  "THINKING_START",
  "THINKING_TEXT_MESSAGE_START",
  "THINKING_TEXT_MESSAGE_CONTENT",
  "THINKING_TEXT_MESSAGE_END",
  "THINKING_END",
];

beforeAll(() => {
  // The client warns on every translation; the test reads events, not its console.
  process.env.SUPPRESS_TRANSFORMATION_WARNINGS = "true";
});

/** A stream of THINKING_* events (and others between them), in any order, with extras. */
function stream(rng: ReturnType<typeof createRng>): Rec[] {
  const out: Rec[] = [];
  for (let i = rng.int(1, 12); i > 0; i--) {
    if (rng.chance(0.2)) {
      out.push({ type: "CUSTOM", name: "n", value: i });
      continue;
    }
    const event: Rec = { type: rng.pick(THINKING) };
    if (rng.chance(0.3)) event.title = rng.word(5);
    if (rng.chance(0.5)) event.delta = rng.word(rng.int(0, 8));
    if (rng.chance(0.3)) event.timestamp = rng.int(0, 1e9);
    if (rng.chance(0.2)) event.messageId = `own-${rng.word(3)}`;
    if (rng.chance(0.2)) event.metadata = { k: rng.word(2) };
    if (rng.chance(0.1)) event.rawEvent = { provider: rng.word(3) };
    out.push(event);
  }
  return out;
}

/**
 * `events` through the client's boundary, by its public API: a middleware whose `run` maps
 * what the next agent emits (here, the events as they are).
 */
function throughClient(events: readonly Rec[]): Rec[] {
  const out: Rec[] = [];
  const input = {
    threadId: "t",
    runId: "r",
    messages: [],
    tools: [],
    context: [],
    state: {},
    forwardedProps: {},
  };
  const next = { run: () => from(events as never[]) };
  new CompatibilityBoundary()
    .run(input as never, next as never)
    .subscribe({ next: (e: unknown) => void out.push(e as Rec) });
  return out;
}

/** `events` with each id not in `known` renamed `minted-N`, N by order of appearance. */
function normalised(events: readonly Rec[], known: ReadonlySet<unknown>): Rec[] {
  const names = new Map<unknown, string>();
  return events.map((e) => {
    const id = e.messageId;
    if (id === undefined || known.has(id)) return e;
    if (!names.has(id)) names.set(id, `minted-${names.size}`);
    return { ...e, messageId: names.get(id) };
  });
}

describe("the THINKING_* translation, against @ag-ui/client 1.0.0's CompatibilityBoundary", () => {
  it("gives the client's events on 3,000 generated streams", () => {
    const rng = createRng(0x7_45);
    for (let n = 0; n < 3000; n++) {
      const input = stream(rng);
      const ours = new Boundary();
      const theirs = throughClient(input);
      const mine = input.map((e) => ours.translate(e) ?? e);
      const known = new Set(input.map((e) => e.messageId));
      expect(normalised(mine, known), JSON.stringify(input)).toEqual(normalised(theirs, known));
    }
  });

  it("has nothing to say about any other event: the pipeline passes it on as it is", () => {
    const ours = new Boundary();
    const e = { type: "REASONING_START", messageId: "r" };
    expect(ours.translate(e)).toBeUndefined();
  });
});
