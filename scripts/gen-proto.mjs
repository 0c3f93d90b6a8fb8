// Generates src/proto/wire.generated.ts: the protobuf wire of AG-UI events (SPEC §21) as
// tables, one per message: each field's number, name and kind, in the order an encoder
// writes them.
//
// The source is @ag-ui/proto 1.0.0, the package SPEC §21 names (a devDependency, pinned):
// the .proto files it was compiled from are in no commit of ag-ui-protocol/ag-ui that can be
// fetched here (the newest reachable ones, on branch mme/json-schema-codegen, lack 13 of its
// fields), so the field numbers and kinds are read from the encoders its code generator
// (ts-proto) wrote, one statement per field. A statement this script does not recognise
// stops it with an error naming the message: the tables are all or nothing.
// test/proto.test.ts fails when the committed tables differ from what this script writes.
//
// Usage: node scripts/gen-proto.mjs            (writes the file)
//        import { generate } from "./gen-proto.mjs"  (the text, for the staleness test)

import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { biomeFormat } from "./biome-format.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const OUTPUT = join(ROOT, "src/proto/wire.generated.ts");
/** The vendored 1.1 schema: which JSON values are required, for how a null is written. */
const SCHEMA = join(ROOT, "spec/ag-ui-1.1/schema.json");
const require = createRequire(join(ROOT, "package.json"));

/** The compiled module of @ag-ui/proto, and its version. */
export function sourceOf() {
  const pkg = require.resolve("@ag-ui/proto/package.json");
  const { version } = JSON.parse(readFileSync(pkg, "utf8"));
  const text = readFileSync(join(dirname(pkg), "dist/index.mjs"), "utf8");
  return { version, text };
}

/**
 * Field kinds. A scalar with implicit presence is written unless it holds its default;
 * one with explicit presence (proto3 `optional`) whenever it is set.
 */
const SCALAR = {
  string: { implicit: "str", explicit: "ostr" },
  int32: { implicit: "i32", explicit: "oi32" },
  int64: { implicit: "i64", explicit: "oi64" },
  bool: { implicit: "bool", explicit: "obool" },
  double: { implicit: "dbl", explicit: "odbl" },
};
const WRAPPED = { Value: "value", Struct: "struct", ListValue: "list" };
const WELL_KNOWN = new Set(["Value", "Struct", "Struct_FieldsEntry", "ListValue"]);

/** The statement shapes ts-proto writes, each with the field it describes. */
const PATTERNS = [
  // if (message.F !== <zero or void 0>) writer.uint32(T).KIND(message.F);
  [
    /^if \(message\.(\w+) !== (void 0|""|0|false)\) writer\.uint32\((\d+)\)\.(\w+)\(message\.\1\);$/,
    (m, name) => {
      const kind = SCALAR[m[4]];
      if (kind === undefined) throw new Error(`${name}: scalar ${m[4]} is not known`);
      return [Number(m[3]) >>> 3, m[1], m[2] === "void 0" ? kind.explicit : kind.implicit];
    },
  ],
  // if (message.F !== void 0) Value.encode(Value.wrap(message.F), writer.uint32(T).fork()).join();
  [
    /^if \(message\.(\w+) !== void 0\) (\w+)\.encode\((\w+)\.wrap\(message\.\1\), writer\.uint32\((\d+)\)\.fork\(\)\)\.join\(\);$/,
    (m, name) => {
      const kind = WRAPPED[m[2]];
      if (kind === undefined || m[2] !== m[3])
        throw new Error(`${name}: wrapper ${m[2]} is not known`);
      return [Number(m[4]) >>> 3, m[1], kind];
    },
  ],
  // if (message.F !== void 0) Msg.encode(message.F, writer.uint32(T).fork()).join();
  [
    /^if \(message\.(\w+) !== void 0\) ([\w$]+)\.encode\(message\.\1, writer\.uint32\((\d+)\)\.fork\(\)\)\.join\(\);$/,
    (m) => [Number(m[3]) >>> 3, m[1], "msg", m[2].replace(/\$\d+$/, "")],
  ],
  // for (const v of message.F) writer.uint32(T).string(v);
  [
    /^for \(const v of message\.(\w+)\) writer\.uint32\((\d+)\)\.string\(v\);$/,
    (m) => [Number(m[2]) >>> 3, m[1], "strs"],
  ],
  // for (const v of message.F) Msg.encode(v, writer.uint32(T).fork()).join();
  [
    /^for \(const v of message\.(\w+)\) ([\w$]+)\.encode\(v, writer\.uint32\((\d+)\)\.fork\(\)\)\.join\(\);$/,
    (m) => [Number(m[3]) >>> 3, m[1], "msgs", m[2].replace(/\$\d+$/, "")],
  ],
];

