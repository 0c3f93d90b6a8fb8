/**
 * Writes src/conform/generated.ts: the enforcement checks of SPEC §20.1 stage 2, one
 * function per definition of AG-UI 1.1's JSON schema (spec/ag-ui-1.1/schema.json, vendored
 * unmodified) that an event can reach, calling the helpers of src/conform/enforce.ts.
 *
 * How each schema construct becomes a check:
 * - an object with `unevaluatedProperties: false` is closed (a property it does not describe
 *   is stripped); one without it, or with `additionalProperties: true`, is open (JSON Patch
 *   operations, metadata, activity content: nothing stripped). `allOf` fragments (BaseEvent,
 *   Attributable, BaseMessage) are merged into the object that composes them; where both
 *   describe a property, the object's own `const` narrows the fragment's string.
 * - `required` properties must be present; one whose value is unrecognised makes its whole
 *   object unrecognised (1.1's positional rule).
 * - a string `enum` is a set: another string is unrecognised (stripped by position), another
 *   JSON type a mismatch. A `const` is a fixed value: anything else is a mismatch, except
 *   where it is the discriminator of a `oneOf` of objects, where an unknown string is an
 *   unrecognised member.
 * - a `oneOf` of a string and an array is told apart by JSON type.
 * - integers with `minimum`/`maximum`, `minItems`, `not: {type: "null"}`, and the one
 *   `pattern` of the schema (JSON Pointer), replaced by a one-pass scan.
 * - a definition or property with no type (State, RAW's event, CUSTOM's value) is any value.
 *
 * Any construct it does not know stops the script with an error instead of guessing.
 *
 * Run with `npm run gen:conform`. Imported (test/conform-generated.test.ts), it only exports
 * `generate`, which returns the file's text without writing it, `OUTPUT`, the file's path,
 * and `SCHEMA`, the vendored schema's path.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { biomeFormat } from "./biome-format.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The vendored schema. */
export const SCHEMA = path.join(root, "spec", "ag-ui-1.1", "schema.json");
/** Where the generated module lives. */
export const OUTPUT = path.join(root, "src", "conform", "generated.ts");

/** Keys that only annotate. */
const ANNOTATIONS = new Set(["description", "default", "$anchor", "contentEncoding", "title"]);
/** The one pattern of the schema, checked by `jsonPointer`. */
const JSON_POINTER = "^(/([^/~]|~[01])*)*$";
const MAX = 9007199254740991;

/** "TextMessageRole" → "text message role". */
function words(name) {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z])([A-Z][a-z])/g, "$1 $2")
    .toLowerCase();
}

/** The keys of a schema node that constrain. */
function constraining(node) {
  return Object.keys(node).filter((k) => !ANNOTATIONS.has(k));
}

function refName(ref) {
  const m = /^#\/\$defs\/([A-Za-z0-9]+)$/.exec(ref);
  if (m === null) throw new Error(`unsupported $ref ${ref}`);
  return m[1];
}

