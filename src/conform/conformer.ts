/**
 * The stages of AG-UI 1.1's consumer pipeline before verification (SPEC §20.1), on one
 * value at a time: the compatibility boundary (retired `THINKING_*` shapes translated),
 * enforcement against the 1.1 schema (enforce.ts, generated.ts), the version and
 * encrypted-value warnings, and chunk expansion by 1.1's rules.
 * @module
 */

import { type ConformWarning, type ConformWarningCode, VerifyError } from "../errors.ts";
import type { AgUiEvent } from "../events/index.ts";
import { ChunkExpander, ChunkFailure } from "../streams/chunk-expander.ts";
import type { SourceOptions } from "../streams/source.ts";
import {
  isRecord,
  maxIdsOf,
  q,
  type Rec,
  toVerifyError,
  type VerifierOptions,
  Violation,
} from "../verify/verifier.ts";
import { Boundary } from "./boundary.ts";
import { Ctx, enforce, Mismatch, type Removed } from "./enforce.ts";
import { Entities } from "./entities.ts";
import { checkEvent } from "./generated.ts";

/** Every {@link ConformWarningCode}, in the order of SPEC §20.2. */
export const CONFORM_WARNING_CODES: readonly ConformWarningCode[] = /* @__PURE__ */ Object.freeze([
  "UNKNOWN_EVENT_DROPPED",
  "UNKNOWN_PROPERTY_STRIPPED",
  "UNKNOWN_MEMBER_STRIPPED",
  "THINKING_TRANSLATED",
  "PROTOCOL_VERSION_NEWER",
  "PROTOCOL_VERSION_UNINTERPRETABLE",
  "ENCRYPTED_VALUE_UNKNOWN_ENTITY",
] as const);

export type { ConformWarning, ConformWarningCode };

/** The options of the 1.1 pipeline (SPEC §20). */
export interface ConformOptions extends VerifierOptions, SourceOptions {
  /** Called once per warning, in stream order. Default: none. */
  onWarning?: ((warning: ConformWarning) => void) | undefined;
  /** The protocol version this consumer implements, for the version warnings. Default "1.1". */
  supportedVersion?: string | undefined;
}

const MAX_MESSAGE = 2_000;

/** An event whose reading threw (a getter, a Proxy trap): SCHEMA_MISMATCH, naming the throw. */
function unreadable(thrown: unknown): Violation {
  let what: string;
  try {
    what = String(thrown);
  } catch {
    what = "an unprintable value";
  }
  return new Violation(
    "SCHEMA_MISMATCH",
    `the event could not be read (reading it threw ${what.slice(0, 200)}); expected a plain JSON object.`,
  );
}

/** A version as `[major, minor, patch]`, or undefined when it is not one to compare. */
function versionOf(text: string): number[] | undefined {
  if (!/^\d{1,9}\.\d{1,9}(\.\d{1,9})?$/.test(text)) return undefined;
  return text.split(".").map(Number);
}

function newer(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < 3; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x > y;
  }
  return false;
}

/**
 * Runs the stages before verification on each value pushed, handing on what comes out;
 * a malformed value throws the `VerifyError` the pipeline fails with.
 */
export class Conformer {
  readonly #onWarning: ((warning: ConformWarning) => void) | undefined;
  readonly #supported: number[];
  readonly #supportedText: string;
  readonly #expander: ChunkExpander;
  readonly #entities: Entities;
  /** Enforcement's working state, one for the stream. */
  readonly #ctx = new Ctx();
  #index = -1;
  /** The compatibility boundary (the retired THINKING_* shapes). */
  readonly #boundary = new Boundary();
  #translated = false;

  constructor(options: ConformOptions = {}) {
    const supported = options.supportedVersion ?? "1.1";
    const parsed = typeof supported === "string" ? versionOf(supported) : undefined;
    if (parsed === undefined) {
      throw new TypeError(
        `supportedVersion must be a version such as "1.1"; got ${String(supported)}`,
      );
    }
    this.#supported = parsed;
    this.#supportedText = supported;
    this.#onWarning = options.onWarning;
    const maxIds = maxIdsOf(options);
    this.#entities = new Entities(maxIds);
    this.#expander = new ChunkExpander(true, maxIds);
  }

  /** The next input value: what it becomes is handed to `emit` (none, one or several events). */
  push(value: unknown, emit: (event: unknown) => void): void {
    const index = ++this.#index;
    try {
      this.#push(value, emit, index);
    } catch (thrown) {
      if (thrown instanceof VerifyError) throw thrown;
      // A getter or Proxy trap that throws makes the value unreadable: malformed, not a crash.
      throw toVerifyError(unreadable(thrown), index, value, undefined);
    }
  }

