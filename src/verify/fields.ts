/**
 * Rule 0 (SPEC §4, §17.1): the shape checks every value gets first, the readers that check
 * each field a rule reads, in the order of SPEC §3.2, and the limit on the ids a run holds.
 * @module
 */

import { WIRE_FAILURE, type WireFailureInfo } from "../_util/transport.ts";
import { SseDecodeFailure } from "../errors.ts";
import { isArray, isRecord, type Owner, PARENT, type Rec, type Run } from "./state.ts";
import { jsonType, q, Violation } from "./violations.ts";

// ---------------------------------------------------------------------------------------
// Rule 0 — malformed input (SPEC §4)
//
// The shape checks run first for every value (SPEC §6 step 2). The field checks are the
// readers below: each type's function in RULES reads its fields with them, in the order
// of SPEC §3.2, before any other check.

export function notObject(value: unknown): Violation {
  return new Violation("EVENT_NOT_OBJECT", `the value is ${jsonType(value)}; expected an object.`);
}

export function typeInvalid(type: unknown): Violation {
  return new Violation("EVENT_TYPE_INVALID", `type is ${jsonType(type)}; expected a string.`);
}

/**
 * The violation a decoder's failure value stands for: an {@link SseDecodeFailure}, or a
 * failure of another wire (protobuf) that carries its own under `WIRE_FAILURE`; undefined
 * for any other value.
 */
export function decodeFailure(value: object): Violation | undefined {
  if (value instanceof SseDecodeFailure) {
    const text =
      value.code === "INVALID_JSON"
        ? `data ${q(value.data ?? "")} is not JSON; expected JSON.`
        : "it exceeds maxBufferSize; expected a shorter message.";
    return new Violation(value.code, text, undefined, value.cause);
  }
  const wire = (value as { [WIRE_FAILURE]?: WireFailureInfo })[WIRE_FAILURE];
  return wire === undefined
    ? undefined
    : new Violation(wire.code, wire.text, undefined, wire.cause);
}

// The rules read top-level fields with plain property accesses, each at its own site, so
// every read stays monomorphic; these helpers only check the value read.

export function reqStr(v: unknown, path: string): string {
  if (typeof v === "string") return v;
  throw badField(path, v, "a string");
}

export function optStr(v: unknown, path: string): string | undefined {
  if (v === undefined || typeof v === "string") return v;
  throw badField(path, v, "a string");
}

/**
 * A field problem: null, of the wrong JSON type or, unless it is an array element (where
 * `undefined` is not absence), missing.
 */
export function badField(
  path: string,
  value: unknown,
  expected: string,
  element = false,
): Violation {
  const code =
    value === null
      ? "FIELD_NULL"
      : value === undefined && !element
        ? "FIELD_MISSING"
        : "FIELD_WRONG_TYPE";
  const found = code === "FIELD_MISSING" ? "missing" : jsonType(value);
  return new Violation(code, `${path} is ${found}; expected ${expected}.`, path);
}

/**
 * Reads an array whose elements must be objects (messages, tool calls, interrupts), each
 * element in full before the next one, as SPEC §4.1 orders the checks.
 */
export function mapObjects<T>(
  value: unknown,
  path: string,
  read: (item: Rec, at: string) => T,
): T[] {
  if (!isArray(value)) throw badField(path, value, "an array");
  const out: T[] = [];
  for (let i = 0; i < value.length; i++) {
    const at = `${path}[${i}]`;
    const item = value[i];
    if (!isRecord(item)) throw badField(at, item, "an object", true);
    out.push(read(item, at));
  }
  return out;
}

/** A message of MESSAGES_SNAPSHOT or of the RUN_STARTED input echo, as the seeding reads it. */
export interface SeedMessage {
  readonly id: string;
  readonly role: string;
  readonly owner: Owner;
  readonly toolCallIds: readonly string[] | undefined;
}

/** The messages of MESSAGES_SNAPSHOT or of the input echo, in the order of SPEC §3.3. */
export function readMessages(value: unknown, path: string): SeedMessage[] {
  return mapObjects(value, path, (m, at) => {
    const id = reqStr(m.id, `${at}.id`);
    const role = reqStr(m.role, `${at}.role`);
    const owner = optStr(m.subagentRunId, `${at}.subagentRunId`) ?? PARENT;
    const calls = role === "assistant" ? m.toolCalls : undefined;
    const toolCallIds =
      calls === undefined
        ? undefined
        : mapObjects(calls, `${at}.toolCalls`, (c, cAt) => reqStr(c.id, `${cAt}.id`));
    return { id, role, owner, toolCallIds };
  });
}

/**
 * Reads a RUN_FINISHED outcome (SPEC §3.4) and tells whether it is an interrupt outcome
 * without interrupts, which rule 8 rejects.
 */
export function outcomeLacksInterrupts(outcome: unknown): boolean {
  if (!isRecord(outcome)) throw badField("outcome", outcome, "an object");
  const type = outcome.type;
  if (typeof type !== "string") throw badField("outcome.type", type, "a string");
  if (type !== "interrupt") return false;
  const interrupts = outcome.interrupts;
  return (
    interrupts === undefined || mapObjects(interrupts, "outcome.interrupts", () => 0).length === 0
  );
}

// ---------------------------------------------------------------------------------------
// Rule 0 — the ids a run holds (SPEC §17.1)
//
// Every site that records a new id calls `reserve` after the event's last check and before
// its first effect, so an event over the limit changes nothing.

/**
 * What an id weighs against `maxIds` (SPEC §17.1): one for up to 64 UTF-16 code units, else
 * one per 64 begun, so that the bound holds memory however long the ids are.
 */
export function weight(id: string): number {
  const length = id.length;
  return length <= ID_UNIT ? 1 : Math.ceil(length / ID_UNIT);
}

const ID_UNIT = 64;

/** Counts `count` new ids' weight against `maxIds`; throws ID_LIMIT_EXCEEDED when they do not fit. */
export function reserve(run: Run, count: number): void {
  if (run.held + count > run.maxIds) throw idLimit(run.maxIds);
  run.held += count;
}

/**
 * Weighs `count` (the ids an event records) and returns the run's own copy of `owner`, a
 * subagent id weighed too the first time the run holds it (SPEC §17.1: a subagent id is kept
 * for the rest of the run). Every registry stores that one copy, so a tag repeated on a
 * million events is held once, and tags nobody announced are bounded like any other id.
 */
export function hold(run: Run, owner: Owner, count: number): Owner {
  reserve(run, owner === PARENT || run.tags.has(owner) ? count : count + weight(owner));
  return keep(run, owner);
}

/** The run's copy of `owner`, kept from now on (`hold` without the weighing). */
export function keep(run: Run, owner: Owner): Owner {
  if (owner === PARENT) return owner;
  const kept = run.tags.get(owner);
  if (kept !== undefined) return kept;
  run.tags.set(owner, owner);
  return owner;
}

function idLimit(max: number): Violation {
  return new Violation(
    "ID_LIMIT_EXCEEDED",
    `the run would hold more than ${max.toLocaleString("en-US")} ids (an id longer than 64 characters counts once per 64), the most maxIds allows; expected no new id (raise the maxIds option, or set it to Infinity, for runs this large).`,
  );
}
