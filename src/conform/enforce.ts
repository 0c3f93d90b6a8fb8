/**
 * Enforcement against AG-UI 1.1's JSON schema (SPEC §20.1 stage 2), the part that is not
 * generated: what the checks of `generated.ts` call, and {@link enforce}, which runs them
 * on one event. 1.1's rule is "Unrecognised material is not an error. A malformed known
 * value is" (basic/processing):
 *
 * - an event type the schema does not name: the event is dropped (`UNKNOWN_EVENT_DROPPED`);
 * - a property a closed object does not describe: stripped (`UNKNOWN_PROPERTY_STRIPPED`);
 * - a value the schema does not recognise where it names a set (an `enum`, a union's
 *   discriminator): stripped by position (`UNKNOWN_MEMBER_STRIPPED`): in an optional
 *   property the property goes, in a required one the object holding it goes (up to the
 *   event, which is then dropped), in a list the element goes;
 * - anything else the schema rejects is a {@link Mismatch}: `SCHEMA_MISMATCH`, fatal.
 *
 * Nothing is written to the input: an object or list that loses something is copied (once),
 * and one that loses nothing is returned as it came, so an event with nothing stripped is
 * delivered as the same object.
 * @module
 */

import { isRecord, jsonType, q, type Rec } from "../verify/verifier.ts";

/** What a check returns for a property a closed object does not describe. */
export const STRIP: unique symbol = Symbol("strip");
/** What a check returns for a value the schema does not recognise (see {@link Ctx.unknown}). */
export const UNKNOWN: unique symbol = Symbol("unrecognised");

/** A generated check: the value (or a stripped copy), {@link UNKNOWN}, or it throws a {@link Mismatch}. */
export type Check = (value: unknown, x: Ctx) => unknown;

/** The three warnings of enforcement. */
export type EnforceCode =
  | "UNKNOWN_EVENT_DROPPED"
  | "UNKNOWN_PROPERTY_STRIPPED"
  | "UNKNOWN_MEMBER_STRIPPED";

/** Something enforcement removed: what, where (a JSON Pointer into the event), and why. */
export interface Removed {
  readonly code: EnforceCode;
  /** RFC 6901: `""` for the whole event, `/messages/0/content/1` for a list element. */
  readonly pointer: string;
  /** Words on what was not recognised, e.g. `outcome type "paused" at /outcome/type`. */
  readonly why: string;
}

/** A value the schema describes and rejects: where (as SPEC §4.1 writes a field) and what. */
export class Mismatch {
  readonly field: string | undefined;
  readonly text: string;
  constructor(field: string | undefined, text: string) {
    this.field = field;
    this.text = text;
  }
}

