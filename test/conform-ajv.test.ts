// Enforcement against a standard validator (SPEC §20, issue 25): the generated checks of
// src/conform/generated.ts and ajv 8 (its draft 2020-12 class) compiling the same vendored
// schema, spec/ag-ui-1.1/schema.json, must agree on every event: ajv accepts an event exactly
// when enforcement delivers it whole (no Mismatch, nothing stripped or dropped). The events:
// every event of the official corpus's streams and of generated runs (bench/runs.mjs), and
// seeded mutations of each (a field removed, nulled, retyped, renamed to an unknown key, a
// discriminator or enum value replaced by an unknown string, a list emptied, an element
// added).

import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { agenticRun, chatRun, createRng, toolRun } from "../bench/runs.mjs";
import { SCHEMA } from "../scripts/gen-conform.mjs";
import { Ctx, enforce, Mismatch } from "../src/conform/enforce.ts";
import { checkEvent } from "../src/conform/generated.ts";
import { FIXTURES, VERSIONS } from "./support/conformance.ts";

type Rec = Record<string, unknown>;

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

/** Every object (and its key path) inside `value`, the value first. */
function objectsIn(value: unknown, path: (string | number)[] = []): [Rec, (string | number)[]][] {
  if (typeof value !== "object" || value === null) return [];
  const out: [Rec, (string | number)[]][] = [];
  if (!Array.isArray(value)) out.push([value as Rec, path]);
  for (const [k, v] of Object.entries(value)) {
    out.push(...objectsIn(v, [...path, Array.isArray(value) ? Number(k) : k]));
  }
  return out;
}

/** A mutation of a deep copy of `event`, chosen by `rng`. */
function mutate(event: Rec, rng: ReturnType<typeof createRng>): Rec {
  const copy = structuredClone(event);
  const objects = objectsIn(copy);
  const [target] = objects[rng.int(0, objects.length - 1)] ?? [copy];
  const keys = Object.keys(target);
  const key = keys.length > 0 ? rng.pick(keys) : "type";
  switch (rng.int(0, 7)) {
    case 0:
      delete target[key];
      break;
    case 1:
      target[key] = null;
      break;
    case 2:
      target[key] = typeof target[key] === "string" ? 42 : "text";
      break;
    case 3:
      target[`future_${key}`] = 1;
      break;
    case 4:
      target[key] = "unheard-of";
      break;
    case 5:
      target[key] = [];
      break;
    case 6:
      target[key] = 1.5;
      break;
    default:
      if (Array.isArray(target[key])) (target[key] as unknown[]).push({ type: "mystery" });
      else target[key] = { type: "mystery" };
  }
  return copy;
}

const corpusEvents: Rec[] = VERSIONS.flatMap((v) =>
  FIXTURES[v].flatMap((f) => f.stream.filter((e): e is Rec => typeof e === "object" && e !== null)),
);
const generated: Rec[] = [
  ...agenticRun(3000, { seed: 11 }),
  ...chatRun(500, { seed: 12 }),
  ...toolRun(1500, { seed: 13 }),
];

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
