/**
 * The producer duty "A producer MUST emit only what the schema defines" (AG-UI 1.1
 * architecture; SPEC §18.5): what a 1.1 client drops or strips from the stream (SPEC §20),
 * found with the same generated checks `ag-ui-verify/conform` enforces, as warnings:
 * `UNKNOWN_EVENT_DROPPED`, `UNKNOWN_PROPERTY_STRIPPED`, `UNKNOWN_MEMBER_STRIPPED`. A value
 * the schema rejects outright is not judged here: the rules (or `--strict`'s schema) do.
 * @module
 */

import { Ctx, enforce, Mismatch, type Removed } from "../conform/enforce.ts";
import { checkEvent } from "../conform/generated.ts";
import type { Warning } from "./warnings.ts";

/** A JSON Pointer as SPEC §4.1 writes a field: `/messages/0/id` → `messages[0].id`. */
function fieldOf(pointer: string): string | undefined {
  if (pointer === "") return undefined;
  let out = "";
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    out += /^(0|[1-9][0-9]*)$/.test(key) ? `[${key}]` : out === "" ? key : `.${key}`;
  }
  return out;
}

const QUOTE =
  '1.1 says "A producer MUST emit only what the schema defines" (architecture), and a 1.1 client';

function warningOf(r: Removed, eventType: string): Warning {
  const text =
    r.code === "UNKNOWN_EVENT_DROPPED"
      ? `${r.why}; ${QUOTE} drops the event (basic/processing).`
      : r.pointer === ""
        ? `${r.why} is not one the schema names, in a required position; ${QUOTE} drops the event (basic/processing).`
        : r.code === "UNKNOWN_PROPERTY_STRIPPED"
          ? `${r.pointer}: ${r.why} by the 1.1 schema; ${QUOTE} strips it (basic/processing).`
          : `${r.pointer}: ${r.why} is not one the schema names; ${QUOTE} strips ${r.pointer} (basic/processing).`;
  return { code: r.code, text, eventType, field: fieldOf(r.pointer), subject: r.pointer };
}

/** Runs the 1.1 schema's enforcement on each accepted event, for its warnings. */
export class SchemaDuties {
  readonly #ctx = new Ctx();

  event(type: string, e: Record<string, unknown>): Warning[] | undefined {
    let removed: readonly Removed[] | undefined;
    try {
      removed = enforce(e, checkEvent, this.#ctx).removed;
    } catch (thrown) {
      if (thrown instanceof Mismatch) return undefined;
      throw thrown;
    }
    return removed?.map((r) => warningOf(r, type));
  }
}