/** RFC 6901's escaping of one reference token. */
function token(key: string | number): string {
  if (typeof key === "number") return String(key);
  return key.includes("~") || key.includes("/")
    ? key.replace(/~/g, "~0").replace(/\//g, "~1")
    : key;
}

/** A value for a message: bounded. */
function shown(value: unknown): string {
  if (typeof value === "string") return q(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return jsonType(value);
}

/** Where a check is and what it found; one per event. */
export class Ctx {
  /** The keys and positions from the event down to the value being checked. */
  readonly path: (string | number)[] = [];
  /** What was removed so far. */
  removed: Removed[] | undefined;
  /** Why the last {@link UNKNOWN} was returned. */
  why = "";
  /**
   * Only find what would be removed, copying nothing (the linter's use): the checks then
   * return each value as it came, and `removed` says what a consumer would strip.
   */
  readonly dry: boolean;

  constructor(dry = false) {
    this.dry = dry;
  }

  /** The current place as a JSON Pointer, with `key` after it when given. */
  pointer(key?: string | number): string {
    let out = "";
    for (const k of this.path) out += `/${token(k)}`;
    return key === undefined ? out : `${out}/${token(key)}`;
  }

  /** The current place as SPEC §4.1 writes a field (`input.messages[2].id`), `key` after it. */
  field(key?: string | number): string | undefined {
    let out = "";
    const keys = key === undefined ? this.path : [...this.path, key];
    for (const k of keys) out += typeof k === "number" ? `[${k}]` : out === "" ? k : `.${k}`;
    return out === "" ? undefined : out;
  }

  /** The value here is not what the schema wants: `expected` says what it wants. */
  fail(expected: string, got: unknown): never {
    const at = this.field();
    throw new Mismatch(
      at,
      `${at ?? "the event"} is ${shown(got)}; expected ${expected} (the 1.1 schema).`,
    );
  }

  /** A required property is missing. */
  missing(key: string): never {
    const at = this.field(key);
    throw new Mismatch(at, `${at} is missing; the 1.1 schema requires it.`);
  }

  /** The value here is a member of a set the schema does not name: `what` names the set. */
  unknown(value: unknown, what: string, key?: string): typeof UNKNOWN {
    this.why = `${what} ${shown(value)} at ${this.pointer(key) || "/"}`;
    return UNKNOWN;
  }

  /** How many removals are recorded; {@link Ctx.forget} goes back to it. */
  mark(): number {
    return this.removed === undefined ? 0 : this.removed.length;
  }

  /** Forgets the removals after `mark`: what they were in was removed as a whole. */
  forget(mark: number): void {
    if (this.removed !== undefined) this.removed.length = mark;
  }

  /** Records that the property or element `key` of the value here was removed. */
  strip(code: EnforceCode, key: string | number): void {
    const pointer = this.pointer(key);
    // The pointer names the property: the words need not.
    const why = code === "UNKNOWN_PROPERTY_STRIPPED" ? "it is not described" : this.why;
    const entry: Removed = { code, pointer, why };
    if (this.removed === undefined) this.removed = [entry];
    else this.removed.push(entry);
  }
}

// --- The checks the generated code calls ---------------------------------------------------

/** An object definition: closed or open, its required properties, a check per property. */
export interface Shape {
  readonly closed: boolean;
  readonly required: readonly string[];
  readonly props: ReadonlyMap<string, Check>;
}

/** A `oneOf` of objects told apart by the string at `key`. */
export interface Union {
  readonly key: string;
  /** The set's name in messages ("content part type"). */
  readonly what: string;
  readonly members: ReadonlyMap<unknown, Check>;
}

/** Any value: nothing to check. */
export function any(v: unknown): unknown {
  return v;
}

/**
 * An object of `shape`: each property it describes checked, one it does not stripped when it
 * is closed; the object itself when nothing changed, else a copy.
 */
export function object(v: unknown, x: Ctx, shape: Shape): unknown {
  if (!isRecord(v)) return x.fail("an object", v);
  const required = shape.required;
  for (let i = 0; i < required.length; i++) {
    const key = required[i] as string;
    if (v[key] === undefined) return x.missing(key);
  }
  const props = shape.props;
  const path = x.path;
  let out: Rec | undefined;
  // A JSON object's own keys (what JSON.parse makes has no inherited enumerable ones).
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    const check = props.get(k);
    if (check === any || (check === undefined && !shape.closed)) continue;
    const val = v[k];
    let r: unknown = STRIP;
    const mark = x.mark();
    if (check !== undefined) {
      path.push(k);
      r = check(val, x);
      path.pop();
      if (r === val) continue;
    }
    const next = changed(v, out, k, r, required.includes(k), x, mark);
    if (next === UNKNOWN) return UNKNOWN;
    out = next;
  }
  return out ?? v;
}

/** One of `u`'s objects, by the string at its key; another string is unrecognised. */
export function union(v: unknown, x: Ctx, u: Union): unknown {
  if (!isRecord(v)) return x.fail("an object", v);
  const d = v[u.key];
  const member = u.members.get(d);
  if (member !== undefined) return member(v, x);
  if (d === undefined) return x.missing(u.key);
  if (typeof d !== "string") {
    x.path.push(u.key);
    return x.fail(`a string (${u.what})`, d);
  }
  return x.unknown(d, u.what, u.key);
}

export function string(v: unknown, x: Ctx): unknown {
  return typeof v === "string" ? v : x.fail("a string", v);
}

export function boolean(v: unknown, x: Ctx): unknown {
  return typeof v === "boolean" ? v : x.fail("true or false", v);
}

/** Any JSON value but `null`. */
export function notNull(v: unknown, x: Ctx): unknown {
  return v === null ? x.fail("a value other than null", v) : v;
}

/** An object open by key (metadata, activity content): not looked into. */
export function openObject(v: unknown, x: Ctx): unknown {
  return isRecord(v) ? v : x.fail("an object", v);
}

/** An integer from `min` to `max`. */
export function integer(v: unknown, x: Ctx, min: number, max: number): unknown {
  if (typeof v !== "number" || !Number.isInteger(v)) return x.fail("an integer", v);
  return v < min || v > max ? x.fail(`an integer from ${min} to ${max}`, v) : v;
}

/** RFC 6901's syntax: empty, or `/`-led tokens where `~` is followed by 0 or 1. One pass. */
export function jsonPointer(v: unknown, x: Ctx): unknown {
  if (typeof v !== "string") return x.fail("a JSON Pointer (a string)", v);
  if (v !== "" && v.charCodeAt(0) !== 0x2f) return x.fail("a JSON Pointer (starting with /)", v);
  for (let i = v.indexOf("~"); i !== -1; i = v.indexOf("~", i + 1)) {
    const next = v.charCodeAt(i + 1);
    if (next !== 0x30 && next !== 0x31) return x.fail("a JSON Pointer (~ escapes only 0 and 1)", v);
  }
  return v;
}

/** A string from a closed set: another string is unrecognised, another type a mismatch. */
export function member(v: unknown, x: Ctx, set: ReadonlySet<string>, what: string): unknown {
  if (typeof v !== "string") return x.fail(`a string (${what})`, v);
  return set.has(v) ? v : x.unknown(v, what);
}

/** Exactly `value` (a `const` that is no union's discriminator). */
export function constant(v: unknown, x: Ctx, value: string): unknown {
  return v === value ? v : x.fail(q(value), v);
}

/**
 * A list whose elements `item` checks: an unrecognised element is removed; fewer than `min`
 * elements (before or after removal) is a mismatch before, and unrecognised after.
 */
export function list(v: unknown, x: Ctx, item: Check, min: number): unknown {
  if (!Array.isArray(v)) return x.fail("an array", v);
  if (v.length < min) return x.fail(`an array of at least ${min}`, v);
  let out: unknown[] | undefined;
  let dropped = 0;
  const path = x.path;
  for (let i = 0; i < v.length; i++) {
    const value: unknown = v[i];
    const mark = x.mark();
    path.push(i);
    const r = item(value, x);
    path.pop();
    if (r === value && out === undefined) continue;
    if (r === UNKNOWN) {
      // The element goes whole: what was removed inside it is not reported on its own.
      x.forget(mark);
      x.strip("UNKNOWN_MEMBER_STRIPPED", i);
      dropped++;
    }
    if (x.dry) continue;
    if (out === undefined) out = v.slice(0, i);
    if (r !== UNKNOWN) out.push(r);
  }
  if (v.length - dropped < min) return x.unknown(v, `a list left with fewer than ${min} elements`);
  return out ?? v;
}

/**
 * An object's property `key` whose check gave `r`, not its value: `out` is the object's copy
 * so far (made at the first change), `mark` what {@link Ctx.mark} said before the check.
 * Returns the copy, or {@link UNKNOWN} when a required property is unrecognised.
 */
function changed(
  v: Rec,
  out: Rec | undefined,
  key: string,
  r: unknown,
  required: boolean,
  x: Ctx,
  mark: number,
): Rec | typeof UNKNOWN {
  if (r === UNKNOWN) {
    // The property goes whole (or its object does): what was removed inside it goes unsaid.
    x.forget(mark);
    if (required) return UNKNOWN;
  }
  if (x.dry) {
    if (r === STRIP) x.strip("UNKNOWN_PROPERTY_STRIPPED", key);
    else if (r === UNKNOWN) x.strip("UNKNOWN_MEMBER_STRIPPED", key);
    return v;
  }
  const copy = out ?? { ...v };
  if (r === STRIP) {
    delete copy[key];
    x.strip("UNKNOWN_PROPERTY_STRIPPED", key);
  } else if (r === UNKNOWN) {
    delete copy[key];
    x.strip("UNKNOWN_MEMBER_STRIPPED", key);
  } else copy[key] = r;
  return copy;
}

// --- One event ------------------------------------------------------------------------------

/** What enforcement made of an event. */
export interface Enforced {
  /** The event to deliver (the same object when nothing was stripped); undefined when dropped. */
  readonly event: unknown;
  /** What was removed, in the order found; undefined when nothing was. */
  readonly removed: readonly Removed[] | undefined;
}

/**
 * Runs `check` (the generated event check) on `event`. Values that are no object or carry
 * no string `type` pass unchanged: the verifier's rule 0 names what is wrong with them.
 * Throws a {@link Mismatch} for a malformed known value.
 */
export function enforce(
  event: unknown,
  check: (event: Rec, type: string, x: Ctx) => unknown,
  ctx?: Ctx,
): Enforced {
  if (!isRecord(event) || typeof event.type !== "string") return { event, removed: undefined };
  // A context to reuse (one per stream): left clean by the last event, or reset here.
  const x = ctx ?? new Ctx();
  x.path.length = 0;
  x.removed = undefined;
  const r = check(event, event.type, x);
  if (r === UNKNOWN) {
    // The event's own required member is unrecognised: the event goes, with the reason.
    x.forget(0);
    const removed: Removed = { code: "UNKNOWN_MEMBER_STRIPPED", pointer: "", why: x.why };
    return { event: undefined, removed: [removed] };
  }
  if (r === STRIP) {
    const removed: Removed = {
      code: "UNKNOWN_EVENT_DROPPED",
      pointer: "",
      why: `event type ${q(event.type)} is not one the 1.1 schema names`,
    };
    return { event: undefined, removed: [removed] };
  }
  return { event: r, removed: x.removed };
}
