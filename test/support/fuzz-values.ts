// Seeded generators of hostile inputs for test/fuzz.test.ts (SPEC §17.4): values (JSON and
// not), event runs and their mutations, SSE and JSON Lines bytes, byte-level damage and
// chunkings. Everything is drawn from one small PRNG, so a seed gives the same inputs in
// every runtime; nothing here uses anything but web-standard APIs.
//
// Each generator returns what it made together with a short label ("run:agentic+swap(3,7)",
// "getter-throws:messageId"), so that a failure names the input it failed on.

import { agenticRun, chatRun, toolRun } from "../../bench/runs.mjs";
import { EVENT_TYPES, FIELDS_READ, THINKING_TYPES } from "./spec-tables.ts";
import { buildRun, buildStream } from "./valid-run.ts";

// ---------------------------------------------------------------------------------------
// The PRNG

/** mulberry32, with the helpers the generators need. */
export class Rng {
  #a: number;
  constructor(seed: number) {
    this.#a = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    this.#a = (this.#a + 0x6d2b79f5) >>> 0;
    let t = this.#a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** An integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty array");
    return items[this.int(items.length)] as T;
  }
  /** A new seed for a sub-generator. */
  seed(): number {
    return Math.floor(this.next() * 0x7fffffff) + 1;
  }
}

/** A generated input and what it is, for failure messages. */
export interface Labelled<T> {
  readonly value: T;
  readonly label: string;
}

// ---------------------------------------------------------------------------------------
// Strings and ids

/** Made once: a megabyte is costly to build per input. */
export const HUGE_ID = "x".repeat(1024 * 1024);
const LONG_STRING = "é😀\u0000".repeat(20_000);

/** Strings that break naive code: prototype keys, lone surrogates, NUL, line ends, BOMs. */
export const NASTY_STRINGS: readonly string[] = [
  "",
  " ",
  "m1",
  "m2",
  "c1",
  "s1",
  "t1",
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "prototype",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udc00",
  "x\ud83d",
  "\udfffx\ud800",
  "😀",
  "\ufeff",
  "\ufeffm1",
  "a\r\nb",
  "\r",
  "\n\n",
  "data: x",
  '"}',
  "\\",
  "é",
  "東京",
  "\u2028\u2029",
  "[0]",
  "a.b",
  "0",
  "-1",
  "NaN",
  "undefined",
  "null",
  "x".repeat(101),
  "y".repeat(5_000),
];

/** An id: mostly from a small pool so that runs build up state, sometimes nasty or huge. */
export function id(rng: Rng): string {
  const r = rng.next();
  if (r < 0.6) return rng.pick(["m1", "m2", "c1", "c2", "s1", "s2", "__proto__", ""]);
  if (r < 0.985) return rng.pick(NASTY_STRINGS);
  if (r < 0.995) return randomString(rng, rng.range(0, 40));
  return rng.chance(0.5) ? HUGE_ID : LONG_STRING;
}

const ALPHABET = [
  "a",
  "b",
  "z",
  "0",
  " ",
  '"',
  "\\",
  "\n",
  "\r",
  "\t",
  "\u0000",
  "\u001f",
  "\u007f",
  "é",
  "\u2028",
  "\ufeff",
  "\ud800",
  "\udbff",
  "\udc00",
  "\udfff",
  "😀",
  "東",
  "{",
  "}",
  ":",
];

/** A random string over code units that matter (quotes, controls, surrogates, BOM). */
export function randomString(rng: Rng, length: number): string {
  let s = "";
  for (let i = 0; i < length; i++) s += rng.pick(ALPHABET);
  return s;
}

// ---------------------------------------------------------------------------------------
// JSON values: what JSON.parse can produce

export const TYPES: readonly string[] = [
  ...EVENT_TYPES,
  ...THINKING_TYPES,
  "UNKNOWN_TYPE",
  "run_started",
  "",
  "__proto__",
  "constructor",
  "RUN_STARTED ",
  "\ufeffRUN_STARTED",
  "T".repeat(300),
];

/** A random JSON value (only what JSON.parse can produce). */
export function jsonValue(rng: Rng, depth = 3): unknown {
  const r = rng.int(depth <= 0 ? 6 : 9);
  switch (r) {
    case 0:
      return null;
    case 1:
      return rng.chance(0.5);
    case 2:
      return rng.pick([0, 1, -1, 0.5, 1e308, -1e308, 5e-324, 2 ** 53, 2 ** 31, -(2 ** 31), 42]);
    case 3:
    case 4:
      return rng.pick(NASTY_STRINGS);
    case 5:
      return randomString(rng, rng.int(12));
    case 6:
    case 7: {
      const o: Record<string, unknown> = {};
      const n = rng.int(5);
      for (let i = 0; i < n; i++) {
        const key = rng.chance(0.5) ? rng.pick(FIELD_NAMES) : rng.pick(NASTY_STRINGS);
        defineOwn(o, key, jsonValue(rng, depth - 1));
      }
      return o;
    }
    default: {
      const n = rng.int(4);
      const a: unknown[] = [];
      for (let i = 0; i < n; i++) a.push(jsonValue(rng, depth - 1));
      return a;
    }
  }
}

