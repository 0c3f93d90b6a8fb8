/**
 * Writes src/schema/generated.ts: a plain TypeScript validator that accepts exactly what
 * `EventSchema` of `@ag-ui/core` (its zod 4 schemas, `@ag-ui/core/schemas`) accepts.
 *
 * How: the script walks the schema's definitions (`schema._zod.def`) from `EventSchema` down
 * and turns every node into direct checks, in zod's own order (an object's keys in shape
 * order, an array's items by index, a type's base check before its refinements), so that the
 * first failing check is at the path of zod's first issue. Objects and discriminated unions
 * become one function each, named after the package's export. Refinements and transforms are
 * functions in zod; the script recognises them by what they return on a fixed set of probe
 * values and emits its own code for each one it knows. Anything it does not know (a new zod
 * construct, an unknown refinement) stops the script with an error instead of guessing.
 *
 * The only output-changing nodes (`.default()`, `.transform()`) are also compiled, into
 * `applyDefaults`, so a validated value gets the same defaults zod's output would have.
 *
 * Every value `JSON.parse` can produce gets a verdict, without a throw (SPEC §17.4): the
 * checks nest only as deep as the schema, never as deep as the value (a recursive schema
 * stops the script; the free JSON values, `z.any()` and `z.custom()`, are not walked, as zod
 * does not walk them), the work is one loop per array and one pass per string, and the
 * schema's regular expressions are replaced by scans that cannot overflow (PATTERNS).
 *
 * Run with `npm run gen:schema`. Imported (test/schema.test.ts), it only exports `generate`,
 * which returns the file's text without writing it, and `OUTPUT`, the file's path.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);

/** Where the generated module lives. */
export const OUTPUT = path.join(root, "src", "schema", "generated.ts");

// ---------------------------------------------------------------------------------------------
// Refinements and transforms, recognised by their results on these probes
// ---------------------------------------------------------------------------------------------

const PROBES = [
  undefined,
  null,
  0,
  -1,
  1.5,
  Number.NaN,
  "",
  "x",
  true,
  false,
  [],
  [1],
  {},
  { a: 1 },
  new Date(0),
];

/** Predicates this script can emit: `fails(x)` is the code of the failing branch. */
const PREDICATES = [
  {
    name: "not null",
    test: (v) => v !== null,
    fails: (x) => `${x} === null`,
    message: () => `"expected a value other than null"`,
  },
  {
    name: "defined",
    test: (v) => v !== undefined,
    fails: (x) => `${x} === undefined`,
    message: () => `"required"`,
  },
  {
    name: "plain object",
    test: (v) => typeof v === "object" && v !== null && !Array.isArray(v),
    fails: (x) => `!isObject(${x})`,
    message: (x) => `\`expected object, got \${got(${x})}\``,
  },
];

/** Transforms this script can emit, by the helper function the generated code calls. */
const TRANSFORMS = [
  { helper: "nullToUndefined", apply: (v) => (v === null ? undefined : v) },
  { helper: undefined, apply: (v) => v },
];

function recognise(kind, fn, candidates, same) {
  const matches = candidates.filter((c) => PROBES.every((p) => same(fn(p), c, p)));
  if (matches.length !== 1) {
    throw new Error(
      `gen-schema: a ${kind} it does not recognise (${matches.length} candidates): ${String(fn)}`,
    );
  }
  return matches[0];
}

const predicateOf = (fn) =>
  recognise("refinement", fn, PREDICATES, (result, c, p) => Boolean(result) === c.test(p));

const transformOf = (fn) =>
  recognise("transform", fn, TRANSFORMS, (result, c, p) => Object.is(result, c.apply(p)));

// ---------------------------------------------------------------------------------------------
// Regular expressions, each replaced by a scan that cannot overflow
// ---------------------------------------------------------------------------------------------