  #push(value: unknown, emit: (event: unknown) => void, index: number): void {
    if (!isRecord(value) || typeof value.type !== "string") {
      // Not an event (a decode failure, a non-object): the verifier names what is wrong.
      emit(value);
      return;
    }
    let event: Rec = value;
    const translated = this.#boundary.translate(event);
    if (translated !== undefined) {
      if (!this.#translated) {
        this.#translated = true;
        this.#warn(
          "THINKING_TRANSLATED",
          `${event.type as string} is a retired shape; it is translated to ${translated.type as string} (1.1 basic/versioning), as are the stream's other THINKING_* events.`,
          index,
          event.type as string,
          undefined,
        );
      }
      event = translated;
    }
    let enforced: ReturnType<typeof enforce>;
    try {
      enforced = enforce(event, checkEvent, this.#ctx);
    } catch (thrown) {
      if (!(thrown instanceof Mismatch)) throw thrown;
      const violation = new Violation("SCHEMA_MISMATCH", thrown.text, thrown.field);
      throw toVerifyError(violation, index, value, event.type as string);
    }
    if (enforced.removed !== undefined) {
      for (const r of enforced.removed) this.#removed(r, index, event.type as string);
    }
    const out = enforced.event as AgUiEvent | undefined;
    if (out === undefined) return;
    if (out.type === "RUN_STARTED") this.#version(out.protocolVersion, index);
    const unknown = this.#entities.see(out);
    if (unknown !== undefined) {
      this.#warn("ENCRYPTED_VALUE_UNKNOWN_ENTITY", unknown, index, out.type, undefined);
    }
    try {
      this.#expander.push(out, emit);
    } catch (thrown) {
      if (!(thrown instanceof ChunkFailure)) throw thrown;
      const violation = new Violation(thrown.code, `${thrown.text}.`, thrown.field);
      throw toVerifyError(violation, index, value, out.type);
    }
  }

  #removed(r: Removed, index: number, eventType: string): void {
    const what =
      r.code === "UNKNOWN_EVENT_DROPPED"
        ? `the event is dropped: ${r.why}`
        : r.pointer === ""
          ? `the event is dropped: ${r.why}, in a required position`
          : r.code === "UNKNOWN_PROPERTY_STRIPPED"
            ? `${r.pointer} is stripped: ${r.why} by the 1.1 schema`
            : `${r.pointer} is stripped: ${r.why} is not one the 1.1 schema names`;
    this.#warn(
      r.code,
      `${what} (1.1 basic/processing: "Unrecognised material is not an error").`,
      index,
      eventType,
      r.pointer,
    );
  }

  /** PROTOCOL_VERSION_NEWER and _UNINTERPRETABLE (1.1 basic/versioning). */
  #version(declared: unknown, index: number): void {
    if (declared === undefined) return;
    const parsed = typeof declared === "string" ? versionOf(declared) : undefined;
    if (parsed === undefined) {
      const shown = typeof declared === "string" ? q(declared) : String(declared);
      this.#warn(
        "PROTOCOL_VERSION_UNINTERPRETABLE",
        `protocolVersion ${shown} is not a version this consumer can interpret (it cannot interpret it as MAJOR.MINOR); it goes on as a ${this.#supportedText} consumer (1.1 basic/versioning).`,
        index,
        "RUN_STARTED",
        "/protocolVersion",
      );
    } else if (newer(parsed, this.#supported)) {
      this.#warn(
        "PROTOCOL_VERSION_NEWER",
        `the producer declares protocolVersion ${q(declared as string)}, newer than ${this.#supportedText}, the version this consumer implements; what it does not recognise is stripped with a warning (1.1 basic/versioning).`,
        index,
        "RUN_STARTED",
        "/protocolVersion",
      );
    }
  }

  #warn(
    code: ConformWarningCode,
    text: string,
    index: number,
    eventType: string | undefined,
    path: string | undefined,
  ): void {
    const onWarning = this.#onWarning;
    if (onWarning === undefined) return;
    let message = `${eventType ?? "event"} at index ${index}: ${text} [${code}, warning]`;
    if (message.length > MAX_MESSAGE) message = `${message.slice(0, MAX_MESSAGE - 1)}…`;
    onWarning({ code, message, index, eventType, path });
  }
}
