// A seeded fuzzer over every entry point (SPEC §17.4): for any bytes, strings or values,
// an entry point delivers events or fails with a `VerifyError`. The only other exceptions
// allowed are a documented `TypeError` for API misuse, what the caller's own schema throws
// and the network errors of the caller's body. Nothing escapes as a RangeError or a stack
// overflow, and nothing hangs: every read of a stream races a deadline, and every test has
// its own timeout.
//
// Where the verdict is cheap to check, the entry points are also held to each other: the
// same values give the same code and index through verifyAll, a Verifier, verifiedEvents
// (the values as SSE, however framed and chunked), the command's reader (as SSE and as JSON
// Lines) and the proxy, whose output is the input byte for byte when it accepts.
//
// Reproducible: every input comes from one seed (printed in the test names; FUZZ_SEED in
// the environment picks another), each case from its own sub-seed, so a failure message
// (seed, test, case number, what the input was) is enough to rebuild it.
//
// The failures of one test are collected and reported together, grouped by what went
// wrong, with up to three inputs each, so one run shows every distinct problem.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ChunkExpanderStream,
  type DecoderOptions,
  isHttpError,
  isVerifyError,
  runAgent,
  SseDecoderStream,
  SseEncoderStream,
  Verifier,
  type VerifierOptions,
  VerifyingTransformStream,
  validateRunOutcome,
  verifiedEvents,
  verifyAll,
  verifyResponse,
} from "../src/index.ts";
import type { LintReport } from "../src/lint/types.ts";
import { InputReader, type ReaderOptions } from "../src/report/input-reader.ts";
import { agUiSchema } from "../src/schema/index.ts";
import { SseDecoder } from "../src/sse/decoder.ts";
import * as F from "./support/fuzz-values.ts";

// ---------------------------------------------------------------------------------------
// Seed, budget, bookkeeping

function seedFromEnvironment(): number | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env;
  const text = env?.FUZZ_SEED;
  if (text === undefined || text === "") return undefined;
  const n = Number(text);
  return Number.isInteger(n) ? n >>> 0 : undefined;
}

const SEED = seedFromEnvironment() ?? 0x5eed_17_4;
const SEED_TEXT = `0x${SEED.toString(16)}`;
/** A read that takes longer than this is a hang. */
const DEADLINE_MS = 8_000;
const TEST_TIMEOUT_MS = 45_000;

/** The seed of case `n` of test `test`: independent of every other case. */
function caseSeed(test: number, n: number): number {
  let h = Math.imul(SEED ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(test + 1, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 13), 0x27d4eb2f) ^ Math.imul(n + 1, 0x165667b1);
  h ^= h >>> 15;
  return h >>> 0 || 1;
}

/** Problems found by one test: grouped by kind, a few examples each. */
class Findings {
  readonly #groups = new Map<string, { count: number; examples: string[] }>();
  /** How many inputs reached each kind of check: a fuzzer whose checks never run finds nothing. */
  readonly covered = new Map<string, number>();

  cover(what: string): void {
    this.covered.set(what, (this.covered.get(what) ?? 0) + 1);
  }

  /** A finding for every kind of check that ran on fewer inputs than `min` says. */
  expectCoverage(min: Record<string, number>): void {
    for (const [what, least] of Object.entries(min)) {
      const n = this.covered.get(what) ?? 0;
      if (n < least)
        this.add(
          "the fuzzer's inputs miss a check",
          `${what}: ${n} inputs, expected at least ${least}`,
        );
    }
  }

  /** Inputs on which a stream hung: after two, a test stops (each costs a deadline). */
  hangs = 0;

  get stuck(): boolean {
    return this.hangs >= 2;
  }

  add(kind: string, example: string): void {
    if (kind.endsWith("hangs")) this.hangs++;
    const group = this.#groups.get(kind) ?? { count: 0, examples: [] };
    group.count++;
    if (group.examples.length < 3) group.examples.push(example);
    this.#groups.set(kind, group);
  }

  /** One line per kind: "kind (×n): example | example". Empty when nothing was found. */
  report(): string[] {
    return [...this.#groups].map(
      ([kind, g]) => `${kind} (×${g.count}): ${g.examples.map((e) => `\n    - ${e}`).join("")}`,
    );
  }
}

/**
 * Unhandled rejections while the fuzzer runs (Node only: where `process` exists), with the
 * input that was running. Vitest reports them too, but without the input.
 */
const unhandled = { current: "", seen: [] as string[] };
type ProcessEvents = {
  on?(e: string, f: (r: unknown) => void): void;
  off?(e: string, f: (r: unknown) => void): void;
};
const nodeProcess = (globalThis as { process?: ProcessEvents }).process;
function onUnhandled(reason: unknown): void {
  unhandled.seen.push(`while running ${clip(unhandled.current, 400)}: ${show(reason)}`);
}

/** One macrotask: lets pending rejections be reported. */
function macrotask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Moves the unhandled rejections seen so far into `findings`. */
async function collectUnhandled(findings: Findings): Promise<void> {
  await macrotask();
  for (const u of unhandled.seen.splice(0)) findings.add("an unhandled rejection", u);
}

/** Rejected after a deadline: the stream neither ended nor failed. */
class Hang extends Error {
  constructor(what: string) {
    super(`no end within ${DEADLINE_MS} ms: ${what}`);
    this.name = "Hang";
  }
}

function bounded<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Hang(what)), DEADLINE_MS);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** A thrown value in a line: its class, message and where in src/ it came from. */
function show(error: unknown): string {
  try {
    if (error instanceof Error) {
      const at = (error.stack ?? "")
        .split("\n")
        .find((line) => line.includes("/src/"))
        ?.trim()
        .replace(/^at /, "")
        .replace(/\(.*\/src\//, "(src/");
      return `${error.name}: ${error.message.slice(0, 160)}${at ? ` [${at}]` : ""}`;
    }
    return `${typeof error} ${String(error).slice(0, 80)}`;
  } catch {
    return `an unprintable ${typeof error}`;
  }
}

/** The kind of a thrown value, for grouping: class and the start of its message. */
function kindOf(error: unknown): string {
  try {
    if (error instanceof Error) return `${error.name}: ${error.message.slice(0, 60)}`;
    return typeof error;
  } catch {
    return "unprintable";
  }
}

function clip(text: string, max = 160): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

// ---------------------------------------------------------------------------------------
// Verdicts

type Verdict =
  | { readonly kind: "accepted" }
  | {
      readonly kind: "rejected";
      readonly code: string;
      readonly index: number;
      readonly error: unknown;
    }
  | { readonly kind: "escaped"; readonly error: unknown };

const ACCEPTED: Verdict = { kind: "accepted" };

function verdictOf(error: unknown): Verdict {
  return isVerifyError(error)
    ? { kind: "rejected", code: error.code, index: error.index, error }
    : { kind: "escaped", error };
}

/**
 * Whether a VerifyError says a field "could not be read": only a getter or a Proxy can make
 * reading throw, so on values JSON.parse made it is the library's own error (a stack
 * overflow, say) dressed up as the input's fault.
 */
function masksInternalError(error: unknown): boolean {
  return isVerifyError(error) && error.message.includes("could not be read");
}

function sameVerdict(a: Verdict, b: Verdict): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === "rejected" && b.kind === "rejected")
    return a.code === b.code && a.index === b.index;
  return true;
}

function showVerdict(v: Verdict): string {
  if (v.kind === "accepted") return "accepted";
  if (v.kind === "rejected") return `${v.code}@${v.index}`;
  return `escaped ${show(v.error)}`;
}

// ---------------------------------------------------------------------------------------
// Options and schemas

/** Thrown by the caller's own schema below: allowed to pass through (SPEC §14). */
class SchemaThrow extends Error {
  constructor() {
    super("the caller's schema threw");
    this.name = "SchemaThrow";
  }
}

