// The official AG-UI conformance corpus (test/conformance/ag-ui/, copied unmodified from
// ag-ui-protocol/ag-ui; PROVENANCE.md there names each file's commit and sha256) run through
// the default pipeline of this library: each fixture's `stream` served as SSE bytes to
// `verifiedEvents` with no options (the draft fixtures with `protocol: "draft"`, SPEC §9.14).
//
// What is compared (SPEC §20.4, read for the default mode):
// - the verdict: `outcome: "completed"` ↔ the stream closes; `"failed"` ↔ it errors with a
//   VerifyError, whose code (and index) CODES pairs with the fixture;
// - `runError`: a RUN_ERROR was delivered (carrying the text when one is given), no error;
// - `eventTypes`, `eventTypesAbsent`, `eventPaths`, `eventAbsentPaths`: on the delivered events.
// Out of scope for this mode: `warnings` and `noWarnings` (verifiedEvents gives none),
// `messages`, `messageCount`, `state` (no reducer), `request`, `requestAbsentPaths` (no request
// is sent) and `expectOverrides` (another client's).
//
// The default mode has no enforcement stage, no chunk expansion and no downgrade shims for old
// peers (SPEC §1, §9.4, §20). The fixtures whose verdict or event keys turn on one of those are
// in LISTED, by name, with the reason and the verdict this mode gives today, which is asserted:
// a change in behaviour shows up here. Every other fixture must agree with the corpus.

import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  type AgUiEvent,
  isVerifyError,
  type VerifierOptions,
  verifiedEvents,
} from "../src/index.ts";
import {
  expectEventKeys,
  FIXTURES,
  type Fixture,
  type Rejection,
  ROOT,
  sse,
  VERSIONS,
  type Version,
} from "./support/conformance.ts";
import { collect } from "./support/streams.ts";

// ---------------------------------------------------------------------------------------
// The tables

/**
 * Each failed fixture's `errorContains` (the official client's wording) and the VerifyError
 * this verifier gives for the same rule. Keyed by fixture name; a name in several versions
 * must carry the same text in each.
 */
const CODES: Record<string, { errorContains: string } & Rejection> = {
  "content-without-start-fatal": {
    errorContains: "No active text message found with ID 'orphan-content-m1'",
    code: "TEXT_MESSAGE_NOT_OPEN",
    index: 1,
  },
  "event-after-run-finished-fatal": {
    errorContains: "The run has already finished with 'RUN_FINISHED'",
    code: "EVENT_AFTER_RUN_CLOSED",
    index: 2,
  },
  "first-event-not-run-started-fatal": {
    errorContains: "First event must be 'RUN_STARTED'",
    code: "EVENT_BEFORE_RUN_STARTED",
    index: 0,
  },
  "nested-run-started-fatal": {
    errorContains: "Cannot send 'RUN_STARTED' while a run is still active",
    code: "RUN_ALREADY_STARTED",
    index: 1,
  },
  "open-message-at-run-finished-fatal": {
    errorContains: "Cannot send 'RUN_FINISHED' while text messages are still active",
    code: "OPEN_AT_RUN_FINISHED",
    index: 3,
  },
  "reasoning-discipline-verified": {
    errorContains: "No active reasoning message found with ID 'm-reasoning-discipline-1'",
    code: "REASONING_MESSAGE_NOT_OPEN",
    index: 1,
  },
  "run-finished-with-active-subagent-fatal": {
    errorContains: "s-run-finished-active-subagent-1",
    code: "SUBAGENT_OPEN_AT_RUN_FINISHED",
    index: 5,
  },
  "step-finished-without-start-fatal": {
    errorContains: "that was not started",
    code: "STEP_NOT_STARTED",
    index: 1,
  },
  "subagent-attribution-mismatch-fatal": {
    errorContains: "does not match",
    code: "OWNER_MISMATCH",
    index: 3,
  },
  "subagent-finished-unstarted-fatal": {
    errorContains: "s-subagent-finished-unstarted-1",
    code: "SUBAGENT_NOT_ACTIVE",
    index: 1,
  },
  "unknown-outcome-array-fatal": {
    errorContains: "expected object, received array",
    code: "FIELD_WRONG_TYPE",
    index: 1,
  },
  // draft only (protocol: "draft")
  "duplicate-interrupt-id-fatal": {
    errorContains: "two interrupts carrying the id 'i-duplicate-interrupt'",
    code: "INTERRUPT_ID_DUPLICATE",
    index: 1,
  },
  "run-finished-wrong-run-id-fatal": {
    errorContains: "must agree on their runId",
    code: "RUN_ID_MISMATCH",
    index: 1,
  },
  "run-finished-wrong-thread-id-fatal": {
    errorContains: "carry the input's threadId",
    code: "THREAD_ID_MISMATCH",
    index: 1,
  },
  "second-run-on-another-thread-fatal": {
    errorContains: "carries the input's threadId",
    code: "THREAD_ID_MISMATCH",
    index: 2,
  },
  "truncated-stream-fails-the-run": {
    errorContains: "ended without a terminal event",
    code: "STREAM_ENDED_BEFORE_RUN_CLOSED",
    index: 4,
  },
};