/** Sets an own data property, as JSON.parse does (so `__proto__` is a key, not the prototype). */
export function defineOwn(o: object, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
}

/** Every field name any event type reads or carries. */
export const FIELD_NAMES: readonly string[] = [
  "type",
  "subagentRunId",
  "parentSubagentRunId",
  "messageId",
  "toolCallId",
  "toolCallName",
  "parentMessageId",
  "stepName",
  "threadId",
  "runId",
  "role",
  "delta",
  "content",
  "input",
  "outcome",
  "messages",
  "interrupts",
  "toolCalls",
  "replace",
  "subtype",
  "entityId",
  "snapshot",
  "name",
  "value",
  "rawEvent",
  "timestamp",
  "id",
  "encryptedValue",
  "activityType",
  "patch",
];

/** A JSON event-shaped object: a random type with the fields it reads, often wrong. */
export function jsonEvent(rng: Rng, type = rng.pick(TYPES)): Record<string, unknown> {
  const e: Record<string, unknown> = { type };
  for (const [name, required, kind] of fieldsRead(type)) {
    if (!required && rng.chance(0.6)) continue;
    if (rng.chance(0.05)) continue; // a required field missing
    defineOwn(e, name, rng.chance(0.85) ? fieldValue(rng, kind) : jsonValue(rng, 2));
  }
  if (type === "RUN_STARTED" || type === "RUN_FINISHED") {
    e.threadId = "t1";
    e.runId = "r1";
  }
  // The payload the rules do not read (delta, content, ...): strings of every size.
  if (rng.chance(0.5)) defineOwn(e, rng.pick(PAYLOAD_FIELDS), payload(rng));
  for (let n = rng.int(3); n > 0; n--) defineOwn(e, rng.pick(FIELD_NAMES), jsonValue(rng, 2));
  return e;
}

const PAYLOAD_FIELDS = ["delta", "content", "name", "role", "threadId", "rawEvent", "value"];

/** A payload string: short, nasty, or (now and then) long, up to 90,000 code units. */
export function payload(rng: Rng): string {
  const r = rng.int(20);
  if (r < 9) return randomString(rng, rng.int(60));
  if (r < 15) return rng.pick(NASTY_STRINGS);
  if (r < 19) return "lorem ipsum ".repeat(rng.int(100));
  return "é😀\ud800a\u0000\r\n".repeat(rng.int(10_000));
}

/** The fields §3.2 says a type reads (none for an unknown type). */
export function fieldsRead(type: string): readonly (readonly [string, boolean, string])[] {
  return Object.hasOwn(FIELDS_READ, type)
    ? ((FIELDS_READ as Record<string, readonly (readonly [string, boolean, string])[]>)[type] ?? [])
    : [];
}

function fieldValue(rng: Rng, kind: string): unknown {
  switch (kind) {
    case "string":
      return id(rng);
    case "boolean":
      return rng.chance(0.5);
    case "array":
      return rng.chance(0.7) ? messagesValue(rng) : jsonValue(rng, 2);
    default:
      return rng.chance(0.3) ? { messages: messagesValue(rng) } : outcomeValue(rng);
  }
}

function messagesValue(rng: Rng): unknown[] {
  const out: unknown[] = [];
  for (let n = rng.int(3); n > 0; n--) {
    const m: Record<string, unknown> = {
      id: id(rng),
      role: rng.pick(["user", "assistant", "tool", "reasoning", "activity", "x", ""]),
    };
    if (rng.chance(0.3)) m.subagentRunId = id(rng);
    if (rng.chance(0.3)) {
      m.toolCalls = rng.chance(0.8)
        ? [{ id: id(rng), type: "function", function: { name: "f", arguments: "{}" } }]
        : jsonValue(rng, 1);
    }
    out.push(rng.chance(0.9) ? m : jsonValue(rng, 1));
  }
  return out;
}

function outcomeValue(rng: Rng): unknown {
  switch (rng.int(4)) {
    case 0:
      return { type: "success" };
    case 1:
      return { type: "interrupt", interrupts: rng.chance(0.5) ? [] : [{ id: "i1", reason: "x" }] };
    case 2:
      return { type: rng.pick(NASTY_STRINGS), interrupts: jsonValue(rng, 1) };
    default:
      return jsonValue(rng, 2);
  }
}

/** A JSON text whose value nests `depth` deep: built by repetition, parsed by JSON.parse. */
export function deepJsonText(depth: number, kind: "array" | "object"): string {
  return kind === "array"
    ? `${"[".repeat(depth)}${"]".repeat(depth)}`
    : `${'{"a":'.repeat(depth)}null${"}".repeat(depth)}`;
}