/** A message's fields from its encoder's statements; any other statement is an error. */
function fieldsOf(name, body) {
  const fields = [];
  for (const line of body.split("\n")) {
    const s = line.trim();
    if (s === "") continue;
    const found = PATTERNS.map(([re, make]) => [re.exec(s), make]).find(([m]) => m !== null);
    if (found === undefined) throw new Error(`${name}: statement not recognised: ${s}`);
    fields.push(found[1](found[0], name));
  }
  return fields;
}

/** Every message's encoder, by name, and the enums' value names. */
export function extract(text) {
  const messages = {};
  const re =
    /^const ([\w$]+) = \{\n\tencode\(message, writer = new BinaryWriter\(\)\) \{\n([\s\S]*?)\n\t\treturn writer;\n\t\},/gm;
  for (const m of text.matchAll(re)) {
    const name = m[1].replace(/\$\d+$/, "");
    // google.protobuf's JSON types are read natively (the value, struct and list kinds).
    if (WELL_KNOWN.has(name)) continue;
    const fields = fieldsOf(name, m[2]);
    if (messages[name] !== undefined && JSON.stringify(messages[name]) !== JSON.stringify(fields)) {
      throw new Error(`${name} is defined twice, differently`);
    }
    messages[name] = fields;
  }
  const enums = {};
  const er =
    /^let ([\w$]+) = \/\* @__PURE__ \*\/ function\(\w+\) \{\n([\s\S]*?)\n\treturn \w+;\n\}\(\{\}\);/gm;
  for (const m of text.matchAll(er)) {
    const values = [];
    for (const v of m[2].matchAll(/\["(\w+)"\] = (-?\d+)\] = "\w+";/g)) {
      if (Number(v[2]) >= 0) values[Number(v[2])] = v[1];
    }
    enums[m[1].replace(/\$\d+$/, "")] = values;
  }
  // The envelope's arms, number → event type, as the package maps them.
  const arms = {};
  const scan = /^const ENVELOPE_SCAN = \{\n([\s\S]*?)\n\};/m.exec(text);
  const types = /^const ENVELOPE_TYPE = \{\n([\s\S]*?)\n\};/m.exec(text);
  if (scan === null || types === null) throw new Error("the envelope tables were not found");
  const event = messages.Event ?? [];
  const typeOfArm = Object.fromEntries(
    [...types[1].matchAll(/(\w+): "(\w+)"/g)].map((t) => [t[1], t[2]]),
  );
  for (const [number, name, kind] of event) {
    if (kind !== "msg" || typeOfArm[name] === undefined)
      throw new Error(`Event arm ${name} is not mapped`);
    arms[number] = typeOfArm[name];
  }
  return { messages, enums, arms };
}

const KINDS = [
  "str",
  "ostr",
  "i32",
  "oi32",
  "i64",
  "oi64",
  "bool",
  "obool",
  "dbl",
  "odbl",
  "value",
  "rvalue",
  "struct",
  "list",
  "msg",
  "strs",
  "msgs",
];

