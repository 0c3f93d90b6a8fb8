// Issue 28: the verifier's optimized code survives a full garbage collection between two
// streams. V8 keeps the hidden class of an instance with fields only while an instance
// holds it; with no verifier alive, a full collection used to free the Verifier's and
// OpenIds' hidden classes and throw away every function compiled against them ("marking
// dependent code … for deoptimization, reason: weak objects"), and the next stream ran 2 to
// 4 times slower until V8 compiled it again (bench/verify.bench.mjs, "right after a full
// GC"). src/_util/shapes.ts keeps one empty instance of each. Not a timed test: it reads
// what V8 itself reports it compiles and throws away. Node only (V8 flags); needs a build.

import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

// Warms verifyAll up on a run that uses every kind of open id, then collects with no
// verifier alive. The events stay alive (as a page's own state would): only the verifier's
// hidden classes are at stake.
const SCRIPT = `
const { verifyAll } = await import(${JSON.stringify(path.join(ROOT, "dist/index.js"))});
const events = [{ type: "RUN_STARTED", threadId: "t", runId: "r" }];
for (let m = 0; m < 30; m++) {
  events.push({ type: "TEXT_MESSAGE_START", messageId: "m" + m, role: "assistant" });
  for (let i = 0; i < 10; i++) events.push({ type: "TEXT_MESSAGE_CONTENT", messageId: "m" + m, delta: "x" });
  events.push({ type: "TEXT_MESSAGE_END", messageId: "m" + m });
  events.push({ type: "TOOL_CALL_START", toolCallId: "c" + m, toolCallName: "f", parentMessageId: "m" + m });
  for (let i = 0; i < 10; i++) events.push({ type: "TOOL_CALL_ARGS", toolCallId: "c" + m, delta: "{}" });
  events.push({ type: "TOOL_CALL_END", toolCallId: "c" + m });
  events.push({ type: "REASONING_START", messageId: "s" + m });
  events.push({ type: "REASONING_MESSAGE_START", messageId: "r" + m, role: "reasoning" });
  events.push({ type: "REASONING_MESSAGE_CONTENT", messageId: "r" + m, delta: "x" });
  events.push({ type: "REASONING_MESSAGE_END", messageId: "r" + m });
  events.push({ type: "REASONING_END", messageId: "s" + m });
}
events.push({ type: "RUN_FINISHED", threadId: "t", runId: "r" });
console.log("=== warming");
const started = Date.now();
for (let i = 0; i < 3000 || Date.now() - started < 1000; i++) verifyAll(events);
await new Promise((resolve) => setTimeout(resolve, 200)); // concurrent compilations land
console.log("=== collecting");
globalThis.gc();
console.log("=== collected");
`;

function trace(): Promise<string> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      ["--expose-gc", "--trace-opt", "--trace-deopt", "--input-type=module", "-e", SCRIPT],
      { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error ? fail(new Error(`${error.message}\n${stderr}`)) : done(stdout),
    );
  });
}

/**
 * Names the build (dist/) defines as classes, functions, methods or arrow functions. The trace names a
 * function but not its file, and a loaded machine may compile (and a collection throw
 * away) some of Node's own code meanwhile (`getPathFromURLPosix`, seen in CI): only ours
 * count.
 */
function ours(): Set<string> {
  const dist = path.join(ROOT, "dist");
  const source = readdirSync(dist, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".js"))
    .map((f) => readFileSync(path.join(dist, f), "utf8"))
    .join("\n");
  const names = new Set<string>();
  const definition =
    /(?:\bclass\s+([\w$]+)|\bfunction\s*\*?\s*([\w$]+)\s*\(|^\s*(?:static\s+|async\s+|get\s+|set\s+)*\*?([\w$]+)\s*\([^)]*\)\s*\{|\b([\w$]+)\s*=\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*=>|[\w$]+\s*=>))/gm;
  for (const m of source.matchAll(definition)) {
    const name = m[1] ?? m[2] ?? m[3] ?? m[4];
    if (name !== undefined) names.add(name);
  }
  return names;
}

/** Names of the functions a trace line says V8 compiled, or marked for deoptimization. */
const named = (lines: string[], what: RegExp) =>
  lines.flatMap((l) =>
    what.test(l) ? [/<(?:JSFunction|SharedFunctionInfo) ([^ >]+)/.exec(l)?.[1] ?? "?"] : [],
  );

describe("after a full garbage collection (issue 28)", () => {
  it("keeps the verifier's optimized code: nothing it compiled is thrown away", async () => {
    const out = (await trace()).split("\n");
    const warm = out.indexOf("=== warming");
    const at = out.indexOf("=== collecting");
    const end = out.indexOf("=== collected");
    expect(warm).toBeGreaterThanOrEqual(0);
    expect(at).toBeGreaterThan(warm);
    expect(end).toBeGreaterThan(at);
    // The warm-up did compile the per-event path, so the check below is not vacuous.
    const defined = ours();
    const compiled = new Set(
      named(out.slice(warm, at), /completed optimizing/).filter((f) => defined.has(f)),
    );
    expect(compiled).toContain("verify");
    expect(defined).not.toContain("getPathFromURLPosix");
    // What the collection threw away, of what the verifier (our build) compiled.
    const thrown = named(out.slice(at, end), /marking dependent code/).filter((f) =>
      compiled.has(f),
    );
    expect(thrown).toEqual([]);
  }, 60_000);
});
