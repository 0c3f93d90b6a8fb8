// Enforcement against @ag-ui/client 1.0.0's `enforceEvents` (which already strips with
// warnings), on the same events as the ajv differential: every event of the official corpus
// and of generated runs, and seeded mutations of them. Where the two differ, the difference
// must be one of DIFFERENCES, each with the 1.1 sentence that decides it; any other
// difference fails the test.

import { enforceEvents } from "@ag-ui/client";
import { from } from "rxjs";
import { beforeAll, describe, expect, it } from "vitest";
import { enforce, Mismatch } from "../src/conform/enforce.ts";
import { checkEvent } from "../src/conform/generated.ts";
import { corpusEvents, createRng, generatedEvents, mutate, type Rec } from "./support/mutations.ts";

/** What a stage made of one event: delivered (maybe changed), dropped, or failed. */
type Verdict =
  | { kind: "delivered"; event: unknown; codes: readonly string[] }
  | { kind: "dropped"; codes: readonly string[] }
  | { kind: "failed"; why: string };

function client(event: Rec): Verdict {
  const out: unknown[] = [];
  let failed = false;
  enforceEvents(undefined)(from([event] as never[])).subscribe({
    next: (e: unknown) => void out.push(e),
    error: () => {
      failed = true;
    },
  });
  if (failed) return { kind: "failed", why: "" };
  return out.length === 0
    ? { kind: "dropped", codes: [] }
    : { kind: "delivered", event: out[0], codes: [] };
}

function ours(event: Rec): Verdict {
  // Without a string type, the verifier's rule 0 fails it (EVENT_TYPE_INVALID).
  if (typeof event.type !== "string") return { kind: "failed", why: "type" };
  try {
    const r = enforce(event, checkEvent);
    const codes = (r.removed ?? []).map((x) => x.code);
    return r.event === undefined
      ? { kind: "dropped", codes }
      : { kind: "delivered", event: r.event, codes };
  } catch (thrown) {
    if (thrown instanceof Mismatch) return { kind: "failed", why: thrown.text };
    throw thrown;
  }
}

/**
 * The differences 1.1 decides, each with its sentence (basic/processing: "Unrecognised
 * material is not an error. A malformed known value is").
 */
const DIFFERENCES = [
  {
    name: "an unrecognised value where the schema names a set (a role, a subtype, an op): stripped by position, where 1.0.0 fails the run",
    quote: '"Unrecognised material is not an error" (basic/processing)',
    matches: (a: Verdict, b: Verdict) =>
      a.kind !== "failed" && b.kind === "failed" && a.codes.includes("UNKNOWN_MEMBER_STRIPPED"),
  },
  {
    name: "a discriminator of the wrong JSON type (a type that is no string): fatal, where 1.0.0 drops or strips the value",
    quote: '"A malformed known value is" an error (basic/processing)',
    matches: (a: Verdict, b: Verdict) =>
      a.kind === "failed" &&
      b.kind !== "failed" &&
      (a.why === "type" ||
        /is (null|\d|[\d.]+|true|false|object|an array); expected a string \(/.test(a.why)),
  },
  {
    name: "a union member without its discriminator (an outcome, a patch operation or a content part with no type or op): fatal, a required field missing, where 1.0.0 strips it",
    quote:
      'a value the schema describes and rejects, "a missing required field", is a malformed known value (SPEC §20.1 on basic/processing)',
    matches: (a: Verdict, b: Verdict) =>
      a.kind === "failed" &&
      b.kind !== "failed" &&
      /\.(type|op) is missing; the 1\.1 schema requires it\.$/.test(a.why),
  },
] as const;

beforeAll(() => {
  process.env.SUPPRESS_TRANSFORMATION_WARNINGS = "true";
});

const generated = generatedEvents(21, 1);

describe("enforcement against @ag-ui/client 1.0.0's enforceEvents", () => {
  const rng = createRng(0x2_2);
  const all = [...corpusEvents, ...generated];
  const events = [
    ...all,
    ...Array.from({ length: 10_000 }, () => mutate(all[rng.int(0, all.length - 1)] as Rec, rng)),
  ];
  const counts = DIFFERENCES.map(() => 0);
  const unexplained: string[] = [];
  let same = 0;
  for (const e of events) {
    const a = ours(e);
    const b = client(e);
    if (a.kind === b.kind) {
      if (a.kind !== "delivered" || b.kind !== "delivered") {
        same++;
        continue;
      }
      try {
        expect(a.event).toEqual(b.event);
        same++;
        continue;
      } catch {
        // a difference in what is delivered: explained below, or not
      }
    }
    const i = DIFFERENCES.findIndex((d) => d.matches(a, b));
    if (i === -1) unexplained.push(`${a.kind}/${b.kind}: ${JSON.stringify(e).slice(0, 300)}`);
    else counts[i] = (counts[i] ?? 0) + 1;
  }

  it("agrees on most events, and every difference is one 1.1 decides", () => {
    expect(unexplained.slice(0, 10)).toEqual([]);
    expect(same).toBeGreaterThan(events.length * 0.8);
  });

  it.each(DIFFERENCES.map((d, i) => [d.name, d.quote, i] as const))(
    "differs where 1.1 says so: %s — %s",
    (_name, _quote, i) => {
      // Each listed difference occurs: the table holds no stale entry.
      expect(counts[i]).toBeGreaterThan(0);
    },
  );
});
