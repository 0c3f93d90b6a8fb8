// Property tests: generated valid streams are accepted, and targeted mutations of valid
// streams are rejected at the expected index with the expected code (or, where SPEC
// version 4 says so, still accepted). Every expectation is derived from SPEC.md by simple
// reasoning about the mutated stream, never from the implementation.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  isVerifyError,
  Verifier,
  type VerifierOptions,
  VerifyError,
  verifyAll,
} from "../src/index.ts";
import {
  cloneJson,
  DELETE,
  elementPaths,
  indicesWhere,
  nullablePaths,
  type Path,
  type Protocol,
  pickFrom,
  renderPath,
  requiredPaths,
  withPath,
} from "./support/mutate.ts";
import { RECOGNISED, ruleOfCode } from "./support/spec-tables.ts";
import {
  type Ev,
  IDS,
  PARENT,
  RUN_LEVEL_TYPES,
  type RunInfo,
  SUBAGENTS,
  sequentialRuns,
  UNKNOWN_TYPES,
  validRun,
  validStream,
  validStreamWithMeta,
} from "./support/valid-run.ts";

const NUM_RUNS = 250;
const FRESH = "fresh-subagent-never-seen";

interface Expected {
  index: number;
  code: string;
  field?: string;
}

function rejectionOf(events: readonly unknown[], options?: VerifierOptions): VerifyError {
  try {
    verifyAll(events, options);
  } catch (e) {
    if (e instanceof VerifyError) return e;
    throw new Error(`expected a VerifyError, got ${String(e)}`);
  }
  throw new Error("expected the stream to be rejected, but verifyAll accepted it");
}

/** Asserts the stream is rejected exactly as expected, including the error's contract (§10). */
function expectRejected(
  events: readonly unknown[],
  expected: Expected,
  options?: VerifierOptions,
): void {
  const err = rejectionOf(events, options);
  expect(err).toBeInstanceOf(VerifyError);
  expect(isVerifyError(err)).toBe(true);
  const actual: Expected = { index: err.index, code: err.code };
  if (expected.field !== undefined) actual.field = String(err.field);
  expect(actual, err.message).toEqual(expected);
  expect(err.rule).toBe(ruleOfCode(expected.code) ?? V4_RULES[expected.code]);
  expect(err.rule).not.toBe(5); // rule 5 left the verifier in version 4
  expect(err.message.endsWith(`[${expected.code}, rule ${err.rule}]`)).toBe(true);
  if (expected.field === undefined) expect(err.field).toBeUndefined();
  if (expected.index < events.length) {
    const ev = events[expected.index];
    expect(err.event).toBe(ev);
    expect(err.eventType).toBe(
      typeof ev === "object" && ev !== null && "type" in ev && typeof ev.type === "string"
        ? ev.type
        : undefined,
    );
  } else {
    // End of input (§9.7): no event.
    expect(err.event).toBeUndefined();
    expect(err.eventType).toBeUndefined();
  }
}

/** Rules of the codes version 4 adds (§10.2), in case the shared table lacks them. */
const V4_RULES: Record<string, number> = {
  REASONING_SPAN_ALREADY_OPEN: 4,
  REASONING_SPAN_NOT_OPEN: 4,
  INTERRUPT_ID_DUPLICATE: 8,
  RUN_ID_MISMATCH: 2,
  THREAD_ID_MISMATCH: 2,
};

function expectAccepted(events: readonly unknown[], options?: VerifierOptions) {
  try {
    verifyAll(events, options);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw new Error(
      `expected acceptance, got: ${msg}\n${events.map((x) => JSON.stringify(x)).join("\n")}`,
    );
  }
}

function insertAt<T>(xs: readonly T[], i: number, x: T): T[] {
  return [...xs.slice(0, i), x, ...xs.slice(i)];
}
function removeAt<T>(xs: readonly T[], i: number): T[] {
  return [...xs.slice(0, i), ...xs.slice(i + 1)];
}
function replaceAt<T>(xs: readonly T[], i: number, x: T): T[] {
  return [...xs.slice(0, i), x, ...xs.slice(i + 1)];
}
function runStartedIndex(events: readonly Ev[]): number {
  const i = events.findIndex((e) => e.type === "RUN_STARTED");
  if (i < 0) throw new Error("generated run without RUN_STARTED");
  return i;
}

/** The run whose RUN_STARTED … close holds index `i` (after its start), if any. */
function runHolding(runs: readonly RunInfo[], i: number): RunInfo | undefined {
  return runs.find((r) => r.start !== undefined && r.start < i && i <= r.close);
}

/** The runs that have a RUN_STARTED (a stream's leading RUN_ERROR has none). */
function startedRuns(runs: readonly RunInfo[]): (RunInfo & { start: number })[] {
  return runs.filter((r): r is RunInfo & { start: number } => r.start !== undefined);
}

type Phase = "BEFORE_RUN" | "RUNNING" | "FINISHED" | "FAILED";

/**
 * The phase (§5) after the first `n` events of a valid stream: a plain scan of the run-level
 * events. Unknown types change nothing (§9.2).
 */
function phaseAfter(events: readonly Ev[], n: number): Phase {
  let phase: Phase = "BEFORE_RUN";
  for (const e of events.slice(0, n)) {
    if (e.type === "RUN_STARTED") phase = "RUNNING";
    else if (e.type === "RUN_FINISHED") phase = "FINISHED";
    else if (e.type === "RUN_ERROR") phase = "FAILED";
  }
  return phase;
}

/** An event of an unknown type, with fields an event of a listed type would have to get right. */
function unknownEvent(k: number): Ev {
  const ev: Ev = { type: UNKNOWN_TYPES[k % UNKNOWN_TYPES.length] ?? "SOME_FUTURE_EVENT" };
  if (k % 3 === 1) ev.subagentRunId = null;
  if (k % 3 === 2) ev.messageId = 42;
  return ev;
}

// ---------------------------------------------------------------------------------------

