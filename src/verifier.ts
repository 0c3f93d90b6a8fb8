/**
 * The ordering state machine of SPEC §5–§9: a pure checker with no streams and no I/O.
 *
 * In this file: the public API ({@link Verifier}, {@link verifyAll},
 * {@link validateRunOutcome}); then the rules, each under a `// Rule N —` heading, and the
 * table that applies them per event type; then the machinery (run state, open sets,
 * violations and their messages).
 * @module
 */

import { ruleOf, SseDecodeFailure, VerifyError, type VerifyErrorCode } from "./errors.ts";
import type { AgUiEvent } from "./events.ts";
import { fieldThatThrows } from "./field-finder.ts";
import type { StandardSchemaV1 } from "./schema/standard-schema.ts";
import { issuePath, schemaIssues, standardProps } from "./schema-check.ts";

/** Options of a {@link Verifier}. */
export interface VerifierOptions {
  /** Accept further runs after a run closes (SPEC §9.6). Only `true` enables it. Default false. */
  allowSequentialRuns?: boolean | undefined;
  /**
   * A Standard Schema (v1) that every event must also satisfy (SPEC §14): `agUiSchema` from
   * `ag-ui-verify/schema`, or a zod, valibot or arktype schema. It runs after the phase
   * checks of rules 1 and 2 and rule 0's field checks, before the type's other rules; a
   * rejection is a rule 0 `SCHEMA_MISMATCH`, and leaves no trace in the verifier's state. It
   * must validate synchronously. Events pass on unchanged: its output value only types
   * them (see {@link EventOf}). Default: none.
   */
  schema?: StandardSchemaV1 | undefined;
}

/**
 * The type of the events that come out of a verified stream made with options of type
 * `O`: the schema's output type when `O` has a `schema`, else {@link AgUiEvent}.
 *
 * @example
 * ```ts
 * import type { EventOf } from "ag-ui-verify";
 * import type { KnownAgUiEvent, StandardSchemaV1 } from "ag-ui-verify/schema";
 * type Typed = EventOf<{ schema: StandardSchemaV1<unknown, KnownAgUiEvent> }>; // KnownAgUiEvent
 * type Plain = EventOf<{ allowSequentialRuns: true }>; // AgUiEvent
 * ```
 */
export type EventOf<O> = O extends { readonly schema: infer S extends StandardSchemaV1 }
  ? StandardSchemaV1.InferOutput<S>
  : AgUiEvent;

/**
 * An ordering state machine for one stream of AG-UI events (SPEC §5–§10). Feed it each
 * event with {@link Verifier.verify}, then call {@link Verifier.end} when the input ends. The
 * first violation throws a {@link VerifyError}; from then on the verifier is poisoned and
 * every call throws that same error.
 *
 * It never mutates, copies or keeps the events it checks. Its memory grows with the number
 * of distinct ids in a run (owners outlive their entities), never with the number of events.
 * The type parameter records the options, so stream stages built on it can type what they
 * pass on ({@link EventOf}).
 *
 * @example
 * ```ts
 * import { isVerifyError, Verifier } from "ag-ui-verify";
 * const v = new Verifier();
 * v.verify({ type: "RUN_STARTED", threadId: "t1", runId: "r1" });
 * try {
 *   v.verify({ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "hi" });
 * } catch (e) {
 *   if (isVerifyError(e)) console.log(e.code); // "TEXT_MESSAGE_NOT_OPEN"
 * }
 * ```
 */
export class Verifier<O extends VerifierOptions = VerifierOptions> {
  readonly #sequential: boolean;
  readonly #schema: StandardSchemaV1.Props | undefined;
  #run: Run = newRun();
  #phase: Phase = BEFORE_RUN;
  #index = 0;
  #error: VerifyError | undefined = undefined;
  #ended = false;
  #lastType = "";
  #lastRule: Rule | undefined = undefined;

  /** Throws a `TypeError` when `options.schema` is not a Standard Schema. */
  constructor(options?: O) {
    this.#sequential = options?.allowSequentialRuns === true;
    const schema = options?.schema;
    this.#schema = schema === undefined ? undefined : standardProps(schema);
  }

  /** The error that poisoned this verifier, if any. */
  get error(): VerifyError | undefined {
    return this.#error;
  }

