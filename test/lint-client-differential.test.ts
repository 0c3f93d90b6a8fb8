// CLIENT_REJECTS (SPEC §18.2) against the real `verifyEvents` of @ag-ui/client 1.0.0, fed
// each stream directly (no schema stage, no chunk expansion), as SPEC §13 compares them. On
// every generated stream the linter finds no error in, CLIENT_REJECTS appears exactly once at
// the index where verifyEvents first errors, and not at all when verifyEvents completes.
//
// The streams: valid runs (test/support/valid-run.ts, one run or several with
// allowSequentialRuns), with the fields upstream requires but this verifier does not read
// filled in (SUBAGENT_STARTED.name, SUBAGENT_ERROR.message); half of them cleared of every
// §13 hazard, so that the client accepts them; then up to three mutations, each placing one
// §13 row's hazard (or a plain edit: drop, duplicate, swap) anywhere in the stream. Streams
// the linter finds an error in are counted and skipped. Web-standard code apart from the
// upstream package (plain JavaScript and rxjs), so the file runs in the edge project too.

import { verifyEvents } from "@ag-ui/client";
import type { BaseEvent } from "@ag-ui/core";
import fc from "fast-check";
import { from, tap } from "rxjs";
import { describe, expect, it } from "vitest";
import { lint } from "../src/lint/index.ts";
import { cloneJson, isRecord } from "./support/mutate.ts";
import { RECOGNISED } from "./support/spec-tables.ts";
import { buildRun, type Ev, IDS, SUBAGENTS } from "./support/valid-run.ts";

/** Where verifyEvents first errors, or undefined when it completes. */
function clientFirstError(events: readonly Ev[]): number | undefined {
  let consumed = 0;
  let failedAt: number | undefined;
  let completed = false;
  from(events as readonly BaseEvent[])
    .pipe(
      tap(() => {
        consumed++;
      }),
      verifyEvents(),
    )
    .subscribe({
      error: () => {
        failedAt = consumed - 1;
      },
      complete: () => {
        completed = true;
      },
    });
  // from() over an array and verifyEvents both run synchronously.
  if (!completed && failedAt === undefined) throw new Error("verifyEvents did not settle");
  return failedAt;
}

// ---------------------------------------------------------------------------------------
// Streams

/** Fields upstream requires and this verifier does not read, filled in (SPEC §13 preamble). */
function fill(events: Ev[]): void {
  for (const ev of events) {
    if (ev.type === "SUBAGENT_STARTED" && !("name" in ev)) ev.name = "helper";
    if (ev.type === "SUBAGENT_ERROR" && !("message" in ev)) ev.message = "failed";
  }
}

const KNOWN_SUBTYPES = new Set(["message", "tool-call"]);

function stripForeignCalls(messages: unknown): void {
  if (!Array.isArray(messages)) return;
  for (const m of messages) if (isRecord(m) && m.role !== "assistant") delete m.toolCalls;
}

/** The same stream without the hazards of the §13 rows (the client accepts what is left). */
function cleared(events: readonly Ev[]): Ev[] {
  const out: Ev[] = [];
  let running = false;
  let blocks = new Set<string>();
  for (const ev of events) {
    const t = ev.type;
    if ((t === "RAW" || t === "CUSTOM") && !running) continue; // rows 1 and 6
    if (!RECOGNISED.has(t) && ev.subagentRunId === null) delete ev.subagentRunId; // row 20
    if (t === "RUN_STARTED") {
      running = true;
      blocks = new Set();
      if (isRecord(ev.input)) stripForeignCalls(ev.input.messages); // row 21
    }
    if (t === "MESSAGES_SNAPSHOT") stripForeignCalls(ev.messages);
    if (t === "REASONING_START") {
      // rows 9 and 11: blocks pair up
      if (blocks.has(ev.messageId as string)) continue;
      blocks.add(ev.messageId as string);
    }
    if (t === "REASONING_END" && !blocks.delete(ev.messageId as string)) continue;
    if (t === "REASONING_ENCRYPTED_VALUE" && !KNOWN_SUBTYPES.has(ev.subtype as string)) {
      delete ev.subagentRunId; // row 19
    }
    if (t.startsWith("SUBAGENT_")) {
      // row 15
      for (const k of ["description", "parentToolCallId", "parentMessageId", "code"]) {
        if (ev[k] === null) delete ev[k];
      }
      const o = ev.outcome;
      if (o !== undefined && !(isRecord(o) && (o.type === "success" || o.type === "suspended"))) {
        delete ev.outcome;
      } else if (isRecord(o) && o.interruptIds !== undefined) delete o.interruptIds;
    }
    if (t === "RUN_FINISHED") {
      for (const id of blocks) out.push({ type: "REASONING_END", messageId: id }); // row 10
      blocks.clear();
      const o = ev.outcome;
      if (isRecord(o) && Array.isArray(o.interrupts)) {
        for (const i of o.interrupts)
          if (isRecord(i) && i.subagentRunId === null) delete i.subagentRunId;
      }
    }
    if (t === "RUN_FINISHED" || t === "RUN_ERROR") running = false;
    out.push(ev);
  }
  return out;
}

