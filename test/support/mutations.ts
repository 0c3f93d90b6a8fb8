// Events to hold the 1.1 pipeline's enforcement to other validators with: every event of the
// official corpus's streams and of generated runs (bench/runs.mjs), and seeded mutations of
// them (a field removed, nulled, retyped, an unknown key, an unknown value, a list emptied,
// an element added).

import { agenticRun, chatRun, createRng, toolRun } from "../../bench/runs.mjs";
import { FIXTURES, VERSIONS } from "./conformance.ts";

export type Rec = Record<string, unknown>;
export type Rng = ReturnType<typeof createRng>;

/** Every event object of the official corpus's streams. */
export const corpusEvents: Rec[] = VERSIONS.flatMap((v) =>
  FIXTURES[v].flatMap((f) => f.stream.filter((e): e is Rec => typeof e === "object" && e !== null)),
);

/** The events of three generated runs (agentic, chat, tool calls), seeded by `seed`. */
export function generatedEvents(seed: number, scale = 1): Rec[] {
  return [
    ...agenticRun(3000 * scale, { seed }),
    ...chatRun(500 * scale, { seed: seed + 1 }),
    ...toolRun(1500 * scale, { seed: seed + 2 }),
  ];
}

/** Every object inside `value`, the value first. */
function objectsIn(value: unknown): Rec[] {
  if (typeof value !== "object" || value === null) return [];
  const out: Rec[] = Array.isArray(value) ? [] : [value as Rec];
  for (const v of Object.values(value)) out.push(...objectsIn(v));
  return out;
}

/** A mutation of a deep copy of `event`: one change, somewhere inside it, chosen by `rng`. */
export function mutate(event: Rec, rng: Rng): Rec {
  const copy = structuredClone(event);
  const objects = objectsIn(copy);
  const target = objects[rng.int(0, objects.length - 1)] ?? copy;
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

export { createRng };