  /**
   * Checks one event and records its effects. Throws a {@link VerifyError} at the first
   * violation, and a plain `Error` when called after a successful {@link Verifier.end}.
   * With a schema, what the schema throws passes through, and a schema that validates
   * asynchronously is a `TypeError`; neither changes any state.
   */
  verify(event: unknown): void {
    if (this.#error !== undefined) throw this.#error;
    if (this.#ended)
      throw new Error("Verifier.verify() was called after end() succeeded; the stream is over.");
    let type: string | undefined;
    let rule: Rule | undefined;
    try {
      // SPEC §6 step 2: rule 0's shape checks.
      if (!isRecord(event)) throw notObject(event);
      const t = event.type;
      if (typeof t !== "string") {
        // A decode failure has no `type`, so its check costs nothing on the hot path.
        if (event instanceof SseDecodeFailure) throw decodeFailure(event);
        throw typeInvalid(t);
      }
      type = t;
      // Step 3: the phase checks of rules 1 and 2.
      const phase = this.#phase;
      if (phase !== RUNNING) checkOutsideRun(phase, t, this.#sequential);
      else if (t === "RUN_STARTED") throw runAlreadyStarted();
      // Events of one type tend to come in runs (a message streams token by token), so a
      // one-entry cache in front of the table saves hashing the type string each time.
      if (t === this.#lastType) rule = this.#lastRule;
      else {
        rule = RULES.get(t);
        this.#lastType = t;
        this.#lastRule = rule;
      }
      // Step 4b, the schema, before anything changes; when it does not accept the event,
      // it runs step 4 (rule 0's field checks) first itself.
      if (this.#schema !== undefined) checkSchema(this.#schema, event, t, rule);
      // Steps 4 to 6 in one pass: the type's field checks, rule checks and effects. A run
      // that starts after a closed one starts from nothing (SPEC §9.6).
      if (phase === CLOSED && t === "RUN_STARTED") this.#run = newRun();
      if (rule !== undefined) {
        const next = rule(this.#run, event);
        if (next !== undefined) this.#phase = next;
      }
    } catch (x) {
      throw this.#fail(x, event, type, rule);
    }
    this.#index++;
  }

  /** What `verify` throws for what a check threw; a VerifyError poisons the verifier. */
  #fail(
    thrown: unknown,
    event: unknown,
    type: string | undefined,
    rule: Rule | undefined,
  ): unknown {
    if (thrown instanceof PassThrough) return thrown.error;
    const violation =
      thrown instanceof Violation ? thrown : unreadableField(event, type, rule, thrown);
    const error = toVerifyError(violation, this.#index, event, type);
    this.#error = error;
    return error;
  }

  /**
   * The end-of-input check (SPEC §9.7): the run must have started and closed. Throws a
   * {@link VerifyError} otherwise; succeeds again if called again after success.
   */
  end(): void {
    if (this.#error !== undefined) throw this.#error;
    if (this.#phase === CLOSED) {
      this.#ended = true;
      return;
    }
    const v =
      this.#phase === BEFORE_RUN ? streamEndedBeforeRunStarted() : streamEndedInRun(this.#run);
    const error = toVerifyError(v, this.#index, undefined, undefined);
    this.#error = error;
    throw error;
  }
}

/**
 * Verifies a whole stream in one call: a new {@link Verifier}, `verify` on each value in
 * order, then `end`. Throws the first {@link VerifyError}.
 *
 * @example
 * ```ts
 * import { verifyAll } from "ag-ui-verify";
 * verifyAll([
 *   { type: "RUN_STARTED", threadId: "t1", runId: "r1" },
 *   { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" },
 *   { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Hello" },
 *   { type: "TEXT_MESSAGE_END", messageId: "m1" },
 *   { type: "RUN_FINISHED", threadId: "t1", runId: "r1" },
 * ]);
 * ```
 */
export function verifyAll(events: Iterable<unknown>, options?: VerifierOptions): void {
  const verifier = new Verifier(options);
  for (const event of events) verifier.verify(event);
  verifier.end();
}

/**
 * Rule 8 on its own (the seed's `RunOutcome::validate`): checks a `RUN_FINISHED.outcome`
 * value as the verifier would, and throws a {@link VerifyError} with code
 * `INTERRUPT_OUTCOME_EMPTY`, or a rule 0 `FIELD_*` code for a malformed outcome. The error
 * reads as if the outcome belonged to a `RUN_FINISHED` at index 0; its `event` is the
 * outcome. `undefined` (no outcome) is a success.
 *
 * @example
 * ```ts
 * import { isVerifyError, validateRunOutcome } from "ag-ui-verify";
 * validateRunOutcome({ type: "interrupt", interrupts: [{ id: "i1", reason: "confirm" }] }); // ok
 * try {
 *   validateRunOutcome({ type: "interrupt", interrupts: [] });
 * } catch (e) {
 *   if (isVerifyError(e)) console.log(e.code); // "INTERRUPT_OUTCOME_EMPTY"
 * }
 * ```
 */
export function validateRunOutcome(outcome: unknown): void {
  if (outcome === undefined) return;
  let problem: Violation | undefined;
  try {
    rule8InterruptsPresent(outcomeLacksInterrupts(outcome));
  } catch (x) {
    problem = x instanceof Violation ? x : unreadable("outcome", x);
  }
  if (problem !== undefined) throw toVerifyError(problem, 0, outcome, "RUN_FINISHED");
}

/**
 * `verifier.verify(event)` as a type guard, for the stream stages: it returns true or
 * throws, so what it lets through has the type the verifier's options promise.
 * @internal
 */
export function passes<O extends VerifierOptions>(
  verifier: Verifier<O>,
  event: unknown,
): event is EventOf<O> {
  verifier.verify(event);
  return true;
}

/**
 * Rule 0's shape checks alone (SPEC §6 step 2), for values read without verification:
 * the error a decode failure or a value that is no event object would raise at `index`.
 * @internal
 */
export function shapeError(value: unknown, index: number): VerifyError | undefined {
  const violation = !isRecord(value)
    ? notObject(value)
    : value instanceof SseDecodeFailure
      ? decodeFailure(value)
      : typeof value.type !== "string"
        ? typeInvalid(value.type)
        : undefined;
  return violation && toVerifyError(violation, index, value, undefined);
}

// =======================================================================================
// The rules (SPEC §7). Each rule's checks sit under a `// Rule N —` heading; RULES, at the
// end of this part, applies them per event type in the order of the SPEC §6 table.

// ---------------------------------------------------------------------------------------
// Rule 0 — malformed input (SPEC §4)
//
// The shape checks run first for every value (SPEC §6 step 2). The field checks are the
// readers below: each type's function in RULES reads its fields with them, in the order
// of SPEC §3.2, before any other check.

function notObject(value: unknown): Violation {
  return new Violation("EVENT_NOT_OBJECT", `the value is ${jsonType(value)}; expected an object.`);
}

function typeInvalid(type: unknown): Violation {
  return new Violation("EVENT_TYPE_INVALID", `type is ${jsonType(type)}; expected a string.`);
}

function decodeFailure(failure: SseDecodeFailure): Violation {
  const text =
    failure.code === "INVALID_JSON"
      ? `data ${q(failure.data ?? "")} is not JSON; expected JSON.`
      : "it exceeds maxBufferSize; expected a shorter message.";
  return new Violation(failure.code, text, undefined, failure.cause);
}

// The rules read top-level fields with plain property accesses, each at its own site, so
// every read stays monomorphic; these helpers only check the value read.

function reqStr(v: unknown, path: string): string {
  if (typeof v === "string") return v;
  throw badField(path, v, "a string");
}

function optStr(v: unknown, path: string): string | undefined {
  if (v === undefined || typeof v === "string") return v;
  throw badField(path, v, "a string");
}

/**
 * A field problem: null, of the wrong JSON type or, unless it is an array element (where
 * `undefined` is not absence), missing.
 */
function badField(path: string, value: unknown, expected: string, element = false): Violation {
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
function mapObjects<T>(value: unknown, path: string, read: (item: Rec, at: string) => T): T[] {
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
interface SeedMessage {
  readonly id: string;
  readonly role: string;
  readonly owner: Owner;
  readonly toolCallIds: readonly string[] | undefined;
}

/** The messages of MESSAGES_SNAPSHOT or of the input echo, in the order of SPEC §3.3. */
function readMessages(value: unknown, path: string): SeedMessage[] {
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
function outcomeLacksInterrupts(outcome: unknown): boolean {
  if (!isRecord(outcome)) throw badField("outcome", outcome, "an object");
  const type = outcome.type;
  if (typeof type !== "string") throw badField("outcome.type", type, "a string");
  if (type !== "interrupt") return false;
  const interrupts = outcome.interrupts;
  return (
    interrupts === undefined || mapObjects(interrupts, "outcome.interrupts", () => 0).length === 0
  );
}

/**
 * The schema step (SPEC §6 step 4b, §14). It changes no state. Rule 0's field checks come
 * first, so when the schema does not accept the event, they decide whether the error is
 * theirs.
 */
function checkSchema(
  schema: StandardSchemaV1.Props,
  event: Rec,
  type: string,
  rule: Rule | undefined,
): void {
  let issues: readonly StandardSchemaV1.Issue[] | undefined;
  try {
    issues = schemaIssues(schema, event);
  } catch (thrown) {
    throw fieldViolation(event, type, rule) ?? new PassThrough(thrown);
  }
  if (issues !== undefined) throw fieldViolation(event, type, rule) ?? schemaMismatch(issues);
}

/**
 * Rule 0's field checks alone: the type's function on a scratch run, keeping only a rule 0
 * violation. It reads every field before any other check (see RULES), so a violation of
 * another rule means the fields are fine.
 */
function fieldViolation(event: Rec, type: string, rule: Rule | undefined): Violation | undefined {
  if (rule === undefined) return undefined;
  try {
    rule(newRun(), event);
  } catch (x) {
    const v = x instanceof Violation ? x : unreadableField(event, type, rule, x);
    return ruleOf(v.code) === 0 ? v : undefined;
  }
  return undefined;
}

function schemaMismatch(issues: readonly StandardSchemaV1.Issue[]): Violation {
  const issue = issues[0];
  if (issue === undefined) {
    return new Violation(
      "SCHEMA_MISMATCH",
      "the schema rejected the event without naming an issue; expected an event it accepts.",
    );
  }
  const field = issuePath(issue);
  return new Violation(
    "SCHEMA_MISMATCH",
    `${field ?? "the event"} does not match the schema (${describe(issue.message)}); expected ${field === undefined ? "an event" : "a value"} it accepts.`,
    field,
  );
}

// ---------------------------------------------------------------------------------------
// Rule 1 — RUN_STARTED opens the stream, exactly once; only RAW and CUSTOM may precede it
// Rule 2 — RUN_FINISHED and RUN_ERROR close the run; nothing may follow
//
// Both check the phase, before the type's own checks (SPEC §6 step 3); RUN_FINISHED and
// RUN_ERROR return the new phase from RULES.

/** Rules 1 and 2 outside a run: what may come before the first run and after a close. */
function checkOutsideRun(phase: Phase, type: string, sequential: boolean): void {
  const opensOrUnordered = type === "RUN_STARTED" || type === "RAW" || type === "CUSTOM";
  if (phase === BEFORE_RUN) {
    if (!opensOrUnordered) throw isNotOpen("EVENT_BEFORE_RUN_STARTED", "the run");
  } else if (!sequential || !opensOrUnordered) {
    throw new Violation(
      "EVENT_AFTER_RUN_CLOSED",
      `the run is closed; expected ${sequential ? "RAW, CUSTOM or RUN_STARTED" : "nothing more (see allowSequentialRuns)"}.`,
    );
  }
}

function runAlreadyStarted(): Violation {
  return isOpen("RUN_ALREADY_STARTED", "the run");
}

function streamEndedBeforeRunStarted(): Violation {
  return isNotOpen("STREAM_ENDED_BEFORE_RUN_STARTED", "the run");
}

function streamEndedInRun(run: Run): Violation {
  const open = [describeOpen(run), describeSubagents(run.activeSubagents)].filter((p) => p !== "");
  const summary = open.length === 0 ? "" : ` (open: ${open.join(", ")})`;
  return new Violation(
    "STREAM_ENDED_BEFORE_RUN_CLOSED",
    `the run is still open${summary}; expected RUN_FINISHED or RUN_ERROR.`,
  );
}

// ---------------------------------------------------------------------------------------
// Rule 3 — text messages open, continue and close by id
// Rule 4 — the same, for tool calls and for reasoning messages
//
// One family per open set; the start, continue and end checks below serve all three (and
// run rule 9 on the way, in the order of the SPEC §6 table).

/** An entity family that opens, continues and closes by id. */
interface Family {
  readonly noun: string;
  readonly alreadyOpen: VerifyErrorCode;
  readonly notOpen: VerifyErrorCode;
}
const TEXT: Family = {
  noun: "text message",
  alreadyOpen: "TEXT_MESSAGE_ALREADY_OPEN",
  notOpen: "TEXT_MESSAGE_NOT_OPEN",
};
const TOOL: Family = {
  noun: "tool call",
  alreadyOpen: "TOOL_CALL_ALREADY_OPEN",
  notOpen: "TOOL_CALL_NOT_OPEN",
};
const REASONING: Family = {
  noun: "reasoning message",
  alreadyOpen: "REASONING_MESSAGE_ALREADY_OPEN",
  notOpen: "REASONING_MESSAGE_NOT_OPEN",
};

function alreadyOpen(f: Family, id: string): Violation {
  return isOpen(f.alreadyOpen, `${f.noun} ${q(id)}`);
}

function notOpen(f: Family, id: string): Violation {
  return isNotOpen(f.notOpen, `${f.noun} ${q(id)}`);
}

/** START of a text or reasoning message: rule 3/4, rule 9, then open. */
function start(f: Family, lane: Lane, id: string, tag: string | undefined): void {
  if (lane.open.has(id)) throw alreadyOpen(f, id);
  recordOrCheckOwner(lane.owners, id, tag, f.noun);
  lane.open.add(id);
}

/** CONTENT / ARGS: rule 3/4, then rule 9. */
function proceed(f: Family, lane: Lane, id: string, tag: string | undefined): void {
  if (!lane.open.has(id)) throw notOpen(f, id);
  if (tag !== undefined) checkOwner(lane.owners, id, tag, f.noun);
}

/** END: rule 3/4, rule 9, then close. */
function close(f: Family, lane: Lane, id: string, tag: string | undefined): void {
  if (!lane.open.has(id)) throw notOpen(f, id);
  checkOwner(lane.owners, id, tag, f.noun);
  lane.open.delete(id);
}

// ---------------------------------------------------------------------------------------
// Rule 5 — TOOL_CALL_RESULT may not answer a call that has not ended

function rule5CallEnded(run: Run, callId: string): void {
  if (run.toolCalls.open.has(callId)) {
    throw isOpen("TOOL_CALL_RESULT_BEFORE_END", `tool call ${q(callId)}`);
  }
}

// ---------------------------------------------------------------------------------------
// Rule 6 — STEP_FINISHED needs a matching STEP_STARTED; a step does not nest with itself

function rule6StartStep(run: Run, name: string, owner: Owner): void {
  const owners = run.openSteps.get(name);
  if (owners === undefined) {
    run.openSteps.set(name, new Set([owner]));
  } else if (owners.has(owner)) {
    throw isOpen("STEP_ALREADY_ACTIVE", `step ${q(name)} of ${ownerName(owner)}`);
  } else {
    owners.add(owner);
  }
}

/** Closes a step; rule 11 decides when the name is open under other owners only. */
function rule6FinishStep(run: Run, name: string, owner: Owner): void {
  const owners = run.openSteps.get(name);
  if (owners === undefined) throw isNotOpen("STEP_NOT_STARTED", `step ${q(name)}`);
  rule11StepOwner(name, owners, owner);
  if (owners.size === 1) run.openSteps.delete(name);
  else owners.delete(owner);
}

// ---------------------------------------------------------------------------------------
// Rule 7 — everything open is closed before RUN_FINISHED

function rule7NothingOpen(run: Run): void {
  const open =
    run.messages.open.size + run.toolCalls.open.size + run.reasoning.open.size + run.openSteps.size;
  if (open > 0) {
    throw new Violation(
      "OPEN_AT_RUN_FINISHED",
      `${describeOpen(run)} still open; expected them closed first.`,
    );
  }
}

// ---------------------------------------------------------------------------------------
// Rule 8 — an interrupt outcome carries at least one interrupt
//
// The outcome is read (rule 0) by `outcomeLacksInterrupts`, before rule 7 runs.

const EMPTY_INTERRUPT = "the interrupt outcome has no interrupts; expected one or more.";

function rule8InterruptsPresent(lacksInterrupts: boolean): void {
  if (lacksInterrupts) throw new Violation("INTERRUPT_OUTCOME_EMPTY", EMPTY_INTERRUPT);
}

// ---------------------------------------------------------------------------------------
// Rule 9 — a continuation, terminator or re-open that names a subagent names the owner

function ownerMismatch(noun: string, id: string, owner: Owner, tag: string): Violation {
  return new Violation(
    "OWNER_MISMATCH",
    `${noun} ${q(id)} is owned by ${ownerName(owner)}, not subagent ${q(tag)}; expected its owner or no tag.`,
  );
}

/** A tag must agree with the owner recorded for the id, if there is one (SPEC §0). */
function checkAgrees(
  noun: string,
  id: string,
  owner: Owner | undefined,
  tag: string | undefined,
): void {
  if (tag !== undefined && owner !== undefined && owner !== tag) {
    throw ownerMismatch(noun, id, owner, tag);
  }
}

/** For continuations and terminators, which never record an owner (SPEC §8.2). */
function checkOwner(
  owners: Map<string, Owner>,
  id: string,
  tag: string | undefined,
  noun: string,
): void {
  if (tag !== undefined) checkAgrees(noun, id, owners.get(id), tag);
}

/** For openers: check the recorded owner, or record the opener's when there is none. */
function recordOrCheckOwner(
  owners: Map<string, Owner>,
  id: string,
  tag: string | undefined,
  noun: string,
): void {
  const owner = owners.get(id);
  if (owner === undefined) owners.set(id, tag === undefined ? PARENT : tag);
  else checkAgrees(noun, id, owner, tag);
}

/**
 * Records the owners a replayed history names (SPEC §8.5). An authoritative snapshot
 * overwrites; the input echo only fills ids that have no owner yet.
 */
function seed(run: Run, messages: readonly SeedMessage[], authoritative: boolean): void {
  for (const m of messages) {
    const registry =
      m.role === "reasoning"
        ? run.reasoning.owners
        : m.role === "activity"
          ? run.activityOwners
          : run.messages.owners;
    if (authoritative || !registry.has(m.id)) registry.set(m.id, m.owner);
    if (m.toolCallIds === undefined) continue;
    for (const id of m.toolCallIds) {
      if (authoritative || !run.toolCalls.owners.has(id)) run.toolCalls.owners.set(id, m.owner);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Rule 10 — a tool call belongs to the message its parentMessageId names

/**
 * `claimed` is the call's tag or, untagged, the owner already recorded for the call (it
 * inherits the parent message's owner, so that one must agree too).
 */
function rule10ParentOwner(
  id: string,
  parentId: string,
  parent: Owner,
  claimed: Owner | undefined,
): void {
  if (claimed !== undefined && claimed !== parent) {
    throw new Violation(
      "TOOL_CALL_PARENT_OWNER_MISMATCH",
      `tool call ${q(id)} is owned by ${ownerName(claimed)}, its parent message ${q(parentId)} by ${ownerName(parent)}; expected one owner.`,
    );
  }
}

// ---------------------------------------------------------------------------------------
// Rule 11 — steps are scoped to the agent that opened them

function rule11StepOwner(name: string, holders: ReadonlySet<Owner>, owner: Owner): void {
  if (!holders.has(owner)) {
    throw new Violation(
      "STEP_OWNER_MISMATCH",
      `step ${q(name)} is open under ${Array.from(holders, ownerName).join(", ")}, not ${ownerName(owner)}; expected its owner.`,
    );
  }
}

// ---------------------------------------------------------------------------------------
// Rule 12 — subagent lifecycle

function rule12StartSubagent(run: Run, id: string, parentId: string | undefined): void {
  if (run.activeSubagents.has(id)) {
    throw isOpen("SUBAGENT_ALREADY_ACTIVE", `subagent ${q(id)}`);
  }
  if (run.finishedSubagents.has(id)) {
    throw new Violation(
      "SUBAGENT_ALREADY_FINISHED",
      `subagent ${q(id)} already finished; expected a new id.`,
    );
  }
  if (
    parentId !== undefined &&
    !run.activeSubagents.has(parentId) &&
    !run.finishedSubagents.has(parentId)
  ) {
    throw isNotOpen("SUBAGENT_PARENT_NOT_STARTED", `parent subagent ${q(parentId)}`);
  }
  run.activeSubagents.add(id);
}

function rule12CloseSubagent(run: Run, id: string): void {
  if (!run.activeSubagents.delete(id)) {
    throw isNotOpen("SUBAGENT_NOT_ACTIVE", `subagent ${q(id)}`);
  }
  run.finishedSubagents.add(id);
}

// ---------------------------------------------------------------------------------------
// Rule 13 — every started subagent is closed before RUN_FINISHED, not before RUN_ERROR

function rule13NoActiveSubagents(run: Run): void {
  if (run.activeSubagents.size > 0) {
    throw new Violation(
      "SUBAGENT_OPEN_AT_RUN_FINISHED",
      `${describeSubagents(run.activeSubagents)} still open; expected them closed first.`,
    );
  }
}

// ---------------------------------------------------------------------------------------
// The rules by event type (SPEC §6 table).
//
// Invariant: each function reads and validates ALL the fields it reads (rule 0, in the
// order of SPEC §3.2) before any check or effect. So a field problem is reported before
// any rule, whatever the state, and the slow path can rerun a function on a scratch run
// to find the field whose getter threw.

/** A type's checks and effects; returns the new phase for the run-level events. */
type Rule = (run: Run, e: Rec) => Phase | undefined;

const RULES = new Map<string, Rule>([
  ["RUN_STARTED", runStarted],
  ["RUN_FINISHED", runFinished],
  ["RUN_ERROR", runError],
  ["STEP_STARTED", stepStarted],
  ["STEP_FINISHED", stepFinished],
  ["TEXT_MESSAGE_START", textMessageStart],
  ["TEXT_MESSAGE_CONTENT", textMessageContent],
  ["TEXT_MESSAGE_END", textMessageEnd],
  ["TEXT_MESSAGE_CHUNK", tagOnly],
  ["TOOL_CALL_START", toolCallStart],
  ["TOOL_CALL_ARGS", toolCallArgs],
  ["TOOL_CALL_END", toolCallEnd],
  ["TOOL_CALL_CHUNK", tagOnly],
  ["TOOL_CALL_RESULT", toolCallResult],
  ["REASONING_START", reasoningStart],
  ["REASONING_MESSAGE_START", reasoningMessageStart],
  ["REASONING_MESSAGE_CONTENT", reasoningMessageContent],
  ["REASONING_MESSAGE_END", reasoningMessageEnd],
  ["REASONING_MESSAGE_CHUNK", tagOnly],
  ["REASONING_END", reasoningEnd],
  ["REASONING_ENCRYPTED_VALUE", reasoningEncryptedValue],
  ["ACTIVITY_SNAPSHOT", activitySnapshot],
  ["ACTIVITY_DELTA", activityDelta],
  ["STATE_SNAPSHOT", tagOnly],
  ["STATE_DELTA", tagOnly],
  ["MESSAGES_SNAPSHOT", messagesSnapshot],
  ["RAW", tagOnly],
  ["CUSTOM", tagOnly],
  ["SUBAGENT_STARTED", subagentStarted],
  ["SUBAGENT_FINISHED", subagentClosed],
  ["SUBAGENT_ERROR", subagentClosed],
]);

/** Chunks, state events, RAW and CUSTOM: the tag is read, nothing is ordered. */
function tagOnly(_run: Run, e: Rec): undefined {
  optStr(e.subagentRunId, "subagentRunId");
  return undefined;
}

function runStarted(run: Run, e: Rec): Phase {
  optStr(e.subagentRunId, "subagentRunId");
  const input = e.input;
  let messages: SeedMessage[] | undefined;
  if (input !== undefined) {
    if (!isRecord(input)) throw badField("input", input, "an object");
    const m = input.messages;
    if (m !== undefined) messages = readMessages(m, "input.messages");
  }
  if (messages !== undefined) seed(run, messages, false);
  return RUNNING;
}

function runFinished(run: Run, e: Rec): Phase {
  optStr(e.subagentRunId, "subagentRunId");
  const outcome = e.outcome;
  const lacksInterrupts = outcome !== undefined && outcomeLacksInterrupts(outcome);
  rule7NothingOpen(run);
  rule8InterruptsPresent(lacksInterrupts);
  rule13NoActiveSubagents(run);
  return CLOSED;
}

function runError(_run: Run, e: Rec): Phase {
  optStr(e.subagentRunId, "subagentRunId");
  return CLOSED;
}

function stepStarted(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  const name = reqStr(e.stepName, "stepName");
  rule6StartStep(run, name, tag === undefined ? PARENT : tag);
  return undefined;
}

function stepFinished(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  const name = reqStr(e.stepName, "stepName");
  rule6FinishStep(run, name, tag === undefined ? PARENT : tag);
  return undefined;
}

function textMessageStart(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  start(TEXT, run.messages, reqStr(e.messageId, "messageId"), tag);
  return undefined;
}

function textMessageContent(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  proceed(TEXT, run.messages, reqStr(e.messageId, "messageId"), tag);
  return undefined;
}

function textMessageEnd(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  close(TEXT, run.messages, reqStr(e.messageId, "messageId"), tag);
  return undefined;
}

function toolCallStart(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  const id = reqStr(e.toolCallId, "toolCallId");
  const parentId = optStr(e.parentMessageId, "parentMessageId");
  const calls = run.toolCalls;
  if (calls.open.has(id)) throw alreadyOpen(TOOL, id);
  const recorded = calls.owners.get(id);
  checkAgrees(TOOL.noun, id, recorded, tag);
  let parent: Owner | undefined;
  if (parentId !== undefined) {
    parent = run.messages.owners.get(parentId);
    const claimed = tag !== undefined ? tag : recorded;
    if (parent !== undefined) rule10ParentOwner(id, parentId, parent, claimed);
  }
  calls.open.add(id);
  // An untagged call inherits its parent message's owner (SPEC §8.2).
  if (recorded === undefined) {
    calls.owners.set(id, tag !== undefined ? tag : parent !== undefined ? parent : PARENT);
  }
  return undefined;
}

function toolCallArgs(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  proceed(TOOL, run.toolCalls, reqStr(e.toolCallId, "toolCallId"), tag);
  return undefined;
}

function toolCallEnd(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  close(TOOL, run.toolCalls, reqStr(e.toolCallId, "toolCallId"), tag);
  return undefined;
}

function toolCallResult(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  const callId = reqStr(e.toolCallId, "toolCallId");
  const messageId = reqStr(e.messageId, "messageId");
  rule5CallEnded(run, callId);
  // The result mints a tool message under its own attribution (SPEC §8.4).
  run.messages.owners.set(messageId, tag === undefined ? PARENT : tag);
  return undefined;
}

function reasoningStart(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  recordOrCheckOwner(run.reasoning.owners, reqStr(e.messageId, "messageId"), tag, "reasoning");
  return undefined;
}

function reasoningMessageStart(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  start(REASONING, run.reasoning, reqStr(e.messageId, "messageId"), tag);
  return undefined;
}

function reasoningMessageContent(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  proceed(REASONING, run.reasoning, reqStr(e.messageId, "messageId"), tag);
  return undefined;
}

function reasoningMessageEnd(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  close(REASONING, run.reasoning, reqStr(e.messageId, "messageId"), tag);
  return undefined;
}

function reasoningEnd(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  checkOwner(run.reasoning.owners, reqStr(e.messageId, "messageId"), tag, "reasoning");
  return undefined;
}

/** Rule 9 against the registry `subtype` selects (SPEC §8.6); other subtypes check nothing. */
function reasoningEncryptedValue(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  const subtype = reqStr(e.subtype, "subtype");
  const id = reqStr(e.entityId, "entityId");
  if (subtype === "tool-call") {
    checkOwner(run.toolCalls.owners, id, tag, "tool call");
  } else if (subtype === "message") {
    if (run.messages.owners.has(id)) checkOwner(run.messages.owners, id, tag, "message");
    else checkOwner(run.reasoning.owners, id, tag, "reasoning message");
  }
  return undefined;
}

/** Never rejected on ownership; a replacing snapshot re-mints the owner (SPEC §8.3). */
function activitySnapshot(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  const id = reqStr(e.messageId, "messageId");
  const replace = e.replace;
  if (replace !== undefined && typeof replace !== "boolean") {
    throw badField("replace", replace, "a boolean");
  }
  if (replace !== false || !run.activityOwners.has(id)) {
    run.activityOwners.set(id, tag === undefined ? PARENT : tag);
  }
  return undefined;
}

function activityDelta(run: Run, e: Rec): undefined {
  const tag = optStr(e.subagentRunId, "subagentRunId");
  checkOwner(run.activityOwners, reqStr(e.messageId, "messageId"), tag, "activity");
  return undefined;
}

function messagesSnapshot(run: Run, e: Rec): undefined {
  optStr(e.subagentRunId, "subagentRunId");
  const messages = e.messages;
  if (messages === undefined) throw badField("messages", messages, "an array");
  seed(run, readMessages(messages, "messages"), true);
  return undefined;
}

function subagentStarted(run: Run, e: Rec): undefined {
  const id = reqStr(e.subagentRunId, "subagentRunId");
  const parentId = optStr(e.parentSubagentRunId, "parentSubagentRunId");
  rule12StartSubagent(run, id, parentId);
  return undefined;
}

function subagentClosed(run: Run, e: Rec): undefined {
  rule12CloseSubagent(run, reqStr(e.subagentRunId, "subagentRunId"));
  return undefined;
}

// =======================================================================================
// Machinery.

/** Who produced an entity: a subagent id, or `null` for the parent agent. */
type Owner = string | null;
const PARENT: Owner = null;

/** A JSON object, as far as the verifier is concerned. */
type Rec = Record<string, unknown>;

function isRecord(value: unknown): value is Rec {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isArray(value: unknown): value is readonly unknown[] {
  return Array.isArray(value);
}

const BEFORE_RUN = 0;
const RUNNING = 1;
const CLOSED = 2;
type Phase = typeof BEFORE_RUN | typeof RUNNING | typeof CLOSED;

/**
 * Everything one run knows. A new run replaces the whole object, so nothing can be left
 * behind by a forgotten reset.
 */
interface Run {
  /** Open text messages; the message registry (text, tool and seeded messages). */
  readonly messages: Lane;
  readonly toolCalls: Lane;
  /** Open reasoning messages; the reasoning registry (blocks and messages share it). */
  readonly reasoning: Lane;
  readonly activityOwners: Map<string, Owner>;
  /** step name → the owners that hold a step of that name open (never empty). */
  readonly openSteps: Map<string, Set<Owner>>;
  readonly activeSubagents: Set<string>;
  readonly finishedSubagents: Set<string>;
}

function newRun(): Run {
  return {
    messages: newLane(),
    toolCalls: newLane(),
    reasoning: newLane(),
    activityOwners: new Map(),
    openSteps: new Map(),
    activeSubagents: new Set(),
    finishedSubagents: new Set(),
  };
}

/**
 * One kind of entity that streams by id (text messages, tool calls, reasoning messages):
 * the ids open now, and the kind's owner registry, which outlives the close.
 */
interface Lane {
  readonly open: OpenIds;
  readonly owners: Map<string, Owner>;
}

function newLane(): Lane {
  return { open: new OpenIds(), owners: new Map() };
}

/**
 * The ids of one kind that are open now. Messages and tool calls stream token by token, a
 * few at a time, so most continuations name one of a few ids: a handful of slots, chosen by
 * an id's last character, remember ids known to be open, and a string comparison then
 * spares the set look-up, which would hash the (fresh, JSON-parsed) id string every time.
 */
class OpenIds {
  readonly #ids = new Set<string>();
  /** Each slot holds an open id, or nothing; closing an id clears its slot. */
  readonly #recent: (string | undefined)[] = [undefined, undefined, undefined, undefined];

  get size(): number {
    return this.#ids.size;
  }

  has(id: string): boolean {
    const slot = slotOf(id);
    if (id === this.#recent[slot]) return true;
    if (!this.#ids.has(id)) return false;
    this.#recent[slot] = id;
    return true;
  }

  add(id: string): void {
    this.#ids.add(id);
    this.#recent[slotOf(id)] = id;
  }

  delete(id: string): void {
    this.#ids.delete(id);
    const slot = slotOf(id);
    if (id === this.#recent[slot]) this.#recent[slot] = undefined;
  }

  values(): IterableIterator<string> {
    return this.#ids.values();
  }
}

/** One of the four slots of {@link OpenIds}. */
function slotOf(id: string): number {
  return id.charCodeAt(id.length - 1) & 3;
}

// ---------------------------------------------------------------------------------------
// Violations. Rules throw a Violation (code + what went wrong); `Verifier.verify` adds the
// index and the event and turns it into the public VerifyError.

class Violation {
  readonly code: VerifyErrorCode;
  /** The middle of the message: what happened and what was expected, ending with ".". */
  readonly text: string;
  readonly field: string | undefined;
  readonly cause: unknown;

  constructor(code: VerifyErrorCode, text: string, field?: string, cause?: unknown) {
    this.code = code;
    this.text = text;
    this.field = field;
    this.cause = cause;
  }
}

/**
 * What the schema step lets through unchanged, without poisoning the verifier: what the
 * schema threw, or the TypeError for a schema that validates asynchronously.
 */
class PassThrough {
  readonly error: unknown;
  constructor(error: unknown) {
    this.error = error;
  }
}

function toVerifyError(
  v: Violation,
  index: number,
  event: unknown,
  eventType: string | undefined,
): VerifyError {
  const decoding = v.code === "INVALID_JSON" || v.code === "SSE_BUFFER_OVERFLOW";
  const ended =
    v.code === "STREAM_ENDED_BEFORE_RUN_STARTED" || v.code === "STREAM_ENDED_BEFORE_RUN_CLOSED";
  const subject =
    eventType !== undefined
      ? eventType
      : decoding
        ? "SSE message"
        : ended
          ? "end of input"
          : "event";
  const rule = ruleOf(v.code);
  return new VerifyError(`${subject} at index ${index}: ${v.text} [${v.code}, rule ${rule}]`, {
    code: v.code,
    index,
    eventType,
    event,
    field: v.field,
    cause: v.cause,
  });
}

/** "X is open" failures share one message shape, as do "X is not open" ones. */
function isOpen(code: VerifyErrorCode, what: string): Violation {
  return new Violation(code, `${what} is open; expected its end first.`);
}

function isNotOpen(code: VerifyErrorCode, what: string): Violation {
  return new Violation(code, `${what} is not open; expected its start first.`);
}

const MAX_QUOTED = 120;

/** JSON-quotes an id (so `""` is visible), cutting very long ones short. */
function q(id: string): string {
  if (id.length <= MAX_QUOTED) return JSON.stringify(id);
  return `${JSON.stringify(id.slice(0, MAX_QUOTED))}… (${id.length} characters)`;
}

function ownerName(owner: Owner): string {
  return owner === null ? "the parent agent" : `subagent ${q(owner)}`;
}

function describeOpen(run: Run): string {
  const parts: string[] = [];
  for (const [f, lane] of [
    [TEXT, run.messages],
    [TOOL, run.toolCalls],
    [REASONING, run.reasoning],
  ] as const) {
    for (const id of lane.open.values()) {
      parts.push(`${f.noun} ${q(id)} of ${ownerName(lane.owners.get(id) ?? PARENT)}`);
    }
  }
  for (const [name, owners] of run.openSteps) {
    for (const owner of owners) parts.push(`step ${q(name)} of ${ownerName(owner)}`);
  }
  return parts.join(", ");
}

function describeSubagents(ids: Iterable<string>): string {
  return Array.from(ids, (id) => `subagent ${q(id)}`).join(", ");
}

/** The JSON type of a value, for messages ("undefined" and the like for in-process values). */
function jsonType(value: unknown): string {
  return value === null ? "null" : isArray(value) ? "an array" : typeof value;
}

/** Prints what a getter or trap threw, even when printing it throws too. */
function describe(cause: unknown): string {
  try {
    return String(cause);
  } catch {
    return "an unprintable value";
  }
}

// ---------------------------------------------------------------------------------------
// The slow path for in-process events whose getters or Proxy traps throw. The rules read
// fields without guards, which keeps them fast; only after a throw is the culprit sought.

function unreadable(path: string, cause: unknown): Violation {
  return new Violation(
    "FIELD_WRONG_TYPE",
    `${path} could not be read (${describe(cause)}); expected a JSON value.`,
    path,
    cause,
  );
}

/**
 * Before its type was read, the event itself is at fault: not inspectable at all (a revoked
 * Proxy), or its `type` unreadable. After, the type's rule runs again, on a scratch run,
 * under a recording Proxy: the last top-level field read before the throw is the culprit.
 * When none is found, what was thrown passes through unchanged.
 */
function unreadableField(
  event: unknown,
  type: string | undefined,
  rule: Rule | undefined,
  thrown: unknown,
): Violation {
  if (type === undefined) {
    let inspectable = false;
    try {
      inspectable = !isArray(event);
    } catch {}
    return new Violation(
      inspectable ? "EVENT_TYPE_INVALID" : "EVENT_NOT_OBJECT",
      `the ${inspectable ? "type" : "value"} could not be read (${describe(thrown)}); expected ${inspectable ? "a string" : "an object"}.`,
      undefined,
      thrown,
    );
  }
  if (rule !== undefined && isRecord(event)) {
    const field = fieldThatThrows(event, (probe) => {
      try {
        rule(newRun(), probe);
      } catch (again) {
        // The getter behaved this time: the field cannot be named.
        if (!(again instanceof Violation)) throw again;
      }
    });
    if (field !== undefined) return unreadable(field, thrown);
  }
  throw thrown;
}
