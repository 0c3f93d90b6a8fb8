// SPEC §13 ("Where upstream differs"), observed: every case of every row
// (test/support/upstream-rows.ts) through this library's `verifyAll` and through the real
// `verifyEvents` of @ag-ui/client 1.0.0, fed the events directly; the cases that record one
// also through a whole `HttpAgent.runAgent` over the same events served as SSE, so its real
// stages (compatibility boundary, enforcement, chunk expansion, verification) decide. Both
// observed verdicts must equal the recorded ones, and docs/upstream.md must be what
// scripts/upstream-table.mjs writes from the same data.

import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { HttpAgent, verifyEvents } from "@ag-ui/client";
import type { BaseEvent } from "@ag-ui/core";
import { from, tap } from "rxjs";
import { describe, expect, it, vi } from "vitest";
import { isVerifyError, verifyAll } from "../src/index.ts";
import {
  type AgentVerdict,
  type ClientVerdict,
  type OurVerdict,
  renderUpstreamDoc,
  UPSTREAM_ROWS,
  type UpstreamCase,
} from "./support/upstream-rows.ts";

/** This library's verdict on the events. */
function ours(events: readonly unknown[]): OurVerdict {
  try {
    verifyAll(events);
    return "accepted";
  } catch (error) {
    if (!isVerifyError(error)) throw error;
    const { code, index, field } = error;
    return field === undefined ? { code, index } : { code, index, field };
  }
}

/** `verifyEvents`' verdict: where it errors (with the error's text), or "accepted". */
function client(events: readonly unknown[]): { index: number; error: string } | "accepted" {
  let consumed = 0;
  let verdict: { index: number; error: string } | "accepted" | undefined;
  from(events as readonly BaseEvent[])
    .pipe(
      tap(() => {
        consumed++;
      }),
      verifyEvents(),
    )
    .subscribe({
      error: (error: unknown) => {
        verdict = { index: consumed - 1, error: String(error) };
      },
      complete: () => {
        verdict = "accepted";
      },
    });
  // from() over an array and verifyEvents both run synchronously.
  if (verdict === undefined) throw new Error("verifyEvents did not settle");
  return verdict;
}

/**
 * A whole HttpAgent run over the events as SSE: what its subscriber saw and what it warned,
 * or why it failed. (It writes its warnings, and a failed run, to the console.)
 */
async function httpAgent(
  events: readonly unknown[],
): Promise<{ completed: string[]; warnings: string[] } | { failed: string }> {
  const body = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("");
  const agent = new HttpAgent({
    url: "https://agent.example/run",
    fetch: async () => new Response(body, { headers: { "content-type": "text/event-stream" } }),
  });
  const seen: string[] = [];
  const warnings: string[] = [];
  const warn = vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => {
    warnings.push(args.map(String).join(" "));
  });
  const error = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    await agent.runAgent(
      { runId: "r1" },
      {
        onEvent: ({ event }) => {
          seen.push(event.type);
        },
      },
    );
    return { completed: seen, warnings };
  } catch (e) {
    return { failed: e instanceof Error ? e.message : String(e) };
  } finally {
    warn.mockRestore();
    error.mockRestore();
  }
}

function expectAgent(observed: Awaited<ReturnType<typeof httpAgent>>, recorded: AgentVerdict) {
  if ("failed" in recorded) {
    expect(observed).toHaveProperty("failed");
    if ("failed" in observed) expect(observed.failed).toContain(recorded.failed);
    return;
  }
  expect(observed).toHaveProperty("completed");
  if (!("completed" in observed)) return;
  expect(observed.completed).toEqual(recorded.completed);
  const { warning } = recorded;
  if (warning !== undefined) expect(observed.warnings.some((w) => w.includes(warning))).toBe(true);
}

function expectClient(observed: ReturnType<typeof client>, recorded: ClientVerdict): void {
  if (recorded === "accepted") {
    expect(observed).toBe("accepted");
    return;
  }
  expect(observed).not.toBe("accepted");
  if (observed === "accepted") return;
  expect(observed.index).toBe(recorded.index);
  expect(observed.error).toContain(recorded.error);
}

const named = (c: UpstreamCase) => c.label.replaceAll("`", "");

describe("SPEC §13: this library and @ag-ui/client 1.0.0 on each row", () => {
  it("has the 15 rows of §13, each a real difference", () => {
    expect(UPSTREAM_ROWS.map((r) => r.n)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    for (const row of UPSTREAM_ROWS) {
      const differs = row.cases.some(
        (c) => (c.ours === "accepted") !== (c.client === "accepted") || c.httpAgent !== undefined,
      );
      expect(differs, `row ${row.n}`).toBe(true);
    }
    // Rows 1 and 15 are about what HttpAgent's own stages do with the events.
    const withAgent = UPSTREAM_ROWS.filter((r) => r.cases.some((c) => c.httpAgent !== undefined));
    expect(withAgent.map((r) => r.n)).toEqual([1, 15]);
    expect(UPSTREAM_ROWS.flatMap((r) => r.cases).length).toBe(56);
  });

  for (const row of UPSTREAM_ROWS) {
    describe(`row ${row.n}`, () => {
      it.each(row.cases.map((c) => [named(c), c] as const))("%s", async (_name, c) => {
        expect(ours(c.events), "this library").toEqual(c.ours);
        expectClient(client(c.events), c.client);
        if (c.httpAgent !== undefined) expectAgent(await httpAgent(c.events), c.httpAgent);
      });
    });
  }
});

describe("docs/upstream.md", () => {
  const doc = new URL("../docs/upstream.md", import.meta.url);

  it("is generated from the rows", () => {
    expect(readFileSync(doc, "utf8")).toBe(renderUpstreamDoc());
  });

  it("is what scripts/upstream-table.mjs writes (--check)", () => {
    const script = fileURLToPath(new URL("../scripts/upstream-table.mjs", import.meta.url));
    const run = spawnSync(process.execPath, [script, "--check"], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});