/**
 * The patterns (`.regex()`) this script can emit, each with a function that answers what the
 * pattern answers in one pass over the string, with no backtracking and no recursion.
 *
 * Why not the pattern itself: V8's engine backtracks, and keeps one entry per repetition of a
 * group on a stack of bounded size, so `/^(\/([^/~]|~[01])*)*$/` throws a `RangeError`
 * ("Maximum call stack size exceeded") on a JSON pointer of a few megabytes: "/" repeated
 * 3,000,000 times, or any valid pointer of 10 MB. zod runs the same pattern, so
 * `EventSchema.safeParse` throws too. SPEC §17.4 wants a verdict for every value `JSON.parse`
 * can produce, so the check gives the verdict the pattern defines (the answer zod gives on
 * every string short enough for the engine), whatever the length.
 *
 * Each `test` is written out once, here, and emitted as it is (`emitPattern`); before that
 * `patternOf` checks it against the pattern on every string up to `exhaustive` characters
 * from `alphabet` (the pattern's own characters, one other, a line break and lone
 * surrogates) and on longer strings built from them. A pattern not in this table stops the
 * script: a new one needs its own scan here, not a guess.
 */
const PATTERNS = [
  {
    pattern: String.raw`/^(\/([^/~]|~[01])*)*$/`,
    doc: "A JSON pointer (RFC 6901): empty, or `/` first and every `~` followed by `0` or `1`.",
    alphabet: ["/", "~", "0", "1", "a", "\n", "\uD800", "\uDC00"],
    exhaustive: 6,
    // The pattern's language, read off it: segments that each start with "/" and hold no "/"
    // (so any string that is empty or starts with "/" splits into them), in which a "~" is
    // the first half of "~0" or "~1" (neither of which is "/", so the pair stays in its
    // segment). Any other character, a line break or a lone surrogate included, is `[^/~]`.
    test: function isJsonPointer(s) {
      if (s.length !== 0 && s.charCodeAt(0) !== 47) return false; // "/"
      for (let i = s.indexOf("~"); i !== -1; i = s.indexOf("~", i + 2)) {
        const next = s.charCodeAt(i + 1); // NaN after the last character
        if (next !== 48 && next !== 49) return false; // "0", "1"
      }
      return true;
    },
  },
];

/** Every string of up to `length` characters from `alphabet`, shortest first. */
function* stringsOver(alphabet, length) {
  let level = [""];
  for (let n = 0; n <= length; n++) {
    yield* level;
    if (n < length) level = level.flatMap((s) => alphabet.map((c) => s + c));
  }
}

/** The entry of PATTERNS for `regex`, once its scan has agreed with it. */
function patternOf(regex) {
  const known = PATTERNS.find((p) => p.pattern === String(regex));
  if (known === undefined) {
    throw new Error(
      `gen-schema: a pattern with no linear-time scan in PATTERNS: ${regex} (V8 may throw a RangeError running it on a long string)`,
    );
  }
  if (known.checked) return known;
  const { alphabet, exhaustive, test } = known;
  const agree = (s) => {
    if (test(s) === regex.test(s)) return;
    throw new Error(
      `gen-schema: ${test.name} disagrees with ${regex} on ${JSON.stringify(s.slice(0, 40))} (length ${s.length})`,
    );
  };
  for (const s of stringsOver(alphabet, exhaustive)) agree(s);
  // Each string of up to 2 characters repeated to 2,000 (short enough for the engine), alone
  // and with each character of the alphabet before and after it.
  for (const s of stringsOver(alphabet, 2)) {
    const long = s.repeat(Math.ceil(2_000 / Math.max(1, s.length)));
    agree(long);
    for (const c of alphabet) {
      agree(c + long);
      agree(long + c);
    }
  }
  known.checked = true;
  return known;
}