const MUTATIONS = [
  "rawFirst",
  "rawAnywhere",
  "reasoningEnd",
  "reasoningStart",
  "dropReasoningEnd",
  "subagentField",
  "futureSubtype",
  "nullTagUnknown",
  "foreignCalls",
  "retagTool",
  "foreignCallUse",
  "interruptNullTag",
  "drop",
  "dup",
  "swap",
] as const;
type Mutation = (typeof MUTATIONS)[number];

const SUBAGENT_OUTCOMES: readonly unknown[] = [
  null,
  "",
  false,
  0,
  "paused",
  { type: "bogus" },
  { type: null },
  { type: "suspended", interruptIds: null },
  { type: "suspended", interruptIds: [null] },
  { type: "suspended", interruptIds: [7, "i1"] },
  { type: "success" },
  { type: "suspended", interruptIds: ["i1"] },
];
const FOREIGN_CALLS: readonly unknown[] = [5, {}, true, "c1", null, [null, 3, "x"]];

function pick<T>(xs: readonly T[], n: number): T {
  return xs[n % xs.length] as T;
}

/** The indices of events of the given types. */
function where(events: readonly Ev[], pred: (ev: Ev) => boolean): number[] {
  const out: number[] = [];
  events.forEach((ev, i) => {
    if (pred(ev)) out.push(i);
  });
  return out;
}

