// The official AG-UI conformance corpus (test/conformance/ag-ui/) through the 1.1 consumer
// pipeline, `conformingEvents` of ag-ui-verify/conform (SPEC §20.4): each fixture's stream
// served as SSE bytes; the 1.1 and 1.0 fixtures with the default options, the draft ones
// with protocol "draft" and supportedVersion "1.0" (written for a consumer of the 1.0 line).
//
// What is compared:
// - the verdict: `outcome: "completed"` ↔ the stream closes; `"failed"` ↔ it errors with a
//   VerifyError whose code (and index) CODES pairs with the fixture's rule (`errorContains`
//   is the official client's wording);
// - `runError`, `eventTypes`, `eventTypesAbsent`, `eventPaths`, `eventAbsentPaths` on the
//   delivered events;
// - `warnings`: each expected string (an event type, a JSON Pointer) is in some warning's
//   message, except where the string is the official client's own wording, which the
//   warning code in CLIENT_WORDING stands for; `noWarnings`: no warning at all.
// Out of scope (SPEC §20.4), and not read: `messages`, `messageCount`, `state` (no reducer),
// `request`, `requestAbsentPaths` (no request is sent), `expectOverrides` (another client's),
// and the fixtures pinning an old peer's downgrade shim, in SKIPPED with the reason.

import { describe, expect, it } from "vitest";
import { type ConformWarning, conformingEvents } from "../src/conform/index.ts";
import { isVerifyError, type VerifyErrorCode } from "../src/index.ts";
import {
  expectEventKeys,
  FIXTURES,
  type Fixture,
  type Rejection,
  sse,
  VERSIONS,
} from "./support/conformance.ts";
import { collect } from "./support/streams.ts";

/** Each failed fixture's rule, as this pipeline's VerifyError names it. */
const CODES: Record<string, Rejection> = {
  "chunk-conflicting-role-fatal": { code: "CHUNK_CONFLICT", index: 2 },
  "chunk-conflicting-tool-name-fatal": { code: "CHUNK_CONFLICT", index: 2 },
  "content-without-start-fatal": { code: "TEXT_MESSAGE_NOT_OPEN", index: 1 },
  "custom-closes-chunk-stream-fatal": { code: "CHUNK_ID_MISSING", index: 3 },
  "event-after-run-finished-fatal": { code: "EVENT_AFTER_RUN_CLOSED", index: 2 },
  "first-chunk-missing-id-fatal": { code: "CHUNK_ID_MISSING", index: 1 },
  "first-event-not-run-started-fatal": { code: "EVENT_BEFORE_RUN_STARTED", index: 0 },
  "first-tool-chunk-missing-name-fatal": { code: "CHUNK_NAME_MISSING", index: 1 },
  "malformed-known-field-fatal": { code: "SCHEMA_MISMATCH", index: 2 },
  "nested-run-started-fatal": { code: "RUN_ALREADY_STARTED", index: 1 },
  "open-message-at-run-finished-fatal": { code: "OPEN_AT_RUN_FINISHED", index: 3 },
  "reasoning-discipline-verified": { code: "REASONING_MESSAGE_NOT_OPEN", index: 1 },
  "reasoning-message-wrong-role-fatal": { code: "SCHEMA_MISMATCH", index: 1 },
  "run-finished-with-active-subagent-fatal": { code: "SUBAGENT_OPEN_AT_RUN_FINISHED", index: 5 },
  "step-finished-without-start-fatal": { code: "STEP_NOT_STARTED", index: 1 },
  "subagent-attribution-mismatch-fatal": { code: "OWNER_MISMATCH", index: 3 },
  "subagent-finished-unstarted-fatal": { code: "SUBAGENT_NOT_ACTIVE", index: 1 },
  "subagent-started-missing-name-fatal": { code: "SCHEMA_MISMATCH", index: 1 },
  "unknown-outcome-array-fatal": { code: "SCHEMA_MISMATCH", index: 1 },
  // draft (protocol: "draft")
  "duplicate-interrupt-id-fatal": { code: "INTERRUPT_ID_DUPLICATE", index: 1 },
  "run-finished-wrong-run-id-fatal": { code: "RUN_ID_MISMATCH", index: 1 },
  "run-finished-wrong-thread-id-fatal": { code: "THREAD_ID_MISMATCH", index: 1 },
  "second-run-on-another-thread-fatal": { code: "THREAD_ID_MISMATCH", index: 2 },
  "truncated-stream-fails-the-run": { code: "STREAM_ENDED_BEFORE_RUN_CLOSED", index: 4 },
};

/**
 * The official client's admitted gaps, asserted the way 1.1 reads them (SPEC §20.4):
 * a verdict, and for the role the warning that replaces the client's failure.
 */
const READ_AS_1_1: Record<
  string,
  { reason: string; verdict: "completed" | Rejection; warns?: string }
> = {
  "unknown-enum-value-role-fatal": {
    reason: "an unknown role is unrecognised material: stripped with a warning, the run completes",
    verdict: "completed",
    warns: "/role",
  },
  "truncated-run-reported-as-completed": {
    reason: "the run never closes: truncated, not completed",
    verdict: { code: "STREAM_ENDED_BEFORE_RUN_CLOSED", index: 5 },
  },
};

