// agUiSchema on hostile values (SPEC §17.4): it gives a verdict, issues or a value, for every
// value `JSON.parse` can produce, and never throws. Every value here is made by `JSON.parse`,
// as a producer's event would be: nesting 200,000 deep, strings of 10 MB, JSON pointers of
// 3 to 10 MB, lone surrogates, `__proto__` keys (own properties after `JSON.parse`), a
// million keys, numbers that parse to Infinity.
//
// The fields come from the zod definitions themselves (`EventSchema` of @ag-ui/core 1.0.0),
// not from a list typed here: every field of every event type gets the deep values, every
// string field the long and broken strings, every field the schema leaves free (`z.any()`
// and `z.custom()`: `rawEvent`, `state`, a patch's `value`, metadata...) also the wide and
// `__proto__`-keyed ones. Each event is a minimal valid event of its type (zod accepts it)
// with the hostile value at that one field.
//
// Verdicts are compared with `EventSchema.safeParse`: accept or reject, and the first issue's
// path. Where zod itself gives no verdict, agUiSchema still must; the one such place found
// is the JSON pointer pattern (`path` and `from` of JSON Patch operations):
//
// Decision: zod runs `/^(\/([^/~]|~[01])*)*$/` with V8's backtracking engine, which throws a
// RangeError ("Maximum call stack size exceeded") once a pointer is a few megabytes long.
// agUiSchema gives the verdict the pattern defines, the one zod gives on every pointer short
// enough for the engine: each long value here has a short twin of the same shape ("/" three
// times for "/" three million times), and where zod throws on the long one, agUiSchema's
// verdict on it must be zod's on the twin. scripts/gen-schema.mjs (PATTERNS) replaces the
// pattern with a one-pass scan and checks the scan against the pattern when it generates.
//
// Nothing compares the outputs deeply (`toEqual`), which would itself recurse 200,000 deep.

import { EventSchema } from "@ag-ui/core/schemas";
import { describe, expect, it } from "vitest";
import { agUiSchema } from "../src/schema/index.ts";

type Key = string | number;

/** The parts of a zod 4 schema node this file reads. */
interface ZodNode {
  _zod: {
    def: {
      type: string;
      shape?: Record<string, ZodNode>;
      options?: ZodNode[];
      innerType?: ZodNode;
      element?: ZodNode;
      in?: ZodNode;
      values?: unknown[];
      entries?: Record<string, unknown>;
      checks?: ZodNode[];
      check?: string;
      minimum?: number;
    };
    traits: Set<string>;
    optin?: string;
    propValues?: Record<string, Set<unknown>>;
  };
}

function isZodNode(x: unknown): x is ZodNode {
  return typeof x === "object" && x !== null && "_zod" in x;
}

const root: unknown = EventSchema;
if (!isZodNode(root)) throw new Error("EventSchema is not a zod 4 schema");

// ---------------------------------------------------------------------------------------
// Verdicts

/** A verdict: "accepts", or "rejects at" the first issue's path; or what was thrown. */
type Verdict = string;

function describeThrow(error: unknown): Verdict {
  return `throws ${error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error)}`;
}

function ours(value: unknown): Verdict {
  try {
    const result = agUiSchema["~standard"].validate(value);
    if (result instanceof Promise) return "a Promise";
    if (result.issues === undefined) return "accepts";
    expect(result.issues).toHaveLength(1);
    expect(typeof result.issues[0]?.message).toBe("string");
    return `rejects at ${JSON.stringify(result.issues[0]?.path)}`;
  } catch (error) {
    return describeThrow(error);
  }
}

function zod(value: unknown): Verdict {
  try {
    const result = EventSchema.safeParse(value);
    return result.success
      ? "accepts"
      : `rejects at ${JSON.stringify(result.error.issues[0]?.path)}`;
  } catch (error) {
    return describeThrow(error);
  }
}

/**
 * What agUiSchema's verdict on `value` must be: zod's, or where zod throws a RangeError (the
 * engine's limit, not a verdict), zod's on `twin`, the same event with a short value of the
 * same shape.
 */
function expected(value: unknown, twin: unknown): { verdict: Verdict; zodThrew: boolean } {
  const verdict = zod(value);
  if (!verdict.startsWith("throws")) return { verdict, zodThrew: false };
  expect(verdict).toMatch(/^throws RangeError/);
  const short = zod(twin);
  expect(short).not.toMatch(/^throws/);
  return { verdict: short, zodThrew: true };
}

