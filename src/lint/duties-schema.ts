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

/** The most warnings {@link SchemaDuties} keeps made, for the findings repeated per event. */
const MAX_MADE = 1_000;

/** Runs the 1.1 schema's enforcement on each accepted event, for its warnings. */
export class SchemaDuties {
  /** Dry: the linter wants what a client would strip, not the stripped copy. */
  readonly #ctx = new Ctx(true);
  /**
   * The warnings made so far, by code, type and pointer: a producer that adds the same field
   * to every event gets one warning object, its words built once (up to MAX_MADE of them).
   */
  readonly #made = new Map<string, Map<string, Warning>>();
  #size = 0;

  event(type: string, e: Record<string, unknown>): Warning[] | undefined {
    let removed: readonly Removed[] | undefined;
    try {
      removed = enforce(e, checkEvent, this.#ctx).removed;
    } catch (thrown) {
      if (thrown instanceof Mismatch) return undefined;
      throw thrown;
    }
    if (removed === undefined) return undefined;
    const out: Warning[] = [];
    for (const r of removed) {
      // By type, then by code and pointer (the code's own letter tells the three apart).
      const key = `${r.code.charAt(8)}${r.pointer}`;
      let byType = this.#made.get(type);
      let w = byType?.get(key);
      if (w === undefined) {
        w = warningOf(r, type);
        if (this.#size < MAX_MADE) {
          if (byType === undefined) {
            byType = new Map();
            this.#made.set(type, byType);
          }
          byType.set(key, w);
          this.#size++;
        }
      }
      out.push(w);
    }
    return out;
  }
}