function mutate(events: Ev[], m: Mutation, a: number, b: number): void {
  const at = events.length === 0 ? 0 : a % (events.length + 1);
  const one = (pred: (ev: Ev) => boolean): Ev | undefined => {
    const found = where(events, pred);
    return found.length === 0 ? undefined : events[pick(found, a)];
  };
  switch (m) {
    case "rawFirst":
      events.unshift({ type: pick(["RAW", "CUSTOM"], b), event: {} });
      return;
    case "rawAnywhere":
      events.splice(at, 0, { type: pick(["RAW", "CUSTOM"], b), name: "n", value: 1 });
      return;
    case "reasoningEnd":
      events.splice(at, 0, { type: "REASONING_END", messageId: pick(IDS, b) });
      return;
    case "reasoningStart":
      events.splice(at, 0, { type: "REASONING_START", messageId: pick(IDS, b) });
      return;
    case "dropReasoningEnd": {
      const found = where(events, (ev) => ev.type === "REASONING_END");
      if (found.length > 0) events.splice(pick(found, a), 1);
      return;
    }
    case "subagentField": {
      const ev = one((x) => x.type.startsWith("SUBAGENT_"));
      if (ev === undefined) return;
      switch (b % 8) {
        case 0:
          delete ev.name;
          return;
        case 1:
          ev.name = 5;
          return;
        case 2:
          ev[pick(["description", "parentToolCallId", "parentMessageId"], a)] = null;
          return;
        case 3:
          delete ev.message;
          return;
        case 4:
          ev.code = null;
          return;
        default:
          ev.outcome = cloneJson(pick(SUBAGENT_OUTCOMES, a + b));
          return;
      }
    }
    case "futureSubtype": {
      const ev = one((x) => x.type === "REASONING_ENCRYPTED_VALUE");
      if (ev === undefined) return;
      ev.subtype = "future";
      ev.subagentRunId = pick(SUBAGENTS, b);
      return;
    }
    case "nullTagUnknown":
      events.splice(at, 0, {
        type: pick(["SOME_FUTURE_EVENT", "THINKING_START", "THINKING_TEXT_MESSAGE_CONTENT"], b),
        subagentRunId: null,
      });
      return;
    case "foreignCalls": {
      const ev = one(
        (x) =>
          x.type === "MESSAGES_SNAPSHOT" ||
          (x.type === "RUN_STARTED" && isRecord(x.input) && Array.isArray(x.input.messages)),
      );
      if (ev === undefined) return;
      const messages = (
        ev.type === "MESSAGES_SNAPSHOT" ? ev.messages : (ev.input as Ev).messages
      ) as Ev[];
      const message: Ev = {
        type: "",
        id: pick(IDS, a),
        role: pick(["user", "tool", "reasoning", "activity", "system"], b),
        content: "…",
      };
      delete (message as Partial<Ev>).type;
      if (b % 3 === 0) message.subagentRunId = pick(SUBAGENTS, a + b);
      message.toolCalls =
        b % 2 === 0
          ? [{ id: pick(IDS, b) }, { id: pick(IDS, a + 1) }]
          : cloneJson(pick(FOREIGN_CALLS, a));
      messages.splice(messages.length === 0 ? 0 : a % (messages.length + 1), 0, message);
      return;
    }
    case "retagTool": {
      const ev = one(
        (x) =>
          x.type === "TOOL_CALL_START" ||
          x.type === "TOOL_CALL_ARGS" ||
          x.type === "TOOL_CALL_END" ||
          (x.type === "REASONING_ENCRYPTED_VALUE" && x.subtype === "tool-call"),
      );
      if (ev !== undefined) ev.subagentRunId = pick(SUBAGENTS, b);
      return;
    }
    case "foreignCallUse": {
      // A call only the client knows an owner for (from a non-assistant message), then used.
      const call = pick(IDS, a);
      const owner = pick([undefined, ...SUBAGENTS], b);
      const seed: Record<string, unknown> = {
        id: pick(["mx", ...IDS], a + b),
        role: pick(["user", "tool", "system", "reasoning"], b),
        ...(owner === undefined ? {} : { subagentRunId: owner }),
        toolCalls: [{ id: call }],
      };
      const tag = pick([undefined, ...SUBAGENTS], a + 2 * b);
      const tagged = (ev: Ev): Ev => (tag === undefined ? ev : { ...ev, subagentRunId: tag });
      // Parents with an owner on record: text messages, tool messages, snapshot messages.
      const parents = events.flatMap((x) =>
        x.type === "TEXT_MESSAGE_START" || x.type === "TOOL_CALL_RESULT"
          ? [x.messageId as string]
          : [],
      );
      const use: Ev[] =
        b % 3 === 0
          ? [
              tagged({
                type: "TOOL_CALL_START",
                toolCallId: call,
                parentMessageId: pick([...parents, "mx"], a),
              }),
              { type: "TOOL_CALL_END", toolCallId: call },
            ]
          : b % 3 === 1
            ? [
                { type: "TOOL_CALL_START", toolCallId: call },
                tagged({ type: "TOOL_CALL_ARGS", toolCallId: call, delta: "{}" }),
                { type: "TOOL_CALL_END", toolCallId: call },
              ]
            : [tagged({ type: "REASONING_ENCRYPTED_VALUE", subtype: "tool-call", entityId: call })];
      const later = at + 1 + ((a >> 3) % Math.max(1, events.length - at));
      events.splice(later, 0, ...use);
      const started = (a >> 5) % 2 === 0 ? one((x) => x.type === "RUN_STARTED") : undefined;
      if (started === undefined) {
        events.splice(at, 0, { type: "MESSAGES_SNAPSHOT", messages: [seed] });
        return;
      }
      // In the input echo, where the first occurrence of an id wins.
      if (!isRecord(started.input)) started.input = {};
      const input = started.input as Record<string, unknown>;
      if (!Array.isArray(input.messages)) input.messages = [];
      const messages = input.messages as unknown[];
      messages.splice((a >> 7) % (messages.length + 1), 0, seed);
      return;
    }
    case "interruptNullTag": {
      const ev = one((x) => x.type === "RUN_FINISHED");
      if (ev === undefined) return;
      ev.outcome = {
        type: "interrupt",
        interrupts: [
          { id: "i0", reason: "confirmation" },
          { id: "i1", reason: "approval", subagentRunId: null },
        ].slice(b % 2),
      };
      return;
    }
    case "drop":
      if (events.length > 0) events.splice(a % events.length, 1);
      return;
    case "dup":
      if (events.length > 0) events.splice(at, 0, cloneJson(events[a % events.length]) as Ev);
      return;
    case "swap": {
      if (events.length < 2) return;
      const i = a % events.length;
      const j = b % events.length;
      const x = events[i] as Ev;
      events[i] = events[j] as Ev;
      events[j] = x;
      return;
    }
  }
}