/**
 * Fixtures that pin one of the official client's admitted gaps, read the way 1.1 reads them
 * (SPEC §20.4) instead of by their `outcome`. The 1.0 line's README admits this one: a stream
 * that stops mid-run is reported as completed, where the truncation rule says it MUST NOT be.
 */
const READ_AS_1_1: Record<string, { reason: string } & Rejection> = {
  "truncated-run-reported-as-completed": {
    reason: "the run never closes: truncated, not completed",
    code: "STREAM_ENDED_BEFORE_RUN_CLOSED",
    index: 5,
  },
};

type Feature = "enforcement" | "chunks" | "era";

interface Listed {
  feature: Feature;
  reason: string;
  /** The verdict of verifiedEvents today (asserted). */
  now: "completed" | Rejection;
  /** The code SPEC §20.2 gives the conforming pipeline for it, where there is one (not asserted here). */
  conformCode?: string;
}

/**
 * Fixtures whose verdict or event keys turn on what the default mode does not do: 1.1's
 * enforcement stage (dropping unknown events, stripping unknown properties and members,
 * checking known events against the schema), chunk expansion (every fixture carrying
 * `*_CHUNK` events: the verifier passes them through unchecked, §9.4, so its agreement
 * there proves nothing), or a downgrade shim for a peer pinned to an old protocol version.
 */
const LISTED: Record<Version, Record<string, Listed>> = {
  "1.1": {
    "chunk-conflicting-role-fatal": {
      feature: "chunks",
      reason: "a repeated chunk with another role conflicts only once chunks are expanded",
      now: "completed",
      conformCode: "CHUNK_CONFLICT",
    },
    "chunk-conflicting-tool-name-fatal": {
      feature: "chunks",
      reason: "a repeated chunk with another toolCallName conflicts only once chunks are expanded",
      now: "completed",
      conformCode: "CHUNK_CONFLICT",
    },
    "chunk-expansion-assembles": {
      feature: "chunks",
      reason: "an id-less continuation chunk; what it assembles is expansion's work",
      now: "completed",
    },
    "chunk-repeat-identical-accepted": {
      feature: "chunks",
      reason: "identical repeats of a tool-call chunk are judged by expansion",
      now: "completed",
    },
    "custom-closes-chunk-stream-fatal": {
      feature: "chunks",
      reason: "CUSTOM closes the chunk stream, so the id-less chunk after it is a first chunk",
      now: "completed",
      conformCode: "CHUNK_ID_MISSING",
    },
    "first-chunk-missing-id-fatal": {
      feature: "chunks",
      reason: "a first TEXT_MESSAGE_CHUNK without messageId is expansion's error",
      now: "completed",
      conformCode: "CHUNK_ID_MISSING",
    },
    "first-tool-chunk-missing-name-fatal": {
      feature: "chunks",
      reason: "a first TOOL_CALL_CHUNK without toolCallName is expansion's error",
      now: "completed",
      conformCode: "CHUNK_NAME_MISSING",
    },
    "raw-does-not-close-chunk-stream": {
      feature: "chunks",
      reason: "that RAW leaves the chunk stream open is expansion's rule",
      now: "completed",
    },
    "subagent-terminal-closes-open-chunk-stream": {
      feature: "chunks",
      reason: "that SUBAGENT_FINISHED closes the subagent's chunk stream is expansion's rule",
      now: "completed",
    },
    "malformed-known-field-fatal": {
      feature: "enforcement",
      reason: "delta: 42 is a field the verifier does not read; the schema check rejects it",
      now: "completed",
      conformCode: "SCHEMA_MISMATCH",
    },
    "reasoning-message-wrong-role-fatal": {
      feature: "enforcement",
      reason: "REASONING_MESSAGE_START.role is a schema const the verifier does not read",
      now: "completed",
      conformCode: "SCHEMA_MISMATCH",
    },
    "subagent-started-missing-name-fatal": {
      feature: "enforcement",
      reason: "SUBAGENT_STARTED.name is required by the schema, not read by the verifier",
      now: "completed",
      conformCode: "SCHEMA_MISMATCH",
    },
    "unknown-enum-value-role-fatal": {
      feature: "enforcement",
      reason:
        "admitted gap of the official client; read as 1.1 reads it the role is stripped and the run completes, which is today's verdict",
      now: "completed",
    },
    "unknown-event-dropped": {
      feature: "enforcement",
      reason: "FUTURE_EVENT is delivered here; enforcement drops it (eventTypes, eventTypesAbsent)",
      now: "completed",
    },
    "unknown-outcome-stripped": {
      feature: "enforcement",
      reason:
        "the unknown outcome type is delivered here; enforcement strips it (eventAbsentPaths)",
      now: "completed",
    },
    "unknown-property-stripped": {
      feature: "enforcement",
      reason: "futureProp is delivered here; enforcement strips it (eventAbsentPaths)",
      now: "completed",
    },
    "era-0-0-39-flattens-content": {
      feature: "era",
      reason: "pins a 0.0.39 peer: the content downgrade is a request-side shim",
      now: "completed",
    },
    "era-0-0-47-upgrades-binary-content": {
      feature: "era",
      reason: "pins a 0.0.47 peer: the binary-content upgrade is a request-side shim",
      now: "completed",
    },
    "era-0-0-57-subagent-dropped-with-warning": {
      feature: "era",
      reason: "pins a 0.0.57 peer: the shim drops SUBAGENT_* events (eventTypesAbsent)",
      now: "completed",
    },
    "era-pinned-peer-omits-protocol-version": {
      feature: "era",
      reason: "pins a 0.0.57 peer: what it checks is the request the client sends",
      now: "completed",
    },
  },
  "1.0": {},
  draft: {
    "era-pinned-peer-omits-protocol-version": {
      feature: "era",
      reason: "pins a 0.0.57 peer: what it checks is the request the client sends",
      now: "completed",
    },
  },
};