// ---------------------------------------------------------------------------------------
// Fields, from the zod definitions

function checksOf(node: ZodNode): ZodNode[] {
  const checks = [...(node._zod.def.checks ?? [])];
  if (node._zod.traits.has("$ZodCheck")) checks.unshift(node);
  return checks;
}

type Kind = "string" | "free" | "other";

/** A field: its path inside the event (array items at index 0) and what the schema wants. */
interface Field {
  type: string;
  path: Key[];
  kind: Kind;
}

/** The node under the wrappers (optional, nullable, default, pipe). */
function unwrap(node: ZodNode): ZodNode {
  const def = node._zod.def;
  if (def.type === "optional" || def.type === "nullable" || def.type === "default") {
    return unwrap(def.innerType ?? node);
  }
  if (def.type === "pipe") return unwrap(def.in ?? node);
  return node;
}

/** Every field below `node` (the schema is not recursive: the generator refuses that). */
function fieldsOf(type: string, node: ZodNode, path: Key[], out: Field[]): Field[] {
  const inner = unwrap(node);
  const def = inner._zod.def;
  if (path.length > 0) {
    const kind: Kind =
      def.type === "string"
        ? "string"
        : def.type === "any" || def.type === "unknown" || def.type === "custom"
          ? "free"
          : "other";
    if (!out.some((f) => f.type === type && samePath(f.path, path))) out.push({ type, path, kind });
  }
  if (def.type === "object") {
    for (const [key, field] of Object.entries(def.shape ?? {})) {
      fieldsOf(type, field, [...path, key], out);
    }
  } else if (def.type === "array") {
    fieldsOf(type, def.element ?? inner, [...path, 0], out);
  } else if (def.type === "union") {
    for (const option of def.options ?? []) fieldsOf(type, option, path, out);
  }
  return out;
}

function samePath(a: readonly Key[], b: readonly Key[]): boolean {
  return a.length === b.length && a.every((k, i) => k === b[i]);
}

const NO_VALUE = Symbol("no value");

/**
 * A minimal value of `node` that zod accepts, with `hostile` at `path` (relative to it); NO_VALUE
 * when `path` does not lead anywhere in `node` (a union's other options).
 */
function build(node: ZodNode, path: readonly Key[], hostile: unknown): unknown {
  if (path.length === 0 && hostile !== NO_VALUE) return hostile;
  const def = node._zod.def;
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
      return build(def.innerType ?? node, path, hostile);
    case "pipe":
      return build(def.in ?? node, path, hostile);
    case "object": {
      const out: Record<string, unknown> = {};
      const [head, ...rest] = path;
      if (head !== undefined && !(typeof head === "string" && def.shape?.[head])) return NO_VALUE;
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        if (key === head) {
          const value = build(field, rest, hostile);
          if (value === NO_VALUE) return NO_VALUE;
          out[key] = value;
        } else if (field._zod.optin !== "optional") {
          out[key] = build(field, [], NO_VALUE);
        }
      }
      return out;
    }
    case "array": {
      const [head, ...rest] = path;
      if (head !== undefined && head !== 0) return NO_VALUE;
      const min = checksOf(node).find((c) => c._zod.def.check === "min_length")?._zod.def.minimum;
      const items = [];
      if (head === 0) {
        const first = build(def.element ?? node, rest, hostile);
        if (first === NO_VALUE) return NO_VALUE;
        items.push(first);
      }
      while (items.length < (min ?? 0)) items.push(build(def.element ?? node, [], NO_VALUE));
      return items;
    }
    case "union":
      for (const option of def.options ?? []) {
        const value = build(option, path, hostile);
        if (value !== NO_VALUE) return value;
      }
      return NO_VALUE;
    case "literal":
      return path.length === 0 ? def.values?.[0] : NO_VALUE;
    case "enum":
      return path.length === 0 ? Object.values(def.entries ?? {})[0] : NO_VALUE;
    case "string":
      return path.length === 0 ? "" : NO_VALUE;
    case "number":
      return path.length === 0 ? 0 : NO_VALUE;
    case "boolean":
      return path.length === 0 ? false : NO_VALUE;
    case "any":
    case "unknown":
    case "custom":
      return path.length === 0 ? {} : NO_VALUE;
    default:
      throw new Error(`this test does not know a zod ${def.type}`);
  }
}

/** Each event type's zod option. */
const OPTIONS = (root._zod.def.options ?? []).map((option): [string, ZodNode] => {
  const type = [...(option._zod.propValues?.type ?? [])][0];
  if (typeof type !== "string") throw new Error("an event option without a type");
  return [type, option];
});
const OPTION = new Map(OPTIONS);