describe("generated valid streams", () => {
  it("are accepted by verifyAll: one run, several runs, a leading RUN_ERROR, late failures", () => {
    fc.assert(
      fc.property(validRun, validStream, (run, stream) => {
        expectAccepted(run);
        expectAccepted(stream);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("are accepted under protocol draft too: one thread, each run's own id, unique interrupt ids", () => {
    fc.assert(
      fc.property(validStream, (events) => {
        expectAccepted(events, { protocol: "draft" });
      }),
      { numRuns: 150 },
    );
  });

  it("are accepted event by event; end() is idempotent; verify() after end() throws a plain Error", () => {
    fc.assert(
      fc.property(
        validStream,
        fc.constantFrom<unknown>({ type: "RAW" }, null, { type: "RUN_STARTED" }),
        (events, extra) => {
          const v = new Verifier();
          for (const ev of events) v.verify(ev);
          v.end();
          v.end();
          expect(v.error).toBeUndefined();
          let thrown: unknown;
          try {
            v.verify(extra);
          } catch (e) {
            thrown = e;
          }
          expect(thrown).toBeInstanceOf(Error);
          expect(thrown).not.toBeInstanceOf(VerifyError);
          expect(isVerifyError(thrown)).toBe(false);
          // ... and state did not change: end() still succeeds.
          v.end();
          expect(v.error).toBeUndefined();
        },
      ),
      { numRuns: 100 },
    );
  });

  it("concatenated, with unknown types between them, are one valid stream; RAW/CUSTOM between runs is EVENT_AFTER_RUN_CLOSED", () => {
    fc.assert(
      fc.property(
        sequentialRuns,
        fc.array(fc.constantFrom("SOME_FUTURE_EVENT", "THINKING_END", "RAW", "CUSTOM"), {
          maxLength: 2,
        }),
        (runs, between) => {
          const stream: Ev[] = [];
          let firstBad: number | undefined;
          runs.forEach((run, k) => {
            if (k > 0) {
              for (const t of between) {
                if (firstBad === undefined && (t === "RAW" || t === "CUSTOM")) {
                  firstBad = stream.length;
                }
                stream.push({ type: t });
              }
            }
            stream.push(...run);
          });
          // §9.6: several runs need no option; between them only unknown types (§9.2).
          if (firstBad === undefined) expectAccepted(stream);
          else expectRejected(stream, { index: firstBad, code: "EVENT_AFTER_RUN_CLOSED" });
        },
      ),
      { numRuns: 150 },
    );
  });

  it("cover the features the generator is meant to exercise", () => {
    // A deterministic sample; guards against the generator silently losing coverage.
    const streams = [
      ...fc.sample(validRun, { numRuns: 150, seed: 1234 }),
      ...fc.sample(validStream, { numRuns: 300, seed: 1234 }),
    ];
    const seen = new Set<string>();
    const note = (k: string, cond: boolean) => {
      if (cond) seen.add(k);
    };
    for (const stream of streams) {
      const openSteps = new Map<string, number>();
      const openText = new Set<unknown>();
      const openTool = new Set<unknown>();
      const openSpans = new Set<unknown>();
      const startedBefore = new Set<unknown>();
      const startedNow = new Set<unknown>();
      let maxOpenText = 0;
      let phase: Phase = "BEFORE_RUN";
      let runs = 0;
      for (const ev of stream) {
        seen.add(`type:${ev.type}`);
        const known = RECOGNISED.has(ev.type);
        note("unknown:before-first-run", !known && phase === "BEFORE_RUN");
        note("unknown:after-close", !known && (phase === "FINISHED" || phase === "FAILED"));
        note("stream:leading-error", ev.type === "RUN_ERROR" && phase === "BEFORE_RUN");
        note("late-error", ev.type === "RUN_ERROR" && phase === "FINISHED");
        note(
          "error-with-open-entities",
          ev.type === "RUN_ERROR" && phase === "RUNNING" && openText.size + openTool.size > 0,
        );
        note("run-level-tag", RUN_LEVEL_TYPES.has(ev.type) && "subagentRunId" in ev);
        note("tag:empty", ev.subagentRunId === "");
        note("tag:never-announced", ev.subagentRunId === "never-announced");
        note("id:__proto__", ev.messageId === "__proto__" || ev.toolCallId === "__proto__");
        note("id:constructor", ev.messageId === "constructor" || ev.toolCallId === "constructor");
        note("id:empty", ev.messageId === "" || ev.toolCallId === "");
        note("parentMessageId", ev.type === "TOOL_CALL_START" && "parentMessageId" in ev);
        note(
          "parentMessageId:untagged-open",
          ev.type === "TOOL_CALL_START" &&
            !("subagentRunId" in ev) &&
            openText.has(ev.parentMessageId),
        );
        note("result:open-call", ev.type === "TOOL_CALL_RESULT" && openTool.has(ev.toolCallId));
        note(
          "span:shares-id-with-message",
          ev.type === "REASONING_MESSAGE_START" && openSpans.has(ev.messageId),
        );
        note("parentSubagentRunId", "parentSubagentRunId" in ev);
        note(
          "subagent:re-announced-in-a-later-run",
          ev.type === "SUBAGENT_STARTED" && startedBefore.has(ev.subagentRunId),
        );
        note("replace:false", ev.replace === false);
        note("replace:true", ev.replace === true);
        note("subtype:tool-call", ev.subtype === "tool-call");
        note("subtype:message", ev.subtype === "message");
        note("subtype:other", ev.type === "REASONING_ENCRYPTED_VALUE" && ev.subtype === "future");
        note("input.messages", ev.type === "RUN_STARTED" && typeof ev.input === "object");
        note(
          "outcome:interrupt",
          typeof ev.outcome === "object" &&
            ev.outcome !== null &&
            "type" in ev.outcome &&
            ev.outcome.type === "interrupt",
        );
        if (ev.type === "RUN_STARTED") {
          phase = "RUNNING";
          runs += 1;
          for (const s of startedNow) startedBefore.add(s);
          startedNow.clear();
          openText.clear();
          openTool.clear();
          openSpans.clear();
          openSteps.clear();
        }
        if (ev.type === "RUN_FINISHED") phase = "FINISHED";
        if (ev.type === "RUN_ERROR") phase = "FAILED";
        if (ev.type === "SUBAGENT_STARTED") startedNow.add(ev.subagentRunId);
        if (ev.type === "TEXT_MESSAGE_START") openText.add(ev.messageId);
        if (ev.type === "TEXT_MESSAGE_END") openText.delete(ev.messageId);
        if (ev.type === "TOOL_CALL_START") openTool.add(ev.toolCallId);
        if (ev.type === "TOOL_CALL_END") openTool.delete(ev.toolCallId);
        if (ev.type === "REASONING_START") openSpans.add(ev.messageId);
        if (ev.type === "REASONING_END") openSpans.delete(ev.messageId);
        maxOpenText = Math.max(maxOpenText, openText.size);
        if (ev.type === "STEP_STARTED" && typeof ev.stepName === "string") {
          const n = (openSteps.get(ev.stepName) ?? 0) + 1;
          openSteps.set(ev.stepName, n);
          note("step:one-name-three-owners", n >= 3);
        }
        if (ev.type === "STEP_FINISHED" && typeof ev.stepName === "string") {
          openSteps.set(ev.stepName, (openSteps.get(ev.stepName) ?? 1) - 1);
        }
      }
      note("parallel-text", maxOpenText >= 2);
      note("stream:no-run-at-all", runs === 0);
      note("stream:several-runs", runs >= 2);
      note("stream:four-runs", runs >= 4);
      const last = [...stream].reverse().find((e) => RECOGNISED.has(e.type));
      note("ending:error", last?.type === "RUN_ERROR");
      note("ending:finished", last?.type === "RUN_FINISHED");
    }
    const required = [
      "type:TEXT_MESSAGE_START",
      "type:TOOL_CALL_RESULT",
      "type:REASONING_START",
      "type:REASONING_END",
      "type:REASONING_MESSAGE_CONTENT",
      "type:REASONING_ENCRYPTED_VALUE",
      "type:ACTIVITY_SNAPSHOT",
      "type:ACTIVITY_DELTA",
      "type:MESSAGES_SNAPSHOT",
      "type:STATE_SNAPSHOT",
      "type:STATE_DELTA",
      "type:RAW",
      "type:CUSTOM",
      "type:TEXT_MESSAGE_CHUNK",
      "type:TOOL_CALL_CHUNK",
      "type:REASONING_MESSAGE_CHUNK",
      "type:SOME_FUTURE_EVENT",
      "type:THINKING_TEXT_MESSAGE_CONTENT",
      "type:SUBAGENT_STARTED",
      "type:SUBAGENT_FINISHED",
      "type:SUBAGENT_ERROR",
      "unknown:before-first-run",
      "unknown:after-close",
      "stream:leading-error",
      "stream:no-run-at-all",
      "stream:several-runs",
      "stream:four-runs",
      "late-error",
      "error-with-open-entities",
      "run-level-tag",
      "tag:empty",
      "tag:never-announced",
      "id:__proto__",
      "id:constructor",
      "id:empty",
      "parentMessageId",
      "parentMessageId:untagged-open",
      "result:open-call",
      "span:shares-id-with-message",
      "parentSubagentRunId",
      "subagent:re-announced-in-a-later-run",
      "replace:false",
      "replace:true",
      "subtype:tool-call",
      "subtype:message",
      "subtype:other",
      "input.messages",
      "outcome:interrupt",
      "step:one-name-three-owners",
      "parallel-text",
      "ending:error",
      "ending:finished",
    ];
    expect(required.filter((k) => !seen.has(k))).toEqual([]);
    // Sanity on the shared constants the generator uses.
    expect(IDS).toContain("__proto__");
    expect(SUBAGENTS).toContain("");
    expect(typeof PARENT).toBe("symbol");
  });
});

// ---------------------------------------------------------------------------------------

describe("mutations of valid streams are rejected where expected", () => {
  it("dropping a *_END leaves the entity open: ALREADY_OPEN at its re-start, OPEN_AT_RUN_FINISHED at the close, nothing at RUN_ERROR", () => {
    const kinds = new Map<string, { start: string; key: string; code: string }>([
      [
        "TEXT_MESSAGE_END",
        { start: "TEXT_MESSAGE_START", key: "messageId", code: "TEXT_MESSAGE_ALREADY_OPEN" },
      ],
      [
        "TOOL_CALL_END",
        { start: "TOOL_CALL_START", key: "toolCallId", code: "TOOL_CALL_ALREADY_OPEN" },
      ],
      [
        "REASONING_MESSAGE_END",
        {
          start: "REASONING_MESSAGE_START",
          key: "messageId",
          code: "REASONING_MESSAGE_ALREADY_OPEN",
        },
      ],
      [
        "REASONING_END",
        { start: "REASONING_START", key: "messageId", code: "REASONING_SPAN_ALREADY_OPEN" },
      ],
    ]);
    fc.assert(
      fc.property(validStreamWithMeta, fc.nat(), ({ events, runs }, n) => {
        const i = pickFrom(
          indicesWhere(events, (e) => kinds.has(e.type)),
          n,
        );
        fc.pre(i !== undefined);
        const dropped = events[i];
        const kind = dropped === undefined ? undefined : kinds.get(dropped.type);
        const run = runHolding(runs, i);
        if (dropped === undefined || kind === undefined || run === undefined) {
          throw new Error("unreachable");
        }
        const id = dropped[kind.key];
        // The only difference is that `id` stays open, in this run only (§9.6). The first
        // later event of the run that cares: a re-start of the id, else the close.
        let expected: Expected | "accepted" = "accepted";
        for (let j = i + 1; j <= run.close; j++) {
          const e = events[j];
          if (e?.type === kind.start && e[kind.key] === id) {
            expected = { index: j - 1, code: kind.code };
            break;
          }
        }
        if (expected === "accepted" && run.ending !== "error") {
          expected = { index: run.close - 1, code: "OPEN_AT_RUN_FINISHED" };
        }
        // RUN_ERROR ends whatever was still open (§9.8): the stream stays valid.
        if (expected === "accepted") expectAccepted(removeAt(events, i));
        else expectRejected(removeAt(events, i), expected);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("duplicating an opener right after itself is *_ALREADY_OPEN / *_ALREADY_ACTIVE", () => {
    const codes = new Map<string, string>([
      ["TEXT_MESSAGE_START", "TEXT_MESSAGE_ALREADY_OPEN"],
      ["TOOL_CALL_START", "TOOL_CALL_ALREADY_OPEN"],
      ["REASONING_MESSAGE_START", "REASONING_MESSAGE_ALREADY_OPEN"],
      ["REASONING_START", "REASONING_SPAN_ALREADY_OPEN"],
      ["STEP_STARTED", "STEP_ALREADY_ACTIVE"],
      ["SUBAGENT_STARTED", "SUBAGENT_ALREADY_ACTIVE"],
    ]);
    fc.assert(
      fc.property(validStream, fc.nat(), (events, n) => {
        const i = pickFrom(
          indicesWhere(events, (e) => codes.has(e.type)),
          n,
        );
        fc.pre(i !== undefined);
        const ev = events[i];
        const code = ev === undefined ? undefined : codes.get(ev.type);
        if (ev === undefined || code === undefined) throw new Error("unreachable");
        expectRejected(insertAt(events, i + 1, { ...ev }), { index: i + 1, code });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("retagging a continuation or terminator with a fresh subagent is OWNER_MISMATCH", () => {
    const continuations = new Set([
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
      "TOOL_CALL_ARGS",
      "TOOL_CALL_END",
      "REASONING_MESSAGE_CONTENT",
      "REASONING_MESSAGE_END",
      "REASONING_END",
    ]);
    fc.assert(
      fc.property(validStream, fc.nat(), (events, n) => {
        // The entity is open, so its START recorded an owner in this run (registries never
        // forget within a run), and no recorded owner equals a never-used subagent id.
        const i = pickFrom(
          indicesWhere(events, (e) => continuations.has(e.type)),
          n,
        );
        fc.pre(i !== undefined);
        const ev = events[i];
        if (ev === undefined) throw new Error("unreachable");
        expectRejected(replaceAt(events, i, { ...ev, subagentRunId: FRESH }), {
          index: i,
          code: "OWNER_MISMATCH",
        });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("retagging any ownership-checked event whose owner the model knows is rejected (rules 9, 10, 11)", () => {
    // Covers re-opens, REASONING_START/END (the span registry), REASONING_ENCRYPTED_VALUE
    // (per subtype, §8.6), ACTIVITY_DELTA, TOOL_CALL_START (rule 9 first, then rule 10) and
    // STEP_FINISHED, with owners that MESSAGES_SNAPSHOT, the input echo, TOOL_CALL_RESULT and
    // replacing ACTIVITY_SNAPSHOTs (re)recorded, as the spec-derived model tracks them, in
    // every run of the stream.
    fc.assert(
      fc.property(validStreamWithMeta, fc.nat(), ({ events, onRetag }, n) => {
        // Pick a type first, then an event of that type, so rare types get their turn.
        const targets = indicesWhere(events, (_e, i) => onRetag[i] !== undefined);
        const types = [...new Set(targets.map((k) => events[k]?.type))];
        const type = pickFrom(types, n);
        const i = pickFrom(
          targets.filter((k) => events[k]?.type === type),
          Math.floor(n / 7),
        );
        fc.pre(i !== undefined);
        const ev = events[i];
        const code = onRetag[i];
        if (ev === undefined || code === undefined) throw new Error("unreachable");
        expectRejected(replaceAt(events, i, { ...ev, subagentRunId: FRESH }), { index: i, code });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("closing a step under an owner that does not hold it is STEP_OWNER_MISMATCH; an unknown name is STEP_NOT_STARTED", () => {
    // Owners as step identities (§9.13): untagged = the parent, "" is a subagent.
    const ownerKey = (e: Ev): string =>
      typeof e.subagentRunId === "string" ? `S${e.subagentRunId}` : "P";
    const owners: ReadonlyArray<string | undefined> = [undefined, ...SUBAGENTS, FRESH];
    fc.assert(
      fc.property(validStream, fc.nat(), fc.nat(), fc.boolean(), (events, n, m, retag) => {
        const i = pickFrom(
          indicesWhere(events, (e) => e.type === "STEP_FINISHED"),
          n,
        );
        fc.pre(i !== undefined);
        const ev = events[i];
        if (ev === undefined) throw new Error("unreachable");
        if (!retag) {
          expectRejected(replaceAt(events, i, { ...ev, stepName: "never-opened-step" }), {
            index: i,
            code: "STEP_NOT_STARTED",
          });
          return;
        }
        // Which (owner, name) pairs are open just before i: a plain scan of the prefix,
        // starting afresh at each RUN_STARTED (§9.6).
        const open = new Set<string>();
        for (const e of events.slice(0, i)) {
          const key = JSON.stringify([ownerKey(e), e.stepName]);
          if (e.type === "RUN_STARTED") open.clear();
          if (e.type === "STEP_STARTED") open.add(key);
          if (e.type === "STEP_FINISHED") open.delete(key);
        }
        const others = owners.filter((o) => {
          const probe: Ev = { type: "STEP_FINISHED" };
          if (o !== undefined) probe.subagentRunId = o;
          return !open.has(JSON.stringify([ownerKey(probe), ev.stepName]));
        });
        const other = others[m % others.length];
        const { subagentRunId: _old, ...rest } = ev;
        const mutated: Ev = { ...rest, type: ev.type };
        if (other !== undefined) mutated.subagentRunId = other;
        // The name is open under ev's owner (the run is valid), but not under `other`.
        expectRejected(replaceAt(events, i, mutated), { index: i, code: "STEP_OWNER_MISMATCH" });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("a continuation or terminator of a never-opened id inside a run is *_NOT_OPEN", () => {
    fc.assert(
      fc.property(
        validStreamWithMeta,
        fc.nat(),
        fc.nat(),
        fc.constantFrom(
          {
            type: "TEXT_MESSAGE_CONTENT",
            messageId: "never-opened",
            code: "TEXT_MESSAGE_NOT_OPEN",
          },
          { type: "TEXT_MESSAGE_END", messageId: "never-opened", code: "TEXT_MESSAGE_NOT_OPEN" },
          { type: "TOOL_CALL_ARGS", toolCallId: "never-opened", code: "TOOL_CALL_NOT_OPEN" },
          { type: "TOOL_CALL_END", toolCallId: "never-opened", code: "TOOL_CALL_NOT_OPEN" },
          {
            type: "REASONING_MESSAGE_CONTENT",
            messageId: "never-opened",
            code: "REASONING_MESSAGE_NOT_OPEN",
          },
          {
            type: "REASONING_MESSAGE_END",
            messageId: "never-opened",
            code: "REASONING_MESSAGE_NOT_OPEN",
          },
          { type: "REASONING_END", messageId: "never-opened", code: "REASONING_SPAN_NOT_OPEN" },
        ),
        ({ events, runs }, n, k, { code, ...ev }) => {
          const run = pickFrom(startedRuns(runs), k);
          fc.pre(run !== undefined);
          // Anywhere strictly inside the run: after RUN_STARTED, up to its closing event.
          const p = run.start + 1 + (n % (run.close - run.start));
          expectRejected(insertAt<Ev>(events, p, ev), { index: p, code });
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it("a continuation or terminator right after the terminator is *_NOT_OPEN", () => {
    const families = new Map<string, { cont: string; key: string; code: string }>([
      [
        "TEXT_MESSAGE_END",
        { cont: "TEXT_MESSAGE_CONTENT", key: "messageId", code: "TEXT_MESSAGE_NOT_OPEN" },
      ],
      ["TOOL_CALL_END", { cont: "TOOL_CALL_ARGS", key: "toolCallId", code: "TOOL_CALL_NOT_OPEN" }],
      [
        "REASONING_MESSAGE_END",
        {
          cont: "REASONING_MESSAGE_CONTENT",
          key: "messageId",
          code: "REASONING_MESSAGE_NOT_OPEN",
        },
      ],
      // A span has no continuation: only its terminator, again.
      [
        "REASONING_END",
        { cont: "REASONING_END", key: "messageId", code: "REASONING_SPAN_NOT_OPEN" },
      ],
    ]);
    fc.assert(
      fc.property(validStream, fc.nat(), fc.boolean(), (events, n, again) => {
        const i = pickFrom(
          indicesWhere(events, (e) => families.has(e.type)),
          n,
        );
        fc.pre(i !== undefined);
        const end = events[i];
        const fam = end === undefined ? undefined : families.get(end.type);
        if (end === undefined || fam === undefined) throw new Error("unreachable");
        // Same tag as the END, so ownership (rule 9, checked later) cannot interfere.
        const extra: Ev = again ? { ...end } : { ...end, type: fam.cont };
        expectRejected(insertAt(events, i + 1, extra), { index: i + 1, code: fam.code });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("after RUN_FINISHED only RUN_STARTED or one RUN_ERROR, after RUN_ERROR only RUN_STARTED: anything else is EVENT_AFTER_RUN_CLOSED", () => {
    fc.assert(
      fc.property(validStreamWithMeta, fc.nat(), fc.nat(), ({ events, runs }, k, n) => {
        const run = pickFrom(runs, k);
        if (run === undefined) throw new Error("a stream has a run or a leading RUN_ERROR");
        const p = (run.late ?? run.close) + 1;
        const finished = run.ending === "finished";
        // Every recognised type may be the one that comes too late, RAW and CUSTOM included;
        // RUN_ERROR too once the run has failed (§7 rule 2).
        const extras: Ev[] = [
          ...events,
          { type: "RUN_FINISHED" },
          { type: "RAW" },
          { type: "CUSTOM" },
          { type: "RUN_ERROR" },
        ].filter(
          (e) =>
            RECOGNISED.has(e.type) &&
            e.type !== "RUN_STARTED" &&
            !(finished && e.type === "RUN_ERROR"),
        );
        const extra = pickFrom(extras, n);
        if (extra === undefined) throw new Error("unreachable");
        expectRejected(insertAt(events, p, { ...extra }), {
          index: p,
          code: "EVENT_AFTER_RUN_CLOSED",
        });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("one late RUN_ERROR after a RUN_FINISHED is accepted; a second is EVENT_AFTER_RUN_CLOSED", () => {
    fc.assert(
      fc.property(validStreamWithMeta, fc.nat(), ({ events, runs }, k) => {
        const run = pickFrom(
          runs.filter((r) => r.ending === "finished"),
          k,
        );
        fc.pre(run !== undefined);
        const late = insertAt<Ev>(events, run.close + 1, { type: "RUN_ERROR", message: "late" });
        expectAccepted(late);
        expectRejected(insertAt<Ev>(late, run.close + 2, { type: "RUN_ERROR" }), {
          index: run.close + 2,
          code: "EVENT_AFTER_RUN_CLOSED",
        });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("events of unknown types inserted anywhere keep a stream valid (§9.2)", () => {
    fc.assert(
      fc.property(
        validStream,
        fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 4 }),
        (events, inserts) => {
          let stream: Ev[] = events;
          for (const [at, k] of inserts) {
            stream = insertAt(stream, at % (stream.length + 1), unknownEvent(k));
          }
          expectAccepted(stream);
          expectAccepted(stream, { protocol: "draft" });
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it("a recognised event other than RUN_STARTED/RUN_ERROR before the first run is EVENT_BEFORE_RUN_STARTED, RAW and CUSTOM included", () => {
    fc.assert(
      fc.property(validStream, fc.nat(), fc.nat(), (events, n, m) => {
        const first = events.findIndex((e) => RECOGNISED.has(e.type));
        if (first < 0) throw new Error("a stream has a run or a leading RUN_ERROR");
        const p = n % (first + 1);
        const extra = pickFrom(
          [...events, { type: "RAW" }, { type: "CUSTOM" }].filter(
            (e) => RECOGNISED.has(e.type) && e.type !== "RUN_STARTED" && e.type !== "RUN_ERROR",
          ),
          m,
        );
        if (extra === undefined) throw new Error("unreachable");
        expectRejected(insertAt(events, p, { ...extra }), {
          index: p,
          code: "EVENT_BEFORE_RUN_STARTED",
        });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("dropping a RUN_STARTED: rule 1 or 2 at the next recognised event, unless that is a RUN_ERROR the phase allows", () => {
    fc.assert(
      fc.property(validStreamWithMeta, fc.nat(), ({ events, runs }, k) => {
        const run = pickFrom(startedRuns(runs), k);
        fc.pre(run !== undefined);
        const mutated = removeAt(events, run.start);
        const before = phaseAfter(events, run.start);
        const j = mutated.findIndex((e, i) => i >= run.start && RECOGNISED.has(e.type));
        const next = mutated[j];
        if (next === undefined) throw new Error("a run has a closing event");
        if (next.type === "RUN_ERROR" && before !== "FAILED") {
          // A RUN_ERROR may open a stream, or follow a RUN_FINISHED once (rules 1, 2); the
          // run had nothing else, and after its failure comes a new run or the end.
          expect(j + 1).toBe(run.close);
          expectAccepted(mutated);
        } else {
          const code =
            before === "BEFORE_RUN" ? "EVENT_BEFORE_RUN_STARTED" : "EVENT_AFTER_RUN_CLOSED";
          expectRejected(mutated, { index: j, code });
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("truncation: before any run is STREAM_ENDED_BEFORE_RUN_STARTED, inside a run STREAM_ENDED_BEFORE_RUN_CLOSED, after a close accepted", () => {
    fc.assert(
      fc.property(validStreamWithMeta, fc.nat(), fc.nat(), ({ events, runs }, n, k) => {
        const cut = n % (events.length + 1);
        const phase = phaseAfter(events, cut);
        if (phase === "BEFORE_RUN") {
          expectRejected(events.slice(0, cut), {
            index: cut,
            code: "STREAM_ENDED_BEFORE_RUN_STARTED",
          });
        } else if (phase === "RUNNING") {
          expectRejected(events.slice(0, cut), {
            index: cut,
            code: "STREAM_ENDED_BEFORE_RUN_CLOSED",
          });
        } else {
          // §9.7: FINISHED and FAILED both end a stream well.
          expectAccepted(events.slice(0, cut));
        }
        // And a cut strictly inside some run, every time.
        const run = pickFrom(startedRuns(runs), k);
        if (run === undefined) return;
        const c = run.start + 1 + (n % (run.close - run.start));
        expectRejected(events.slice(0, c), { index: c, code: "STREAM_ENDED_BEFORE_RUN_CLOSED" });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("dropping a SUBAGENT_FINISHED/ERROR leaves it active: SUBAGENT_OPEN_AT_RUN_FINISHED, or nothing if the run fails", () => {
    fc.assert(
      fc.property(validStreamWithMeta, fc.nat(), ({ events, runs }, n) => {
        // Within a valid run a closed subagent is never restarted (it would be
        // SUBAGENT_ALREADY_FINISHED), so nothing between notices; RUN_FINISHED does (rule 13),
        // RUN_ERROR does not, and the next run starts with no subagents (§9.6).
        const i = pickFrom(
          indicesWhere(
            events,
            (e) => e.type === "SUBAGENT_FINISHED" || e.type === "SUBAGENT_ERROR",
          ),
          n,
        );
        fc.pre(i !== undefined);
        const run = runHolding(runs, i);
        if (run === undefined) throw new Error("unreachable");
        const mutated = removeAt(events, i);
        if (run.ending === "error") expectAccepted(mutated);
        else
          expectRejected(mutated, {
            index: run.close - 1,
            code: "SUBAGENT_OPEN_AT_RUN_FINISHED",
          });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("a TOOL_CALL_RESULT for a call that is still open is accepted (rule 5 left the verifier)", () => {
    fc.assert(
      fc.property(
        validStream,
        fc.nat(),
        fc.constantFrom<string | undefined>(undefined, "s1", ""),
        (events, n, tag) => {
          const i = pickFrom(
            indicesWhere(events, (e) => e.type === "TOOL_CALL_START"),
            n,
          );
          fc.pre(i !== undefined);
          const start = events[i];
          if (start === undefined) throw new Error("unreachable");
          // A tool message id nobody else uses: its minted owner (§8.4) is never consulted.
          const result: Ev = {
            type: "TOOL_CALL_RESULT",
            toolCallId: start.toolCallId,
            messageId: "tool-message-of-an-open-call",
          };
          if (tag !== undefined) result.subagentRunId = tag;
          expectAccepted(insertAt(events, i + 1, result));
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it("a required field set to null / a number / deleted is FIELD_NULL / FIELD_WRONG_TYPE / FIELD_MISSING", () => {
    fc.assert(
      fc.property(
        validStream,
        fc.nat(),
        fc.nat(),
        fc.constantFrom("null", "number", "delete"),
        fc.constantFrom<Protocol>("1.1", "draft"),
        (events, n, m, mode, protocol) => {
          // Under protocol draft, RUN_STARTED's and RUN_FINISHED's ids are required (§3.2).
          const targets: Array<{ i: number; path: Path }> = [];
          events.forEach((ev, i) => {
            for (const path of requiredPaths(ev, protocol)) targets.push({ i, path });
          });
          const t = pickFrom(targets, n + m);
          fc.pre(t !== undefined);
          const ev = events[t.i];
          if (ev === undefined) throw new Error("unreachable");
          const value = mode === "null" ? null : mode === "number" ? 42 : DELETE;
          const code =
            mode === "null"
              ? "FIELD_NULL"
              : mode === "number"
                ? "FIELD_WRONG_TYPE"
                : "FIELD_MISSING";
          expectRejected(
            replaceAt(events, t.i, withPath(ev, t.path, value)),
            { index: t.i, code, field: renderPath(t.path) },
            { protocol },
          );
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it("an optional read field (tag, parentMessageId, replace, outcome, input, ...) set to null / a wrong type is rule 0", () => {
    fc.assert(
      fc.property(validRun, fc.nat(), fc.boolean(), (events, n, asNull) => {
        const targets: Array<{ i: number; path: Path }> = [];
        events.forEach((ev, i) => {
          for (const path of nullablePaths(ev)) targets.push({ i, path });
        });
        const t = pickFrom(targets, n);
        if (t === undefined) throw new Error("RUN_STARTED always has an input to mutate");
        const ev = events[t.i];
        if (ev === undefined) throw new Error("unreachable");
        expectRejected(replaceAt(events, t.i, withPath(ev, t.path, asNull ? null : 42)), {
          index: t.i,
          code: asNull ? "FIELD_NULL" : "FIELD_WRONG_TYPE",
          field: renderPath(t.path),
        });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("an element of a read array (messages, toolCalls, interrupts) that is not an object is rule 0", () => {
    fc.assert(
      fc.property(
        validStream,
        fc.nat(),
        fc.constantFrom<unknown>(null, 1, "x", [], true),
        (events, n, value) => {
          const targets: Array<{ i: number; path: Path }> = [];
          events.forEach((ev, i) => {
            for (const path of elementPaths(ev)) targets.push({ i, path });
          });
          const t = pickFrom(targets, n);
          fc.pre(t !== undefined);
          const ev = events[t.i];
          if (ev === undefined) throw new Error("unreachable");
          expectRejected(replaceAt(events, t.i, withPath(ev, t.path, value)), {
            index: t.i,
            code: value === null ? "FIELD_NULL" : "FIELD_WRONG_TYPE",
            field: renderPath(t.path),
          });
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it("unread fields never matter: nulling, breaking or deleting them keeps a stream valid", () => {
    // Complement of the above (§0): fields outside "Fields read" may be anything. Under
    // protocol 1.1 that includes the run ids.
    const unread = ["threadId", "runId", "delta", "role", "name", "content", "toolCallName"];
    fc.assert(
      fc.property(
        validStream,
        fc.nat(),
        fc.constantFrom(...unread),
        fc.constantFrom<unknown>(null, 42, {}, [null]),
        (events, n, key, value) => {
          const i = n % events.length;
          const ev = events[i];
          if (ev === undefined) throw new Error("unreachable");
          expectAccepted(replaceAt(events, i, { ...ev, [key]: value }));
          const { [key]: _drop, ...rest } = ev;
          expectAccepted(replaceAt<Ev>(events, i, { ...rest, type: ev.type }));
        },
      ),
      { numRuns: 100 },
    );
  });

  it("the subagentRunId of RUN_STARTED, RUN_FINISHED, RUN_ERROR and MESSAGES_SNAPSHOT is not read, whatever it is", () => {
    fc.assert(
      fc.property(
        validStream,
        fc.nat(),
        fc.constantFrom<unknown>(null, 42, "", "s1", FRESH, {}, [], true),
        (events, n, value) => {
          const i = pickFrom(
            indicesWhere(events, (e) => RUN_LEVEL_TYPES.has(e.type)),
            n,
          );
          if (i === undefined) throw new Error("a stream has a run or a leading RUN_ERROR");
          const ev = events[i];
          if (ev === undefined) throw new Error("unreachable");
          expectAccepted(replaceAt(events, i, { ...ev, subagentRunId: value }));
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it("a second RUN_STARTED inside a run is RUN_ALREADY_STARTED", () => {
    fc.assert(
      fc.property(validStreamWithMeta, fc.nat(), fc.nat(), ({ events, runs }, n, k) => {
        const run = pickFrom(startedRuns(runs), k);
        fc.pre(run !== undefined);
        const p = run.start + 1 + (n % (run.close - run.start));
        expectRejected(
          insertAt<Ev>(events, p, { type: "RUN_STARTED", threadId: "t", runId: "x" }),
          {
            index: p,
            code: "RUN_ALREADY_STARTED",
          },
        );
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("an interrupt outcome without interrupts is INTERRUPT_OUTCOME_EMPTY", () => {
    fc.assert(
      fc.property(validStreamWithMeta, fc.nat(), fc.boolean(), ({ events, runs }, k, absent) => {
        const run = pickFrom(
          runs.filter((r) => r.ending !== "error"),
          k,
        );
        fc.pre(run !== undefined);
        const rf = events[run.close];
        if (rf === undefined || rf.type !== "RUN_FINISHED") throw new Error("unreachable");
        const outcome = absent ? { type: "interrupt" } : { type: "interrupt", interrupts: [] };
        expectRejected(replaceAt(events, run.close, { ...rf, outcome }), {
          index: run.close,
          code: "INTERRUPT_OUTCOME_EMPTY",
        });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("nothing of a closed run crosses the next RUN_STARTED: open entities, steps, subagents, owners (§9.6)", () => {
    // Before the stream: one run that opens every id of every kind and every step under a
    // subagent nobody else uses, starts every subagent, then fails or finishes. Were any of
    // it kept, the stream after it would break rules 3, 4, 6, 9, 10, 11 or 12.
    const prefix = (finish: boolean): Ev[] => {
      const tag = { subagentRunId: FRESH };
      const out: Ev[] = [{ type: "RUN_STARTED", threadId: "t1", runId: "r0" }];
      for (const id of IDS) {
        out.push({ type: "TEXT_MESSAGE_START", messageId: id, ...tag });
        out.push({ type: "TOOL_CALL_START", toolCallId: id, ...tag });
        out.push({ type: "REASONING_MESSAGE_START", messageId: id, ...tag });
        out.push({ type: "REASONING_START", messageId: id, ...tag });
        out.push({ type: "ACTIVITY_SNAPSHOT", messageId: id, ...tag });
        out.push({ type: "STEP_STARTED", stepName: id, ...tag });
      }
      for (const s of SUBAGENTS) out.push({ type: "SUBAGENT_STARTED", subagentRunId: s });
      if (!finish) return [...out, { type: "RUN_ERROR" }];
      for (const id of IDS) {
        out.push({ type: "TEXT_MESSAGE_END", messageId: id });
        out.push({ type: "TOOL_CALL_END", toolCallId: id });
        out.push({ type: "REASONING_MESSAGE_END", messageId: id });
        out.push({ type: "REASONING_END", messageId: id });
        out.push({ type: "STEP_FINISHED", stepName: id, ...tag });
      }
      for (const s of SUBAGENTS) out.push({ type: "SUBAGENT_FINISHED", subagentRunId: s });
      return [...out, { type: "RUN_FINISHED", threadId: "t1", runId: "r0" }];
    };
    fc.assert(
      fc.property(validStream, fc.boolean(), (events, finish) => {
        // A stream that opens with RUN_ERROR cannot follow a failed run (rule 2).
        fc.pre(events.find((e) => RECOGNISED.has(e.type))?.type === "RUN_STARTED");
        expectAccepted([...prefix(finish), ...events]);
        expectAccepted([...prefix(finish), ...events], { protocol: "draft" });
      }),
      { numRuns: 150 },
    );
  });

  it("with protocol draft, a RUN_FINISHED naming another run is RUN_ID_MISMATCH, another thread THREAD_ID_MISMATCH; 1.1 reads neither", () => {
    fc.assert(
      fc.property(
        validStreamWithMeta,
        fc.nat(),
        fc.constantFrom("runId", "threadId"),
        ({ events, runs }, k, key) => {
          const run = pickFrom(
            runs.filter((r) => r.ending !== "error"),
            k,
          );
          fc.pre(run !== undefined);
          const rf = events[run.close];
          if (rf === undefined) throw new Error("unreachable");
          const mutated = replaceAt(events, run.close, { ...rf, [key]: "another" });
          expectAccepted(mutated);
          expectRejected(
            mutated,
            {
              index: run.close,
              code: key === "runId" ? "RUN_ID_MISMATCH" : "THREAD_ID_MISMATCH",
            },
            { protocol: "draft" },
          );
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it("with protocol draft, a later RUN_STARTED on another thread is THREAD_ID_MISMATCH", () => {
    fc.assert(
      fc.property(validStreamWithMeta, fc.nat(), ({ events, runs }, k) => {
        const later = startedRuns(runs).slice(1);
        const run = pickFrom(later, k);
        fc.pre(run !== undefined);
        const rs = events[run.start];
        if (rs === undefined) throw new Error("unreachable");
        const mutated = replaceAt(events, run.start, { ...rs, threadId: "another-thread" });
        expectAccepted(mutated);
        expectRejected(
          mutated,
          { index: run.start, code: "THREAD_ID_MISMATCH" },
          { protocol: "draft" },
        );
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("with protocol draft, a repeated interrupt id is INTERRUPT_ID_DUPLICATE at the second; 1.1 does not compare them", () => {
    fc.assert(
      fc.property(
        validStreamWithMeta,
        fc.nat(),
        fc.nat({ max: 3 }),
        fc.nat({ max: 3 }),
        ({ events, runs }, k, before, between) => {
          const run = pickFrom(
            runs.filter((r) => r.ending !== "error"),
            k,
          );
          fc.pre(run !== undefined);
          const rf = events[run.close];
          if (rf === undefined) throw new Error("unreachable");
          // Distinct ids, and interrupts without a string id (never compared), around the pair.
          const filler = (n: number, from: number) =>
            Array.from({ length: n }, (_, j) =>
              j % 2 === 0 ? { id: `u${from + j}`, reason: "r" } : { id: 7, reason: "r" },
            );
          const interrupts = [
            ...filler(before, 0),
            { id: "dup", reason: "first" },
            ...filler(between, 10),
            { id: "dup", reason: "second" },
          ];
          const mutated = replaceAt(events, run.close, {
            ...rf,
            outcome: { type: "interrupt", interrupts },
          });
          expectAccepted(mutated);
          expectRejected(
            mutated,
            {
              index: run.close,
              code: "INTERRUPT_ID_DUPLICATE",
              field: `outcome.interrupts[${interrupts.length - 1}].id`,
            },
            { protocol: "draft" },
          );
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it("verifyAll does not mutate the events it is given", () => {
    fc.assert(
      fc.property(validStream, (events) => {
        const before = events.map((e) => JSON.stringify(cloneJson(e)));
        verifyAll(events);
        expect(events.map((e) => JSON.stringify(e))).toEqual(before);
      }),
      { numRuns: 50 },
    );
  });
});

// ---------------------------------------------------------------------------------------

describe("poisoning (§10.4)", () => {
  const junk: fc.Arbitrary<unknown> = fc.oneof(
    fc.constantFrom<unknown>(null, undefined, 1, "x", [], { type: "RUN_STARTED" }, { type: "RAW" }),
    fc.record({
      type: fc.constantFrom("TEXT_MESSAGE_START", "RUN_FINISHED", "CUSTOM"),
      messageId: fc.string(),
    }),
  );

  it("after the first error every later verify()/end() throws the very same instance", () => {
    fc.assert(
      fc.property(
        validRun,
        fc.nat(),
        fc.constantFrom("null", "dup-run-started", "truncate", "null-tag", "after-close"),
        fc.array(junk, { maxLength: 5 }),
        (events, n, breakage, tail) => {
          const rs = runStartedIndex(events);
          let stream: unknown[];
          switch (breakage) {
            case "null":
              stream = insertAt<unknown>(events, n % (events.length + 1), null);
              break;
            case "dup-run-started":
              stream = insertAt<unknown>(events, rs + 1, { type: "RUN_STARTED" });
              break;
            case "truncate": {
              // Before the run closes: after its close the stream would end well (§9.7).
              const close = events.findIndex(
                (e, k) => k > rs && (e.type === "RUN_FINISHED" || e.type === "RUN_ERROR"),
              );
              stream = events.slice(0, n % (close + 1));
              break;
            }
            case "null-tag": {
              const i = rs + 1 + (n % (events.length - 1 - rs));
              const ev = events[i];
              // An unknown type's tag is not read, nor a run-level event's (§3.1); for those,
              // use an EVENT_NOT_OBJECT instead.
              stream =
                ev !== undefined && RECOGNISED.has(ev.type) && !RUN_LEVEL_TYPES.has(ev.type)
                  ? replaceAt<unknown>(events, i, { ...ev, subagentRunId: null })
                  : replaceAt<unknown>(events, i, [ev]);
              break;
            }
            default:
              stream = [...events, { type: "CUSTOM" }];
          }
          // Phase 1: feed the broken stream, then end(); exactly one first error.
          const v = new Verifier();
          let first: unknown;
          let firstAt = -1;
          const call = (f: () => void, at: number): void => {
            try {
              f();
            } catch (e) {
              if (first === undefined) {
                first = e;
                firstAt = at;
              } else {
                expect(e).toBe(first);
              }
            }
            if (first !== undefined) expect(v.error).toBe(first);
          };
          stream.forEach((ev, k) => {
            call(() => v.verify(ev), k);
          });
          call(() => v.end(), stream.length);
          // Every breakage makes the stream invalid.
          expect(first).toBeInstanceOf(VerifyError);
          if (!(first instanceof VerifyError)) return;
          expect(first.index).toBe(firstAt);
          // Phase 2: still poisoned, whatever comes next, without looking at it.
          for (const x of [...tail, null, { type: "RAW" }, { type: "RUN_STARTED" }]) {
            let again: unknown;
            try {
              v.verify(x);
            } catch (e) {
              again = e;
            }
            expect(again).toBe(first);
            let atEnd: unknown;
            try {
              v.end();
            } catch (e) {
              atEnd = e;
            }
            expect(atEnd).toBe(first);
          }
          expect(v.error).toBe(first);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });
});