export function generate() {
  const schema = JSON.parse(readFileSync(SCHEMA, "utf8"));
  const defs = schema.$defs;
  const def = (name) => {
    const d = defs[name];
    if (d === undefined) throw new Error(`no definition ${name}`);
    return d;
  };

  /** An object definition with its fragments merged: properties, required, closed. */
  function flatten(name, node = def(name)) {
    const props = new Map();
    const required = new Set();
    for (const part of node.allOf ?? []) {
      if (constraining(part).join() !== "$ref") throw new Error(`${name}: allOf of a non-$ref`);
      const base = flatten(refName(part.$ref));
      for (const [k, v] of base.props) props.set(k, v);
      for (const k of base.required) required.add(k);
    }
    for (const [k, v] of Object.entries(node.properties ?? {})) {
      const before = props.get(k);
      if (before !== undefined && v.const === undefined) {
        throw new Error(`${name}.${k}: redefines a fragment's property with more than a const`);
      }
      props.set(k, v);
    }
    for (const k of node.required ?? []) required.add(k);
    for (const k of required)
      if (!props.has(k)) throw new Error(`${name}: required ${k} undescribed`);
    const known = new Set([
      "type",
      "properties",
      "required",
      "allOf",
      "unevaluatedProperties",
      "additionalProperties",
    ]);
    for (const k of constraining(node)) if (!known.has(k)) throw new Error(`${name}: ${k}`);
    return { props, required, closed: node.unevaluatedProperties === false };
  }

  const out = [];
  const emitted = new Set();
  const sets = new Map();

  /** A named Set of strings, shared by equal sets. */
  function setOf(values) {
    const key = JSON.stringify(values);
    let name = sets.get(key);
    if (name === undefined) {
      name = `SET_${sets.size}`;
      sets.set(key, name);
    }
    return name;
  }

  /** Whether a node accepts any value. */
  function isAny(node) {
    if (node.$ref !== undefined && constraining(node).join() === "$ref") {
      return isAny(def(refName(node.$ref)));
    }
    return constraining(node).length === 0;
  }

  /** Named checks with parameters, shared by equal text: text → name. */
  const named = new Map();
  function name(text, hint) {
    let n = named.get(text);
    if (n === undefined) {
      n = `c${named.size}_${hint.replace(/[^A-Za-z0-9]/g, "")}`;
      named.set(text, n);
      out.push(`const ${n}: Check = ${text};\n`);
    }
    return n;
  }

  /** An expression for a Check of `node`; `what` names its place in messages. */
  function check(node, what) {
    const keys = constraining(node);
    if (keys.length === 0) return "any";
    if (node.not !== undefined) {
      if (JSON.stringify(node.not) !== '{"type":"null"}') throw new Error(`${what}: not`);
      const rest = { ...node };
      delete rest.not;
      if (!isAny(rest)) throw new Error(`${what}: not with more`);
      return "notNull";
    }
    if (node.$ref !== undefined) {
      if (keys.length !== 1) throw new Error(`${what}: $ref with ${keys}`);
      const ref = refName(node.$ref);
      const d = def(ref);
      if (isAny(d)) return "any";
      if (d.oneOf !== undefined) return unionFn(ref, d);
      if (d.type === "object" && d.properties !== undefined) return objectFn(ref);
      if (d.type === "string" && d.enum !== undefined) return check(d, words(ref));
      return check(d, what);
    }
    if (node.const !== undefined) {
      if (typeof node.const !== "string" || keys.length !== 1) throw new Error(`${what}: const`);
      return name(`(v, x) => constant(v, x, ${JSON.stringify(node.const)})`, node.const);
    }
    if (node.oneOf !== undefined) return unionFn(what, node);
    switch (node.type) {
      case "string": {
        const extra = keys.filter((k) => k !== "type");
        if (extra.length === 0) return "string";
        if (extra.join() === "enum") {
          return name(`(v, x) => member(v, x, ${setOf(node.enum)}, ${JSON.stringify(what)})`, what);
        }
        if (extra.join() === "pattern" && node.pattern === JSON_POINTER) return "jsonPointer";
        throw new Error(`${what}: string with ${extra}`);
      }
      case "boolean":
        if (keys.length !== 1) throw new Error(`${what}: boolean with more`);
        return "boolean";
      case "integer": {
        const extra = keys.filter((k) => !["type", "minimum", "maximum"].includes(k));
        if (extra.length > 0) throw new Error(`${what}: integer with ${extra}`);
        const min = node.minimum ?? -MAX;
        const max = node.maximum ?? MAX;
        return name(`(v, x) => integer(v, x, ${min}, ${max})`, `int${min < 0 ? "" : min}`);
      }
      case "array": {
        const extra = keys.filter((k) => !["type", "items", "minItems"].includes(k));
        if (extra.length > 0 || node.items === undefined) throw new Error(`${what}: array`);
        const item = check(node.items, what);
        const min = node.minItems ?? 0;
        return name(`(v, x) => list(v, x, ${item}, ${min})`, `listOf${item}`);
      }
      case "object":
        if (node.properties === undefined && node.additionalProperties === true) {
          if (keys.length !== 2) throw new Error(`${what}: open object with more`);
          return "openObject";
        }
        throw new Error(`${what}: an inline object with properties`);
      default:
        throw new Error(`${what}: type ${node.type}`);
    }
  }

  /** A oneOf: of objects told apart by one const property, or of a string and an array. */
  function unionFn(unionName, node) {
    const fname = `u_${unionName.replace(/[^A-Za-z0-9]/g, "")}`;
    if (emitted.has(fname)) return fname;
    emitted.add(fname);
    const members = node.oneOf;
    if (members.every((m) => m.$ref !== undefined)) {
      const flat = members.map((m) => [refName(m.$ref), flatten(refName(m.$ref))]);
      const key = [...flat[0][1].props.keys()].find((k) =>
        flat.every(([, f]) => typeof f.props.get(k)?.const === "string"),
      );
      if (key === undefined) throw new Error(`${unionName}: oneOf without a discriminator`);
      const entries = flat.map(
        ([member, f]) => `[${JSON.stringify(f.props.get(key).const)}, ${objectFn(member)}]`,
      );
      out.push(`/** ${words(unionName)}: one of ${flat.length}, told apart by \`${key}\`. */
const U_${fname.slice(2)}: Union = {
  key: ${JSON.stringify(key)},
  what: ${JSON.stringify(`${words(unionName)} ${key}`)},
  members: new Map<unknown, Check>([${entries.join(", ")}]),
};
function ${fname}(v: unknown, x: Ctx): unknown {
  return union(v, x, U_${fname.slice(2)});
}
`);
      return fname;
    }
    const types = members.map((m) => m.type).join();
    if (types === "string,array" && constraining(members[0]).length === 1) {
      const item = check(members[1].items, `${unionName} item`);
      const min = members[1].minItems ?? 0;
      out.push(`/** ${words(unionName)}: a string or a list. */
function ${fname}(v: unknown, x: Ctx): unknown {
  if (typeof v === "string") return v;
  if (Array.isArray(v)) return list(v, x, ${item}, ${min});
  return x.fail("a string or an array", v);
}
`);
      return fname;
    }
    throw new Error(`${unionName}: an unsupported oneOf`);
  }

  /** An object definition's check: its shape, and a function reading it. */
  function objectFn(objName) {
    const fname = `o_${objName}`;
    if (emitted.has(fname)) return fname;
    emitted.add(fname);
    const { props, required, closed } = flatten(objName);
    const entries = [...props].map(
      ([k, node]) => `[${JSON.stringify(k)}, ${check(node, `${words(objName)} ${k}`)}]`,
    );
    out.push(`/** ${objName}${closed ? "" : " (open: what it does not describe stays)"}. */
const S_${objName}: Shape = {
  closed: ${closed},
  required: ${JSON.stringify([...required])},
  props: new Map<string, Check>([${entries.join(", ")}]),
};
function ${fname}(v: unknown, x: Ctx): unknown {
  return object(v, x, S_${objName});
}
`);
    return fname;
  }

  // The event: told apart by `type`; a type the schema does not name is STRIP (dropped).
  const events = schema.$defs.Event.oneOf.map((m) => refName(m.$ref));
  const cases = events.map((name) => {
    const type = flatten(name).props.get("type").const;
    return `    case ${JSON.stringify(type)}:\n      return ${objectFn(name)}(v, x);`;
  });

  const setLines = [...sets].map(
    ([values, name]) => `const ${name}: ReadonlySet<string> = new Set(${values});`,
  );
  const text = `// Generated by scripts/gen-conform.mjs from AG-UI 1.1's JSON schema
// (spec/ag-ui-1.1/schema.json, commit ac097900388b88569dd1b8c79acecdb643cde2a5).
// Do not edit: run \`npm run gen:conform\`.

import type { Rec } from "../verify/verifier.ts";
import {
  any,
  boolean,
  type Check,
  constant,
  type Ctx,
  integer,
  jsonPointer,
  list,
  member,
  notNull,
  object,
  openObject,
  type Shape,
  STRIP,
  string,
  type Union,
  union,
} from "./enforce.ts";


${setLines.join("\n")}

/**
 * Enforces the 1.1 schema on an event of type \`type\`: the event (or a copy with what is
 * not recognised stripped), \`UNKNOWN\` when its own required member is unrecognised,
 * \`STRIP\` when the type is not one 1.1 names; throws a \`Mismatch\` for a malformed value.
 */
export function checkEvent(v: Rec, type: string, x: Ctx): unknown {
  switch (type) {
${cases.join("\n")}
  }
  return STRIP;
}

${out.join("\n")}`;
  return biomeFormat(text, OUTPUT);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(OUTPUT, generate());
  console.log(`wrote ${path.relative(root, OUTPUT)}`);
}