const FIELDS: Field[] = [];
for (const [type, option] of OPTIONS) fieldsOf(type, option, [], FIELDS);

/** A minimal valid event of `field.type` with `value` at the field. */
function eventWith(field: Field, value: unknown): unknown {
  const option = OPTION.get(field.type);
  if (option === undefined) throw new Error(`no option for ${field.type}`);
  const event = build(option, field.path, value);
  if (event === NO_VALUE) throw new Error(`${field.type}: no event with ${field.path.join(".")}`);
  return event;
}

/** A field's value as a JSON-parsed value would sit there: JSON text in, value out. */
const parse = (text: string): unknown => JSON.parse(text);

// ---------------------------------------------------------------------------------------
// Hostile values: each made by JSON.parse, with a short twin of the same shape

interface Hostile {
  name: string;
  value: unknown;
  twin: unknown;
}

function hostile(name: string, make: (n: number) => string, n: number): Hostile {
  return { name, value: parse(make(n)), twin: parse(make(3)) };
}

const DEPTH = 200_000;
const MB = 1_000_000;

const DEEP: Hostile[] = [
  hostile("arrays 200,000 deep", (n) => `${"[".repeat(n)}${"]".repeat(n)}`, DEPTH),
  hostile("objects 200,000 deep", (n) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`, DEPTH),
  hostile(
    "objects and arrays 200,000 deep",
    (n) => `${'{"a":['.repeat(n / 2)}null${"]}".repeat(n / 2)}`,
    DEPTH,
  ),
  hostile(
    "__proto__ keys 200,000 deep",
    (n) => `${'{"__proto__":'.repeat(n)}{}${"}".repeat(n)}`,
    DEPTH,
  ),
];

const STRINGS: Hostile[] = [
  hostile("a 10 MB string", (n) => JSON.stringify("x".repeat(n)), 10 * MB),
  hostile("a 3 MB pointer of slashes", (n) => JSON.stringify("/".repeat(n)), 3 * MB),
  hostile("a 3 MB nested pointer", (n) => JSON.stringify("/a".repeat(n)), 1.5 * MB),
  hostile(
    "a 10 MB nested pointer",
    (n) => JSON.stringify("/a~0b~1".repeat(n)),
    Math.floor((10 * MB) / 7),
  ),
  hostile("a 10 MB one-segment pointer", (n) => JSON.stringify(`/${"a".repeat(n)}`), 10 * MB),
  hostile("a 10 MB pointer broken at its end", (n) => JSON.stringify(`${"/a".repeat(n)}~`), 5 * MB),
  hostile(
    "a 10 MB pointer with ~2 at its end",
    (n) => JSON.stringify(`${"/".repeat(n)}~2`),
    10 * MB,
  ),
  hostile(
    "a 10 MB string of escapes",
    (n) => `"${'\\n\\u0000\\"'.repeat(n)}"`,
    Math.floor((10 * MB) / 3),
  ),
  hostile("lone high surrogates", (n) => `"${"\\ud800".repeat(n)}"`, 3),
  hostile("lone low surrogates", (n) => `"/${"\\udc00".repeat(n)}"`, 3),
  hostile("a pointer segment of lone surrogates", (n) => `"/~0${"\\udbff".repeat(n)}/x"`, 3),
  hostile("a 10 MB pointer of lone surrogates", (n) => `"${"/\\udfff".repeat(n)}"`, 5 * MB),
  hostile("a ~ before a lone surrogate", () => '"/~\\ud800"', 1),
  hostile("a pointer ending in ~", () => '"/a/~"', 1),
];

/** Wide values, for the free fields only: zod copies every key of a loose object and
 * reports every bad item of an array, so a million at each of the other fields is slow. */
const WIDE: Hostile[] = [
  hostile(
    "an object with a million keys",
    (n) => `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(",")}}`,
    MB,
  ),
  hostile("an array of a million items", (n) => `[${"0,".repeat(n)}0]`, MB),
];

const ODD: Hostile[] = [
  hostile("a __proto__ key", () => '{"__proto__":{"type":"RAW"}}', 1),
  hostile("a __proto__ key holding null", () => '{"__proto__":null,"a":1}', 1),
  hostile("a __proto__ key holding an array", () => '{"__proto__":[1],"a":1}', 1),
  hostile("a key that is a lone surrogate", () => '{"\\ud800":1,"__proto__":"\\udc00"}', 1),
  hostile("Infinity", () => "1e400", 1),
  hostile("-0", () => "-0", 1),
];