/** The TypeScript text of a pattern's scan: its own source, with the parameter typed. */
function emitPattern({ doc, test }) {
  const text = String(test);
  const head = /^function (\w+)\((\w+)\) \{/;
  if (!head.test(text)) throw new Error(`gen-schema: cannot emit ${text.slice(0, 40)}`);
  return `/** ${doc} */\n${text.replace(head, "function $1($2: string): boolean {")}`;
}

// ---------------------------------------------------------------------------------------------
// The walk
// ---------------------------------------------------------------------------------------------

/** Marks a node whose check function is being written. */
const CYCLE = Symbol("cycle");
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const lit = (value) => {
  if (value === undefined) return "undefined";
  if (typeof value === "bigint" || typeof value === "symbol" || typeof value === "function") {
    throw new Error(`gen-schema: cannot emit the literal ${String(value)}`);
  }
  return JSON.stringify(value);
};
const access = (v, key) => (IDENTIFIER.test(key) ? `${v}.${key}` : `${v}[${lit(key)}]`);

/** The values of a zod enum's `entries`, leaving out a numeric enum's reverse mappings. */
function enumValues(entries) {
  const numeric = Object.values(entries).filter((v) => typeof v === "number");
  return Object.entries(entries)
    .filter(([key]) => !numeric.includes(Number(key)))
    .map(([, value]) => value);
}

/** What a failed `options` check expects, for messages: `"a", "b"` or `one of "a", "b"`. */
function expectedValues(values) {
  const shown = values.map(lit).join(", ");
  return values.length === 1 ? shown : `one of ${shown}`;
}

const isOptionalIn = (node) => node._zod.optin === "optional";
const isOptionalField = (node) => node._zod.optin === "optional" && node._zod.optout === "optional";

/** A node's checks in the order zod runs them: the node itself first when it is a check. */
function checksOf(node) {
  const checks = [...(node._zod.def.checks ?? [])];
  if (node._zod.traits.has("$ZodCheck")) checks.unshift(node);
  return checks;
}

/**
 * Statements that return `fn(v)` for the entry whose value equals `d`, and fall through when
 * none does. Many string values are grouped by length first: a JSON-parsed string is not
 * interned, so each `===` against a value of the same length compares characters, and a
 * plain `switch` over 31 types spent most of the check in those comparisons.
 */
function dispatchOn(d, entries) {
  if (entries.length <= 4 || entries.some(([value]) => typeof value !== "string")) {
    return [
      `switch (${d}) {`,
      ...entries.map(([value, fn]) => `case ${lit(value)}: return ${fn}(v);`),
      "}",
    ];
  }
  const byLength = new Map();
  for (const entry of entries) {
    const group = byLength.get(entry[0].length) ?? [];
    group.push(entry);
    byLength.set(entry[0].length, group);
  }
  return [
    `if (typeof ${d} === "string") {`,
    `switch (${d}.length) {`,
    ...[...byLength]
      .sort(([a], [b]) => a - b)
      .flatMap(([length, group]) => [
        `case ${length}:`,
        ...group.map(([value, fn]) => `if (${d} === ${lit(value)}) return ${fn}(v);`),
        "break;",
      ]),
    "}",
    "}",
  ];
}

class Generator {
  /** Function texts, in the order they were created. */
  functions = [];
  /** Check function name per node that has one. */
  checkNames = new Map();
  /** Check function name per function body, so that equal bodies share a function. */
  bodies = new Map();
  /** Output function name per node whose output can differ from its input. */
  outputNames = new Map();
  /** Memo of `changes(node)`. */
  changing = new Map();
  /** The entries of PATTERNS the checks use. */
  patterns = new Set();
  /** Transform helpers the output functions call. */
  helpers = new Set();
  usedNames = new Set();
  counter = 0;
  /** The number of local variables of the function being written. */
  local = 0;

  constructor(exportNames) {
    this.exportNames = exportNames;
  }

  /** A fresh function name from the node's export name, or from `hint`. */
  nameFor(prefix, node, hint) {
    const exported = this.exportNames.get(node);
    let base = `${prefix}${exported ?? hint}`;
    if (this.usedNames.has(base)) base = `${base}${++this.counter}`;
    this.usedNames.add(base);
    return base;
  }

  /** A fresh local variable name; numbering restarts in every function. */
  fresh(stem) {
    return `${stem}${this.local++}`;
  }

  // -- checks ----------------------------------------------------------------------------------

  /**
   * The statements that check the value in variable `x`. On failure they return a failure
   * whose path is `prefix` (code expressions) followed by the path inside the value. With
   * `defined`, the caller already knows `x !== undefined`.
   */
  checks(node, x, prefix, hint, defined = false) {
    const def = node._zod.def;
    const fail = (message) => `return fail(${[message, ...prefix].join(", ")});`;
    const lines = [];
    switch (def.type) {
      case "string":
        lines.push(
          `if (typeof ${x} !== "string") ${fail(`\`expected string, got \${got(${x})}\``)}`,
        );
        break;
      case "number":
        lines.push(
          `if (typeof ${x} !== "number" || !Number.isFinite(${x})) ${fail(`\`expected number, got \${got(${x})}\``)}`,
        );
        break;
      case "boolean":
        lines.push(
          `if (typeof ${x} !== "boolean") ${fail(`\`expected boolean, got \${got(${x})}\``)}`,
        );
        break;
      case "literal":
      case "enum": {
        const values = def.type === "literal" ? def.values : enumValues(def.entries);
        const cond = values.map((v) => `${x} !== ${lit(v)}`).join(" && ");
        const message = `\`expected ${expectedValues(values).replaceAll("`", "\\`")}, got \${got(${x})}\``;
        lines.push(`if (${cond}) ${fail(message)}`);
        break;
      }
      case "any":
      case "unknown":
      case "custom":
      case "transform":
        break;
      case "optional":
      case "default":
      case "nullable": {
        // zod lets undefined through an optional (and a default), null through a nullable.
        const inner = def.innerType;
        if (def.type === "nullable") {
          lines.push(...guarded(`${x} !== null`, this.checks(inner, x, prefix, hint, defined)));
        } else if (def.type === "optional" && (defined || isOptionalIn(inner))) {
          lines.push(...this.checks(inner, x, prefix, hint, defined));
        } else {
          lines.push(...guarded(`${x} !== undefined`, this.checks(inner, x, prefix, hint, true)));
        }
        break;
      }
      case "pipe":
        if (def.out._zod.def.type !== "transform") {
          throw new Error(`gen-schema: a pipe into ${def.out._zod.def.type} at ${hint}`);
        }
        lines.push(...this.checks(def.in, x, prefix, hint, defined));
        break;
      case "array": {
        const i = this.fresh("i");
        const item = this.fresh("x");
        lines.push(
          `if (!Array.isArray(${x})) ${fail(`\`expected array, got \${got(${x})}\``)}`,
          `for (let ${i} = 0; ${i} < ${x}.length; ${i}++) {`,
          `const ${item}: unknown = ${x}[${i}];`,
          ...this.checks(def.element, item, [...prefix, i], `${hint}Item`),
          "}",
        );
        break;
      }
      case "object":
      case "union":
        if (def.type === "union" && def.discriminator === undefined) {
          lines.push(...this.unionChecks(node, x, prefix, hint));
        } else {
          const name = this.checkFunction(node, hint);
          const f = this.fresh("f");
          const rethrow =
            prefix.length === 0 ? `return ${f};` : `return at(${f}, ${prefix.join(", ")});`;
          lines.push(`const ${f} = ${name}(${x});`, `if (${f} !== undefined) ${rethrow}`);
        }
        break;
      default:
        throw new Error(`gen-schema: a zod ${def.type} at ${hint}, which it cannot compile`);
    }
    if (def.type !== "object" && !(def.type === "union" && def.discriminator !== undefined)) {
      for (const check of checksOf(node)) lines.push(...this.check(check, def.type, x, fail, hint));
    }
    return lines;
  }

  /** One zod check (`.min()`, `.regex()`, `.refine()`, a number format...) on `x`. */
  check(check, type, x, fail, hint) {
    const def = check._zod.def;
    switch (def.check) {
      case "number_format":
        if (def.format !== "safeint") throw new Error(`gen-schema: number format ${def.format}`);
        return [
          `if (!Number.isInteger(${x})) ${fail(`\`expected integer, got \${got(${x})}\``)}`,
          `if (!Number.isSafeInteger(${x})) ${fail(`\`expected a safe integer, got \${got(${x})}\``)}`,
        ];
      case "greater_than":
      case "less_than": {
        const op = `${def.check === "greater_than" ? ">" : "<"}${def.inclusive ? "=" : ""}`;
        const message = `\`expected ${op} ${def.value}, got \${got(${x})}\``;
        return [`if (!(${x} ${op} ${lit(def.value)})) ${fail(message)}`];
      }
      case "min_length":
      case "max_length": {
        if (type !== "array" && type !== "string") throw new Error(`gen-schema: length of ${type}`);
        const unit = type === "array" ? "item" : "character";
        const [op, bound, words] =
          def.check === "min_length"
            ? ["<", def.minimum, "at least"]
            : [">", def.maximum, "at most"];
        return [
          `if (${x}.length ${op} ${bound}) ${fail(`"expected ${words} ${bound} ${unit}${bound === 1 ? "" : "s"}"`)}`,
        ];
      }
      case "string_format": {
        if (def.format !== "regex") throw new Error(`gen-schema: string format ${def.format}`);
        const known = patternOf(def.pattern);
        this.patterns.add(known);
        const shown = lit(`expected a string matching ${def.pattern}`);
        return [`if (!${known.test.name}(${x})) ${fail(shown)}`];
      }
      case "custom": {
        const predicate = predicateOf(def.fn);
        return [`if (${predicate.fails(x)}) ${fail(predicate.message(x))}`];
      }
      default:
        throw new Error(`gen-schema: a zod check ${def.check} at ${hint}`);
    }
  }

  /** A plain union: the value passes when one option passes; else one issue at the union. */
  unionChecks(node, x, prefix, hint) {
    const options = node._zod.def.options;
    const passes = options.map((option, k) => {
      const type = option._zod.def.type;
      if (type === "string" && checksOf(option).length === 0) return `typeof ${x} === "string"`;
      const element = type === "array" ? this.exportNames.get(option._zod.def.element) : undefined;
      const name = element === undefined ? `${hint}Option${k}` : `${element}List`;
      return `${this.checkFunction(option, name)}(${x}) === undefined`;
    });
    const kinds = [...new Set(options.map((o) => o._zod.def.type))].join(" or ");
    const fail = `return fail(${[`\`expected ${kinds}, got \${got(${x})}\``, ...prefix].join(", ")});`;
    return [`if (!(${passes.join(" || ")})) ${fail}`];
  }

  /** Runs `write` with local variable names numbered from 0, as in a new function. */
  inFunction(write) {
    const outer = this.local;
    this.local = 0;
    try {
      return write();
    } finally {
      this.local = outer;
    }
  }

  /** The name of the function checking `node`, creating it on first use. */
  checkFunction(node, hint) {
    const known = this.checkNames.get(node);
    if (known === CYCLE) throw new Error(`gen-schema: a recursive schema at ${hint}`);
    if (known !== undefined) return known;
    this.checkNames.set(node, CYCLE);
    const body = this.inFunction(() => this.checkBody(node, this.exportNames.get(node) ?? hint));
    const text = [...body, "}"].join("\n");
    // Equal schemas written twice upstream (`z.array(ContentPartSchema)`) share one function.
    let name = this.bodies.get(text);
    if (name === undefined) {
      name = this.nameFor("check", node, hint);
      this.bodies.set(text, name);
      this.functions.push(`function ${name}(v: unknown): SchemaIssue | undefined {\n${text}`);
    }
    this.checkNames.set(node, name);
    return name;
  }

  /** The statements of the function checking `node` (in `v`); `stem` names what it creates. */
  checkBody(node, stem) {
    const def = node._zod.def;
    const body = [];
    if (def.type === "object") {
      const catchall = def.catchall?._zod.def.type;
      if (catchall !== "unknown" && catchall !== "any") {
        throw new Error(`gen-schema: ${stem} is not a loose object (catchall ${catchall})`);
      }
      body.push(`if (!isObject(v)) return fail(\`expected object, got \${got(v)}\`);`);
      for (const [key, field] of Object.entries(def.shape)) {
        const x = this.fresh("x");
        body.push(`const ${x} = ${access("v", key)};`);
        const fieldHint = `${stem}${capitalise(key)}`;
        // zod ignores an optional field's issues when its value is undefined.
        if (isOptionalField(field)) {
          const inner = this.checks(field, x, [lit(key)], fieldHint, true);
          body.push(...guarded(`${x} !== undefined`, inner));
        } else {
          body.push(...this.checks(field, x, [lit(key)], fieldHint, false));
        }
      }
      for (const check of checksOf(node)) {
        body.push(...this.check(check, "object", "v", (m) => `return fail(${m});`, stem));
      }
    } else if (def.type === "union" && def.discriminator !== undefined) {
      if (def.unionFallback) throw new Error(`gen-schema: ${stem} has a union fallback`);
      const key = def.discriminator;
      const dispatch = []; // [value, function name], in zod's order
      for (const option of def.options) {
        const values = option._zod.propValues?.[key];
        if (values === undefined || values.size === 0) {
          throw new Error(`gen-schema: an option of ${stem} has no ${key}`);
        }
        const fn = this.checkFunction(option, `${stem}Option`);
        for (const value of values) dispatch.push([value, fn]);
      }
      const seen = dispatch.map(([value]) => value);
      const expected =
        seen.length <= 8 ? `expected ${expectedValues(seen)}, got` : `unknown ${key}`;
      return [
        `if (!isObject(v)) return fail(\`expected object, got \${got(v)}\`);`,
        `const d = ${access("v", key)};`,
        ...dispatchOn("d", dispatch),
        `return fail(\`${expected.replaceAll("`", "\\`")} \${got(d)}\`, ${lit(key)});`,
      ];
    } else {
      body.push(...this.checks(node, "v", [], stem, false));
    }
    return [...body, "return undefined;"];
  }

  // -- output ----------------------------------------------------------------------------------

  /** Whether zod's output for `node` can differ from its input (defaults, transforms). */
  changes(node) {
    const memo = this.changing.get(node);
    if (memo !== undefined) return memo;
    this.changing.set(node, false);
    const def = node._zod.def;
    let result;
    switch (def.type) {
      case "default":
        result = true;
        break;
      case "transform":
        result = transformOf(def.transform).helper !== undefined;
        break;
      case "pipe":
        result = this.changes(def.in) || this.changes(def.out);
        break;
      case "optional":
      case "nullable":
        result = this.changes(def.innerType);
        break;
      case "array":
        result = this.changes(def.element);
        break;
      case "object":
        result = Object.values(def.shape).some((field) => this.changes(field));
        break;
      case "union":
        result = def.options.some((option) => this.changes(option));
        break;
      default:
        result = false;
    }
    this.changing.set(node, result);
    return result;
  }

  /** An expression for zod's output of `node` given the (valid) input in `x`. */
  output(node, x, hint) {
    if (!this.changes(node)) return x;
    const def = node._zod.def;
    switch (def.type) {
      case "default":
        return `${x} === undefined ? ${lit(def.defaultValue)} : ${this.output(def.innerType, x, hint)}`;
      case "optional":
        if (isOptionalIn(def.innerType)) return this.output(def.innerType, x, hint);
        return `${x} === undefined ? ${x} : ${this.output(def.innerType, x, hint)}`;
      case "nullable":
        return `${x} === null ? ${x} : ${this.output(def.innerType, x, hint)}`;
      case "pipe": {
        const { helper } = transformOf(def.out._zod.def.transform);
        const inner = this.output(def.in, x, hint);
        if (helper === undefined) return inner;
        this.helpers.add(helper);
        return `${helper}(${inner})`;
      }
      case "object":
      case "union":
        if (def.type === "union" && def.discriminator === undefined) break;
        return `isObject(${x}) ? ${this.outputFunction(node, hint)}(${x}) : ${x}`;
      default:
        break;
    }
    throw new Error(`gen-schema: an output-changing ${def.type} at ${hint}, not supported`);
  }

  /** The name of the function applying `node`'s defaults, creating it on first use. */
  outputFunction(node, hint) {
    const known = this.outputNames.get(node);
    if (known !== undefined) return known;
    const name = this.nameFor("defaults", node, hint);
    this.outputNames.set(node, name);
    const body = this.inFunction(() => this.outputBody(node, this.exportNames.get(node) ?? hint));
    this.functions.push(
      [`function ${name}<T extends Record<string, unknown>>(v: T): T {`, ...body, "}"].join("\n"),
    );
    return name;
  }

  /** The statements of the function applying `node`'s defaults to `v`. */
  outputBody(node, stem) {
    const def = node._zod.def;
    if (def.type !== "object") {
      const key = def.discriminator;
      const cases = def.options
        .filter((option) => this.changes(option))
        .flatMap((option) => {
          const fn = this.outputFunction(option, `${stem}Option`);
          return [...option._zod.propValues[key]].map(
            (value) => `case ${lit(value)}: return ${fn}(v);`,
          );
        });
      return [`switch (${access("v", key)}) {`, ...cases, "default: return v;", "}"];
    }
    const body = ["let copy: T | undefined;"];
    for (const [key, field] of Object.entries(def.shape)) {
      if (!this.changes(field)) continue;
      const x = this.fresh("x");
      const y = this.fresh("y");
      body.push(
        `const ${x} = ${access("v", key)};`,
        `const ${y} = ${this.output(field, x, `${stem}${capitalise(key)}`)};`,
        `if (${y} !== ${x}) {`,
        "copy ??= { ...v };",
        `Reflect.set(copy, ${lit(key)}, ${y});`,
        "}",
      );
    }
    return [...body, "return copy ?? v;"];
  }
}