/** A caller's schema that throws on some events (decided without touching hostile values). */
const throwingSchema = {
  "~standard": {
    version: 1 as const,
    vendor: "fuzz",
    validate(value: unknown) {
      let type: unknown;
      try {
        type = (value as { type?: unknown }).type;
      } catch {
        throw new SchemaThrow();
      }
      if (typeof type === "string" && type.length % 4 === 1) throw new SchemaThrow();
      return { value };
    },
  },
};

/** A caller's schema that validates asynchronously: a documented TypeError (SPEC §14). */
const asyncSchema = {
  "~standard": {
    version: 1 as const,
    vendor: "fuzz",
    validate: (value: unknown) => Promise.resolve({ value }),
  },
};

interface Options {
  readonly value: VerifierOptions;
  readonly label: string;
  /** Whether a schema of the caller's own is in play (what it throws may pass). */
  readonly callerSchema: "throwing" | "async" | undefined;
}

function verifierOptions(rng: F.Rng): Options {
  const r = rng.int(14);
  const draft = rng.chance(0.25);
  const base: VerifierOptions = draft ? { protocol: "draft" } : {};
  const seqLabel = draft ? 'protocol: "draft", ' : "";
  if (r < 4) return { value: base, label: `{${seqLabel}}`, callerSchema: undefined };
  if (r < 8)
    return {
      value: { ...base, schema: agUiSchema },
      label: `{${seqLabel}schema: agUiSchema}`,
      callerSchema: undefined,
    };
  if (r < 11) {
    const maxIds = rng.pick([0, 1, 2, 3, 5, 8]);
    return {
      value: { ...base, maxIds },
      label: `{${seqLabel}maxIds: ${maxIds}}`,
      callerSchema: undefined,
    };
  }
  if (r < 13)
    return {
      value: { ...base, schema: throwingSchema },
      label: `{${seqLabel}schema: throwing}`,
      callerSchema: "throwing",
    };
  return {
    value: { ...base, schema: asyncSchema },
    label: `{${seqLabel}schema: async}`,
    callerSchema: "async",
  };
}

/**
 * Whether an exception other than a VerifyError is one the contract allows: what the
 * caller's schema threw, the TypeError of a schema that validates asynchronously, or the
 * caller's body's own network error.
 */
function allowed(error: unknown, options: Options | undefined, network?: unknown): boolean {
  if (network !== undefined && error === network) return true;
  if (options?.callerSchema === "throwing" && error instanceof SchemaThrow) return true;
  return (
    options?.callerSchema === "async" &&
    error instanceof TypeError &&
    error.message.includes("asynchronously")
  );
}

// ---------------------------------------------------------------------------------------
// Inputs: lists of values

interface ValuesInput {
  readonly values: unknown[];
  readonly label: string;
}

/** Values for the verifier: valid runs, mutated runs, event soup, hostile values. */
function valuesInput(rng: F.Rng, hostile: boolean): ValuesInput {
  const r = rng.int(10);
  if (r < 2) {
    const run = rng.chance(0.3) ? F.sequentialRuns(rng) : F.validRun(rng);
    return { values: run.value, label: `valid ${run.label}` };
  }
  if (r < 8) {
    const run = rng.chance(0.2) ? F.sequentialRuns(rng) : F.validRun(rng);
    let values: unknown[] = run.value;
    const labels: string[] = [];
    for (let n = rng.range(1, 3); n > 0; n--) {
      const m = F.mutate(rng, values, hostile);
      values = m.value;
      labels.push(m.label);
    }
    return { values, label: `${run.label} ${labels.join(" ")}` };
  }
  // Event soup: random events after a RUN_STARTED (or not), some hostile.
  const values: unknown[] = [];
  const labels: string[] = [];
  if (rng.chance(0.7)) values.push({ type: "RUN_STARTED", threadId: "t1", runId: "r1" });
  for (let n = rng.range(0, 12); n > 0; n--) {
    if (hostile && rng.chance(0.25)) {
      const h = F.hostileValue(rng);
      values.push(h.value);
      labels.push(h.label);
    } else {
      const e = F.jsonEvent(rng);
      values.push(e);
      labels.push(F.typeLabel(e));
    }
  }
  return { values, label: `soup[${labels.join(",")}]` };
}

