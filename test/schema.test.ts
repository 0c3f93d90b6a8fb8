// agUiSchema (ag-ui-verify/schema) against the schema it is generated from: `EventSchema` of
// @ag-ui/core 1.0.0 (zod 4). The generated file must be what the generator writes today, and
// on tens of thousands of events (valid runs, events sampled from the zod definitions
// themselves, and seeded mutations of all of them) the two must accept and reject the same
// events, with the same first issue path wherever zod reports one issue.

import { isDeepStrictEqual } from "node:util";
import { EventSchema } from "@ag-ui/core/schemas";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { agenticRun, chatRun, createRng, toolRun } from "../bench/runs.mjs";
import { generate, OUTPUT } from "../scripts/gen-schema.mjs";
import { agUiSchema, type KnownAgUiEvent, type StandardSchemaV1 } from "../src/schema/index.ts";
import { cloneJson, isRecord } from "./support/mutate.ts";
import { validRun } from "./support/valid-run.ts";

type Rng = ReturnType<typeof createRng>;
type Key = string | number;

/** agUiSchema's result, with `value` readable on both sides of the union. */
function validate(value: unknown): {
  value: KnownAgUiEvent | undefined;
  issues: readonly StandardSchemaV1.Issue[] | undefined;
} {
  const result = agUiSchema["~standard"].validate(value);
  if (result instanceof Promise) throw new Error("agUiSchema validated asynchronously");
  return result.issues === undefined
    ? { value: result.value, issues: undefined }
    : { value: undefined, issues: result.issues };
}

// ---------------------------------------------------------------------------------------
// The generated file is current