const choices = fc.array(fc.nat({ max: 0x7fffffff }), { maxLength: 70, size: "max" });

interface Case {
  events: Ev[];
  sequential: boolean;
}

const streams: fc.Arbitrary<Case> = fc
  .record({
    runs: fc.oneof(
      { weight: 3, arbitrary: choices.map((xs) => [xs]) },
      { weight: 1, arbitrary: fc.array(choices, { minLength: 2, maxLength: 3 }) },
    ),
    clear: fc.nat(2).map((n) => n > 0),
    edits: fc.array(fc.tuple(fc.constantFrom(...MUTATIONS), fc.nat(), fc.nat()), {
      maxLength: 3,
    }),
  })
  .map(({ runs, clear, edits }) => {
    let events = runs.flatMap((xs) => buildRun(xs, { ending: "either" }));
    fill(events);
    if (clear) events = cleared(events);
    for (const [m, a, b] of edits) mutate(events, m, a, b);
    return { events, sequential: runs.length > 1 };
  });

// ---------------------------------------------------------------------------------------
// The differential

/** Which §13 row a CLIENT_REJECTS message is about, from its wording. */
const ROWS: ReadonlyArray<readonly [string, RegExp]> = [
  ["1: RAW or CUSTOM first", /as the first event/],
  ["6: RAW or CUSTOM between runs", /between runs/],
  ["9: REASONING_END without its start", /without its REASONING_START/],
  ["10: reasoning block open at RUN_FINISHED", /still open/],
  ["11: REASONING_START twice", /second REASONING_START/],
  ["15: SUBAGENT_* fields", /SUBAGENT_|optional field|outcome/],
  ["19: unknown subtype", /subtype/],
  ["20: null tag on an unknown type", /of a type it knows or not/],
  ["21: toolCalls of a non-assistant message, not a list", /toolCalls of every message/],
  ["21: tool-call owner from a non-assistant message", /non-assistant messages/],
  ["22: null tag inside an interrupt", /inside an interrupt/],
];

const RS: Ev = { type: "RUN_STARTED", threadId: "t1", runId: "r1" };
const RF: Ev = { type: "RUN_FINISHED", threadId: "t1", runId: "r1" };

function echo(...messages: unknown[]): Ev {
  return { ...RS, input: { threadId: "t1", runId: "r1", messages } };
}

function snapshot(...messages: unknown[]): Ev {
  return { type: "MESSAGES_SNAPSHOT", messages };
}

function msg(id: string, role: string, owner: string | undefined, calls?: unknown): unknown {
  return {
    id,
    role,
    ...(owner === undefined ? {} : { subagentRunId: owner }),
    ...(calls === undefined ? {} : { toolCalls: calls }),
  };
}

const call = (id: string) => [{ id, type: "function", function: { name: "f", arguments: "{}" } }];
const tc = (type: string, id: string, tag?: string, more: Record<string, unknown> = {}): Ev => ({
  type: `TOOL_CALL_${type}`,
  toolCallId: id,
  ...(tag === undefined ? {} : { subagentRunId: tag }),
  ...more,
});

/**
 * Hand-written streams for the state the client keeps beyond these rules (the generated
 * streams reach some of it rarely): [name, events, where verifyEvents first errors].
 */
