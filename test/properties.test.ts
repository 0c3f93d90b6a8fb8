// Property tests: generated valid runs are accepted, and targeted mutations of valid runs
// are rejected at the expected index with the expected code. Every expectation is derived
// from SPEC.md by simple reasoning about the mutated stream, never from the implementation.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isVerifyError, Verifier, VerifyError, verifyAll } from "../src/index.ts";
import {
  cloneJson,
  DELETE,
  elementPaths,
  indicesWhere,
  nullablePaths,
  type Path,
  pickFrom,
  renderPath,
  requiredPaths,
  withPath,
} from "./support/mutate.ts";
import { RECOGNISED, ruleOfCode } from "./support/spec-tables.ts";
import {
  type Ev,
  finishedRun,
  IDS,
  PARENT,
  SUBAGENTS,
  sequentialRuns,
  validRun,
  validRunWithMeta,
} from "./support/valid-run.ts";

const NUM_RUNS = 250;
const FRESH = "fresh-subagent-never-seen";

interface Expected {
  index: number;
  code: string;
  field?: string;
}

function rejectionOf(
  events: readonly unknown[],
  options?: { allowSequentialRuns?: boolean },
): VerifyError {
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
  options?: { allowSequentialRuns?: boolean },
): void {
  const err = rejectionOf(events, options);
  expect(err).toBeInstanceOf(VerifyError);
  expect(isVerifyError(err)).toBe(true);
  const actual: Expected = { index: err.index, code: err.code };
  if (expected.field !== undefined) actual.field = String(err.field);
  expect(actual, err.message).toEqual(expected);
  expect(err.rule).toBe(ruleOfCode(expected.code));
  expect(err.message.endsWith(`[${expected.code}, rule ${ruleOfCode(expected.code)}]`)).toBe(true);
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

function expectAccepted(events: readonly unknown[], options?: { allowSequentialRuns?: boolean }) {
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

// ---------------------------------------------------------------------------------------

describe("generated valid runs", () => {
  it("are accepted by verifyAll", () => {
    fc.assert(
      fc.property(validRun, (events) => {
        expectAccepted(events);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("are accepted event by event; end() is idempotent; verify() after end() throws a plain Error", () => {
    fc.assert(
      fc.property(
        validRun,
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

  it("are also accepted with allowSequentialRuns", () => {
    fc.assert(
      fc.property(validRun, (events) => {
        expectAccepted(events, { allowSequentialRuns: true });
      }),
      { numRuns: 100 },
    );
  });

  it("concatenated (RAW/CUSTOM between runs) are accepted with allowSequentialRuns, rejected without", () => {
    fc.assert(
      fc.property(
        sequentialRuns,
        fc.array(fc.constantFrom("RAW", "CUSTOM"), { maxLength: 2 }),
        (runs, between) => {
          const stream: Ev[] = [];
          runs.forEach((run, k) => {
            if (k > 0) for (const t of between) stream.push({ type: t });
            stream.push(...run);
          });
          expectAccepted(stream, { allowSequentialRuns: true });
          const first = runs[0];
          if (runs.length > 1 && first !== undefined) {
            // §9.6: without the option, the first event after the first close is rule 2.
            expectRejected(stream, { index: first.length, code: "EVENT_AFTER_RUN_CLOSED" });
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("cover the features the generator is meant to exercise", () => {
    // A deterministic sample; guards against the generator silently losing coverage.
    const runs = fc.sample(validRun, { numRuns: 300, seed: 1234 });
    const seen = new Set<string>();
    const note = (k: string, cond: boolean) => {
      if (cond) seen.add(k);
    };
    for (const run of runs) {
      const openSteps = new Map<string, number>();
      const openText = new Set<unknown>();
      let maxOpenText = 0;
      for (const ev of run) {
        seen.add(`type:${ev.type}`);
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
        note("parentSubagentRunId", "parentSubagentRunId" in ev);
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
        if (ev.type === "TEXT_MESSAGE_START") openText.add(ev.messageId);
        if (ev.type === "TEXT_MESSAGE_END") openText.delete(ev.messageId);
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
      const last = run[run.length - 1];
      note("ending:error", last?.type === "RUN_ERROR");
      note("ending:finished", last?.type === "RUN_FINISHED");
      note("prelude", run[0]?.type === "RAW" || run[0]?.type === "CUSTOM");
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
      "type:TEXT_MESSAGE_CHUNK",
      "type:TOOL_CALL_CHUNK",
      "type:REASONING_MESSAGE_CHUNK",
      "type:SOME_FUTURE_EVENT",
      "type:THINKING_TEXT_MESSAGE_CONTENT",
      "type:SUBAGENT_STARTED",
      "type:SUBAGENT_FINISHED",
      "type:SUBAGENT_ERROR",
      "tag:empty",
      "tag:never-announced",
      "id:__proto__",
      "id:constructor",
      "id:empty",
      "parentMessageId",
      "parentMessageId:untagged-open",
      "parentSubagentRunId",
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
      "prelude",
    ];
    expect(required.filter((k) => !seen.has(k))).toEqual([]);
    // Sanity on the shared constants the generator uses.
    expect(IDS).toContain("__proto__");
    expect(SUBAGENTS).toContain("");
    expect(typeof PARENT).toBe("symbol");
  });
});

// ---------------------------------------------------------------------------------------

describe("mutations of valid runs are rejected where expected", () => {
  it("dropping a *_END leaves the entity open: ALREADY_OPEN at its re-start, else OPEN_AT_RUN_FINISHED", () => {
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
    ]);
    fc.assert(
      fc.property(finishedRun, fc.nat(), (events, n) => {
        const i = pickFrom(
          indicesWhere(events, (e) => kinds.has(e.type)),
          n,
        );
        fc.pre(i !== undefined);
        const dropped = events[i];
        const kind = dropped === undefined ? undefined : kinds.get(dropped.type);
        if (dropped === undefined || kind === undefined) throw new Error("unreachable");
        const id = dropped[kind.key];
        // The only difference is that `id` stays open. The first later event that cares:
        let expected: Expected | undefined;
        for (let j = i + 1; j < events.length && expected === undefined; j++) {
          const e = events[j];
          if (e === undefined) continue;
          if (e.type === kind.start && e[kind.key] === id)
            expected = { index: j - 1, code: kind.code };
          else if (
            kind.start === "TOOL_CALL_START" &&
            e.type === "TOOL_CALL_RESULT" &&
            e.toolCallId === id
          ) {
            expected = { index: j - 1, code: "TOOL_CALL_RESULT_BEFORE_END" };
          } else if (e.type === "RUN_FINISHED")
            expected = { index: j - 1, code: "OPEN_AT_RUN_FINISHED" };
        }
        if (expected === undefined) throw new Error("finished run without RUN_FINISHED");
        expectRejected(removeAt(events, i), expected);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("duplicating an opener right after itself is *_ALREADY_OPEN / *_ALREADY_ACTIVE", () => {
    const codes = new Map<string, string>([
      ["TEXT_MESSAGE_START", "TEXT_MESSAGE_ALREADY_OPEN"],
      ["TOOL_CALL_START", "TOOL_CALL_ALREADY_OPEN"],
      ["REASONING_MESSAGE_START", "REASONING_MESSAGE_ALREADY_OPEN"],
      ["STEP_STARTED", "STEP_ALREADY_ACTIVE"],
      ["SUBAGENT_STARTED", "SUBAGENT_ALREADY_ACTIVE"],
    ]);
    fc.assert(
      fc.property(validRun, fc.nat(), (events, n) => {
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
    ]);
    fc.assert(
      fc.property(validRun, fc.nat(), (events, n) => {
        // The entity is open, so its START recorded an owner (registries never forget
        // within a run), and no recorded owner equals a never-used subagent id.
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
    // Covers re-opens, REASONING_START/END, REASONING_ENCRYPTED_VALUE (per subtype, §8.6),
    // ACTIVITY_DELTA, TOOL_CALL_START (rule 9 first, then rule 10) and STEP_FINISHED, with
    // owners that MESSAGES_SNAPSHOT, the input echo, TOOL_CALL_RESULT and replacing
    // ACTIVITY_SNAPSHOTs (re)recorded, as the spec-derived model tracks them.
    fc.assert(
      fc.property(validRunWithMeta, fc.nat(), ({ events, onRetag }, n) => {
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
      fc.property(validRun, fc.nat(), fc.nat(), fc.boolean(), (events, n, m, retag) => {
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
        // Which (owner, name) pairs are open just before i: a plain scan of the prefix.
        const open = new Set<string>();
        for (const e of events.slice(0, i)) {
          const key = JSON.stringify([ownerKey(e), e.stepName]);
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

  it("a continuation of a never-opened id is *_NOT_OPEN", () => {
    fc.assert(
      fc.property(
        validRun,
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
        ),
        (events, n, { code, ...ev }) => {
          const rs = runStartedIndex(events);
          // Anywhere strictly inside the run: after RUN_STARTED, up to the closing event.
          const p = rs + 1 + (n % (events.length - 1 - rs));
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
    ]);
    fc.assert(
      fc.property(validRun, fc.nat(), fc.boolean(), (events, n, again) => {
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

  it("an event after the run closed is EVENT_AFTER_RUN_CLOSED", () => {
    fc.assert(
      fc.property(validRun, fc.nat(), fc.boolean(), (events, n, sequential) => {
        const extras: Ev[] = [
          ...events,
          { type: "RUN_ERROR" },
          { type: "RUN_FINISHED" },
          { type: "SOME_FUTURE_EVENT" },
        ];
        const candidates = sequential
          ? extras.filter((e) => !["RAW", "CUSTOM", "RUN_STARTED"].includes(e.type))
          : extras;
        const extra = pickFrom(candidates, n);
        if (extra === undefined) throw new Error("unreachable");
        expectRejected(
          [...events, { ...extra }],
          { index: events.length, code: "EVENT_AFTER_RUN_CLOSED" },
          { allowSequentialRuns: sequential },
        );
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("an event other than RAW/CUSTOM/RUN_STARTED before RUN_STARTED is EVENT_BEFORE_RUN_STARTED", () => {
    fc.assert(
      fc.property(validRun, fc.nat(), fc.nat(), (events, n, m) => {
        const rs = runStartedIndex(events);
        const p = n % (rs + 1);
        const extra = pickFrom(
          events.filter((e) => !["RAW", "CUSTOM", "RUN_STARTED"].includes(e.type)),
          m,
        );
        if (extra === undefined) throw new Error("a run always has a closing event");
        expectRejected(insertAt(events, p, { ...extra }), {
          index: p,
          code: "EVENT_BEFORE_RUN_STARTED",
        });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("dropping RUN_STARTED is EVENT_BEFORE_RUN_STARTED at the first event that is not RAW/CUSTOM", () => {
    fc.assert(
      fc.property(validRun, (events) => {
        const rs = runStartedIndex(events);
        const mutated = removeAt(events, rs);
        const j = mutated.findIndex((e, k) => k >= rs && e.type !== "RAW" && e.type !== "CUSTOM");
        expect(j).toBeGreaterThanOrEqual(rs);
        expectRejected(mutated, { index: j, code: "EVENT_BEFORE_RUN_STARTED" });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("truncation: before RUN_STARTED is STREAM_ENDED_BEFORE_RUN_STARTED; dropping the close is STREAM_ENDED_BEFORE_RUN_CLOSED", () => {
    fc.assert(
      fc.property(validRun, fc.nat(), (events, n) => {
        const rs = runStartedIndex(events);
        const k = n % (rs + 1); // keep only (part of) the RAW/CUSTOM prelude
        expectRejected(events.slice(0, k), { index: k, code: "STREAM_ENDED_BEFORE_RUN_STARTED" });
        const cut = events.slice(0, events.length - 1);
        expectRejected(cut, { index: cut.length, code: "STREAM_ENDED_BEFORE_RUN_CLOSED" });
        // Any cut strictly inside the run, too.
        const c = rs + 1 + (n % (events.length - 1 - rs));
        expectRejected(events.slice(0, c), { index: c, code: "STREAM_ENDED_BEFORE_RUN_CLOSED" });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("dropping a SUBAGENT_FINISHED/ERROR leaves it active: SUBAGENT_OPEN_AT_RUN_FINISHED", () => {
    fc.assert(
      fc.property(finishedRun, fc.nat(), (events, n) => {
        // Within a valid run a closed subagent is never restarted (it would be
        // SUBAGENT_ALREADY_FINISHED), so nothing between notices; RUN_FINISHED does.
        const i = pickFrom(
          indicesWhere(
            events,
            (e) => e.type === "SUBAGENT_FINISHED" || e.type === "SUBAGENT_ERROR",
          ),
          n,
        );
        fc.pre(i !== undefined);
        const mutated = removeAt(events, i);
        expectRejected(mutated, {
          index: mutated.length - 1,
          code: "SUBAGENT_OPEN_AT_RUN_FINISHED",
        });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("a TOOL_CALL_RESULT right after its TOOL_CALL_START is TOOL_CALL_RESULT_BEFORE_END", () => {
    fc.assert(
      fc.property(
        validRun,
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
          const result: Ev = {
            type: "TOOL_CALL_RESULT",
            toolCallId: start.toolCallId,
            messageId: "t1",
          };
          if (tag !== undefined) result.subagentRunId = tag;
          expectRejected(insertAt(events, i + 1, result), {
            index: i + 1,
            code: "TOOL_CALL_RESULT_BEFORE_END",
          });
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it("a required field set to null / a number / deleted is FIELD_NULL / FIELD_WRONG_TYPE / FIELD_MISSING", () => {
    fc.assert(
      fc.property(
        validRun,
        fc.nat(),
        fc.nat(),
        fc.constantFrom("null", "number", "delete"),
        (events, n, m, mode) => {
          const targets: Array<{ i: number; path: Path }> = [];
          events.forEach((ev, i) => {
            for (const path of requiredPaths(ev)) targets.push({ i, path });
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
          expectRejected(replaceAt(events, t.i, withPath(ev, t.path, value)), {
            index: t.i,
            code,
            field: renderPath(t.path),
          });
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
        if (t === undefined) throw new Error("RUN_STARTED always has a tag to mutate");
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
        validRun,
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

  it("unread fields never matter: nulling or deleting them keeps a run valid", () => {
    // Complement of the above (§0): fields outside "Fields read" may be anything.
    const unread = ["threadId", "runId", "delta", "role", "name", "content", "toolCallName"];
    fc.assert(
      fc.property(validRun, fc.nat(), fc.constantFrom("threadId", ...unread), (events, n, key) => {
        const i = n % events.length;
        const ev = events[i];
        if (ev === undefined) throw new Error("unreachable");
        expectAccepted(replaceAt(events, i, { ...ev, [key]: null }));
        const { [key]: _drop, ...rest } = ev;
        expectAccepted(replaceAt<Ev>(events, i, { ...rest, type: ev.type }));
      }),
      { numRuns: 100 },
    );
  });

  it("a second RUN_STARTED inside the run is RUN_ALREADY_STARTED", () => {
    fc.assert(
      fc.property(validRun, fc.nat(), fc.boolean(), (events, n, sequential) => {
        const rs = runStartedIndex(events);
        const p = rs + 1 + (n % (events.length - 1 - rs));
        expectRejected(
          insertAt<Ev>(events, p, { type: "RUN_STARTED", threadId: "t", runId: "r2" }),
          { index: p, code: "RUN_ALREADY_STARTED" },
          { allowSequentialRuns: sequential },
        );
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("an interrupt outcome without interrupts is INTERRUPT_OUTCOME_EMPTY", () => {
    fc.assert(
      fc.property(finishedRun, fc.boolean(), (events, absent) => {
        const last = events.length - 1;
        const rf = events[last];
        if (rf === undefined || rf.type !== "RUN_FINISHED") throw new Error("unreachable");
        const outcome = absent ? { type: "interrupt" } : { type: "interrupt", interrupts: [] };
        expectRejected(replaceAt(events, last, { ...rf, outcome }), {
          index: last,
          code: "INTERRUPT_OUTCOME_EMPTY",
        });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it("verifyAll does not mutate the events it is given", () => {
    fc.assert(
      fc.property(validRun, (events) => {
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
            case "truncate":
              stream = events.slice(0, n % events.length);
              break;
            case "null-tag": {
              const i = rs + 1 + (n % (events.length - 1 - rs));
              const ev = events[i];
              // An unknown type's tag is not read; for those, use an EVENT_NOT_OBJECT instead.
              stream =
                ev !== undefined && RECOGNISED.has(ev.type)
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
