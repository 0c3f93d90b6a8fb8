/**
 * The ordering state machine of SPEC §5–§9: a pure checker with no streams and no I/O.
 *
 * This module is the public API ({@link Verifier}, {@link verifyAll},
 * {@link validateRunOutcome}) and the order of SPEC §6 in `Verifier.verify`. The rules are
 * in `rules/`, one file per family, each under its `// Rule N —` heading, and `rules/table.ts`
 * applies them per event type; `fields.ts` is rule 0, `state.ts` the run state,
 * `violations.ts` the messages, `schema-step.ts` the opt-in schema (SPEC §14).
 * @module
 */

import { keepShape } from "../_util/shapes.ts";
import type { VerifyError } from "../errors.ts";
import type { AgUiEvent } from "../events/index.ts";
import type { StandardSchemaV1 } from "../schema/standard-schema.ts";
import { unreadable, unreadableField } from "./field-finder.ts";
import { decodeFailure, notObject, outcomeLacksInterrupts, typeInvalid } from "./fields.ts";
import {
  checkOutsideRun,
  rule8InterruptsPresent,
  runAlreadyStarted,
  streamEndedBeforeRunStarted,
  streamEndedInRun,
} from "./rules/lifecycle.ts";
import { DRAFT_RULES, RULES } from "./rules/table.ts";
import { checkSchema, standardProps } from "./schema-step.ts";
import {
  BEFORE_RUN,
  FAILED,
  FINISHED,
  isRecord,
  newRun,
  type Phase,
  type Rec,
  RUNNING,
  type Rule,
  type Run,
} from "./state.ts";
import { Dropped, PassThrough, toVerifyError, Violation } from "./violations.ts";

export { weight } from "./fields.ts";
// What the linter (src/lint/) uses of the rules' machinery, and the phases the proxy
// (src/http/) reads: from here, as `src/verify/` is one module at run time
// (dist/verify/verifier.js), and a file of it has no module of its own.
export { streamEmpty } from "./rules/lifecycle.ts";
export { FAILED, FINISHED, isRecord, type Owner, PARENT, type Rec, slotOf } from "./state.ts";
export {
  Dropped,
  fieldOf,
  jsonType,
  listed,
  messageOf,
  ownerName,
  q,
  toVerifyError,
  Violation,
} from "./violations.ts";

/** Options of a {@link Verifier}. */
export interface VerifierOptions {
  /**
   * Which protocol text decides (SPEC §9.14). `"1.1"` (default): AG-UI 1.1. `"draft"`: 1.1 plus
   * what the protocol's draft adds for consumers: RUN_STARTED and RUN_FINISHED must carry
   * string `threadId` and `runId`, a run's RUN_FINISHED names its RUN_STARTED's `runId`
   * (`RUN_ID_MISMATCH`), every run of the stream is on one thread (`THREAD_ID_MISMATCH`),
   * and the interrupts of an outcome have distinct ids (`INTERRUPT_ID_DUPLICATE`). Anything
   * else is a `TypeError`.
   */
  protocol?: "1.1" | "draft" | undefined;
  /**
   * A Standard Schema (v1) that every event must also satisfy (SPEC §14): `agUiSchema` from
   * `ag-ui-verify/schema`, or a zod, valibot or arktype schema. It runs after the phase
   * checks of rules 1 and 2 and rule 0's field checks, before the type's other rules; a
   * rejection is a rule 0 `SCHEMA_MISMATCH`, and leaves no trace in the verifier's state. It
   * must validate synchronously. Events pass on unchanged: its output value only types
   * them (see {@link EventOf}). Default: none.
   */
  schema?: StandardSchemaV1 | undefined;
  /**
   * The most ids one run may hold at once (SPEC §17.1): message, tool call, reasoning,
   * activity and subagent ids are held for the rest of the run, an open step (owner and
   * name) until it finishes. An event that would make the run hold more is a rule 0
   * `ID_LIMIT_EXCEEDED` error and changes nothing; a new run starts from zero. An id (or step
   * name) longer than 64 characters counts once per 64 begun, so the limit bounds memory
   * whatever the ids' length: the verifier keeps about 80 to 250 bytes per id with
   * 36-character ids (`bench/memory.bench.mjs`: under 32 MiB at the default, for ids of any
   * length). Default 100,000; `Infinity` disables the limit. Anything but a number from 0 up
   * is a `TypeError`.
   */
  maxIds?: number | undefined;
}