describe("src/schema/generated.ts", () => {
  it("is what scripts/gen-schema.mjs writes for the installed @ag-ui/core", async () => {
    const { readFileSync } = await import("node:fs");
    const committed = readFileSync(OUTPUT, "utf8");
    // On failure: run `npm run gen:schema` and commit the result.
    expect(committed === (await generate())).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------
// Examples

describe("agUiSchema", () => {
  it("is a synchronous Standard Schema v1", () => {
    expect(agUiSchema["~standard"].version).toBe(1);
    expect(agUiSchema["~standard"].vendor).toBe("ag-ui-verify");
    const event = { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Hi" };
    expect(validate(event)).toEqual({ value: event, issues: undefined });
  });

  it("returns the event itself when no default applies", () => {
    const event = { type: "RUN_STARTED", threadId: "t", runId: "r", extra: { kept: true } };
    expect(validate(event).value).toBe(event);
  });

  it.each([
    ["a misspelt type", { type: "TEXT_MESSAGE_CONTNET", messageId: "m1", delta: "Hi" }, ["type"]],
    ["a THINKING_* type", { type: "THINKING_START" }, ["type"]],
    ["no type", { messageId: "m1" }, ["type"]],
    ["an array", [{ type: "RAW", event: 1 }], []],
    ["null", null, []],
    [
      "a role outside the enum",
      { type: "TEXT_MESSAGE_START", messageId: "m", role: "robot" },
      ["role"],
    ],
    ["a missing runId", { type: "RUN_STARTED", threadId: "t1" }, ["runId"]],
    ["a fractional timestamp", { type: "RAW", event: {}, timestamp: 1.5 }, ["timestamp"]],
    ["an unsafe timestamp", { type: "RAW", event: {}, timestamp: 2 ** 53 }, ["timestamp"]],
    ["RAW without event", { type: "RAW" }, ["event"]],
    ["a null rawEvent", { type: "RAW", event: 1, rawEvent: null }, ["rawEvent"]],
    [
      "a nested message role",
      {
        type: "MESSAGES_SNAPSHOT",
        messages: [
          { id: "u1", role: "user", content: "hi" },
          { id: "m1", role: "robot", content: "hi" },
        ],
      },
      ["messages", 1, "role"],
    ],
    [
      "a content part without a source",
      {
        type: "RUN_STARTED",
        threadId: "t",
        runId: "r",
        input: {
          threadId: "t",
          runId: "r",
          messages: [{ id: "u1", role: "user", content: [{ type: "image" }] }],
        },
      },
      ["input", "messages", 0, "content"],
    ],
    [
      "an interrupt outcome with no interrupts",
      {
        type: "RUN_FINISHED",
        threadId: "t",
        runId: "r",
        outcome: { type: "interrupt", interrupts: [] },
      },
      ["outcome", "interrupts"],
    ],
    [
      "a patch path that is not a JSON pointer",
      { type: "STATE_DELTA", delta: [{ op: "remove", path: "a/b" }] },
      ["delta", 0, "path"],
    ],
  ])("rejects %s at the path zod names", (_name, event, path) => {
    const zod = EventSchema.safeParse(event);
    expect(zod.success).toBe(false);
    expect(zod.error?.issues[0]?.path).toEqual(path);
    const result = validate(event);
    expect(result.issues).toHaveLength(1);
    expect(result.issues?.[0]?.path).toEqual(path);
    expect(typeof result.issues?.[0]?.message).toBe("string");
  });

  it("accepts unknown keys and explicitly undefined optional fields", () => {
    const event = {
      type: "TOOL_CALL_START",
      toolCallId: "c1",
      toolCallName: "search",
      parentMessageId: undefined,
      "x-vendor": { anything: [null] },
    };
    expect(EventSchema.safeParse(event).success).toBe(true);
    expect(validate(event).value).toBe(event);
  });

  it("gives the value zod's defaults and transforms, leaving the input untouched", () => {
    const input = { threadId: "t", runId: "r", messages: [], state: null };
    const event = { type: "RUN_STARTED", threadId: "t", runId: "r", input };
    const zod = EventSchema.safeParse(event);
    const ours = validate(event);
    expect(ours.value).toEqual(zod.data);
    expect(ours.value).toEqual({
      ...event,
      input: { ...input, tools: [], context: [], state: undefined },
    });
    expect(event.input).toBe(input);
    expect(input).toEqual({ threadId: "t", runId: "r", messages: [], state: null });
  });
});

// ---------------------------------------------------------------------------------------
// Events sampled from the zod definitions: every event type, every branch, random depth

/** The parts of a zod 4 schema node this sampler reads. */
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
      fn?: (value: unknown) => unknown;
      value?: number;
      minimum?: number;
      pattern?: RegExp;
    };
    traits: Set<string>;
    optin?: string;
  };
}

function isZodNode(x: unknown): x is ZodNode {
  return typeof x === "object" && x !== null && "_zod" in x;
}

const ABSENT = Symbol("absent");
const STRINGS = ["", "m1", "t1", "x", "__proto__", "constructor", "東京 ☀️", "assistant", "text"];
const POINTERS = ["", "/a", "/a/b", "/~0k", "/~1", "a", "/~2", "~1"];
const NUMBERS = [0, 1, 42, -7, 1.5, 1_750_000_000_000, 2 ** 53 - 1, -(2 ** 53) + 1, 2 ** 53];

function checksOf(node: ZodNode): ZodNode[] {
  const checks = [...(node._zod.def.checks ?? [])];
  if (node._zod.traits.has("$ZodCheck")) checks.unshift(node);
  return checks;
}

/** Whether `value` passes the node's own checks (bounds, formats, refinements). */
function passesChecks(node: ZodNode, value: unknown): boolean {
  return checksOf(node).every((check) => {
    const def = check._zod.def;
    const n = typeof value === "number" ? value : Number.NaN;
    switch (def.check) {
      case "number_format":
        return Number.isSafeInteger(n);
      case "greater_than":
        return n >= (def.value ?? 0);
      case "less_than":
        return n <= (def.value ?? 0);
      case "string_format":
        return typeof value === "string" && (def.pattern?.test(value) ?? true);
      case "custom":
        return Boolean(def.fn?.(value));
      default:
        return true;
    }
  });
}

function randomJson(rng: Rng, depth: number): unknown {
  const k = rng.int(0, depth > 2 ? 4 : 7);
  if (k === 0) return null;
  if (k === 1) return rng.chance(0.5);
  if (k === 2) return rng.pick(NUMBERS);
  if (k === 3) return rng.pick(STRINGS);
  if (k === 4) return {};
  if (k === 5) return [randomJson(rng, depth + 1)];
  return { k: randomJson(rng, depth + 1), n: rng.int(0, 9) };
}

/** A value of `node`, chosen at random; ABSENT for an omitted optional field. */
function sampleNode(node: ZodNode, rng: Rng, depth: number): unknown {
  const def = node._zod.def;
  const retry = (make: () => unknown): unknown => {
    for (let i = 0; i < 50; i++) {
      const value = make();
      if (passesChecks(node, value)) return value;
    }
    throw new Error(`no sample of a ${def.type} passes its checks`);
  };
  switch (def.type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        const optional = field._zod.optin === "optional";
        if (optional && rng.chance(depth > 3 ? 0.8 : 0.4)) continue;
        const value = sampleNode(field, rng, depth + 1);
        if (value !== ABSENT) out[key] = value;
      }
      if (rng.chance(0.1)) out["x-extra"] = randomJson(rng, depth);
      return out;
    }
    case "union":
      return sampleNode(rng.pick(def.options ?? []), rng, depth);
    case "array": {
      const min = checksOf(node).find((c) => c._zod.def.check === "min_length")?._zod.def.minimum;
      const n = Math.max(min ?? 0, rng.int(0, depth > 3 ? 1 : 3));
      return Array.from({ length: n }, () => sampleNode(def.element ?? node, rng, depth + 1));
    }
    case "optional":
    case "default":
      return rng.chance(0.05) ? undefined : sampleNode(def.innerType ?? node, rng, depth);
    case "nullable":
      return rng.chance(0.3) ? null : sampleNode(def.innerType ?? node, rng, depth);
    case "pipe":
      return sampleNode(def.in ?? node, rng, depth);
    case "literal":
      return rng.pick(def.values ?? []);
    case "enum":
      return rng.pick(Object.values(def.entries ?? {}));
    case "string":
      return retry(() => rng.pick(rng.chance(0.5) ? POINTERS : STRINGS));
    case "number":
      return retry(() => rng.pick(NUMBERS));
    case "boolean":
      return rng.chance(0.5);
    case "any":
    case "unknown":
    case "custom":
      return retry(() => randomJson(rng, depth));
    default:
      throw new Error(`the sampler does not know a zod ${def.type}`);
  }
}