// ---------------------------------------------------------------------------------------
// Hostile in-process values: what no JSON parser makes

/** What the hostile values' getters and traps throw: recognisable if it escapes. */
export class HostileThrow extends Error {
  constructor(where: string) {
    super(`hostile value threw (${where})`);
    this.name = "HostileThrow";
  }
}

/** Non-Error things a getter can throw. */
function thrownThing(rng: Rng, where: string): unknown {
  switch (rng.int(7)) {
    case 0:
      return "a string";
    case 1:
      return undefined;
    case 2:
      return null;
    case 3:
      return Symbol("thrown");
    case 4:
      // An object whose printing throws too.
      return {
        toString() {
          throw new HostileThrow(`${where}: toString of the thrown value`);
        },
      };
    case 5:
      return new RangeError(`hostile RangeError (${where})`);
    default:
      return new HostileThrow(where);
  }
}

function throwingGetter(o: object, key: string, thrown: () => unknown): void {
  Object.defineProperty(o, key, {
    enumerable: true,
    configurable: true,
    get() {
      throw thrown();
    },
  });
}

/** An object nested `depth` deep, built in process (no parser involved). */
function deepObject(depth: number): unknown {
  let v: unknown = null;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

function deepArray(depth: number): unknown {
  let v: unknown = [];
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** Deep values are made once and shared (nothing changes them): they are costly to build. */
const DEEP: Record<string, unknown> = {};
function deep(kind: "object" | "array", depth: number): unknown {
  const key = `${kind}${depth}`;
  if (!(key in DEEP)) DEEP[key] = kind === "object" ? deepObject(depth) : deepArray(depth);
  return DEEP[key];
}

/** Where hostile values are put into an otherwise plausible event. */
const NESTED_SLOTS: readonly ((e: Record<string, unknown>, v: unknown) => string)[] = [
  (e, v) => {
    e.type = "RUN_STARTED";
    e.input = { messages: [v] };
    return "input.messages[0]";
  },
  (e, v) => {
    e.type = "RUN_STARTED";
    e.input = v;
    return "input";
  },
  (e, v) => {
    e.type = "RUN_STARTED";
    e.input = { messages: v };
    return "input.messages";
  },
  (e, v) => {
    e.type = "RUN_STARTED";
    e.input = {
      messages: [{ id: "m1", role: "assistant", toolCalls: [v] }],
    };
    return "input.messages[0].toolCalls[0]";
  },
  (e, v) => {
    e.type = "RUN_FINISHED";
    e.outcome = v;
    return "outcome";
  },
  (e, v) => {
    e.type = "RUN_FINISHED";
    e.outcome = { type: "interrupt", interrupts: [v] };
    return "outcome.interrupts[0]";
  },
  (e, v) => {
    e.type = "MESSAGES_SNAPSHOT";
    e.messages = [v];
    return "messages[0]";
  },
  (e, v) => {
    e.type = "MESSAGES_SNAPSHOT";
    e.messages = v;
    return "messages";
  },
  (e, v) => {
    e.type = "TEXT_MESSAGE_START";
    e.messageId = v;
    return "messageId";
  },
  (e, v) => {
    e.type = "TEXT_MESSAGE_CONTENT";
    e.messageId = "m1";
    e.delta = v;
    return "delta";
  },
  (e, v) => {
    e.type = "CUSTOM";
    e.value = v;
    return "value";
  },
  (e, v) => {
    e.type = "STATE_SNAPSHOT";
    e.snapshot = v;
    return "snapshot";
  },
  (e, v) => {
    e.type = rnd(e);
    e.subagentRunId = v;
    return "subagentRunId";
  },
];

/** An event's type for a label: the string (cut at 30), else what it is. */
export function typeLabel(e: Record<string, unknown>): string {
  const type = Object.getOwnPropertyDescriptor(e, "type")?.value;
  return typeof type === "string" ? type.slice(0, 30) : `<${type === null ? "null" : typeof type}>`;
}

function rnd(e: Record<string, unknown>): string {
  return typeof e.type === "string" ? e.type : "TEXT_MESSAGE_START";
}

/** A hostile thing to nest: a revoked proxy, a throwing proxy, a deep or cyclic value... */
function hostileLeaf(rng: Rng): Labelled<unknown> {
  switch (rng.int(10)) {
    case 0: {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return { value: proxy, label: "revoked-proxy" };
    }
    case 1: {
      const { proxy, revoke } = Proxy.revocable([], {});
      revoke();
      return { value: proxy, label: "revoked-array-proxy" };
    }
    case 2:
      return { value: throwingProxy(rng, { id: "m1", role: "user" }), label: "throwing-proxy" };
    case 3: {
      const o: Record<string, unknown> = { id: "m1", role: "assistant" };
      throwingGetter(o, rng.pick(["id", "role", "toolCalls", "type", "interrupts"]), () =>
        thrownThing(rng, "nested getter"),
      );
      return { value: o, label: "nested-getter" };
    }
    case 4:
      return { value: deep("object", rng.pick([1_000, 100_000])), label: "deep-object" };
    case 5:
      return { value: deep("array", rng.pick([1_000, 100_000])), label: "deep-array" };
    case 6: {
      const o: Record<string, unknown> = { id: "m1", role: "user" };
      o.self = o;
      o.content = [o];
      return { value: o, label: "cycle" };
    }
    case 7:
      return { value: 10n, label: "bigint" };
    case 8:
      return { value: Symbol("leaf"), label: "symbol" };
    default:
      return {
        value: {
          toString() {
            throw new HostileThrow("toString");
          },
          [Symbol.toPrimitive]() {
            throw new HostileThrow("toPrimitive");
          },
        },
        label: "unprintable",
      };
  }
}

const TRAPS = ["get", "has", "ownKeys", "getPrototypeOf", "getOwnPropertyDescriptor"] as const;

/** A Proxy whose chosen traps throw; the others forward. */
function throwingProxy(rng: Rng, target: object): object {
  const handler: ProxyHandler<object> = {};
  const traps = TRAPS.filter(() => rng.chance(0.4));
  if (traps.length === 0) traps.push(rng.pick(TRAPS));
  for (const trap of traps) {
    (handler as Record<string, unknown>)[trap] = () => {
      throw thrownThing(rng, `proxy ${trap} trap`);
    };
  }
  return new Proxy(target, handler);
}

/** A value that is not an event object, or one whose reading throws, or holds a hostile leaf. */
export function hostileValue(rng: Rng): Labelled<unknown> {
  const r = rng.int(22);
  switch (r) {
    case 0:
      return rng.pick([
        { value: null, label: "null" },
        { value: undefined, label: "undefined" },
        { value: 0, label: "0" },
        { value: Number.NaN, label: "NaN" },
        { value: -0, label: "-0" },
        { value: "RUN_STARTED", label: "a string" },
        { value: "", label: "empty string" },
        { value: true, label: "true" },
        { value: 1n, label: "bigint" },
        { value: Symbol("event"), label: "symbol" },
        { value: () => ({ type: "RUN_STARTED" }), label: "function" },
        { value: [], label: "array" },
        { value: [{ type: "RUN_STARTED" }], label: "array of event" },
      ]);
    case 1: {
      const f = () => {};
      (f as unknown as Record<string, unknown>).type = "RUN_STARTED";
      return { value: f, label: "function with type" };
    }
    case 2: {
      const a: unknown[] & { type?: string } = [];
      a.type = rng.pick(EVENT_TYPES);
      return { value: a, label: "array with type" };
    }
    case 3: {
      const o = Object.create(null) as Record<string, unknown>;
      Object.assign(o, jsonEvent(rng));
      return { value: o, label: "null-prototype event" };
    }
    case 4: {
      const o = {};
      throwingGetter(o, "type", () => thrownThing(rng, "type getter"));
      return { value: o, label: "type getter throws" };
    }
    case 5:
    case 6: {
      const type = rng.pick(EVENT_TYPES);
      const e = jsonEvent(rng, type);
      const names = [...fieldsRead(type).map((f) => f[0]), ...FIELD_NAMES];
      const key = rng.pick(names);
      throwingGetter(e, key, () => thrownThing(rng, `${key} getter`));
      return { value: e, label: `getter throws: ${type}.${key}` };
    }
    case 7: {
      // A getter that throws the first time only: a second reading behaves.
      const type = rng.pick(EVENT_TYPES);
      const e = jsonEvent(rng, type);
      const key = rng.pick([...fieldsRead(type).map((f) => f[0]), "type"]);
      const value = e[key];
      let calls = 0;
      Object.defineProperty(e, key, {
        enumerable: true,
        configurable: true,
        get() {
          if (calls++ === 0) throw new HostileThrow(`${key} getter, first read only`);
          return value;
        },
      });
      return { value: e, label: `getter throws once: ${type}.${key}` };
    }
    case 8: {
      // A type that changes between readings.
      const types = [rng.pick(EVENT_TYPES), rng.pick(EVENT_TYPES), 7];
      let calls = 0;
      const e = jsonEvent(rng, String(types[0]));
      Object.defineProperty(e, "type", {
        enumerable: true,
        get: () => types[calls++ % types.length],
      });
      return { value: e, label: `type changes on each read: ${types.join("/")}` };
    }
    case 9:
    case 10:
      return { value: throwingProxy(rng, jsonEvent(rng)), label: "proxy with throwing traps" };
    case 11: {
      const { proxy, revoke } = Proxy.revocable(jsonEvent(rng), {});
      revoke();
      return { value: proxy, label: "revoked proxy" };
    }
    case 12:
    case 13:
    case 14: {
      const leaf = hostileLeaf(rng);
      const e = jsonEvent(rng, rng.pick(EVENT_TYPES));
      const slot = rng.pick(NESTED_SLOTS);
      const at = slot(e, leaf.value);
      return { value: e, label: `${leaf.label} at ${typeLabel(e)}.${at}` };
    }
    case 15: {
      // JSON.parse makes `__proto__` an own key.
      const inner = JSON.stringify(jsonEvent(rng, rng.pick(EVENT_TYPES)));
      const text = `{"type":"TEXT_MESSAGE_START","__proto__":${inner},"messageId":"__proto__"}`;
      return { value: JSON.parse(text), label: "__proto__ key" };
    }
    case 16: {
      const e = jsonEvent(rng, rng.pick(EVENT_TYPES));
      Object.setPrototypeOf(e, { messageId: "m1", toolCallId: "c1", stepName: "s" });
      return { value: e, label: "fields on the prototype" };
    }
    case 17: {
      const e = jsonEvent(rng, rng.pick(EVENT_TYPES));
      const names = FIELD_NAMES.filter(() => rng.chance(0.3));
      for (const name of names) e[name] = HUGE_ID;
      return { value: e, label: `1 MB ids at ${names.join(",")}` };
    }
    case 18: {
      const e = jsonEvent(rng, rng.pick(EVENT_TYPES));
      e[rng.pick(FIELD_NAMES)] = new Date(0);
      e[rng.pick(FIELD_NAMES)] = new Map([["id", "m1"]]);
      return { value: e, label: "Date and Map fields" };
    }
    case 19: {
      const e = Object.freeze(jsonEvent(rng));
      return { value: e, label: "frozen event" };
    }
    case 20: {
      // Many keys, some of them near misses (message_id for messageId).
      const e = jsonEvent(rng, rng.pick(EVENT_TYPES));
      for (let i = 0; i < 3_000; i++) e[`k${i}`] = i;
      e.message_id = "m1";
      e.MessageId = "m1";
      delete e.messageId;
      return { value: e, label: "3,000 keys and near misses" };
    }
    default: {
      // A class instance with a type field, and a getter on the class.
      class Ev {
        readonly type = rng.pick(EVENT_TYPES);
        get messageId(): string {
          throw new HostileThrow("class getter");
        }
      }
      return { value: new Ev(), label: "class instance, getter throws" };
    }
  }
}

/**
 * A value for the encoder: JSON, or what JSON cannot represent (BigInt, undefined, a symbol,
 * a function, a cycle), or what it represents but a recursive serialiser may not (deep
 * nesting). No getters or traps: the encoder does not promise to survive those.
 */
export function encoderValue(rng: Rng): Labelled<unknown> {
  const e = jsonEvent(rng);
  switch (rng.int(8)) {
    case 0:
      e.value = 1n;
      return { value: e, label: "a BigInt field" };
    case 1:
      e.self = e;
      return { value: e, label: "a cycle" };
    case 2:
      return rng.pick([
        { value: undefined, label: "undefined" },
        { value: Symbol("e"), label: "a symbol" },
        { value: () => e, label: "a function" },
      ]);
    case 3:
      e.rawEvent = deep(rng.chance(0.5) ? "object" : "array", rng.pick([1_000, 100_000]));
      return { value: e, label: "a deep rawEvent" };
    case 4:
      e.delta = HUGE_ID;
      return { value: e, label: "a 1 MB delta" };
    default:
      return { value: e, label: `event ${typeLabel(e)}` };
  }
}

// ---------------------------------------------------------------------------------------
// Runs and their mutations

/**
 * A valid stream: from the property-test builders (one run, or a stream of any shape
 * version 4 accepts: several runs, a leading RUN_ERROR, late failures) or the benchmark's
 * realistic generators.
 */
export function validRun(rng: Rng): Labelled<Record<string, unknown>[]> {
  const r = rng.int(20);
  if (r < 15) {
    const choices: number[] = [];
    for (let n = rng.int(rng.chance(0.2) ? 200 : 40); n > 0; n--) choices.push(rng.int(0x7fffffff));
    if (r < 5) return { value: buildStream(choices), label: `stream(${choices.length})` };
    return { value: buildRun(choices, { ending: "either" }), label: `built(${choices.length})` };
  }
  // The benchmark's runs are long (an agentic one has at least one turn of ~500 events).
  const n = rng.range(5, 40);
  const seed = rng.seed();
  if (r < 16) return { value: agenticRun(n, { seed }), label: `agentic(${n},${seed})` };
  if (r < 18) return { value: chatRun(n, { seed }), label: `chat(${n},${seed})` };
  return { value: toolRun(n, { seed }), label: `tool(${n},${seed})` };
}

/** Several valid streams back to back: one valid stream under version 4, with no option (§9.6). */
export function sequentialRuns(rng: Rng): Labelled<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  const labels: string[] = [];
  for (let n = rng.range(2, 3); n > 0; n--) {
    let run = validRun(rng);
    // After the first, no stream that opens with RUN_ERROR: after a failed run only a
    // RUN_STARTED may come (rule 2).
    while (out.length > 0 && firstRecognised(run.value) === "RUN_ERROR") run = validRun(rng);
    out.push(...run.value);
    labels.push(run.label);
  }
  return { value: out, label: labels.join("+") };
}

/** The type of the first event of a recognised type (§3.2), if any. */
function firstRecognised(events: readonly Record<string, unknown>[]): unknown {
  const known: readonly unknown[] = EVENT_TYPES;
  return events.find((e) => known.includes(e.type))?.type;
}

/** A copy of an event's own fields; nothing for a value whose reading throws. */
function spread(value: unknown): Record<string, unknown> {
  try {
    return { ...(value as object) };
  } catch {
    return {};
  }
}

/** One random mutation of `events` (a copy): drop, duplicate, swap, retag, retype, cut... */
export function mutate(
  rng: Rng,
  events: readonly unknown[],
  hostile: boolean,
): Labelled<unknown[]> {
  const out = events.slice();
  const n = out.length;
  const i = rng.int(Math.max(n, 1));
  const j = rng.int(Math.max(n, 1));
  const kinds = hostile ? 14 : 12;
  switch (rng.int(kinds)) {
    case 0:
      out.splice(i, 1);
      return { value: out, label: `drop(${i})` };
    case 1:
      out.splice(i, 0, out[i]);
      return { value: out, label: `duplicate(${i})` };
    case 2:
      [out[i], out[j]] = [out[j], out[i]];
      return { value: out, label: `swap(${i},${j})` };
    case 3: {
      const tag = rng.chance(0.03)
        ? HUGE_ID
        : rng.pick(["never-announced", "s1", "", "__proto__", "x".repeat(150)]);
      out[i] = { ...spread(out[i]), subagentRunId: tag };
      return { value: out, label: `retag(${i},${tag.length > 20 ? "1MB" : JSON.stringify(tag)})` };
    }
    case 4: {
      const copy = spread(out[i]);
      delete copy.subagentRunId;
      out[i] = copy;
      return { value: out, label: `untag(${i})` };
    }
    case 5: {
      const type = rng.pick(TYPES);
      out[i] = { ...spread(out[i]), type };
      return { value: out, label: `retype(${i},${type.slice(0, 30)})` };
    }
    case 6: {
      const cut = rng.int(n + 1);
      return { value: out.slice(0, cut), label: `cut(${cut})` };
    }
    case 7: {
      const key = rng.pick(FIELD_NAMES);
      out[i] = { ...spread(out[i]), [key]: jsonValue(rng, 2) };
      return { value: out, label: `field(${i}.${key})` };
    }
    case 8: {
      const e = jsonEvent(rng);
      out.splice(i, 0, e);
      return { value: out, label: `insert(${i},${typeLabel(e)})` };
    }
    case 9: {
      // Move a run of events elsewhere.
      const len = rng.range(1, 5);
      const moved = out.splice(i, len);
      out.splice(rng.int(out.length + 1), 0, ...moved);
      return { value: out, label: `move(${i},${len})` };
    }
    case 10: {
      const key = rng.pick(FIELD_NAMES);
      out[i] = { ...spread(out[i]), [key]: payload(rng) };
      return { value: out, label: `long(${i}.${key})` };
    }
    case 11: {
      // Deep, but not so deep that JSON.stringify cannot write it.
      const key = rng.pick(FIELD_NAMES);
      const text = deepJsonText(rng.range(100, 2_000), rng.chance(0.5) ? "array" : "object");
      out[i] = { ...spread(out[i]), [key]: JSON.parse(text) };
      return { value: out, label: `deep(${i}.${key})` };
    }
    case 12: {
      const h = hostileValue(rng);
      out.splice(i, 0, h.value);
      return { value: out, label: `insert(${i},${h.label})` };
    }
    default: {
      const h = hostileValue(rng);
      out[i] = h.value;
      return { value: out, label: `replace(${i},${h.label})` };
    }
  }
}

// ---------------------------------------------------------------------------------------
// Bytes

const utf8 = new TextEncoder();
export const BOM_BYTES: Uint8Array = Uint8Array.of(0xef, 0xbb, 0xbf);

/** How SSE messages are framed: line ends, the space after `data:`, extra fields. */
export interface Framing {
  readonly lineEnd: "lf" | "crlf" | "cr" | "mixed";
  readonly bom: boolean;
  /** Per mille: comments, event/id/retry lines, multi-line data. */
  readonly extras: number;
}

export function framing(rng: Rng): Framing {
  return {
    lineEnd: rng.pick(["lf", "lf", "crlf", "cr", "mixed"] as const),
    bom: rng.chance(0.15),
    extras: rng.pick([0, 0, 100, 400]),
  };
}

/**
 * A line end. After a CR, a lone LF would make a CRLF, one line end where two were meant:
 * the mixed framing writes CRLF there instead.
 */
function eol(rng: Rng, f: Framing, after = ""): string {
  const end = lineEnd(rng, f);
  return end === "\n" && after.endsWith("\r") ? "\r\n" : end;
}

function lineEnd(rng: Rng, f: Framing): string {
  switch (f.lineEnd) {
    case "lf":
      return "\n";
    case "crlf":
      return "\r\n";
    case "cr":
      return "\r";
    default:
      return rng.pick(["\n", "\r\n", "\r"]);
  }
}

/**
 * JSON texts (one per value) as SSE messages: exactly one message per text, whatever the
 * framing, so that decoding gives the values back.
 */
export function sseText(rng: Rng, jsons: readonly string[], f: Framing): string {
  const extra = () => rng.int(1000) < f.extras;
  const parts: string[] = [];
  /** Whether the last part written ends with a CR (endsWith on a long joined string is slow). */
  let afterCR = false;
  const line = (text: string) => {
    const end = eol(rng, f, text === "" && afterCR ? "\r" : "");
    parts.push(text + end);
    afterCR = end.endsWith("\r");
  };
  for (const json of jsons) {
    if (extra()) line(`:${rng.pick([" ping", "", " data: {}", "\u0000"])}`);
    if (extra()) line(""); // a blank line outside a message dispatches nothing
    if (extra()) line(`event: ${rng.pick(["message", "x", ""])}`);
    if (extra()) line(`id: ${rng.pick(["1", "", "a\u0000b"])}`);
    if (extra()) line(`retry: ${rng.pick(["10", "x"])}`);
    if (extra()) line("unknown-field: y");
    if (extra() && json.length < 2_000) {
      // Multi-line data: the lines of a pretty-printed text join back with LF.
      for (const text of JSON.stringify(JSON.parse(json), null, 1).split("\n"))
        line(`data:${text}`);
    } else line(`data:${rng.chance(0.8) ? " " : ""}${json}`);
    line("");
  }
  return parts.join("");
}

export function sseBytes(rng: Rng, jsons: readonly string[], f: Framing): Uint8Array {
  const body = utf8.encode(sseText(rng, jsons, f));
  return f.bom ? concat([BOM_BYTES, body]) : body;
}

/** Bytes that tend to matter to an SSE or UTF-8 decoder. */
const SPECIAL_BYTES: readonly (readonly number[])[] = [
  [0x0a],
  [0x0d],
  [0x0d, 0x0a],
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x00],
  [0x3a],
  [0xef, 0xbb, 0xbf], // BOM
  [0xef, 0xbb], // a cut BOM
  [0xff],
  [0xfe],
  [0xc0, 0x80], // overlong NUL
  [0xed, 0xa0, 0x80], // an encoded surrogate
  [0xf0, 0x9f], // a cut 4-byte sequence
  [0xf4, 0x90, 0x80, 0x80], // above U+10FFFF
  [0x80],
  [0xe2, 0x80, 0xa8], // U+2028
  [...utf8.encode("data:")],
  [...utf8.encode("data: ")],
  [...utf8.encode('data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\n')],
  [...utf8.encode('data: {"type":"RUN_FINISHED","threadId":"t","runId":"r"}\n\n')],
  [...utf8.encode("data: [DONE]\n\n")],
  [...utf8.encode("data\n\n")],
  [...utf8.encode(":\n")],
  [...utf8.encode('{"type":"RUN_STARTED"}\n')],
  [...utf8.encode("event: x\r\n")],
  [0x7b],
  [0x7d],
  [0x22],
  [0x5c],
];