/** The values' JSON texts, when every value has one. */
function jsonTexts(values: readonly unknown[]): string[] | undefined {
  const out: string[] = [];
  for (const value of values) {
    let json: unknown;
    try {
      json = JSON.stringify(value);
    } catch {
      return undefined;
    }
    if (typeof json !== "string") return undefined;
    out.push(json);
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Running the entry points

function runVerifyAll(values: readonly unknown[], options: VerifierOptions): Verdict {
  try {
    verifyAll(values, options);
    return ACCEPTED;
  } catch (error) {
    return verdictOf(error);
  }
}

/**
 * A Verifier event by event. Also checks what §10.4 promises of a poisoned verifier (the
 * same error again, from verify and end) and that the index counts the events accepted.
 */
function runVerifier(
  values: readonly unknown[],
  options: VerifierOptions,
  problems: string[],
): Verdict {
  const verifier = new Verifier(options);
  let accepted = 0;
  for (const value of values) {
    try {
      verifier.verify(value);
      accepted++;
    } catch (error) {
      if (!isVerifyError(error)) return { kind: "escaped", error };
      if (error.index !== accepted)
        problems.push(`index ${error.index} after ${accepted} accepted events`);
      if (verifier.error !== error) problems.push("verifier.error is not the error thrown");
      for (const again of [() => verifier.verify({ type: "RAW" }), () => verifier.end()]) {
        try {
          again();
          problems.push("a poisoned verifier accepted a call");
        } catch (e) {
          if (e !== error) problems.push(`a poisoned verifier threw ${show(e)}`);
        }
      }
      return verdictOf(error);
    }
  }
  try {
    verifier.end();
    return ACCEPTED;
  } catch (error) {
    if (isVerifyError(error) && error.index !== accepted)
      problems.push(`end() index ${error.index} after ${accepted} accepted events`);
    return verdictOf(error);
  }
}

interface Drained<T> {
  readonly values: T[];
  readonly error: unknown;
  readonly errored: boolean;
}

/** Reads a stream to its end or its error; a hang rejects with a Hang. */
async function drain<T>(stream: ReadableStream<T>, what: string): Promise<Drained<T>> {
  const reader = stream.getReader();
  const values: T[] = [];
  const read = async (): Promise<Drained<T>> => {
    try {
      for (;;) {
        const r = await reader.read();
        if (r.done) return { values, error: undefined, errored: false };
        values.push(r.value);
      }
    } catch (error) {
      return { values, error, errored: true };
    }
  };
  return bounded(read(), what);
}

/** The verdict of a drained verified stream; also checks that it delivered `index` events. */
function streamVerdict(d: Drained<unknown>, problems: string[]): Verdict {
  if (!d.errored) return ACCEPTED;
  const v = verdictOf(d.error);
  if (v.kind === "rejected" && v.index !== d.values.length)
    problems.push(`${v.code}@${v.index} after ${d.values.length} events delivered`);
  return v;
}

/** How many values a decoder finds in `bytes`, or undefined if one would not decode. */
function decodedCount(bytes: Uint8Array): number {
  return decodedValues(bytes).length;
}

/** The values a decoder finds in `bytes` (a decode failure among them, as a value). */
function decodedValues(bytes: Uint8Array): unknown[] {
  const values: unknown[] = [];
  const decoder = new SseDecoder((v) => values.push(v), {
    maxBufferSize: Number.POSITIVE_INFINITY,
  });
  decoder.push(bytes);
  decoder.finish();
  return values;
}

/** Where a stream stands after these verified events (SPEC §5). */
function phaseAfter(events: readonly unknown[]): "before" | "running" | "finished" | "failed" {
  let phase: "before" | "running" | "finished" | "failed" = "before";
  for (const e of events) {
    const type = (e as { type?: unknown }).type;
    if (type === "RUN_STARTED") phase = "running";
    else if (type === "RUN_FINISHED") phase = "finished";
    else if (type === "RUN_ERROR") phase = "failed";
  }
  return phase;
}

/** Whether valid events keep to one thread: what protocol draft asks of several runs (§9.14). */
function oneThread(events: readonly unknown[]): boolean {
  const threads = new Set<unknown>();
  for (const e of events) {
    const { type, threadId } = e as { type?: unknown; threadId?: unknown };
    if (type === "RUN_STARTED") threads.add(threadId);
  }
  return threads.size <= 1;
}

// ---------------------------------------------------------------------------------------
// Inputs: bytes

interface BytesInput {
  readonly bytes: Uint8Array;
  readonly label: string;
  /** The values whose SSE encoding `bytes` is, when it is exactly that (no damage). */
  readonly values: unknown[] | undefined;
}

/**
 * Bytes for the SSE readers: a run's values framed every which way, the same damaged, the
 * values as JSON Lines (no SSE at all), or random bytes.
 */
function sseInput(rng: F.Rng): BytesInput {
  const r = rng.int(40);
  if (r < 3) {
    const bytes = F.randomBytes(rng, rng.range(0, 300));
    return {
      bytes,
      label: `random ${F.showBytes(bytes, 60)}`,
      values: undefined,
    };
  }
  // Build from values (re-drawn until they all have a JSON text).
  let v = valuesInput(rng, false);
  let jsons = jsonTexts(v.values);
  while (jsons === undefined) {
    v = valuesInput(rng, false);
    jsons = jsonTexts(v.values);
  }
  if (r < 6) {
    const bytes = F.jsonlBytes(rng, jsons, rng.chance(0.2));
    return { bytes, label: `${v.label} as JSON Lines`, values: undefined };
  }
  const f = F.framing(rng);
  const bytes = F.sseBytes(rng, jsons, f);
  const framed = `${v.label} as SSE(${f.lineEnd}${f.bom ? ",BOM" : ""},extras ${f.extras}‰)`;
  if (r < 26) return { bytes, label: framed, values: v.values };
  let damaged = bytes;
  const labels: string[] = [];
  for (let n = rng.range(1, 3); n > 0; n--) {
    const d = F.damage(rng, damaged);
    damaged = d.value;
    labels.push(d.label);
  }
  return {
    bytes: damaged,
    label: `${framed} damaged ${labels.join(" ")}`,
    values: undefined,
  };
}

/** A few big inputs: 1 MB ids, deep data, a long message without end, many messages. */
function bigSseInputs(): BytesInput[] {
  const utf8 = new TextEncoder();
  const RS = '{"type":"RUN_STARTED","threadId":"t","runId":"r"}';
  const RF = '{"type":"RUN_FINISHED","threadId":"t","runId":"r"}';
  const sse = (jsons: string[]) => utf8.encode(jsons.map((j) => `data: ${j}\n\n`).join(""));
  const deepArray = F.deepJsonText(100_000, "array");
  const deepObject = F.deepJsonText(100_000, "object");
  const out: BytesInput[] = [];
  const add = (label: string, jsons: string[], exact = true) =>
    out.push({
      bytes: sse(jsons),
      label,
      values: exact ? jsons.map((j) => JSON.parse(j)) : undefined,
    });
  add("1 MB message id", [
    RS,
    `{"type":"TEXT_MESSAGE_START","messageId":"${F.HUGE_ID}"}`,
    `{"type":"TEXT_MESSAGE_END","messageId":"${F.HUGE_ID}","subagentRunId":"s9"}`,
  ]);
  add("100,000-deep input", [RS.replace("}", `,"input":${deepArray}}`), RF]);
  add("100,000-deep outcome", [RS, RF.replace("}", `,"outcome":${deepObject}}`)]);
  add("100,000-deep messages", [RS, `{"type":"MESSAGES_SNAPSHOT","messages":${deepArray}}`, RF]);
  add("100,000-deep rawEvent", [
    RS,
    `{"type":"RAW","event":${deepObject},"rawEvent":${deepArray}}`,
    RF,
  ]);
  add("100,000-deep id", [RS, `{"type":"TEXT_MESSAGE_START","messageId":${deepArray}}`]);
  add("100,000-deep event", [RS, deepArray]);
  add("100,000-deep subagentRunId", [RS, `{"type":"CUSTOM","subagentRunId":${deepObject}}`]);
  add("100,000-deep type", [RS, `{"type":${deepObject}}`]);
  add("100,000 keys", [
    RS,
    `{"type":"CUSTOM","value":{${Array.from({ length: 100_000 }, (_, i) => `"k${i}":${i}`).join(",")}}}`,
    RF,
  ]);
  add("10,000 events", [
    RS,
    '{"type":"TEXT_MESSAGE_START","messageId":"m"}',
    ...Array.from(
      { length: 10_000 },
      () => '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x"}',
    ),
    '{"type":"TEXT_MESSAGE_END","messageId":"m"}',
    RF,
  ]);
  out.push({
    bytes: utf8.encode(`data: ${RS}\n\ndata: "${"y".repeat(3_000_000)}`),
    label: "3 MB message never ended",
    values: undefined,
  });
  out.push({
    bytes: utf8.encode(`data: ${RS}\r\r${":\r".repeat(200_000)}data: ${RF}\r\r`),
    label: "200,000 CR-framed comments",
    values: undefined,
  });
  out.push({
    bytes: utf8.encode(`${"\n".repeat(500_000)}data: ${RS}\n\n`),
    label: "500,000 blank lines",
    values: undefined,
  });
  return out;
}

interface DecoderChoice {
  readonly maxBufferSize: number | undefined;
  readonly label: string;
}

function decoderOptions(rng: F.Rng): DecoderChoice {
  if (rng.chance(0.8)) return { maxBufferSize: undefined, label: "" };
  const maxBufferSize = rng.pick([0, 1, 10, 50, 100, 300, 1000]);
  return { maxBufferSize, label: `maxBufferSize ${maxBufferSize}` };
}

function withDecoder(options: VerifierOptions, d: DecoderChoice): VerifierOptions & DecoderOptions {
  return d.maxBufferSize === undefined ? options : { ...options, maxBufferSize: d.maxBufferSize };
}

/** The network error of a failing body: allowed through (SPEC §11). */
class NetworkError extends Error {
  constructor() {
    super("the network failed");
    this.name = "NetworkError";
  }
}

const NO_LIMIT: DecoderChoice = { maxBufferSize: undefined, label: "" };

const RUN_ERROR_MARK = new TextEncoder().encode('data: {"type":"RUN_ERROR","message":');

function lastIndexOf(hay: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = hay.length - needle.length; i >= 0; i--) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** The RUN_ERROR message the proxy appends: one `data:` line and a blank line, or null. */
function parseRunError(line: Uint8Array): { code: unknown; size: number } | null {
  const text = new TextDecoder().decode(line);
  if (!text.endsWith("\n\n") || text.slice(0, -2).includes("\n")) return null;
  try {
    const event = JSON.parse(text.slice(6, -2)) as { type?: unknown; code?: unknown };
    return event.type === "RUN_ERROR" ? { code: event.code, size: line.length } : null;
  } catch {
    return null;
  }
}

/** Whether bytes hold a blank line (a complete message could end there). */
function hasBlankLine(bytes: Uint8Array): boolean {
  const text = new TextDecoder().decode(bytes);
  // A CR before an LF is one line end with it, not a line end of its own.
  return /(\r\n|\r(?!\n)|\n)(\r\n|\r(?!\n)|\n)/.test(text);
}

/** What is wrong with a Standard Schema result, or undefined if it is one. */
function resultProblem(result: unknown): string | undefined {
  if (typeof result !== "object" || result === null) return `a ${typeof result}`;
  if (result instanceof Promise) return "a Promise";
  const r = result as { issues?: unknown; value?: unknown };
  if (r.issues === undefined) return "value" in r ? undefined : "neither value nor issues";
  if (!Array.isArray(r.issues) || r.issues.length === 0) return "an empty or non-array issues";
  for (const issue of r.issues as unknown[]) {
    if (typeof (issue as { message?: unknown })?.message !== "string")
      return "an issue without a message";
  }
  return undefined;
}

/** A result in short: "accepted", or the first issue's path. */
function verdictText(result: unknown): string {
  const r = result as { issues?: readonly { path?: readonly unknown[] }[] };
  if (r.issues === undefined) return "accepted";
  const path = (r.issues[0]?.path ?? []).map((p) =>
    typeof p === "object" && p !== null ? (p as { key: unknown }).key : p,
  );
  return `issue at ${path.map(String).join(".")}`;
}

/** A stream of values, one per pull. */
function streamOf(values: readonly unknown[]): ReadableStream<unknown> {
  let i = 0;
  return new ReadableStream<unknown>(
    {
      pull(c) {
        if (i < values.length) c.enqueue(values[i++]);
        else c.close();
      },
    },
    { highWaterMark: 0 },
  );
}

const RUN_INPUT = {
  threadId: "t1",
  runId: "r1",
  messages: [],
  tools: [],
  context: [],
  state: {},
  forwardedProps: {},
};

interface CheckInput extends BytesInput {
  readonly format: "sse" | "jsonl";
}

/** An input for the command's reader: SSE as for verifiedEvents, or JSON Lines. */
function checkInput(rng: F.Rng): CheckInput {
  if (rng.chance(0.5)) return { ...sseInput(rng), format: "sse" };
  if (rng.chance(0.05)) {
    const bytes = F.randomBytes(rng, rng.range(0, 300));
    return {
      bytes,
      label: `random ${F.showBytes(bytes, 60)}`,
      values: undefined,
      format: "jsonl",
    };
  }
  let v = valuesInput(rng, false);
  let jsons = jsonTexts(v.values);
  while (jsons === undefined) {
    v = valuesInput(rng, false);
    jsons = jsonTexts(v.values);
  }
  const bom = rng.chance(0.1);
  const bytes = F.jsonlBytes(rng, jsons, bom);
  const label = `${v.label} as JSON Lines${bom ? " with a BOM" : ""}`;
  if (rng.chance(0.7)) return { bytes, label, values: v.values, format: "jsonl" };
  const d = F.damage(rng, bytes);
  return {
    bytes: d.value,
    label: `${label} damaged ${d.label}`,
    values: undefined,
    format: "jsonl",
  };
}

// ---------------------------------------------------------------------------------------
// The tests

describe(`fuzz (seed ${SEED_TEXT}; FUZZ_SEED=n picks another)`, () => {
  beforeAll(() => nodeProcess?.on?.("unhandledRejection", onUnhandled));
  afterAll(() => nodeProcess?.off?.("unhandledRejection", onUnhandled));
  const COUNTS = {
    verifyAll: 6_000,
    verifiedEvents: 3_000,
    verifyResponse: 2_000,
    schema: 6_000,
    check: 2_000,
    pipeline: 400,
    encoder: 300,
    expander: 400,
    outcome: 1_500,
    runAgent: 300,
  };

  it(
    `verifyAll and Verifier: ${COUNTS.verifyAll} value lists (seed ${SEED_TEXT}, test 1)`,
    () => {
      const findings = new Findings();
      for (let n = 0; n < COUNTS.verifyAll; n++) {
        if (findings.stuck) {
          findings.add("the fuzzer stopped early", `after two hangs, at input ${n}`);
          break;
        }
        // The input is made twice from its seed: a hostile value may change as it is read
        // (a getter that throws once), so each entry point gets a fresh copy.
        const make = () => {
          const rng = new F.Rng(caseSeed(1, n));
          const hostile = rng.chance(0.6);
          return { ...valuesInput(rng, hostile), hostile };
        };
        const input = make();
        const options = verifierOptions(new F.Rng(caseSeed(1, n) ^ 0x5a5a));
        const where = `case ${n}: ${clip(input.label)} with ${options.label}`;
        unhandled.current = where;
        const all = runVerifyAll(input.values, options.value);
        const problems: string[] = [];
        const each = runVerifier(make().values, options.value, problems);
        findings.cover(all.kind);
        if (!input.hostile && all.kind === "rejected" && masksInternalError(all.error))
          findings.add(
            "verifyAll blames JSON values for its own error",
            `${where}: ${show(all.error)}`,
          );
        for (const [name, v] of [
          ["verifyAll", all],
          ["Verifier", each],
        ] as const) {
          if (v.kind === "escaped" && !allowed(v.error, options))
            findings.add(`${name} let ${kindOf(v.error)} escape`, `${where}: ${show(v.error)}`);
        }
        if (!sameVerdict(all, each) && all.kind !== "escaped")
          findings.add(
            "verifyAll and Verifier disagree",
            `${where}: ${showVerdict(all)} vs ${showVerdict(each)}`,
          );
        for (const p of problems)
          findings.add(`Verifier: ${p.replace(/\d+/g, "N")}`, `${where}: ${p}`);
        // A valid stream is accepted (with the options that keep it valid): any number of
        // runs under 1.1, one thread under protocol draft.
        if (
          input.label.startsWith("valid") &&
          options.callerSchema === undefined &&
          !("maxIds" in options.value) &&
          (options.value.protocol !== "draft" || oneThread(input.values)) &&
          options.value.schema === undefined &&
          all.kind !== "accepted"
        )
          findings.add("a valid run is rejected", `${where}: ${showVerdict(all)}`);
      }
      findings.expectCoverage({ accepted: 400, rejected: 2_000 });
      expect(findings.report(), `seed ${SEED_TEXT}`).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    `verifiedEvents: ${COUNTS.verifiedEvents} byte streams, chunked every which way (seed ${SEED_TEXT}, test 2)`,
    async () => {
      const findings = new Findings();
      const inputs: (() => BytesInput)[] = [];
      for (const big of bigSseInputs()) inputs.push(() => big);
      for (let n = inputs.length; n < COUNTS.verifiedEvents; n++)
        inputs.push(() => sseInput(new F.Rng(caseSeed(2, n))));
      for (let n = 0; n < inputs.length; n++) {
        if (findings.stuck) {
          findings.add("the fuzzer stopped early", `after two hangs, at input ${n}`);
          break;
        }
        const rng = new F.Rng(caseSeed(2, n) ^ 0x5a5a);
        const input = (inputs[n] as () => BytesInput)();
        const options = verifierOptions(rng);
        const dec =
          input.bytes.length > 100_000
            ? { maxBufferSize: undefined, label: "" }
            : decoderOptions(rng);
        const chunks = F.chunking(rng, input.bytes);
        const network = rng.chance(0.05) ? new NetworkError() : undefined;
        const all = withDecoder(options.value, dec);
        const where = `case ${n}: ${clip(input.label)} in ${chunks.label}${network ? " then a network error" : ""} with ${options.label} ${dec.label}`;
        unhandled.current = where;
        let drained: Drained<unknown>;
        try {
          drained = await drain(verifiedEvents(F.bodyOf(chunks.value, network), all), where);
        } catch (error) {
          findings.add(
            error instanceof Hang
              ? "verifiedEvents hangs"
              : `verifiedEvents threw ${kindOf(error)}`,
            `${where}: ${show(error)}`,
          );
          continue;
        }
        const problems: string[] = [];
        const got = streamVerdict(drained, problems);
        if (got.kind === "rejected" && masksInternalError(got.error))
          findings.add(
            "verifiedEvents blames parsed JSON for its own error",
            `${where}: ${show(got.error)}`,
          );
        for (const p of problems)
          findings.add(`verifiedEvents: ${p.replace(/\d+/g, "N")}`, `${where}: ${p}`);
        if (got.kind === "escaped" && !allowed(got.error, options, network)) {
          findings.add(
            `verifiedEvents let ${kindOf(got.error)} escape`,
            `${where}: ${show(got.error)}`,
          );
          continue;
        }
        // The same values through verifyAll: the same verdict (unless the decoder's limit
        // or the network cut the stream first: then verifyAll may only fail later).
        if (input.values === undefined || network !== undefined) continue;
        const expected = runVerifyAll(input.values, options.value);
        if (expected.kind === "escaped") continue;
        if (
          got.kind === "rejected" &&
          got.code === "SSE_BUFFER_OVERFLOW" &&
          dec.maxBufferSize !== undefined
        ) {
          if (expected.kind === "rejected" && expected.index < got.index)
            findings.add(
              "verifiedEvents: an overflow hides an earlier violation",
              `${where}: ${showVerdict(got)} vs verifyAll ${showVerdict(expected)}`,
            );
          continue;
        }
        findings.cover(`compared, ${expected.kind}`);
        if (!sameVerdict(got, expected))
          findings.add(
            "verifiedEvents and verifyAll disagree",
            `${where}: verifiedEvents ${showVerdict(got)}, verifyAll ${showVerdict(expected)}`,
          );
        else {
          // The events delivered are the values, in order.
          for (let i = 0; i < drained.values.length; i++) {
            const a = drained.values[i] as { type?: unknown };
            const b = input.values[i] as { type?: unknown };
            if (a?.type !== b?.type) {
              findings.add(
                "verifiedEvents delivered another event",
                `${where}: #${i} ${String(a?.type)} for ${String(b?.type)}`,
              );
              break;
            }
          }
        }
      }
      findings.expectCoverage({ "compared, accepted": 100, "compared, rejected": 400 });
      await collectUnhandled(findings);
      expect(findings.report(), `seed ${SEED_TEXT}`).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    `verifyResponse: ${COUNTS.verifyResponse} responses, error and run-error, keep and lf (seed ${SEED_TEXT}, test 3)`,
    async () => {
      const findings = new Findings();
      const bigs = bigSseInputs();
      for (let n = 0; n < COUNTS.verifyResponse; n++) {
        if (findings.stuck) {
          findings.add("the fuzzer stopped early", `after two hangs, at input ${n}`);
          break;
        }
        const rng = new F.Rng(caseSeed(3, n));
        const input = n < bigs.length ? (bigs[n] as BytesInput) : sseInput(rng);
        const options = verifierOptions(rng);
        const dec = input.bytes.length > 100_000 ? NO_LIMIT : decoderOptions(rng);
        const onViolation = rng.pick(["error", "run-error", undefined] as const);
        const lineEnds = rng.pick(["keep", "lf", undefined] as const);
        const network = rng.chance(0.05) ? new NetworkError() : undefined;
        const whole = !network && rng.chance(0.2);
        const chunks = whole
          ? { value: [input.bytes], label: "a buffered body" }
          : F.chunking(rng, input.bytes);
        const where = `case ${n}: ${clip(input.label)} in ${chunks.label}${network ? " then a network error" : ""} with ${options.label} ${dec.label} onViolation ${onViolation} lineEnds ${lineEnds}`;
        unhandled.current = where;
        const verifying = withDecoder(options.value, dec);
        // A buffered body (one chunk, as `new Response(bytes)` gives) or a streamed one.
        const body: BodyInit = whole
          ? new Blob([input.bytes as Uint8Array<ArrayBuffer>])
          : F.bodyOf(chunks.value, network);
        let out: Drained<Uint8Array>;
        let ref: Drained<unknown>;
        try {
          const response = verifyResponse(new Response(body), {
            ...verifying,
            onViolation,
            lineEnds,
          });
          if (response.body === null) {
            findings.add("verifyResponse: no body", where);
            continue;
          }
          out = await drain(response.body, where);
          ref = await drain(verifiedEvents(F.bodyOf([input.bytes], network), verifying), where);
        } catch (error) {
          findings.add(
            error instanceof Hang
              ? "verifyResponse hangs"
              : `verifyResponse threw ${kindOf(error)}`,
            `${where}: ${show(error)}`,
          );
          continue;
        }
        const problems: string[] = [];
        const expected = streamVerdict(ref, problems);
        const bytes = F.concat(out.values);
        const runError = onViolation === "run-error";
        const lf = lineEnds === "lf";
        const upstream = lf ? F.toLf(input.bytes) : input.bytes;
        const proxy: Verdict = out.errored ? verdictOf(out.error) : ACCEPTED;
        if (proxy.kind === "rejected" && masksInternalError(proxy.error))
          findings.add(
            "verifyResponse blames parsed JSON for its own error",
            `${where}: ${show(proxy.error)}`,
          );
        if (proxy.kind === "escaped" && !allowed(proxy.error, options, network)) {
          findings.add(
            `verifyResponse let ${kindOf(proxy.error)} escape`,
            `${where}: ${show(proxy.error)}`,
          );
          continue;
        }
        if (runError && proxy.kind === "rejected")
          findings.add(
            "verifyResponse (run-error) errored with a VerifyError",
            `${where}: ${showVerdict(proxy)}`,
          );
        const isPrefix = (part: Uint8Array) =>
          F.firstDifference(part, upstream.subarray(0, part.length)) === -1 &&
          part.length <= upstream.length;
        /** The output without an appended RUN_ERROR, and that RUN_ERROR (if one is expected). */
        const split = (withRunError: boolean) => {
          if (!withRunError) return { released: bytes, appended: undefined };
          const at = lastIndexOf(bytes, RUN_ERROR_MARK);
          if (at === -1) return { released: bytes, appended: null };
          let released = bytes.subarray(0, at);
          if (!isPrefix(released) && released[released.length - 1] === 0x0a)
            released = released.subarray(0, -1);
          return { released, appended: parseRunError(bytes.subarray(at)) };
        };
        if (expected.kind === "accepted") {
          findings.cover("accepted, byte for byte");
          // Byte for byte, but for a last message the input never finished (never released).
          if (proxy.kind !== "accepted")
            findings.add(
              "verifyResponse rejects what verifiedEvents accepts",
              `${where}: ${showVerdict(proxy)}`,
            );
          else if (!F.sameBytes(bytes, upstream)) {
            const faithful =
              isPrefix(bytes) &&
              decodedCount(bytes) === decodedCount(input.bytes) &&
              !hasBlankLine(upstream.subarray(bytes.length));
            if (!faithful)
              findings.add(
                `verifyResponse (lineEnds ${lf ? "lf" : "keep"}) is not byte-faithful`,
                `${where}: ${bytes.length} bytes out for ${upstream.length}, first difference at ${F.firstDifference(bytes, upstream)} (in ${F.showBytes(input.bytes, 80)})`,
              );
          }
          continue;
        }
        if (expected.kind === "rejected") {
          findings.cover("rejected, released a prefix");
          // SPEC §16 (version 4): the marked RUN_ERROR is appended wherever 1.1 lets one
          // stand, that is anywhere but after a RUN_ERROR.
          const appends = phaseAfter(ref.values) !== "failed";
          if (!runError && !sameVerdict(proxy, expected))
            findings.add(
              "verifyResponse and verifiedEvents disagree",
              `${where}: proxy ${showVerdict(proxy)}, verifiedEvents ${showVerdict(expected)}`,
            );
          const { released, appended } = split(runError && appends);
          if (appended) findings.cover("rejected, RUN_ERROR appended");
          if (appended === null)
            findings.add(
              "verifyResponse (run-error) appended no RUN_ERROR where 1.1 lets one stand",
              `${where}: expected ${showVerdict(expected)}`,
            );
          else if (
            appended !== undefined &&
            (appended.code !== `AG_UI_VERIFY_${expected.code}` || appended.size > 4096)
          )
            findings.add(
              "verifyResponse (run-error) appended a wrong RUN_ERROR",
              `${where}: ${JSON.stringify(appended).slice(0, 200)} for ${showVerdict(expected)}`,
            );
          if (!isPrefix(released))
            findings.add(
              "verifyResponse released bytes that are not the upstream's",
              `${where}: first difference at ${F.firstDifference(released, upstream)}`,
            );
          else {
            const count = decodedCount(released);
            if (count !== expected.index)
              findings.add(
                "verifyResponse released another number of messages than were verified",
                `${where}: ${count} messages released, violation ${showVerdict(expected)}`,
              );
          }
          continue;
        }
        // The upstream failed (or the caller's schema threw): what was released is the
        // upstream's; then, before any run or in one, the error or in run-error mode a
        // RUN_ERROR; after RUN_FINISHED or RUN_ERROR a clean end, nothing appended.
        if (network !== undefined && expected.kind === "escaped" && expected.error === network) {
          findings.cover("network error");
          // Where the run stands is judged by what the proxy released: a message whose
          // blank line ends in a CR right before the reset is complete, and the proxy
          // verifies and releases it (hostile-streams.test.ts), while verifiedEvents, whose
          // body errored there, never sees its line end. Its own marked RUN_ERROR aside.
          const shown = decodedValues(bytes);
          const last = shown[shown.length - 1] as { type?: unknown; code?: unknown } | undefined;
          const marked = last?.type === "RUN_ERROR" && last.code === "AG_UI_VERIFY_UPSTREAM_ERROR";
          const phase = phaseAfter(marked ? shown.slice(0, -1) : shown);
          const closed = phase === "finished" || phase === "failed";
          if (closed && out.errored)
            findings.add(
              "verifyResponse on a network error after the run closed: errored",
              `${where}: ${showVerdict(proxy)}`,
            );
          const { released, appended } = split(runError && !closed);
          if (appended === null)
            findings.add(
              "verifyResponse (run-error) on a network error: neither error nor RUN_ERROR",
              where,
            );
          else if (appended !== undefined && appended.code !== "AG_UI_VERIFY_UPSTREAM_ERROR")
            findings.add(
              "verifyResponse (run-error) on a network error: a wrong RUN_ERROR",
              `${where}: ${JSON.stringify(appended).slice(0, 200)}`,
            );
          if (!isPrefix(released))
            findings.add(
              "verifyResponse released bytes that are not the upstream's",
              `${where}: (network error)`,
            );
          if (out.errored && proxy.kind !== "escaped")
            findings.add(
              "verifyResponse on a network error: another error",
              `${where}: ${showVerdict(proxy)}`,
            );
        }
      }
      findings.expectCoverage({
        "accepted, byte for byte": 80,
        "rejected, released a prefix": 600,
        "rejected, RUN_ERROR appended": 60,
        "network error": 10,
      });
      await collectUnhandled(findings);
      expect(findings.report(), `seed ${SEED_TEXT}`).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    `agUiSchema: ${COUNTS.schema} JSON values, plus deep, long and wide ones (seed ${SEED_TEXT}, test 4)`,
    () => {
      const findings = new Findings();
      const validate = agUiSchema["~standard"].validate;
      const judge = (value: unknown, where: string) => {
        let result: unknown;
        let again: unknown;
        try {
          result = validate(value);
          again = validate(value);
        } catch (error) {
          findings.add(`agUiSchema threw ${kindOf(error)}`, `${where}: ${show(error)}`);
          return;
        }
        const problem = resultProblem(result);
        if (problem !== undefined) {
          findings.add(`agUiSchema returned ${problem}`, where);
          return;
        }
        findings.cover(verdictText(result) === "accepted" ? "accepted" : "issues");
        if (verdictText(result) !== verdictText(again))
          findings.add(
            "agUiSchema changes its verdict",
            `${where}: ${verdictText(result)} then ${verdictText(again)}`,
          );
      };
      for (let n = 0; n < COUNTS.schema; n++) {
        if (findings.stuck) {
          findings.add("the fuzzer stopped early", `after two hangs, at input ${n}`);
          break;
        }
        const rng = new F.Rng(caseSeed(4, n));
        const r = rng.int(10);
        let made: unknown;
        let label: string;
        if (r < 6) {
          made = F.jsonEvent(rng);
          label = `event ${F.typeLabel(made as Record<string, unknown>)}`;
        } else if (r < 8) {
          const run = F.validRun(rng).value;
          const m = F.mutate(rng, run, false).value;
          made = m[rng.int(m.length)] ?? null;
          label = "an event of a mutated run";
        } else {
          made = F.jsonValue(rng, 4);
          label = "a JSON value";
        }
        const json = JSON.stringify(made);
        if (json === undefined) continue;
        judge(JSON.parse(json), `case ${n}: ${label}: ${clip(json, 200)}`);
      }
      // What JSON.parse makes from hostile texts: every event type with a deep, long or
      // wide value at one of its fields, the fields taken in turn.
      const deepArray = F.deepJsonText(100_000, "array");
      const deepObject = F.deepJsonText(100_000, "object");
      const longString = JSON.stringify(`${"\ud800x".repeat(200_000)}${"y".repeat(1_000_000)}`);
      const wide = `{${Array.from({ length: 100_000 }, (_, i) => `"k${i}":${i % 7 === 0 ? '"__proto__"' : i}`).join(",")},"__proto__":{"type":"RUN_STARTED"}}`;
      const fieldsOf = (type: string) => [
        ...F.fieldsRead(type).map((f) => f[0]),
        "input",
        "messages",
        "delta",
        "rawEvent",
        "value",
        "snapshot",
        "content",
      ];
      let special = 0;
      for (const type of F.TYPES.slice(0, 36)) {
        const base = JSON.stringify({
          type,
          threadId: "t",
          runId: "r",
          messageId: "m",
          toolCallId: "c",
          stepName: "s",
        });
        const fields = fieldsOf(type);
        const hostile: [string, string][] = [
          ["100,000-deep array", deepArray],
          ["100,000-deep object", deepObject],
          ["a 1.4 MB string with lone surrogates", longString],
          ["100,000 keys", wide],
        ];
        for (let k = 0; k < hostile.length; k++) {
          const [what, text] = hostile[k] as [string, string];
          const field = fields[(special + k) % fields.length] as string;
          const json = `${base.slice(0, -1)},${JSON.stringify(field)}:${text}}`;
          judge(JSON.parse(json), `${type}.${field} = ${what}`);
          special++;
        }
      }
      for (const [what, text] of [
        ["a 100,000-deep array", deepArray],
        ["a 100,000-deep object", deepObject],
        ["a long string", longString],
        ["100,000 keys", wide],
        [
          "RUN_STARTED with 100,000-deep input.messages",
          `{"type":"RUN_STARTED","threadId":"t","runId":"r","input":{"threadId":"t","runId":"r","messages":${deepArray}}}`,
        ],
        [
          "MESSAGES_SNAPSHOT whose message's content is 100,000 deep",
          `{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"m","role":"user","content":${deepArray}}]}`,
        ],
        [
          "STATE_DELTA with a 100,000-deep patch value",
          `{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a","value":${deepObject}}]}`,
        ],
        [
          "STATE_DELTA with a 3 MB JSON pointer",
          `{"type":"STATE_DELTA","delta":[{"op":"add","path":"${"/".repeat(3_000_000)}","value":1}]}`,
        ],
        [
          "RUN_FINISHED with 100,000-deep outcome.interrupts",
          `{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":${deepArray}}}`,
        ],
      ] as const) {
        judge(JSON.parse(text), what);
        special++;
      }
      findings.expectCoverage({ accepted: 500, issues: 2_000 });
      expect(findings.report(), `seed ${SEED_TEXT}`).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    `InputReader (the command's reader): ${COUNTS.check} inputs, SSE and JSON Lines, in two chunkings (seed ${SEED_TEXT}, test 5)`,
    async () => {
      const findings = new Findings();
      for (let n = 0; n < COUNTS.check; n++) {
        if (findings.stuck) {
          findings.add("the fuzzer stopped early", `after two hangs, at input ${n}`);
          break;
        }
        const rng = new F.Rng(caseSeed(5, n));
        const input = checkInput(rng);
        const strict = rng.chance(0.3);
        const draft = rng.chance(0.2);
        const dec = decoderOptions(rng);
        const format = rng.chance(0.5) ? undefined : input.format;
        const options: ReaderOptions = {
          format,
          ...(draft ? { protocol: "draft" as const } : {}),
          ...(strict ? { schema: agUiSchema } : {}),
          ...(dec.maxBufferSize === undefined ? {} : { maxBufferSize: dec.maxBufferSize }),
        };
        const chunks = F.chunking(rng, input.bytes);
        const where = `case ${n}: ${clip(input.label)} in ${chunks.label} with ${JSON.stringify(options)}`;
        unhandled.current = where;
        const reads: { report: LintReport; array: boolean }[] = [];
        // As chunked, and whole: the report must not depend on where the chunks break.
        for (const pieces of [chunks.value, [input.bytes]]) {
          const reader = new InputReader(options);
          try {
            for (const chunk of pieces) reader.push(chunk);
            reads.push(reader.finish());
          } catch (error) {
            findings.add(`InputReader threw ${kindOf(error)}`, `${where}: ${show(error)}`);
          }
        }
        if (reads.length < 2) continue;
        const [a, b] = reads as [(typeof reads)[0], (typeof reads)[0]];
        // One exception: lines the parser ignored in a message that turns out too long. Where
        // the decoder notices the length depends on the chunks (§12 makes the verdict, not
        // the point, independent of them), and lines of that message read before it count.
        const comparable = (r: { report: LintReport; array: boolean }) =>
          r.report.findings.some((f) => f.code === "SSE_BUFFER_OVERFLOW")
            ? {
                ...r,
                report: {
                  ...r.report,
                  warnings: 0,
                  findings: r.report.findings.filter((f) => f.code !== "SSE_LINE_IGNORED"),
                },
              }
            : r;
        if (JSON.stringify(comparable(a)) !== JSON.stringify(comparable(b))) {
          const brief = (r: LintReport) =>
            JSON.stringify(r.findings.map((f) => [f.code, f.index, f.line, f.offset, f.count]));
          findings.add(
            "InputReader gives another report for other chunks",
            `${where}: ${clip(brief(a.report))} vs ${clip(brief(b.report))}`,
          );
        }
        const { report } = a;
        const error = report.findings.find((f) => f.severity === "error");
        const got: Verdict =
          error === undefined
            ? ACCEPTED
            : { kind: "rejected", code: error.code, index: error.index, error };
        if (report.valid !== (error === undefined) || report.valid !== (report.errors === 0))
          findings.add("InputReader's valid disagrees with its findings", where);
        if (error?.message.includes("could not be read"))
          findings.add(
            "InputReader blames parsed JSON for its own error",
            `${where}: ${error.message}`,
          );
        if (report.input?.bytes !== input.bytes.length)
          findings.add(
            "InputReader counts another number of bytes",
            `${where}: ${report.input?.bytes} of ${input.bytes.length}`,
          );
        for (const f of report.findings) {
          if (f.line === undefined) continue;
          const { line, offset = -1 } = f;
          if (line < 1 || offset < 0 || offset > input.bytes.length)
            findings.add(
              "InputReader places a finding outside the input",
              `${where}: ${f.code} at line ${line}, offset ${offset} in ${input.bytes.length} bytes`,
            );
        }
        // The same bytes through verifiedEvents, or the same values through verifyAll.
        const schema = strict ? { schema: agUiSchema } : {};
        const verifier: VerifierOptions = {
          ...(draft ? { protocol: "draft" as const } : {}),
          ...schema,
        };
        const read = report.input?.format;
        let expected: Verdict | undefined;
        if (a.array) {
          expected = runVerifyAll(JSON.parse(new TextDecoder().decode(input.bytes)), verifier);
        } else if (read === "sse") {
          try {
            const drained = await drain(
              verifiedEvents(F.bodyOf([input.bytes]), withDecoder(verifier, dec)),
              where,
            );
            expected = streamVerdict(drained, []);
          } catch (error) {
            findings.add(
              `verifiedEvents (as the reader's reference) threw ${kindOf(error)}`,
              `${where}: ${show(error)}`,
            );
          }
        } else if (
          input.values !== undefined &&
          input.format === "jsonl" &&
          dec.maxBufferSize === undefined
        ) {
          expected = runVerifyAll(input.values, verifier);
        }
        const kind = a.array ? "array" : read;
        if (expected !== undefined && expected.kind !== "escaped")
          findings.cover(`compared, ${kind}`);
        if (expected !== undefined && expected.kind !== "escaped" && !sameVerdict(got, expected))
          findings.add(
            `InputReader (${kind}) and ${read === "sse" ? "verifiedEvents" : "verifyAll"} disagree`,
            `${where}: InputReader ${showVerdict(got)}, expected ${showVerdict(expected)}`,
          );
      }
      findings.expectCoverage({ "compared, sse": 400, "compared, jsonl": 200 });
      await collectUnhandled(findings);
      expect(findings.report(), `seed ${SEED_TEXT}`).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    `the other stages: SseDecoderStream, VerifyingTransformStream, SseEncoderStream, ChunkExpanderStream, validateRunOutcome, runAgent (seed ${SEED_TEXT}, test 6)`,
    async () => {
      const findings = new Findings();
      // SseDecoderStream into VerifyingTransformStream: what verifiedEvents does in one stage.
      for (let n = 0; n < COUNTS.pipeline; n++) {
        if (findings.stuck) {
          findings.add("the fuzzer stopped early", `after two hangs, at input ${n}`);
          break;
        }
        const rng = new F.Rng(caseSeed(6, n));
        const input = sseInput(rng);
        const options = verifierOptions(rng);
        const dec = decoderOptions(rng);
        const chunks = F.chunking(rng, input.bytes);
        const where = `pipeline case ${n}: ${clip(input.label)} in ${chunks.label} with ${options.label} ${dec.label}`;
        // A macrotask first: a rejection the last case left unhandled is reported with it.
        await macrotask();
        unhandled.current = where;
        const all = withDecoder(options.value, dec);
        try {
          const piped = await drain(
            F.bodyOf(chunks.value)
              .pipeThrough(new SseDecoderStream(all))
              .pipeThrough(new VerifyingTransformStream(all)),
            where,
          );
          const one = await drain(verifiedEvents(F.bodyOf([input.bytes]), all), where);
          const problems: string[] = [];
          const got = streamVerdict(piped, problems);
          const expected = streamVerdict(one, []);
          for (const p of problems)
            findings.add(
              `SseDecoderStream+VerifyingTransformStream: ${p.replace(/\d+/g, "N")}`,
              `${where}: ${p}`,
            );
          if (got.kind === "escaped" && !allowed(got.error, options))
            findings.add(
              `SseDecoderStream+VerifyingTransformStream let ${kindOf(got.error)} escape`,
              `${where}: ${show(got.error)}`,
            );
          else if (!sameVerdict(got, expected))
            findings.add(
              "SseDecoderStream+VerifyingTransformStream and verifiedEvents disagree",
              `${where}: ${showVerdict(got)} vs ${showVerdict(expected)}`,
            );
        } catch (error) {
          findings.add(
            error instanceof Hang
              ? "the decoder pipeline hangs"
              : `the decoder pipeline threw ${kindOf(error)}`,
            `${where}: ${show(error)}`,
          );
        }
      }
      // VerifyingTransformStream on hostile values: verifyAll's verdict, as a stream.
      for (let n = 0; n < COUNTS.pipeline; n++) {
        if (findings.stuck) {
          findings.add("the fuzzer stopped early", `after two hangs, at input ${n}`);
          break;
        }
        const make = () => {
          const rng = new F.Rng(caseSeed(7, n));
          return valuesInput(rng, true);
        };
        const input = make();
        const options = verifierOptions(new F.Rng(caseSeed(7, n) ^ 0x5a5a));
        const where = `VerifyingTransformStream case ${n}: ${clip(input.label)} with ${options.label}`;
        unhandled.current = where;
        try {
          const drained = await drain(
            streamOf(input.values).pipeThrough(new VerifyingTransformStream(options.value)),
            where,
          );
          const problems: string[] = [];
          const got = streamVerdict(drained, problems);
          for (const p of problems)
            findings.add(`VerifyingTransformStream: ${p.replace(/\d+/g, "N")}`, `${where}: ${p}`);
          if (got.kind === "escaped" && !allowed(got.error, options))
            findings.add(
              `VerifyingTransformStream let ${kindOf(got.error)} escape`,
              `${where}: ${show(got.error)}`,
            );
          const expected = runVerifyAll(make().values, options.value);
          if (got.kind !== "escaped" && expected.kind !== "escaped" && !sameVerdict(got, expected))
            findings.add(
              "VerifyingTransformStream and verifyAll disagree",
              `${where}: ${showVerdict(got)} vs ${showVerdict(expected)}`,
            );
        } catch (error) {
          findings.add(
            error instanceof Hang
              ? "VerifyingTransformStream hangs"
              : `VerifyingTransformStream threw ${kindOf(error)}`,
            `${where}: ${show(error)}`,
          );
        }
      }
      // SseEncoderStream: bytes that decode back to the values, or its documented TypeError.
      for (let n = 0; n < COUNTS.encoder; n++) {
        if (findings.stuck) {
          findings.add("the fuzzer stopped early", `after two hangs, at input ${n}`);
          break;
        }
        const rng = new F.Rng(caseSeed(8, n));
        const values: unknown[] = [];
        const labels: string[] = [];
        for (let k = rng.range(1, 6); k > 0; k--) {
          const v = F.encoderValue(rng);
          values.push(v.value);
          labels.push(v.label);
        }
        const input = { values, label: labels.join(", ") };
        const where = `SseEncoderStream case ${n}: ${clip(input.label)}`;
        unhandled.current = where;
        try {
          const drained = await drain(
            streamOf(input.values).pipeThrough(new SseEncoderStream()),
            where,
          );
          if (drained.errored && !(drained.error instanceof TypeError))
            findings.add(
              `SseEncoderStream let ${kindOf(drained.error)} escape`,
              `${where}: ${show(drained.error)}`,
            );
          const jsons = jsonTexts(input.values);
          if (!drained.errored && jsons !== undefined) {
            const count = decodedCount(F.concat(drained.values));
            if (count !== jsons.length)
              findings.add(
                "SseEncoderStream: its output decodes to another number of values",
                `${where}: ${count} for ${jsons.length}`,
              );
          }
        } catch (error) {
          findings.add(
            error instanceof Hang
              ? "SseEncoderStream hangs"
              : `SseEncoderStream threw ${kindOf(error)}`,
            `${where}: ${show(error)}`,
          );
        }
      }
      // ChunkExpanderStream on JSON events (it does not verify): events, or its documented Error.
      for (let n = 0; n < COUNTS.expander; n++) {
        if (findings.stuck) {
          findings.add("the fuzzer stopped early", `after two hangs, at input ${n}`);
          break;
        }
        const rng = new F.Rng(caseSeed(9, n));
        const input = valuesInput(rng, false);
        const events = input.values.filter(
          (v) => typeof (v as { type?: unknown })?.type === "string",
        );
        const where = `ChunkExpanderStream case ${n}: ${clip(input.label)}`;
        unhandled.current = where;
        try {
          const drained = await drain(
            streamOf(events).pipeThrough(new ChunkExpanderStream()),
            where,
          );
          const e = drained.error;
          if (
            drained.errored &&
            !(e instanceof Error && Object.getPrototypeOf(e) === Error.prototype)
          )
            findings.add(`ChunkExpanderStream let ${kindOf(e)} escape`, `${where}: ${show(e)}`);
        } catch (error) {
          findings.add(
            error instanceof Hang
              ? "ChunkExpanderStream hangs"
              : `ChunkExpanderStream threw ${kindOf(error)}`,
            `${where}: ${show(error)}`,
          );
        }
      }
      // validateRunOutcome: returns, or a VerifyError.
      for (let n = 0; n < COUNTS.outcome; n++) {
        if (findings.stuck) {
          findings.add("the fuzzer stopped early", `after two hangs, at input ${n}`);
          break;
        }
        const rng = new F.Rng(caseSeed(10, n));
        const r = rng.int(3);
        const h =
          r === 0
            ? F.hostileValue(rng)
            : {
                value: F.jsonEvent(rng, "RUN_FINISHED").outcome ?? F.jsonValue(rng, 3),
                label: "JSON",
              };
        const value = r === 2 ? { type: "interrupt", interrupts: [h.value] } : h.value;
        try {
          validateRunOutcome(value);
        } catch (error) {
          if (!isVerifyError(error))
            findings.add(
              `validateRunOutcome let ${kindOf(error)} escape`,
              `case ${n}: ${h.label}${r === 2 ? " in interrupts" : ""}: ${show(error)}`,
            );
        }
      }
      // runAgent over a fetch that answers with the fuzzed bytes.
      for (let n = 0; n < COUNTS.runAgent; n++) {
        if (findings.stuck) {
          findings.add("the fuzzer stopped early", `after two hangs, at input ${n}`);
          break;
        }
        const rng = new F.Rng(caseSeed(11, n));
        const input = sseInput(rng);
        const options = verifierOptions(rng);
        const expandChunks = rng.chance(0.3);
        const chunks = F.chunking(rng, input.bytes);
        const where = `runAgent case ${n}: ${clip(input.label)} in ${chunks.label} with ${options.label}${expandChunks ? " expandChunks" : ""}`;
        unhandled.current = where;
        const fetch = async () =>
          new Response(F.bodyOf(chunks.value), {
            headers: { "content-type": "text/event-stream" },
          });
        try {
          const stream = await bounded(
            runAgent("https://agent.invalid/run", RUN_INPUT, {
              ...options.value,
              expandChunks,
              fetch,
            }),
            where,
          );
          const drained = await drain(stream, where);
          const e = drained.error;
          const documented =
            isVerifyError(e) ||
            allowed(e, options) ||
            (expandChunks && e instanceof Error && Object.getPrototypeOf(e) === Error.prototype);
          if (drained.errored && !documented)
            findings.add(`runAgent let ${kindOf(e)} escape`, `${where}: ${show(e)}`);
          if (!expandChunks && (!drained.errored || isVerifyError(e))) {
            const expected = streamVerdict(
              await drain(verifiedEvents(F.bodyOf([input.bytes]), options.value), where),
              [],
            );
            const got = streamVerdict(drained, []);
            if (!sameVerdict(got, expected))
              findings.add(
                "runAgent and verifiedEvents disagree",
                `${where}: ${showVerdict(got)} vs ${showVerdict(expected)}`,
              );
          }
        } catch (error) {
          if (!(isVerifyError(error) || isHttpError(error) || allowed(error, options)))
            findings.add(
              error instanceof Hang ? "runAgent hangs" : `runAgent threw ${kindOf(error)}`,
              `${where}: ${show(error)}`,
            );
        }
      }
      await collectUnhandled(findings);
      expect(findings.report(), `seed ${SEED_TEXT}`).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