// ---------------------------------------------------------------------------------------
// Mutations

/** Every path inside `value`, the root included. */
function pathsOf(value: unknown, prefix: Key[] = [], out: Key[][] = []): Key[][] {
  out.push(prefix);
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) pathsOf(item, [...prefix, i], out);
  } else if (isRecord(value)) {
    for (const [key, item] of Object.entries(value)) pathsOf(item, [...prefix, key], out);
  }
  return out;
}

function misspell(s: string, rng: Rng): string {
  const variants = [
    s.slice(0, -1),
    `${s}S`,
    s.toLowerCase(),
    s.length > 2 ? `${s.slice(0, 1)}${s.slice(2, 3)}${s.slice(1, 2)}${s.slice(3)}` : `${s}_`,
    "THINKING_START",
    "THINKING_TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_CONTNET",
    "robot",
    "",
  ];
  return rng.pick(variants);
}

/** The mutations, each a new value for what stands at a path (DELETE removes a key). */
const DELETE = Symbol("delete");
const MUTATIONS: ReadonlyArray<[string, (old: unknown, rng: Rng) => unknown]> = [
  ["delete", () => DELETE],
  ["null", () => null],
  ["undefined", () => undefined],
  [
    "wrong type",
    (old) => {
      if (typeof old === "string") return 42;
      if (typeof old === "number") return String(old);
      if (typeof old === "boolean") return "true";
      if (Array.isArray(old)) return { 0: old[0] };
      if (isRecord(old)) return [old];
      return "x";
    },
  ],
  ["outside the enum", () => "robot"],
  ["misspelt", (old, rng) => (typeof old === "string" ? misspell(old, rng) : "RUN_STARTET")],
  ["non-integer", () => 1.5],
  ["unsafe integer", (_old, rng) => rng.pick([2 ** 53, -(2 ** 53), 1e300])],
  ["negative", () => -1],
  ["empty array", () => []],
  ["empty object", () => ({})],
  ["not a pointer", () => "no/leading/slash"],
  ["extra key", (old, rng) => (isRecord(old) ? { ...old, "x-unknown": randomJson(rng, 0) } : old)],
];