/** Random bytes, biased towards the ones SSE and UTF-8 decoders care about. */
export function randomBytes(rng: Rng, length: number): Uint8Array {
  const out: number[] = [];
  while (out.length < length) {
    if (rng.chance(0.4)) out.push(...rng.pick(SPECIAL_BYTES));
    else out.push(rng.int(256));
  }
  return Uint8Array.from(out);
}

/** One byte-level damage to `bytes` (a copy). */
export function damage(rng: Rng, bytes: Uint8Array): Labelled<Uint8Array> {
  const n = bytes.length;
  const at = rng.int(n + 1);
  switch (rng.int(9)) {
    case 0: {
      const copy = bytes.slice();
      if (n > 0) copy[Math.min(at, n - 1)] = rng.int(256);
      return { value: copy, label: `flip(${at})` };
    }
    case 1: {
      const ins = randomBytes(rng, rng.range(1, 8));
      return {
        value: concat([bytes.subarray(0, at), ins, bytes.subarray(at)]),
        label: `ins(${at})`,
      };
    }
    case 2: {
      const len = rng.range(1, 16);
      return {
        value: concat([bytes.subarray(0, at), bytes.subarray(at + len)]),
        label: `del(${at},${len})`,
      };
    }
    case 3:
      return { value: bytes.slice(0, at), label: `truncate(${at})` };
    case 4: {
      const len = rng.range(1, 64);
      const piece = bytes.subarray(at, at + len);
      return {
        value: concat([bytes.subarray(0, at), piece, piece, bytes.subarray(at + len)]),
        label: `dup(${at},${len})`,
      };
    }
    case 5: {
      // Every line end of one kind becomes another.
      const [from, to] = [rng.pick(["\n", "\r\n", "\r"]), rng.pick(["\n", "\r\n", "\r"])];
      const text = new TextDecoder().decode(bytes).split(from).join(to);
      return {
        value: utf8.encode(text),
        label: `eol(${JSON.stringify(from)}→${JSON.stringify(to)})`,
      };
    }
    case 6:
      return { value: concat([BOM_BYTES, BOM_BYTES, bytes]), label: "double BOM" };
    case 7: {
      const ins = rng.pick(SPECIAL_BYTES);
      return {
        value: concat([bytes.subarray(0, at), Uint8Array.from(ins), bytes.subarray(at)]),
        label: `special(${at})`,
      };
    }
    default: {
      // A blank line removed: two messages run together.
      const text = new TextDecoder().decode(bytes);
      const k = text.indexOf("\n\n", rng.int(Math.max(text.length, 1)));
      const joined = k === -1 ? text : text.slice(0, k) + text.slice(k + 1);
      return { value: utf8.encode(joined), label: `unblank(${k})` };
    }
  }
}