// ---------------------------------------------------------------------------------------
// Running a fixture

interface Observed {
  events: AgUiEvent[];
  error: unknown;
  errored: boolean;
}

async function run(fixture: Fixture): Promise<Observed> {
  const options: VerifierOptions | undefined =
    fixture.version === "draft" ? { protocol: "draft" } : undefined;
  const out = await collect(verifiedEvents(sse(fixture.stream), options));
  return { events: out.values, error: out.error, errored: out.errored };
}

function expectRejection(observed: Observed, rejection: Rejection): void {
  expect(observed.errored, "the stream errors").toBe(true);
  const { error } = observed;
  expect(isVerifyError(error), `a VerifyError, not ${String(error)}`).toBe(true);
  if (!isVerifyError(error)) return;
  expect({ code: error.code, index: error.index }).toEqual({
    code: rejection.code,
    index: rejection.index,
  });
}

function expectCompleted(observed: Observed): void {
  expect(observed.error, "no error").toBeUndefined();
  expect(observed.errored).toBe(false);
}

// ---------------------------------------------------------------------------------------
// The corpus itself

/** Reads a Markdown table row `| `file` | `path` | `commit` | `sha256` |`. */
const PROVENANCE_ROW = /^\| `([^`]+)` \| `[^`]+` \| `[0-9a-f]{40}` \| `([0-9a-f]{64})` \|$/gm;

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new Uint8Array(bytes));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function manifestOf(version: "1.1"): string[] {
  return readFileSync(new URL(`${version}/MANIFEST.txt`, ROOT), "utf8")
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"));
}

describe("the copied corpus", () => {
  const provenance = readFileSync(new URL("PROVENANCE.md", ROOT), "utf8");
  const rows = [...provenance.matchAll(PROVENANCE_ROW)].map((m) => [m[1] ?? "", m[2] ?? ""]);

  it("lists every copied file in PROVENANCE.md, and nothing else", () => {
    const copied = VERSIONS.flatMap((v) =>
      readdirSync(new URL(`${v}/`, ROOT)).map((file) => `${v}/${file}`),
    );
    expect(rows.map(([file]) => file).sort()).toEqual(copied.sort());
    expect(readdirSync(ROOT).sort()).toEqual([...VERSIONS, "LICENSE", "PROVENANCE.md"].sort());
  });

  it("is byte for byte what PROVENANCE.md records", async () => {
    const wrong: string[] = [];
    for (const [file, hash] of rows) {
      const bytes = readFileSync(new URL(file ?? "", ROOT));
      if ((await sha256(bytes)) !== hash) wrong.push(file ?? "");
    }
    expect(wrong).toEqual([]);
  });

  it("holds 1.1 complete: its fixtures are exactly its MANIFEST.txt", () => {
    // 1.0 and draft are partial, and their files and listings come from different commits
    // (PROVENANCE.md), so their MANIFEST.txt neither bounds nor covers what is here.
    expect(FIXTURES["1.1"].map((f) => f.file)).toEqual(manifestOf("1.1"));
  });

  it("names each fixture after its file", () => {
    for (const v of VERSIONS) {
      for (const f of FIXTURES[v]) expect(`${f.name}.json`).toBe(f.file);
    }
  });

  it("keeps the tables free of stale entries", () => {
    const all = VERSIONS.flatMap((v) => FIXTURES[v]);
    const failedWithText = new Set(
      all.filter((f) => f.expect.errorContains !== undefined).map((f) => f.name),
    );
    for (const name of Object.keys(CODES)) expect(failedWithText).toContain(name);
    for (const name of Object.keys(READ_AS_1_1)) {
      expect(all.map((f) => f.name)).toContain(name);
    }
    for (const v of VERSIONS) {
      const names = FIXTURES[v].map((f) => f.name);
      for (const name of Object.keys(LISTED[v])) expect(names).toContain(name);
    }
  });

  it("lists every fixture pinned to an old peer, save the one SPEC §20.4 keeps in scope", () => {
    for (const v of VERSIONS) {
      for (const f of FIXTURES[v]) {
        const pinned = f.client?.maxProtocolVersion !== undefined;
        const inScope = f.name === "era-0-0-45-thinking-translated"; // a translation, no downgrade
        if (pinned && !inScope) expect(LISTED[v][f.name]?.feature, f.name).toBe("era");
      }
    }
  });

  it("lists every fixture that carries chunk events", () => {
    for (const v of VERSIONS) {
      for (const f of FIXTURES[v]) {
        const chunked = f.stream.some((e) => /_CHUNK$/.test(String((e as AgUiEvent)?.type)));
        if (chunked) expect(LISTED[v][f.name]?.feature, f.name).toBe("chunks");
      }
    }
  });
});