/** A deep copy of `event` with `make(old)` at `path`. */
function mutateAt(event: unknown, path: Key[], make: (old: unknown) => unknown): unknown {
  if (path.length === 0) {
    const value = make(event);
    return value === DELETE ? undefined : value;
  }
  const copy = cloneJson(event);
  let parent: unknown = copy;
  for (const key of path.slice(0, -1)) {
    parent = Array.isArray(parent)
      ? parent[Number(key)]
      : isRecord(parent)
        ? parent[key]
        : undefined;
  }
  const last = path[path.length - 1] ?? "";
  if (Array.isArray(parent) && typeof last === "number") {
    const value = make(parent[last]);
    parent[last] = value === DELETE ? undefined : value;
  } else if (isRecord(parent)) {
    const value = make(parent[last]);
    if (value === DELETE) delete parent[last];
    else parent[last] = value;
  }
  return copy;
}

// ---------------------------------------------------------------------------------------
// The differential

interface Tally {
  compared: number;
  rejected: number;
  singleIssue: number;
  firstPathAgrees: number;
  areas: Record<string, number>;
}

const AREAS: ReadonlyArray<[string, (path: Key[], event: unknown) => boolean]> = [
  ["input.messages", (p) => p[0] === "input" && p[1] === "messages" && p.length > 2],
  [
    "MESSAGES_SNAPSHOT.messages",
    (p, e) => isRecord(e) && e.type === "MESSAGES_SNAPSHOT" && p[0] === "messages" && p.length > 1,
  ],
  ["outcome", (p) => p[0] === "outcome" && p.length > 1],
  ["content parts", (p) => p.some((k, i) => k === "content" && typeof p[i + 1] === "number")],
  ["timestamp", (p) => p.length === 1 && p[0] === "timestamp"],
  ["type", (p) => p.length === 1 && p[0] === "type"],
];

/** Compares one event; returns a description of the disagreement, if any. */
function compare(event: unknown, tally: Tally): string | undefined {
  tally.compared++;
  const zod = EventSchema.safeParse(event);
  const ours = validate(event);
  if (zod.success !== (ours.issues === undefined)) {
    return `zod ${zod.success ? "accepts" : `rejects (${JSON.stringify(zod.error?.issues[0]?.path)})`}, agUiSchema ${ours.issues === undefined ? "accepts" : "rejects"}`;
  }
  if (zod.success) {
    return isDeepStrictEqual(ours.value, zod.data) ? undefined : "outputs differ";
  }
  tally.rejected++;
  const zodPath = JSON.stringify(zod.error.issues[0]?.path);
  const ourPath = JSON.stringify(ours.issues?.[0]?.path);
  if (zodPath === ourPath) tally.firstPathAgrees++;
  if (zod.error.issues.length !== 1) return undefined;
  tally.singleIssue++;
  return zodPath === ourPath ? undefined : `first path ${ourPath}, zod's ${zodPath}`;
}