const EDGES: ReadonlyArray<readonly [string, Ev[], number | undefined, boolean?]> = [
  [
    "the echo: the first occurrence of a call id wins, a non-assistant one too",
    [
      echo(msg("u", "user", "s2", call("c1")), msg("a", "assistant", "s1", call("c1"))),
      tc("START", "c1", "s1"),
      tc("END", "c1"),
      RF,
    ],
    1,
  ],
  [
    "the echo: an assistant's call listed first keeps its owner",
    [
      echo(msg("a", "assistant", "s1", call("c1")), msg("u", "user", "s2", call("c1"))),
      tc("START", "c1", "s1"),
      tc("END", "c1"),
      RF,
    ],
    undefined,
  ],
  [
    "a snapshot: the last occurrence wins",
    [
      RS,
      snapshot(msg("a", "assistant", "s1", call("c1")), msg("u", "user", "s2", call("c1"))),
      tc("START", "c1", "s1"),
      tc("END", "c1"),
      RF,
    ],
    2,
  ],
  [
    "a snapshot: an assistant's call listed last keeps its owner",
    [
      RS,
      snapshot(msg("u", "user", "s2", call("c1")), msg("a", "assistant", "s1", call("c1"))),
      tc("START", "c1", "s1"),
      tc("END", "c1"),
      RF,
    ],
    undefined,
  ],
  [
    "a result re-mints its message under its own owner, which an untagged call inherits",
    [
      RS,
      { type: "TEXT_MESSAGE_START", messageId: "m1", subagentRunId: "s1" },
      { type: "TEXT_MESSAGE_END", messageId: "m1" },
      snapshot(msg("u", "user", "s1", call("c1"))),
      { type: "TOOL_CALL_RESULT", toolCallId: "c0", messageId: "m1", content: "ok" },
      tc("START", "c1", undefined, { parentMessageId: "m1" }),
      tc("END", "c1"),
      RF,
    ],
    5,
  ],
  [
    "an untagged call inherits its parent's owner, the client's owner of the call",
    [
      RS,
      { type: "TEXT_MESSAGE_START", messageId: "m1", subagentRunId: "s1" },
      { type: "TEXT_MESSAGE_END", messageId: "m1" },
      snapshot(msg("u", "user", "s1", call("c1"))),
      tc("START", "c1", undefined, { parentMessageId: "m1" }),
      tc("END", "c1"),
      RF,
    ],
    undefined,
  ],
  [
    "a snapshot re-owns an open call for the client only",
    [
      RS,
      tc("START", "c1", "s1"),
      snapshot(msg("u", "tool", "s2", call("c1"))),
      tc("ARGS", "c1", "s1", { delta: "{}" }),
      tc("END", "c1"),
      RF,
    ],
    3,
  ],
  [
    "an encrypted value for a call the client holds under another owner",
    [
      RS,
      snapshot(msg("u", "user", "s1", call("c1"))),
      {
        type: "REASONING_ENCRYPTED_VALUE",
        subtype: "tool-call",
        entityId: "c1",
        subagentRunId: "s2",
      },
      RF,
    ],
    2,
  ],
  [
    "an encrypted value of an unknown subtype, checked as reasoning",
    [
      RS,
      { type: "REASONING_MESSAGE_START", messageId: "r1", subagentRunId: "s1" },
      { type: "REASONING_MESSAGE_END", messageId: "r1" },
      { type: "REASONING_ENCRYPTED_VALUE", subtype: "", entityId: "r1", subagentRunId: "s2" },
      RF,
    ],
    3,
  ],
  ["toolCalls that are a number", [RS, snapshot(msg("u", "user", undefined, 5)), RF], 1],
  ["toolCalls that are an object", [echo(msg("u", "system", undefined, {})), RF], 0],
  ["toolCalls that are true", [RS, snapshot(msg("u", "activity", undefined, true)), RF], 1],
  ["toolCalls that are a string", [RS, snapshot(msg("u", "user", undefined, "c1")), RF], undefined],
  ["toolCalls that are null", [RS, snapshot(msg("u", "user", undefined, null)), RF], undefined],
  [
    "an outcome on SUBAGENT_STARTED",
    [
      RS,
      { type: "SUBAGENT_STARTED", subagentRunId: "s1", name: "n", outcome: "x" },
      { type: "SUBAGENT_FINISHED", subagentRunId: "s1" },
      RF,
    ],
    1,
  ],
  [
    "a null outcome on SUBAGENT_STARTED",
    [
      RS,
      { type: "SUBAGENT_STARTED", subagentRunId: "s1", name: "n", outcome: null },
      { type: "SUBAGENT_FINISHED", subagentRunId: "s1" },
      RF,
    ],
    undefined,
  ],
  [
    "an outcome on SUBAGENT_ERROR",
    [
      RS,
      { type: "SUBAGENT_STARTED", subagentRunId: "s1", name: "n" },
      {
        type: "SUBAGENT_ERROR",
        subagentRunId: "s1",
        message: "m",
        outcome: { type: "success", interruptIds: [1] },
      },
      RF,
    ],
    2,
  ],
  [
    "RAW after RUN_ERROR",
    [RS, { type: "RUN_ERROR", message: "x" }, { type: "RAW" }, RS, RF],
    2,
    true,
  ],
  [
    "RUN_STARTED after RUN_ERROR",
    [RS, { type: "RUN_ERROR", message: "x" }, RS, RF],
    undefined,
    true,
  ],
  [
    "a reasoning block left open in a run that errored, then a new run",
    [
      RS,
      { type: "REASONING_START", messageId: "r1" },
      { type: "RUN_ERROR", message: "x" },
      RS,
      { type: "REASONING_START", messageId: "r1" },
      { type: "REASONING_END", messageId: "r1" },
      RF,
    ],
    undefined,
    true,
  ],
  [
    "a null tag on a THINKING_* event",
    [RS, { type: "THINKING_START", subagentRunId: null }, RF],
    1,
  ],
  [
    "a number tag on an unknown event",
    [RS, { type: "SOME_FUTURE_EVENT", subagentRunId: 5 }, RF],
    undefined,
  ],
  [
    "a null tag inside an interrupt of another outcome",
    [
      RS,
      { ...RF, outcome: { type: "cancelled", interrupts: [{ id: "i1", subagentRunId: null }] } },
    ],
    undefined,
  ],
];