/** Runs `value` at every field of `fields`; returns every disagreement and how zod did. */
function runAll(fields: readonly Field[], values: readonly Hostile[]) {
  const problems: string[] = [];
  let compared = 0;
  let zodThrew = 0;
  for (const field of fields) {
    for (const { name, value, twin } of values) {
      const event = eventWith(field, value);
      const want = expected(event, eventWith(field, twin));
      const got = ours(event);
      compared++;
      if (want.zodThrew) zodThrew++;
      if (got !== want.verdict && problems.length < 20) {
        problems.push(
          `${field.type}.${field.path.join(".")}, ${name}: ${got}, want ${want.verdict}`,
        );
      }
    }
  }
  return { problems, compared, zodThrew };
}

// ---------------------------------------------------------------------------------------
// The tests

describe("agUiSchema on hostile values (SPEC §17.4)", () => {
  it("finds the fields in the zod definitions, and builds a valid event for each", () => {
    expect(new Set(FIELDS.map((f) => f.type)).size).toBe(31);
    expect(FIELDS.filter((f) => f.kind === "free").length).toBeGreaterThan(50);
    expect(FIELDS.filter((f) => f.kind === "string").length).toBeGreaterThan(100);
    const free = new Set(FIELDS.filter((f) => f.kind === "free").map((f) => f.path.join(".")));
    for (const path of ["rawEvent", "snapshot", "delta.0.value", "event", "input.state"]) {
      expect(free.has(path), path).toBe(true);
    }
    for (const field of FIELDS) {
      const event = eventWith(field, build(unwrapAt(field), [], NO_VALUE));
      expect(zod(event), `${field.type}.${field.path.join(".")}`).toBe("accepts");
    }
  });

  it("gives zod's verdict on deep arrays and objects at every field", () => {
    const { problems, compared } = runAll(FIELDS, DEEP);
    expect(problems).toEqual([]);
    expect(compared).toBe(FIELDS.length * DEEP.length);
  });

  it("gives a verdict on long and broken strings at every string field: zod's, or the pattern's where zod throws", () => {
    const strings = FIELDS.filter((f) => f.kind === "string");
    const { problems, zodThrew } = runAll(strings, STRINGS);
    expect(problems).toEqual([]);
    // The JSON Patch pointers (path, from) of STATE_DELTA and ACTIVITY_DELTA, each given
    // several pointers of megabytes.
    expect(zodThrew).toBeGreaterThan(0);
  });

  it("gives zod's verdict on __proto__ keys and odd numbers at every field", () => {
    const { problems } = runAll(FIELDS, ODD);
    expect(problems).toEqual([]);
  });

  it("gives zod's verdict on a million keys or items at every free field", () => {
    const { problems, compared } = runAll(
      FIELDS.filter((f) => f.kind === "free"),
      WIDE,
    );
    expect(problems).toEqual([]);
    expect(compared).toBeGreaterThan(100);
  });

  it("gives zod's verdict on events with a million keys", { timeout: 60_000 }, () => {
    const keys = Array.from({ length: MB }, (_, i) => `"k${i}":${i}`).join(",");
    for (const fields of [
      '"type":"RAW","event":1',
      '"type":"TEXT_MESSAGE_CONTENT","messageId":"m"',
      // Defaults apply (input.tools, input.context): the event and its input are copied.
      '"type":"RUN_STARTED","threadId":"t","runId":"r","input":{"threadId":"t","runId":"r","messages":[]}',
    ]) {
      const event = parse(`{${fields},${keys}}`);
      expect(ours(event), fields).toBe(zod(event));
    }
  });

  it("gives zod's verdict on whole events that are hostile", () => {
    // Each with, where zod throws on it, its short twin.
    const events: [string, string, string?][] = [
      ["a deep array", `${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}`],
      ["a deep object", `${'{"type":'.repeat(DEPTH)}1${"}".repeat(DEPTH)}`],
      ["a type of 10 MB", JSON.stringify({ type: "R".repeat(10 * MB) })],
      ["a type with a lone surrogate", '{"type":"RUN_STARTED\\ud800","threadId":"t","runId":"r"}'],
      [
        "the fields under __proto__",
        '{"type":"RUN_STARTED","__proto__":{"threadId":"t","runId":"r"}}',
      ],
      [
        "the type under __proto__",
        '{"__proto__":{"type":"RUN_STARTED"},"threadId":"t","runId":"r"}',
      ],
      [
        "a __proto__ key as well",
        '{"type":"RUN_STARTED","threadId":"t","runId":"r","__proto__":{}}',
      ],
      [
        "__proto__ in every object",
        '{"__proto__":1,"type":"RUN_STARTED","threadId":"t","runId":"r","input":{"__proto__":null,"threadId":"t","runId":"r","messages":[{"__proto__":{"role":"user"},"id":"u","role":"user","content":[{"__proto__":[],"type":"text","text":"x"}]}]}}',
      ],
      ["a timestamp of Infinity", '{"type":"RAW","event":1,"timestamp":1e400}'],
      ["a timestamp of -0", '{"type":"RAW","event":1,"timestamp":-0}'],
      [
        "a 3 MB pointer in a patch of a million operations",
        `{"type":"STATE_DELTA","delta":[${'{"op":"remove","path":"/a"},'.repeat(MB)}{"op":"test","path":${JSON.stringify("/".repeat(3 * MB))},"value":null}]}`,
        '{"type":"STATE_DELTA","delta":[{"op":"remove","path":"/a"},{"op":"test","path":"///","value":null}]}',
      ],
      [
        "a 3 MB pointer, then a bad operation",
        `{"type":"STATE_DELTA","delta":[{"op":"copy","from":${JSON.stringify("/".repeat(3 * MB))},"path":""},{"op":"add","path":"/a"}]}`,
        '{"type":"STATE_DELTA","delta":[{"op":"copy","from":"///","path":""},{"op":"add","path":"/a"}]}',
      ],
    ];
    for (const [name, text, twin] of events) {
      const event = parse(text);
      const want = expected(event, twin === undefined ? undefined : parse(twin));
      expect(want.zodThrew, name).toBe(twin !== undefined);
      expect(ours(event), name).toBe(want.verdict);
    }
  });

  it.each([
    ["a 3 MB pointer", "/".repeat(3 * MB)],
    ["a 10 MB pointer", "/a".repeat(5 * MB)],
  ])(
    "accepts a valid event with %s, which zod throws on, and passes it on unchanged",
    (_, path) => {
      const event = parse(
        JSON.stringify({ type: "STATE_DELTA", delta: [{ op: "add", path, value: 1 }] }),
      );
      // The premise of the decision above: zod has no verdict here.
      expect(zod(event)).toMatch(/^throws RangeError/);
      const result = agUiSchema["~standard"].validate(event);
      if (result instanceof Promise) throw new Error("agUiSchema validated asynchronously");
      expect(result.issues).toBeUndefined();
      expect(result.issues === undefined && result.value).toBe(event);
    },
  );

  it("rejects a 10 MB pointer with a bad escape at zod's path for the short one", () => {
    const event = parse(
      JSON.stringify({
        type: "ACTIVITY_DELTA",
        messageId: "m",
        activityType: "a",
        patch: [{ op: "move", from: "/x", path: `${"/".repeat(10 * MB)}~` }],
      }),
    );
    const result = agUiSchema["~standard"].validate(event);
    if (result instanceof Promise) throw new Error("agUiSchema validated asynchronously");
    expect(result.issues?.[0]?.path).toEqual(["patch", 0, "path"]);
    const twin = { ...(event as object), patch: [{ op: "move", from: "/x", path: "///~" }] };
    expect(zod(twin)).toBe(`rejects at ${JSON.stringify(["patch", 0, "path"])}`);
  });
});

/** The schema node at `field`, under its wrappers (for a valid value to put there). */
function unwrapAt(field: Field): ZodNode {
  let node = OPTION.get(field.type);
  if (node === undefined) throw new Error(`no option for ${field.type}`);
  const found = nodeAt(node, field.path);
  if (found === undefined) throw new Error(`no node at ${field.path.join(".")}`);
  node = found;
  return node;
}

/** The first node at `path` below `node` (through wrappers and unions). */
function nodeAt(node: ZodNode, path: readonly Key[]): ZodNode | undefined {
  const inner = unwrap(node);
  if (path.length === 0) return node;
  const def = inner._zod.def;
  const [head, ...rest] = path;
  if (def.type === "object" && typeof head === "string") {
    const field = def.shape?.[head];
    return field === undefined ? undefined : nodeAt(field, rest);
  }
  if (def.type === "array" && head === 0) return nodeAt(def.element ?? inner, rest);
  if (def.type === "union") {
    for (const option of def.options ?? []) {
      const found = nodeAt(option, path);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