/**
 * The wire messages whose 1.1 schema definition has another name. A JSON Patch operation's
 * `value` is required wherever it is defined (add, replace, test): AddOperation stands for it.
 */
const SCHEMA_NAME = {
  Usage: "TokenUsage",
  TextInputPart: "TextPart",
  ImageInputPart: "ImagePart",
  AudioInputPart: "AudioPart",
  VideoInputPart: "VideoPart",
  DocumentInputPart: "DocumentPart",
  JsonPatchOperation: "AddOperation",
};

/**
 * A `google.protobuf.Value` field the 1.1 schema requires becomes "rvalue": a JSON null
 * there is written (Value's null), as @ag-ui/proto writes it; in an optional one a null is
 * absence, as @ag-ui/core's omitOptionalNulls makes it before encoding.
 */
function markRequiredValues(messages) {
  const schema = JSON.parse(readFileSync(SCHEMA, "utf8")).$defs;
  for (const [name, fields] of Object.entries(messages)) {
    for (const field of fields) {
      if (field[2] !== "value") continue;
      const def = schema[SCHEMA_NAME[name] ?? name];
      if (def === undefined) throw new Error(`${name}.${field[1]}: no schema definition ${name}`);
      if ((def.required ?? []).includes(field[1])) field[2] = "rvalue";
    }
  }
}

export function generate() {
  const { version, text } = sourceOf();
  const { messages, enums, arms } = extract(text);
  markRequiredValues(messages);
  const names = Object.keys(messages).sort();
  const index = new Map(names.map((n, i) => [n, i]));
  const lines = [
    "// Generated by scripts/gen-proto.mjs from @ag-ui/proto " +
      version +
      "'s compiled encoders: do not edit.",
    "// Each message: its fields in the order an encoder writes them, as",
    "// [number, name, kind, message index (for msg and msgs)].",
    "",
    "/** Field kinds, by the index a field's third entry holds. */",
    `export const KINDS = ${JSON.stringify(KINDS)} as const;`,
    "",
    "/** A field: number, name, kind (an index of KINDS), and the message it holds, if any. */",
    "export type Field = readonly [number: number, name: string, kind: number, message?: number];",
    "",
    "/** The messages, by name, in the order of MESSAGES. */",
    `export const NAMES: readonly string[] = ${JSON.stringify(names)};`,
    "",
    "/** Every message's fields. */",
    "export const MESSAGES: readonly (readonly Field[])[] = [",
  ];
  for (const name of names) {
    const fields = messages[name].map(([n, f, kind, msg]) => {
      const k = KINDS.indexOf(kind);
      if (k === -1) throw new Error(`${name}.${f}: kind ${kind}`);
      if (msg === undefined) return `[${n}, ${JSON.stringify(f)}, ${k}]`;
      const i = index.get(msg);
      if (i === undefined) throw new Error(`${name}.${f}: message ${msg} is not known`);
      return `[${n}, ${JSON.stringify(f)}, ${k}, ${i}]`;
    });
    lines.push(`  /* ${name} */ [${fields.join(", ")}],`);
  }
  lines.push("];", "");
  lines.push("/** The envelope's arms: field number → event type. */");
  lines.push(`export const ARMS: Readonly<Record<number, string>> = ${JSON.stringify(arms)};`, "");
  lines.push("/** EventType's value names, by number. */");
  lines.push(
    `export const EVENT_TYPE: readonly string[] = ${JSON.stringify(enums.EventType)};`,
    "",
  );
  lines.push("/** JsonPatchOperationType's value names, by number. */");
  lines.push(
    `export const PATCH_OP: readonly string[] = ${JSON.stringify(enums.JsonPatchOperationType)};`,
    "",
  );
  return biomeFormat(lines.join("\n"), OUTPUT);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  writeFileSync(OUTPUT, generate());
  console.log(`wrote ${OUTPUT}`);
}