// ---------------------------------------------------------------------------------------
// Every fixture

const protocolOf = (v: Version) => (v === "draft" ? ' (protocol: "draft")' : "");

for (const version of VERSIONS) {
  describe(`AG-UI ${version} conformance fixtures through verifiedEvents${protocolOf(version)}`, () => {
    for (const fixture of FIXTURES[version]) {
      const listed = LISTED[version][fixture.name];
      const reread = READ_AS_1_1[fixture.name];

      if (listed !== undefined) {
        it(`${fixture.name} — listed (${listed.feature}): ${listed.reason}`, async () => {
          const observed = await run(fixture);
          if (listed.now === "completed") expectCompleted(observed);
          else expectRejection(observed, listed.now);
        });
        continue;
      }

      if (reread !== undefined) {
        it(`${fixture.name} — read as 1.1 reads it: ${reread.reason}`, async () => {
          expect(fixture.expect.outcome).toBe("completed"); // what the official client admits
          expectRejection(await run(fixture), reread);
        });
        continue;
      }

      it(`${fixture.name} — ${fixture.expect.outcome}`, async () => {
        const observed = await run(fixture);
        const { outcome, errorContains } = fixture.expect;
        if (outcome === "completed") {
          expectCompleted(observed);
        } else {
          expect(errorContains, "a failed fixture names its rule").toBeDefined();
          const mapped = CODES[fixture.name];
          expect(mapped, `CODES has ${fixture.name}`).toBeDefined();
          if (mapped === undefined) return;
          expect(mapped.errorContains).toBe(errorContains);
          expectRejection(observed, mapped);
        }
        expectEventKeys(fixture, observed.events);
      });
    }
  });
}

// ---------------------------------------------------------------------------------------
// The counts (the README quotes them)

describe("the counts", () => {
  it("agreeing and listed fixtures per version", () => {
    const counts = Object.fromEntries(
      VERSIONS.map((v) => {
        const listed = FIXTURES[v].filter((f) => LISTED[v][f.name] !== undefined);
        return [
          v,
          {
            fixtures: FIXTURES[v].length,
            agreeing: FIXTURES[v].length - listed.length,
            readAs11: FIXTURES[v].filter((f) => READ_AS_1_1[f.name] !== undefined).length,
            listed: {
              enforcement: listed.filter((f) => LISTED[v][f.name]?.feature === "enforcement")
                .length,
              chunks: listed.filter((f) => LISTED[v][f.name]?.feature === "chunks").length,
              era: listed.filter((f) => LISTED[v][f.name]?.feature === "era").length,
              sameVerdictToday: listed.filter((f) => {
                const now = LISTED[v][f.name]?.now;
                return (now === "completed" ? "completed" : "failed") === f.expect.outcome;
              }).length,
            },
          },
        ];
      }),
    );
    expect(counts).toEqual({
      "1.1": {
        fixtures: 68,
        agreeing: 48,
        readAs11: 0,
        listed: { enforcement: 7, chunks: 9, era: 4, sameVerdictToday: 11 },
      },
      "1.0": {
        fixtures: 4,
        agreeing: 4,
        readAs11: 1,
        listed: { enforcement: 0, chunks: 0, era: 0, sameVerdictToday: 0 },
      },
      draft: {
        fixtures: 15,
        agreeing: 14,
        readAs11: 1,
        listed: { enforcement: 0, chunks: 0, era: 1, sameVerdictToday: 1 },
      },
    });
  });
});