/** The fixtures pinning an old peer's downgrade shim: out of scope (SPEC §20.4). */
const SKIPPED: Record<string, string> = {
  "era-0-0-39-flattens-content":
    "a downgrade for a <=0.0.39 peer (flattening message content), which 1.1 permits and does not require",
  "era-0-0-47-upgrades-binary-content":
    "a shim for a <=0.0.47 peer (the retired binary content part), which 1.1 permits and does not require",
  "era-0-0-57-subagent-dropped-with-warning":
    "a downgrade for a <=0.0.57 peer (dropping SUBAGENT_* events), which 1.1 permits and does not require",
  "era-pinned-peer-omits-protocol-version":
    "what it checks is the request a client pinned to an old peer sends; this library sends none",
};

/** Expected warning strings that are the official client's own wording: the code stands for it. */
const CLIENT_WORDING: Record<string, ConformWarning["code"]> = {
  "cannot interpret": "PROTOCOL_VERSION_UNINTERPRETABLE",
};

/**
 * Warnings a reducer gives, out of scope here (SPEC §20.4): the linter has them
 * (STATE_DELTA_NOT_APPLIED, ACTIVITY_DELTA_WITHOUT_SNAPSHOT). By fixture: the strings its
 * `warnings` holds for them.
 */
const REDUCER_WORDING: Record<string, readonly string[]> = {
  "state-delta-unappliable-warns-and-keeps": ["Failed to apply state patch"],
  "activity-delta-missing-target-tolerated": [
    "ACTIVITY_DELTA",
    "activity-delta-missing-never-created",
  ],
};

async function run(fixture: Fixture) {
  const warnings: ConformWarning[] = [];
  const options =
    fixture.version === "draft"
      ? { protocol: "draft" as const, supportedVersion: "1.0" }
      : { supportedVersion: "1.1" };
  const out = await collect(
    conformingEvents(sse(fixture.stream), { ...options, onWarning: (w) => warnings.push(w) }),
  );
  return { events: out.values, error: out.error, errored: out.errored, warnings };
}

type Run = Awaited<ReturnType<typeof run>>;

function expectRejection(observed: Run, rejection: Rejection): void {
  expect(observed.errored, "the stream errors").toBe(true);
  const { error } = observed;
  expect(isVerifyError(error), `a VerifyError, not ${String(error)}`).toBe(true);
  if (!isVerifyError(error)) return;
  expect({ code: error.code, index: error.index }).toEqual(rejection);
}

function expectWarnings(fixture: Fixture, warnings: readonly ConformWarning[]): void {
  const e = fixture.expect;
  if (e.noWarnings === true) expect(warnings.map((w) => w.message)).toEqual([]);
  for (const text of (e.warnings as string[] | undefined) ?? []) {
    if (REDUCER_WORDING[fixture.name]?.includes(text)) continue;
    const code = CLIENT_WORDING[text];
    if (code !== undefined) expect(warnings.map((w) => w.code)).toContain(code);
    else
      expect(
        warnings.some((w) => w.message.includes(text)),
        `a warning names ${text}`,
      ).toBe(true);
  }
}

const counts = { passed: 0, skipped: 0 };

for (const version of VERSIONS) {
  describe(`AG-UI ${version} conformance fixtures through conformingEvents`, () => {
    for (const fixture of FIXTURES[version]) {
      const skipped = SKIPPED[fixture.name];
      if (skipped !== undefined) {
        it.skip(`${fixture.name} — out of scope: ${skipped}`, () => {});
        counts.skipped++;
        continue;
      }
      counts.passed++;
      const reread = READ_AS_1_1[fixture.name];
      if (reread !== undefined) {
        it(`${fixture.name} — read as 1.1 reads it: ${reread.reason}`, async () => {
          const observed = await run(fixture);
          if (reread.verdict === "completed") {
            expect(observed.error).toBeUndefined();
          } else expectRejection(observed, reread.verdict);
          if (reread.warns !== undefined) {
            expect(observed.warnings.map((w) => w.path)).toContain(reread.warns);
          }
        });
        continue;
      }
      it(`${fixture.name} — ${fixture.expect.outcome}`, async () => {
        const observed = await run(fixture);
        if (fixture.expect.outcome === "completed") {
          expect(observed.error, "no error").toBeUndefined();
          expect(observed.errored).toBe(false);
        } else {
          const mapped = CODES[fixture.name];
          expect(mapped, `CODES has ${fixture.name}`).toBeDefined();
          if (mapped !== undefined) expectRejection(observed, mapped);
        }
        expectEventKeys(fixture, observed.events);
        expectWarnings(fixture, observed.warnings);
      });
    }
  });
}

describe("the tables", () => {
  it("name only fixtures of the corpus, and every failed one has its code", () => {
    const all = VERSIONS.flatMap((v) => FIXTURES[v]);
    const names = new Set(all.map((f) => f.name));
    for (const name of [
      ...Object.keys(CODES),
      ...Object.keys(READ_AS_1_1),
      ...Object.keys(SKIPPED),
    ]) {
      expect(names, name).toContain(name);
    }
    for (const f of all) {
      if (f.expect.outcome === "failed" && READ_AS_1_1[f.name] === undefined) {
        expect(CODES[f.name], f.name).toBeDefined();
      }
    }
    const codes = new Set<VerifyErrorCode>(Object.values(CODES).map((c) => c.code));
    expect(codes.has("CHUNK_CONFLICT")).toBe(true);
  });

  it("skip only what SPEC §20.4 names: the era fixtures with a downgrade", () => {
    for (const name of Object.keys(SKIPPED)) expect(name.startsWith("era-")).toBe(true);
    expect(counts.skipped).toBe(
      VERSIONS.flatMap((v) => FIXTURES[v]).filter((f) => SKIPPED[f.name] !== undefined).length,
    );
  });
});
