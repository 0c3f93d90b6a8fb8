/**
 * Retained state at `maxIds` (SPEC §17.1): for each kind of id, a `Verifier` from
 * ../dist/index.js with the default options is fed RUN_STARTED and then events that record
 * new ids of that kind until it holds 100,000 (the default `maxIds`); the heap is measured
 * after a forced GC before and after, with the verifier and nothing else kept. The events
 * are made one at a time and dropped, so what stays is the verifier's. Then one more new id
 * must be rejected with `ID_LIMIT_EXCEEDED`, or the script exits 1.
 *
 * Ids look like UUIDs (36 characters, fresh strings as `JSON.parse` makes them). A second
 * table repeats three kinds with 1,000-character ids, which weigh 16 each (SPEC v4 §17.1:
 * one per 64 characters begun), so 6,250 fit: the weighing bounds their characters too. The
 * last row tags each new text message with one 1,000-character subagent id, a fresh copy per
 * event: the run keeps one copy.
 *
 * Run with `npm run bench` (builds first), or `node --expose-gc bench/memory.bench.mjs`.
 * Target: under 32 MiB at the default for every kind with UUID-like ids.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

if (typeof globalThis.gc !== "function") {
  const child = spawnSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url)], {
    stdio: "inherit",
  });
  process.exit(child.status ?? 1);
}

const { Verifier, isVerifyError } = await import("../dist/index.js");
const MAX = 100_000;

/** A fresh id string of `length` characters for `i` (as JSON.parse would make it). */
function id(i, length) {
  const hex = i.toString(16).padStart(12, "0");
  const base = `${hex.slice(0, 8)}-${hex.slice(8)}-4a5b-8c9d-0123456789ab`;
  return JSON.parse(JSON.stringify(base.padEnd(length, "x")));
}

/** Per kind: the events that record the i-th new id of that kind. */
const KINDS = {
  "open text messages": (i, n) => [{ type: "TEXT_MESSAGE_START", messageId: id(i, n) }],
  "closed text messages (owners kept)": (i, n) => {
    const m = id(i, n);
    return [
      { type: "TEXT_MESSAGE_START", messageId: m },
      { type: "TEXT_MESSAGE_END", messageId: m },
    ];
  },
  "open tool calls": (i, n) => [{ type: "TOOL_CALL_START", toolCallId: id(i, n) }],
  "reasoning blocks": (i, n) => [{ type: "REASONING_START", messageId: id(i, n) }],
  activities: (i, n) => [{ type: "ACTIVITY_SNAPSHOT", messageId: id(i, n), activityType: "a" }],
  "active subagents": (i, n) => [{ type: "SUBAGENT_STARTED", subagentRunId: id(i, n) }],
  "open steps": (i, n) => [{ type: "STEP_STARTED", stepName: id(i, n) }],
  "tool messages minted by results": (i, n) => [
    { type: "TOOL_CALL_RESULT", toolCallId: "c", messageId: id(i, n), content: "" },
  ],
};

/** Text messages with short ids, each tagged with a fresh copy of one long subagent id. */
const TAGGED = (i, n) => [
  { type: "TEXT_MESSAGE_START", messageId: id(i, 36), subagentRunId: id(0, n) },
];

function heap() {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
}

/** What an id of `length` characters weighs against maxIds (SPEC §17.1). */
const weight = (length) => (length <= 64 ? 1 : Math.ceil(length / 64));

function measure(make, length) {
  // A tagged message weighs as its short id; the tag weighs as a long id, once.
  const w = make === TAGGED ? 1 : weight(length);
  const before = heap();
  const v = new Verifier();
  v.verify({ type: "RUN_STARTED", threadId: "t", runId: "r" });
  // The result kind needs its call first (it holds one id: the call's).
  let held = 0;
  if (make === KINDS["tool messages minted by results"]) {
    v.verify({ type: "TOOL_CALL_START", toolCallId: "c" });
    v.verify({ type: "TOOL_CALL_END", toolCallId: "c" });
    held = 1;
  }
  if (make === TAGGED) held = weight(length);
  let ids = 0;
  for (let i = 0; held + w <= MAX; i++, held += w, ids++) {
    for (const e of make(i, length)) v.verify(e);
  }
  const after = heap();
  let rejected = false;
  try {
    for (const e of make(MAX + 1, length)) v.verify(e);
  } catch (e) {
    rejected = isVerifyError(e) && e.code === "ID_LIMIT_EXCEEDED";
  }
  if (!rejected) {
    console.error("the id after maxIds was not rejected with ID_LIMIT_EXCEEDED");
    process.exit(1);
  }
  // Keep the verifier alive until here.
  return { bytes: after - before, ids, alive: v.error !== undefined };
}

const mib = (b) => `${(b / 2 ** 20).toFixed(1)} MiB`.padStart(9);
console.log(
  `ag-ui-verify memory bench — node ${process.version}; ${MAX.toLocaleString("en-US")} ids (the default maxIds) per kind; heap after forced GC`,
);
console.log("\nkind                                   36-char ids   per id");
let worst = 0;
let worstLong = 0;
for (const [name, make] of Object.entries(KINDS)) {
  const { bytes } = measure(make, 36);
  worst = Math.max(worst, bytes);
  console.log(`${name.padEnd(38)} ${mib(bytes)}   ${Math.round(bytes / MAX)} B`);
}
console.log(`\nworst: ${mib(worst).trim()} (target < 32 MiB)`);
console.log("\nkind                                 1,000-char ids   ids held   per id");
for (const [name, make] of [
  ["open text messages", KINDS["open text messages"]],
  ["active subagents", KINDS["active subagents"]],
  ["open steps", KINDS["open steps"]],
  ["text messages, one long tag", TAGGED],
]) {
  const { bytes, ids } = measure(make, 1000);
  worstLong = Math.max(worstLong, bytes);
  console.log(
    `${name.padEnd(38)} ${mib(bytes)}   ${ids.toLocaleString("en-US").padStart(8)}   ${Math.round(bytes / ids)} B`,
  );
}
console.log(`\nworst: ${mib(worstLong).trim()} (target < 32 MiB)`);
