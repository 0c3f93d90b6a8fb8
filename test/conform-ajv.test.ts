// Enforcement against a standard validator (SPEC §20, issue 25): the generated checks of
// src/conform/generated.ts and ajv 8 (its draft 2020-12 class) compiling the same vendored
// schema, spec/ag-ui-1.1/schema.json, must agree on every event: ajv accepts an event exactly
// when enforcement delivers it whole (no Mismatch, nothing stripped or dropped). The events:
// every event of the official corpus's streams and of generated runs (bench/runs.mjs), and
// seeded mutations of each (a field removed, nulled, retyped, renamed to an unknown key, a
// discriminator or enum value replaced by an unknown string, a list emptied, an element
// added).

import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { SCHEMA } from "../scripts/gen-conform.mjs";
import { Ctx, enforce, Mismatch } from "../src/conform/enforce.ts";
import { checkEvent } from "../src/conform/generated.ts";
import { corpusEvents, createRng, generatedEvents, mutate, type Rec } from "./support/mutations.ts";

const ajv = new Ajv2020({ strict: false, allErrors: false });
const validate = ajv.compile(JSON.parse(readFileSync(SCHEMA, "utf8")));

/**
 * Whether the pipeline delivers `event` whole: enforcement keeps it as it is, and it has a
 * string `type` (one without is passed on by enforcement for the verifier's rule 0, which
 * rejects it: EVENT_TYPE_INVALID).
 */
function ours(event: Rec): boolean {
  if (typeof event.type !== "string") return false;
  try {
    const r = enforce(event, checkEvent);
    return r.event === event && r.removed === undefined;
  } catch (thrown) {
    if (thrown instanceof Mismatch) return false;
    throw thrown;
  }
}

const generated = generatedEvents(11, 1);

describe("enforcement agrees with ajv on the 1.1 schema", () => {
  it("on every event of the official corpus and of generated runs", () => {
    const disagree: string[] = [];
    for (const event of [...corpusEvents, ...generated]) {
      if (ours(event) !== validate(event)) disagree.push(JSON.stringify(event).slice(0, 300));
    }
    expect(disagree).toEqual([]);
  });

  it("on 20,000 seeded mutations of them", () => {
    const rng = createRng(0x1_1);
    const all = [...corpusEvents, ...generated];
    const disagree: string[] = [];
    let rejected = 0;
    for (let i = 0; i < 20_000; i++) {
      const event = mutate(all[rng.int(0, all.length - 1)] as Rec, rng);
      const a = validate(event);
      if (!a) rejected++;
      if (ours(event) !== a)
        disagree.push(
          `${a ? "ajv accepts" : "ajv rejects"}: ${JSON.stringify(event).slice(0, 300)}`,
        );
    }
    expect(disagree.slice(0, 10)).toEqual([]);
    // The linter's dry run finds what the pipeline strips, copying nothing.
    const differ: string[] = [];
    for (let i = 0; i < 5000; i++) {
      const event = mutate(all[rng.int(0, all.length - 1)] as Rec, rng);
      if (typeof event.type !== "string") continue;
      let wet: unknown;
      let dry: unknown;
      try {
        wet = enforce(event, checkEvent).removed;
        const r = enforce(event, checkEvent, new Ctx(true));
        expect(r.event === undefined || r.event === event).toBe(true);
        dry = r.removed;
      } catch (thrown) {
        if (thrown instanceof Mismatch) continue;
        throw thrown;
      }
      if (JSON.stringify(wet) !== JSON.stringify(dry))
        differ.push(JSON.stringify(event).slice(0, 300));
    }
    expect(differ.slice(0, 5)).toEqual([]);
    // The mutations are not all harmless: most of them break the schema.
    expect(rejected).toBeGreaterThan(10_000);
  });
});
