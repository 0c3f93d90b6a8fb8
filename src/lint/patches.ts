/**
 * JSON Patch as `@ag-ui/client` 1.0.0 applies a state or activity delta (SPEC §18.2):
 * `fast-json-patch`'s `applyPatch(document, patch, true, false)` decides. That call copies the
 * whole document (a JSON round trip) for every patch. Here the document gets one private copy
 * (the same round trip, made at its first patch), each operation runs on it in place through
 * the library's own `applyOperation`, validating as `applyPatch` would, and what it changed is
 * noted so that a patch failing at a later operation is undone. A delta then costs what it
 * touches, not the size of the state, and the input's values are never written to.
 *
 * For JSON values this decides exactly as the client does; it does not follow what its
 * round trips do to in-process values JSON cannot hold (`undefined` members, `toJSON`,
 * BigInt) beyond the first copy.
 * @module
 */

import jsonpatch, { type Operation } from "fast-json-patch";
import { isRecord, q, type Rec } from "../verify/verifier.ts";

/** Why a patch does not apply: the operation and what the library objects to. */
export interface PatchFailure {
  /** The operation's position in the patch; -1 when it fails as a whole. */
  readonly at: number;
  readonly reason: string;
}

/** A failure in a message's words: which operation, and why. */
export function describeFailure(f: PatchFailure): string {
  return f.at < 0 ? f.reason : `operation ${f.at}, ${f.reason}`;
}

/** The operations the library writes nothing but the document for. */
const STANDARD: ReadonlySet<unknown> = new Set([
  "add",
  "remove",
  "replace",
  "move",
  "copy",
  "test",
]);

/** Puts one changed place back. */
type Undo = () => void;

/**
 * A document as the client holds it: the state, or an activity's content. `empty` is what
 * the client patches when the document is undefined: `null` for the state (its copy of
 * `undefined`), `{}` for an activity (`content ?? {}`).
 */
export class PatchDoc {
  #value: unknown;
  /** Whether `#value` is this object's own copy yet. */
  #own = false;
  /** A patch moved the document into itself: the client can no longer copy it. */
  #cyclic = false;
  readonly #activity: boolean;

  constructor(value: unknown, activity: boolean) {
    this.#value = value;
    this.#activity = activity;
  }

  /** Applies `patch`: the failure, or undefined when it applied (and the document changed). */
  apply(patch: unknown): PatchFailure | undefined {
    if (this.#cyclic) {
      return failure(
        -1,
        "an earlier patch moved the document into itself, so the client cannot copy it",
      );
    }
    if (!Array.isArray(patch)) return failure(-1, "it is not an array of operations");
    if (!this.#own) {
      let value = this.#value;
      if (this.#activity && (value === undefined || value === null)) value = {};
      try {
        // The client's copy: JSON's round trip (undefined is null).
        this.#value = jsonpatch.deepClone(value);
      } catch (thrown) {
        return failure(-1, `the client cannot copy the document (${describeError(thrown)})`);
      }
      this.#own = true;
    }
    return this.#run(patch);
  }

  #run(ops: readonly unknown[]): PatchFailure | undefined {
    const start = this.#value;
    const undo: Undo[] = [];
    let backup: unknown;
    let backedUp = false;
    let cyclic = false;
    let doc = start;
    let op: unknown;
    let at = -1;
    try {
      const length = ops.length;
      // A move changes two places, the second found after the first changed: for a patch
      // with one, a whole copy to go back to instead of the notes.
      for (let i = 0; i < length; i++) {
        const o = ops[i];
        if (isRecord(o) && o.op === "move") {
          backup = jsonpatch.deepClone(start);
          backedUp = true;
          break;
        }
      }
      for (at = 0; at < length; at++) {
        op = ops[at];
        if (!isRecord(op)) {
          doc = jsonpatch.applyOperation(doc, op as Operation, true, true, true, at).newDocument;
          continue;
        }
        const kind = op.op;
        const inserts = kind === "add" || kind === "replace";
        let own: Rec = op;
        if (!STANDARD.has(kind) || (inserts && typeof op.value === "object" && op.value !== null)) {
          // A copy, because the library writes to some operations (`_get` stores its value),
          // with a value of its own, so that the document never holds the input's objects
          // (copied once the library would accept it: a copy drops what JSON cannot hold).
          own = { ...op };
          jsonpatch.validator(own as unknown as Operation, at);
          if (inserts) own.value = jsonpatch.deepClone(own.value);
        }
        const path = own.path;
        if (kind === "move" && own.from === "" && path !== "") cyclic = true;
        const place =
          !backedUp &&
          typeof path === "string" &&
          path !== "" &&
          (inserts || kind === "remove" || kind === "copy")
            ? placeOf(doc, path)
            : undefined;
        const before = place === undefined ? undefined : remember(place, kind as string);
        doc = jsonpatch.applyOperation(
          doc,
          own as unknown as Operation,
          true,
          true,
          true,
          at,
        ).newDocument;
        if (before !== undefined) undo.push(before);
      }
    } catch (thrown) {
      if (backedUp) this.#value = backup;
      else {
        for (let i = undo.length - 1; i >= 0; i--) (undo[i] as Undo)();
        this.#value = start;
      }
      return failure(at, `${describeOp(op)}${describeError(thrown)}`);
    }
    this.#value = doc;
    this.#cyclic = cyclic;
    return undefined;
  }
}

/** The container an operation at `path` writes to, and its key, read as the library reads them. */
interface Place {
  readonly parent: Rec | unknown[];
  readonly key: string | number;
}

function placeOf(doc: unknown, path: string): Place | undefined {
  const keys = path.split("/");
  let obj = doc;
  for (let t = 1; t < keys.length; t++) {
    if (typeof obj !== "object" || obj === null) return undefined;
    let key: string | number = keys[t] as string;
    if (key.indexOf("~") !== -1) key = jsonpatch.unescapePathComponent(key);
    if (Array.isArray(obj)) {
      if (key === "-") key = obj.length;
      else if (isInteger(key)) key = ~~key;
    }
    if (t === keys.length - 1) return { parent: obj as Rec | unknown[], key };
    obj = (obj as Rec)[key];
  }
  return undefined;
}

/** What undoes the operation at `place`, noted before it runs (it is kept only if it ran). */
function remember(place: Place, kind: string): Undo | undefined {
  const { parent, key } = place;
  if (Array.isArray(parent)) {
    if (typeof key !== "number") return undefined; // the library refuses it
    if (kind === "add" || kind === "copy") return () => parent.splice(key, 1);
    const old = parent[key];
    if (kind === "remove") return () => parent.splice(key, 0, old);
    return () => {
      parent[key] = old;
    };
  }
  const obj = parent as Rec;
  const had = Object.hasOwn(obj, key);
  const old = obj[key];
  return had
    ? () => {
        obj[key] = old;
      }
    : () => {
        delete obj[key];
      };
}

function failure(at: number, reason: string): PatchFailure {
  return { at, reason };
}

/** The library's test for an array index (digits only; "" counts). */
function isInteger(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

function describeOp(op: unknown): string {
  try {
    if (!isRecord(op) || typeof op.op !== "string" || typeof op.path !== "string") return "";
    return `${q(op.op)} at ${q(op.path)}: `;
  } catch {
    return "";
  }
}

function describeError(thrown: unknown): string {
  let text: string;
  try {
    text = thrown instanceof Error ? thrown.message : String(thrown);
  } catch {
    text = "an unprintable error";
  }
  // The library's first line says what is wrong (the rest dumps the operation and the
  // document); a TypeError's can quote the document.
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}