/** `lines` run only when `condition` holds. */
function guarded(condition, lines) {
  return [`if (${condition}) {`, ...lines, "}"];
}

function capitalise(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// ---------------------------------------------------------------------------------------------
// The module
// ---------------------------------------------------------------------------------------------

const HELPERS = {
  nullToUndefined: [
    "/** zod's `.transform((value) => value ?? undefined)` on a value already checked. */",
    "function nullToUndefined(value: unknown): unknown {",
    "  return value === null ? undefined : value;",
    "}",
  ].join("\n"),
};

/** The generated module's text, before formatting. */
function emit(schemas, version) {
  const exportNames = new Map();
  for (const [name, value] of Object.entries(schemas)) {
    if (value === null || typeof value !== "object" || !("_zod" in value)) continue;
    const stem = name.replace(/Schema$/, "");
    const current = exportNames.get(value);
    // Aliases (`TextPartSchema as TextInputContentSchema`): the shortest name wins.
    if (
      current === undefined ||
      stem.length < current.length ||
      (stem.length === current.length && stem < current)
    ) {
      exportNames.set(value, stem);
    }
  }
  const gen = new Generator(exportNames);
  const root = schemas.EventSchema;
  const check = gen.checkFunction(root, "Event");
  const defaults = gen.changes(root) ? gen.outputFunction(root, "Event") : undefined;

  return [
    `// Generated by scripts/gen-schema.mjs from the zod schemas of @ag-ui/core ${version}`,
    "// (`EventSchema` of `@ag-ui/core/schemas`). Do not edit: run `npm run gen:schema`.",
    "",
    "/** A failed check: the first issue, at the path of zod's first issue. */",
    "export interface SchemaIssue {",
    "  message: string;",
    "  path: PropertyKey[];",
    "}",
    "",
    "function fail(message: string, ...path: PropertyKey[]): SchemaIssue {",
    "  return { message, path };",
    "}",
    "",
    "/** Puts `keys` in front of the path of an issue found inside a nested value. */",
    "function at(issue: SchemaIssue, ...keys: PropertyKey[]): SchemaIssue {",
    "  issue.path.unshift(...keys);",
    "  return issue;",
    "}",
    "",
    "function isObject(value: unknown): value is Record<string, unknown> {",
    '  return typeof value === "object" && value !== null && !Array.isArray(value);',
    "}",
    "",
    '/** A short description of a value for messages: `null`, `array`, `"robot"`, `1.5`... */',
    "function got(value: unknown): string {",
    '  if (value === null) return "null";',
    '  if (Array.isArray(value)) return "array";',
    `  if (typeof value === "string") return JSON.stringify(value.length > 40 ? \`\${value.slice(0, 40)}…\` : value);`,
    '  if (typeof value === "number" || typeof value === "boolean") return String(value);',
    "  return typeof value;",
    "}",
    "",
    ...[...gen.helpers].map((h) => `${HELPERS[h]}\n`),
    ...[...gen.patterns].map((p) => `${emitPattern(p)}\n`),
    gen.functions.join("\n\n"),
    "",
    "/**",
    " * The first issue of `value` against `EventSchema`, or undefined when it passes. The",
    " * issue's path is the path of zod's first issue.",
    " */",
    "export function firstIssue(value: unknown): SchemaIssue | undefined {",
    `  return ${check}(value);`,
    "}",
    "",
    "/**",
    " * A checked event with the defaults zod's output would carry (for example an absent",
    " * `input.tools` of `RUN_STARTED` becomes `[]`): `value` itself when none applies, else a",
    " * copy of the objects on the way to each default.",
    " */",
    "export function applyDefaults<T extends Record<string, unknown>>(value: T): T {",
    `  return ${defaults === undefined ? "value" : `${defaults}(value)`};`,
    "}",
    "",
  ].join("\n");
}

/** Formats TypeScript with the repository's biome settings. */
function format(text) {
  const biome = path.join(root, "node_modules", ".bin", "biome");
  const result = spawnSync(biome, ["format", `--stdin-file-path=${OUTPUT}`], {
    cwd: root,
    input: text,
    encoding: "utf8",
  });
  if (result.status !== 0) {
    throw new Error(`gen-schema: biome format failed: ${result.stderr || result.error}`);
  }
  return result.stdout;
}

/** The text of src/schema/generated.ts for the installed @ag-ui/core. */
export async function generate() {
  const schemas = await import("@ag-ui/core/schemas");
  const { version } = require("@ag-ui/core/package.json");
  return format(emit(schemas, version));
}

if (
  process.argv[1] !== undefined &&
  path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)
) {
  writeFileSync(OUTPUT, await generate());
  console.log(`wrote ${path.relative(root, OUTPUT)}`);
}