/** JSON texts as JSON Lines, with CRLF or LF, blank lines, a BOM. */
export function jsonlBytes(rng: Rng, jsons: readonly string[], bom: boolean): Uint8Array {
  let s = "";
  for (const json of jsons) {
    if (rng.chance(0.05)) s += rng.pick(["\n", "\r\n", "  \n"]);
    s += json + (rng.chance(0.8) ? "\n" : "\r\n");
  }
  if (s.endsWith("\n") && rng.chance(0.2)) s = s.replace(/\r?\n$/, "");
  const body = utf8.encode(s);
  return bom ? concat([BOM_BYTES, body]) : body;
}

// ---------------------------------------------------------------------------------------
// Chunkings

/** Splits `bytes` into chunks: one, one byte each, random cuts, or with empty chunks. */
export function chunking(rng: Rng, bytes: Uint8Array): Labelled<Uint8Array[]> {
  const r = rng.int(bytes.length <= 4096 ? 5 : 4);
  switch (r) {
    case 0:
      return { value: [bytes], label: "one chunk" };
    case 1:
    case 2: {
      const out: Uint8Array[] = [];
      // At most about 2,000 chunks: more only costs time.
      const max = Math.max(rng.pick([2, 7, 64, 1000]), Math.ceil(bytes.length / 1000));
      for (let at = 0; at < bytes.length; ) {
        const len = rng.range(1, max);
        out.push(bytes.subarray(at, at + len));
        at += len;
      }
      return { value: out, label: `random cuts ≤${max}` };
    }
    case 3: {
      const out: Uint8Array[] = [new Uint8Array(0)];
      for (let at = 0; at < bytes.length; ) {
        const len = rng.range(1, Math.max(200, Math.ceil(bytes.length / 500)));
        out.push(bytes.subarray(at, at + len));
        if (rng.chance(0.5)) out.push(new Uint8Array(0));
        at += len;
      }
      return { value: out, label: "cuts with empty chunks" };
    }
    default:
      return { value: Array.from(bytes, (b) => Uint8Array.of(b)), label: "1-byte chunks" };
  }
}

/** A body that hands out `chunks`, one per pull, then ends (or errors with `failure`). */
export function bodyOf(
  chunks: readonly Uint8Array[],
  failure?: unknown,
): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(c) {
        const chunk = chunks[i++];
        if (chunk !== undefined) c.enqueue(chunk);
        else if (failure !== undefined) c.error(failure);
        else c.close();
      },
    },
    { highWaterMark: 0 },
  );
}

export function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The index of the first byte where `a` and `b` differ, or -1. */
export function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

/** Every CR and CRLF as LF (what `lineEnds: "lf"` promises), on bytes. */
export function toLf(bytes: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b === 0x0d) {
      out.push(0x0a);
      if (bytes[i + 1] === 0x0a) i++;
    } else out.push(b);
  }
  return Uint8Array.from(out);
}

/** A short printable description of bytes: the start and the length. */
export function showBytes(bytes: Uint8Array, max = 120): string {
  const text = new TextDecoder().decode(bytes.subarray(0, max));
  return `${bytes.length} bytes: ${JSON.stringify(text)}${bytes.length > max ? "…" : ""}`;
}