/** The default of {@link VerifierOptions.maxIds}. */
const DEFAULT_MAX_IDS = 100_000;

/**
 * `options.maxIds`, or its default; a `TypeError` for a value that is not a bound.
 * @internal
 */
export function maxIdsOf(options: VerifierOptions | undefined): number {
  const maxIds = options?.maxIds ?? DEFAULT_MAX_IDS;
  if (typeof maxIds !== "number" || !(maxIds >= 0)) {
    throw new TypeError(
      `maxIds must be a number from 0 up, or Infinity; got ${typeof maxIds === "number" ? maxIds : typeof maxIds}`,
    );
  }
  return maxIds;
}

/**
 * The linter's option (SPEC §18.1): a verifier made with `{ [GOING_ON]: true }` throws each
 * violation as a {@link Dropped} without being poisoned by it, the failing event counted and
 * dropped (no rule applies an effect before its last check), and checks the next event as
 * if it had not come.
 * @internal
 */
export const GOING_ON: unique symbol = Symbol("going on");

/**
 * The type of the events that come out of a verified stream made with options of type
 * `O`: the schema's output type when `O` has a `schema`, else {@link AgUiEvent}.
 *
 * @example
 * ```ts
 * import type { EventOf } from "ag-ui-verify";
 * import type { KnownAgUiEvent, StandardSchemaV1 } from "ag-ui-verify/schema";
 * type Typed = EventOf<{ schema: StandardSchemaV1<unknown, KnownAgUiEvent> }>; // KnownAgUiEvent
 * type Plain = EventOf<{ protocol: "draft" }>; // AgUiEvent
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
  /** The rule table: SPEC §6's, or the draft's (SPEC §9.14). */
  readonly #rules: Map<string, Rule>;
  /** The table's RUN_STARTED rule, which a run that is open rejects (rule 1). */
  readonly #opener: Rule | undefined;
  readonly #schema: StandardSchemaV1.Props | undefined;
  #run: Run;
  #phase: Phase = BEFORE_RUN;
  #index = 0;
  #error: VerifyError | undefined = undefined;
  #ended = false;
  #lastType = "";
  #lastRule: Rule | undefined = undefined;
  /** Whether a violation poisons (false for the linter: see {@link GOING_ON}). */
  readonly #poison: boolean;

  /**
   * Throws a `TypeError` when `options.schema` is not a Standard Schema, `options.maxIds` is
   * not a number from 0 up, or `options.protocol` is neither `"1.1"` nor `"draft"`.
   * (`allowSequentialRuns`, an option of versions before SPEC 4, is ignored: several runs are
   * always accepted.)
   */
  constructor(options?: O) {
    const protocol = options?.protocol ?? "1.1";
    if (protocol !== "1.1" && protocol !== "draft") {
      throw new TypeError(
        `protocol must be "1.1" or "draft"; got ${typeof protocol === "string" ? JSON.stringify(protocol) : typeof protocol}`,
      );
    }
    this.#rules = protocol === "draft" ? DRAFT_RULES : RULES;
    this.#opener = this.#rules.get("RUN_STARTED");
    this.#poison = (options as { [GOING_ON]?: unknown } | undefined)?.[GOING_ON] !== true;
    this.#run = newRun(maxIdsOf(options));
    const schema = options?.schema;
    this.#schema = schema === undefined ? undefined : standardProps(schema);
  }

  /** The error that poisoned this verifier, if any. */
  get error(): VerifyError | undefined {
    return this.#error;
  }

  /**
   * The stream's phase after the last event this verifier accepted (SPEC §5): `BEFORE_RUN`,
   * `RUNNING`, `FINISHED` or `FAILED`. A violation leaves it as it was. Read by the proxy
   * only when the stream ends or breaks, never per event.
   * @internal
   */
  get phase(): Phase {
    return this.#phase;
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
        throw decodeFailure(event) ?? typeInvalid(t);
      }
      type = t;
      // Events of one type tend to come in runs (a message streams token by token), so a
      // one-entry cache in front of the table saves hashing the type string each time.
      if (t === this.#lastType) rule = this.#lastRule;
      else {
        rule = this.#rules.get(t);
        this.#lastType = t;
        this.#lastRule = rule;
      }
      if (rule === undefined) {
        // An unknown type passes every phase and has nothing but `type` read (SPEC §9.2);
        // only a schema may still reject it.
        if (this.#schema !== undefined) checkSchema(this.#schema, event, t, rule);
      } else {
        // Step 3: the phase checks of rules 1 and 2.
        const phase = this.#phase;
        if (phase !== RUNNING) checkOutsideRun(phase, t);
        else if (rule === this.#opener) throw runAlreadyStarted();
        // Step 4b, the schema, before anything changes; when it does not accept the event,
        // it runs step 4 (rule 0's field checks) first itself. Going on (the linter), an
        // event only the schema rejects still has its ordering effects, so that one bad
        // field is one finding, not a cascade of "before RUN_STARTED" after it.
        let schemaOnly: Violation | undefined;
        if (this.#schema !== undefined) {
          if (this.#poison) checkSchema(this.#schema, event, t, rule);
          else schemaOnly = schemaViolation(this.#schema, event, t, rule);
        }
        // Steps 4 to 6 in one pass: the type's field checks, rule checks and effects. The
        // run-level events return the new phase; RUN_STARTED the new run (SPEC §9.6), which
        // is kept only once every check passed.
        const next =
          schemaOnly === undefined
            ? rule(this.#run, event)
            : effectsOf(rule, this.#run, event, schemaOnly);
        if (next !== undefined) {
          if (typeof next === "number") this.#phase = next;
          else {
            this.#run = next;
            this.#phase = RUNNING;
          }
        }
        if (schemaOnly !== undefined) throw schemaOnly;
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
    if (!this.#poison) return new Dropped(violation, this.#index++, event, type);
    const error = toVerifyError(violation, this.#index, event, type);
    this.#error = error;
    return error;
  }

  /**
   * The end-of-input check (SPEC §9.7): a run must have started (or failed before it began)
   * and the last run must be closed. Throws a {@link VerifyError} otherwise; succeeds again if
   * called again after success.
   */
  end(): void {
    if (this.#error !== undefined) throw this.#error;
    if (this.#phase === FINISHED || this.#phase === FAILED) {
      this.#ended = true;
      return;
    }
    const v =
      this.#phase === BEFORE_RUN ? streamEndedBeforeRunStarted() : streamEndedInRun(this.#run);
    if (!this.#poison) throw new Dropped(v, this.#index, undefined, undefined);
    const error = toVerifyError(v, this.#index, undefined, undefined);
    this.#error = error;
    throw error;
  }
}

keepShape(new Verifier());

/** A rule's checks and effects on an event the schema rejected: a rule's own failure is reported as that rejection. */
function effectsOf(rule: Rule, run: Run, event: Rec, rejected: Violation): ReturnType<Rule> {
  try {
    return rule(run, event);
  } catch {
    throw rejected;
  }
}

/**
 * The schema's verdict on an event as a value: its `SCHEMA_MISMATCH` violation, or
 * undefined when it accepts it; any other failure (a field check's) is thrown.
 */
function schemaViolation(
  schema: Parameters<typeof checkSchema>[0],
  event: Rec,
  type: string,
  rule: Rule,
): Violation | undefined {
  try {
    checkSchema(schema, event, type, rule);
  } catch (x) {
    if (x instanceof Violation && x.code === "SCHEMA_MISMATCH") return x;
    throw x;
  }
  return undefined;
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
    : typeof value.type !== "string"
      ? (decodeFailure(value) ?? typeInvalid(value.type))
      : undefined;
  return violation && toVerifyError(violation, index, value, undefined);
}