function differential(bases: readonly unknown[], seed: number) {
  const rng = createRng(seed);
  const tally: Tally = { compared: 0, rejected: 0, singleIssue: 0, firstPathAgrees: 0, areas: {} };
  const disagreements: string[] = [];
  const check = (event: unknown, what: string) => {
    const problem = compare(event, tally);
    if (problem !== undefined && disagreements.length < 10) {
      disagreements.push(`${what}: ${problem}\n  ${JSON.stringify(event)?.slice(0, 600)}`);
    }
  };
  const mutate = (event: unknown, path: Key[], times: number): unknown => {
    let out = event;
    for (let i = 0; i < times; i++) {
      const [name, make] = rng.pick(MUTATIONS);
      const at = i === 0 ? path : rng.pick(pathsOf(out));
      out = mutateAt(out, at, (old) => make(old, rng));
      if (i === 0) {
        for (const [area, test] of AREAS) {
          if (test(at, event)) tally.areas[area] = (tally.areas[area] ?? 0) + 1;
        }
      }
      if (name === "delete" && at.length === 0) break;
    }
    return out;
  };
  for (const base of bases) {
    check(base, "unmutated");
    const paths = pathsOf(base);
    for (let k = 0; k < 3; k++) {
      const path = rng.pick(paths);
      check(
        mutate(base, path, rng.chance(0.8) ? 1 : rng.int(2, 3)),
        `mutated at ${path.join(".")}`,
      );
    }
    for (const path of [["timestamp"], ["type"]])
      check(mutate(base, path, 1), `mutated at ${path}`);
    // Inside nested values (messages, outcomes, content parts, patches), where most paths are.
    const nested = paths.filter((path) => path.length > 2);
    for (let k = 0; k < 2 && nested.length > 0; k++) {
      const path = rng.pick(nested);
      check(mutate(base, path, 1), `mutated at ${path.join(".")}`);
    }
  }
  return { tally, disagreements };
}

describe("agUiSchema against @ag-ui/core's EventSchema.safeParse", () => {
  const root: unknown = EventSchema;
  if (!isZodNode(root)) throw new Error("EventSchema is not a zod 4 schema");

  it("samples every event type from the zod definitions, and zod accepts the samples", () => {
    const rng = createRng(7);
    const types = new Set<unknown>();
    for (const option of root._zod.def.options ?? []) {
      for (let i = 0; i < 20; i++) {
        const event = sampleNode(option, rng, 0);
        expect(EventSchema.safeParse(event).success).toBe(true);
        if (isRecord(event)) types.add(event.type);
      }
    }
    expect(types.size).toBe(31);
  });

  it("agrees on tens of thousands of valid and mutated events", { timeout: 60_000 }, () => {
    const rng = createRng(20_250_301);
    const bases: unknown[] = [
      ...agenticRun(1500, { seed: 1 }),
      ...chatRun(300, { seed: 2 }),
      ...toolRun(600, { seed: 3 }),
      ...fc.sample(validRun, { seed: 4, numRuns: 80 }).flat(),
    ];
    for (const option of root._zod.def.options ?? []) {
      for (let i = 0; i < 100; i++) bases.push(sampleNode(option, rng, 0));
    }
    const { tally, disagreements } = differential(bases, 5);
    expect(disagreements).toEqual([]);
    expect(tally.compared).toBeGreaterThan(40_000);
    expect(tally.rejected).toBeGreaterThan(tally.compared / 3);
    expect(tally.singleIssue).toBeGreaterThan(tally.rejected / 2);
    for (const [area] of AREAS) expect(tally.areas[area] ?? 0, area).toBeGreaterThan(100);
    // Beyond what is required: the first path agrees on multi-issue rejections too.
    expect(tally.firstPathAgrees).toBe(tally.rejected);
  });
});