describe("CLIENT_REJECTS on hand-written streams", () => {
  it.each(
    EDGES.map(([name, events, at, sequential]) => [name, events, at, sequential ?? false] as const),
  )("%s", (_name, events, at, sequential) => {
    expect(clientFirstError(events)).toBe(at);
    const report = lint(events, { allowSequentialRuns: sequential });
    expect(report.valid).toBe(true);
    const found = report.findings.filter((f) => f.code === "CLIENT_REJECTS");
    expect(found.map((f) => [f.index, f.count])).toEqual(at === undefined ? [] : [[at, 1]]);
  });
});

describe("CLIENT_REJECTS against verifyEvents of @ag-ui/client 1.0.0", () => {
  it("appears at index i exactly when verifyEvents first errors at i, on 12,000 streams", () => {
    let total = 0;
    let clean = 0;
    let rejected = 0;
    const rows = new Map<string, number>();
    fc.assert(
      fc.property(streams, ({ events, sequential }) => {
        total++;
        const report = lint(events, { allowSequentialRuns: sequential });
        if (!report.valid) return;
        clean++;
        const found = report.findings.filter((f) => f.code === "CLIENT_REJECTS");
        const client = clientFirstError(events);
        expect({
          count: found.reduce((n, f) => n + f.count, 0),
          index: found[0]?.index,
        }).toEqual({ count: client === undefined ? 0 : 1, index: client });
        if (client === undefined) return;
        rejected++;
        const message = found[0]?.message ?? "";
        const row = ROWS.find(([, re]) => re.test(message));
        expect(row, message).toBeDefined();
        if (row !== undefined) rows.set(row[0], (rows.get(row[0]) ?? 0) + 1);
      }),
      { seed: 0x5eed18, numRuns: 12_000 },
    );
    expect(total).toBe(12_000);
    // Enough of both verdicts, and every row, for the agreement to mean something.
    expect(clean).toBeGreaterThan(6_000);
    expect(rejected).toBeGreaterThan(1_500);
    expect(clean - rejected).toBeGreaterThan(1_500);
    expect([...rows.keys()].sort()).toEqual(ROWS.map(([row]) => row).sort());
  }, 60_000);
});
