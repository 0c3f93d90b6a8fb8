// A generator of VALID AG-UI event streams for property tests (SPEC version 4).
//
// fast-check generates a flat array of integer choices; the builder interprets them
// deterministically against a small model of the verifier's state (SPEC §5, §8) and only
// ever emits events that the spec accepts at that point. Because the builder is
// deterministic, fast-check's shrinking of the integer array shrinks the stream.
//
// The model is deliberately written from the spec, not from the implementation:
//   - the phase of the stream: before any run, inside a run, after RUN_FINISHED, after
//     RUN_ERROR (rules 1, 2; §9.6, §9.8). A stream may open with RUN_ERROR, may carry any
//     number of runs, and a finished run may be followed by one late RUN_ERROR. Events of
//     unknown types may stand anywhere (§9.2); RAW and CUSTOM only inside a run;
//   - per run, cleared at every RUN_STARTED (§9.6):
//     - open sets for text messages, tool calls, reasoning messages and reasoning spans,
//       four independent namespaces (rules 3, 4, §9.11);
//     - open steps keyed by (owner, name) (rules 6, 11);
//     - active / finished subagents (rule 12);
//     - five owner registries — message, reasoning, span, tool call, activity (§8).
//
// RUN_STARTED and RUN_FINISHED carry a constant `threadId` and the run's own `runId`, and
// interrupt ids are unique, so every generated stream is valid under `protocol: "draft"`
// too (§9.14).

import fc from "fast-check";

/** The parent agent as an owner. As a *tag choice* it means "untagged". */
export const PARENT: unique symbol = Symbol("PARENT");
export type Owner = typeof PARENT | string;

/** An event as generated here: a plain object with a string `type`. */
export type Ev = { type: string } & Record<string, unknown>;

/** Ids used for every entity kind. Includes ids that trip naive object-keyed maps. */
export const IDS: readonly string[] = [
  "m1",
  "m2",
  "c1",
  "x",
  "",
  "__proto__",
  "constructor",
  "toString",
];
/** Subagent ids. "never-announced" is only ever used as a tag, never started. */
export const SUBAGENTS: readonly string[] = ["s1", "s2", "", "__proto__", "constructor"];
const TAG_ONLY_SUBAGENTS: readonly string[] = ["never-announced", "hasOwnProperty"];
const ALL_TAGS: readonly Owner[] = [PARENT, ...SUBAGENTS, ...TAG_ONLY_SUBAGENTS];
const STEP_NAMES: readonly string[] = ["tools", "tools", "plan", "", "__proto__"];
const ROLES: readonly string[] = [
  "user",
  "assistant",
  "assistant",
  "tool",
  "system",
  "developer",
  "reasoning",
  "activity",
  "some-future-role",
];

/** The thread every generated run belongs to (one stream carries one thread, §9.14). */
export const THREAD = "t1";

/** Types this document does not list, THINKING_* included (§9.2, §9.5). */
export const UNKNOWN_TYPES: readonly string[] = [
  "SOME_FUTURE_EVENT",
  "text_message_start",
  "",
  "THINKING_START",
  "THINKING_END",
  "THINKING_TEXT_MESSAGE_START",
  "THINKING_TEXT_MESSAGE_CONTENT",
  "THINKING_TEXT_MESSAGE_END",
];

/** The types whose `subagentRunId` is not read at all (§3.1). */
export const RUN_LEVEL_TYPES: ReadonlySet<string> = new Set([
  "RUN_STARTED",
  "RUN_FINISHED",
  "RUN_ERROR",
  "MESSAGES_SNAPSHOT",
]);

/** Keys that no event type reads (§3.2 "Not read" column); any value is fine there. */
const NOISE_KEYS: readonly string[] = [
  "threadId",
  "runId",
  "delta",
  "timestamp",
  "rawEvent",
  "name",
  "role",
  "toolCallName",
  "content",
];
const NOISE_VALUES: readonly unknown[] = [null, 42, "x", { nested: null }, [null], false];

// ---------------------------------------------------------------------------------------
// Choice source

class Choices {
  private i = 0;
  /** Once the generated choices run out (closing the run), a PRNG seeded from them. */
  private seed: number;
  private readonly xs: readonly number[];
  constructor(xs: readonly number[]) {
    this.xs = xs;
    let h = 0x2545f491 ^ xs.length;
    for (const x of xs) h = Math.imul(h ^ x, 0x9e3779b1) >>> 0;
    this.seed = h >>> 0 || 1;
  }
  get exhausted(): boolean {
    return this.i >= this.xs.length;
  }
  /** An integer in [0, n). Consumes nothing when there is only one option. */
  int(n: number): number {
    if (n <= 1) return 0;
    const v = this.xs[this.i];
    this.i += 1;
    if (v !== undefined) return v % n;
    // xorshift32
    let x = this.seed;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.seed = x >>> 0;
    return this.seed % n;
  }
  bool(percentTrue = 50): boolean {
    return this.int(100) < percentTrue;
  }
  pick<T>(arr: readonly T[]): T {
    const v = arr[this.int(arr.length)];
    if (v === undefined) throw new Error("pick from an empty array");
    return v;
  }
}

// ---------------------------------------------------------------------------------------
// Model

function agrees(tag: Owner, owner: Owner | undefined): boolean {
  // An untagged event always agrees; an id with no owner always passes (rule 9).
  return tag === PARENT || owner === undefined || tag === owner;
}

/** Tags a continuation of an entity owned by `owner` may carry. */
function agreeingTags(owner: Owner | undefined): Owner[] {
  if (owner === undefined) return [...ALL_TAGS];
  return typeof owner === "string" ? [PARENT, owner] : [PARENT];
}

function stepKey(owner: Owner, name: string): string {
  return JSON.stringify(owner === PARENT ? ["P", name] : ["S", owner, name]);
}

/** What one run tracks; a new one for every RUN_STARTED (§9.6). */
class RunModel {
  readonly openText = new Set<string>();
  readonly openTool = new Set<string>();
  readonly openReasoning = new Set<string>();
  readonly openSpans = new Set<string>();
  readonly steps = new Map<string, { owner: Owner; name: string }>();
  readonly active = new Set<string>();
  readonly finished = new Set<string>();
  readonly messageReg = new Map<string, Owner>();
  readonly reasoningReg = new Map<string, Owner>();
  readonly spanReg = new Map<string, Owner>();
  readonly toolReg = new Map<string, Owner>();
  readonly activityReg = new Map<string, Owner>();

  registryForRole(role: string): Map<string, Owner> {
    if (role === "reasoning") return this.reasoningReg;
    if (role === "activity") return this.activityReg;
    return this.messageReg;
  }
}

// ---------------------------------------------------------------------------------------
// Event construction helpers

function tagged(ev: Ev, tag: Owner): Ev {
  if (typeof tag === "string") ev.subagentRunId = tag;
  return ev;
}

/** How a run ends. */
export type Ending = "finished" | "error" | "late-error";

export interface BuildOptions {
  /**
   * How the run ends: RUN_FINISHED with everything closed and nothing after it;
   * RUN_ERROR with anything still open; RUN_FINISHED then one late RUN_ERROR (§9.8).
   * "either" lets the choices decide, and may add events of unknown types after the close.
   */
  ending: Ending | "either";
}

/** Where one run of a generated stream is. */
export interface RunInfo {
  /** The index of its RUN_STARTED; undefined for a RUN_ERROR that opens the stream. */
  readonly start: number | undefined;
  /** The index of the RUN_FINISHED or RUN_ERROR that closed it. */
  readonly close: number;
  readonly ending: Ending;
  /** The index of the late RUN_ERROR after its RUN_FINISHED, for "late-error". */
  readonly late: number | undefined;
}

interface SeedMessage {
  id: string;
  role: string;
  owner: Owner;
  toolCalls: string[] | undefined;
}

function messageObject(m: SeedMessage): Record<string, unknown> {
  const o: Record<string, unknown> = { id: m.id, role: m.role, content: "…" };
  if (typeof m.owner === "string") o.subagentRunId = m.owner;
  if (m.toolCalls !== undefined) {
    o.toolCalls = m.toolCalls.map((id) => ({
      id,
      type: "function",
      function: { name: "f", arguments: "{}" },
    }));
  }
  return o;
}

// ---------------------------------------------------------------------------------------
// The builder

class Builder {
  readonly events: Ev[] = [];
  /**
   * Per event: the code the spec requires if this event's tag were replaced by a
   * subagent id nobody uses, as the model knows it at that point; undefined when the
   * model does not predict a rejection (no owner recorded, or no ownership check).
   */
  readonly onRetag: Array<string | undefined> = [];
  readonly runs: RunInfo[] = [];
  m = new RunModel();
  private runCount = 0;
  private runStart = 0;
  private readonly c: Choices;
  constructor(c: Choices) {
    this.c = c;
  }

  /** Emits an event whose tag is checked against `owner` (rule 9). */
  emitChecked(ev: Ev, owner: Owner | undefined): void {
    this.emit(ev, owner === undefined ? undefined : "OWNER_MISMATCH");
  }

  emit(ev: Ev, onRetag?: string): void {
    this.onRetag.push(onRetag);
    // Unread fields must not change the verdict (§0): sprinkle some in. The ids of
    // RUN_STARTED and RUN_FINISHED are read under protocol draft, so they stay as made.
    if (this.c.int(6) === 0) {
      const key = this.c.pick(NOISE_KEYS);
      const runIds = ev.type === "RUN_STARTED" || ev.type === "RUN_FINISHED";
      if (!(key in ev) && !(runIds && (key === "threadId" || key === "runId"))) {
        ev[key] = this.c.pick(NOISE_VALUES);
      }
    }
    this.events.push(ev);
  }

  anyId(): string {
    return this.c.pick(IDS);
  }
  /** Mostly an id that already has an owner in `reg`, so that ownership gets exercised. */
  knownId(reg: Map<string, Owner>, extra: readonly string[] = []): string {
    const known = [...reg.keys(), ...extra];
    return known.length > 0 && this.c.bool(70) ? this.c.pick(known) : this.anyId();
  }
  anyTag(): Owner {
    return this.c.pick(ALL_TAGS);
  }
  tagFor(owner: Owner | undefined): Owner {
    return this.c.pick(agreeingTags(owner));
  }
  unopened(open: Set<string>): string[] {
    return IDS.filter((id) => !open.has(id));
  }

  seedMessages(): SeedMessage[] {
    const n = this.c.int(4);
    const out: SeedMessage[] = [];
    for (let k = 0; k < n; k++) {
      const role = this.c.pick(ROLES);
      // toolCalls are read only on assistant messages (§3.3); on others they are ignored.
      const withCalls = role === "assistant" ? this.c.bool(60) : this.c.bool(10);
      let toolCalls: string[] | undefined;
      if (withCalls) {
        toolCalls = [];
        const nc = this.c.int(3);
        for (let j = 0; j < nc; j++) toolCalls.push(this.anyId());
      }
      out.push({ id: this.anyId(), role, owner: this.anyTag(), toolCalls });
    }
    return out;
  }

  /** A run-level event's tag is not read (§3.1): sometimes one is there anyway. */
  ignoredTag(ev: Ev, oneIn: number): Ev {
    if (this.c.int(oneIn) === 0) ev.subagentRunId = this.c.pick(SUBAGENTS);
    return ev;
  }

  // --- the stream's phases (rules 1, 2; §9.2, §9.6, §9.8) -----------------------------

  /** An event of an unknown type: accepted anywhere, and only `type` is read (§9.2). */
  unknownEvent(): void {
    const ev: Ev = { type: this.c.pick(UNKNOWN_TYPES) };
    const t = this.c.int(5);
    if (t === 1) ev.subagentRunId = null;
    if (t === 2) ev.subagentRunId = 5;
    if (t === 3) ev.messageId = null;
    this.emit(ev);
  }

  runError(): Ev {
    const ev = this.ignoredTag({ type: "RUN_ERROR", message: "boom", code: "E" }, 8);
    this.emit(ev);
    return ev;
  }

  /** A RUN_ERROR before any run: a run that failed before it began (rule 1). */
  leadingError(): void {
    const close = this.events.length;
    this.runError();
    this.runs.push({ start: undefined, close, ending: "error", late: undefined });
  }

  startRun(): void {
    this.m = new RunModel();
    this.runCount += 1;
    this.runStart = this.events.length;
    this.runStarted();
  }

  endRun(ending: Ending): void {
    if (ending === "error") {
      // RUN_ERROR may arrive with anything still open (§9.8).
      const close = this.events.length;
      this.runError();
      this.runs.push({ start: this.runStart, close, ending, late: undefined });
      return;
    }
    this.closeEverything();
    const close = this.events.length;
    this.runFinished();
    let late: number | undefined;
    if (ending === "late-error") {
      late = this.events.length;
      this.runError();
    }
    this.runs.push({ start: this.runStart, close, ending, late });
  }

  get runId(): string {
    return `r${this.runCount}`;
  }

  // --- run envelope ---------------------------------------------------------------------

  runStarted(): void {
    const ev = this.ignoredTag({ type: "RUN_STARTED", threadId: THREAD, runId: this.runId }, 8);
    const inputKind = this.c.int(4);
    if (inputKind === 1) ev.input = { threadId: THREAD, tools: [] };
    if (inputKind >= 2) {
      const msgs = this.seedMessages();
      ev.input = { threadId: THREAD, messages: msgs.map(messageObject), state: null };
      // Non-authoritative: first occurrence wins, id by id (§8.5).
      for (const msg of msgs) {
        const reg = this.m.registryForRole(msg.role);
        if (!reg.has(msg.id)) reg.set(msg.id, msg.owner);
        if (msg.role === "assistant" && msg.toolCalls !== undefined) {
          for (const tc of msg.toolCalls) {
            if (!this.m.toolReg.has(tc)) this.m.toolReg.set(tc, msg.owner);
          }
        }
      }
    }
    this.emit(ev);
  }

  closeEverything(): void {
    // Close open entities in an order chosen by the choices, interleaving kinds.
    for (;;) {
      const pending: Array<() => void> = [];
      for (const id of this.m.openText) pending.push(() => this.textEnd(id));
      for (const id of this.m.openTool) pending.push(() => this.toolEnd(id));
      for (const id of this.m.openReasoning) pending.push(() => this.reasoningMessageEnd(id));
      for (const id of this.m.openSpans) pending.push(() => this.reasoningEnd(id));
      for (const s of this.m.steps.values()) pending.push(() => this.stepFinish(s.owner, s.name));
      for (const s of this.m.active) pending.push(() => this.subagentClose(s));
      if (pending.length === 0) return;
      this.c.pick(pending)();
    }
  }

  runFinished(): void {
    const ev = this.ignoredTag({ type: "RUN_FINISHED", threadId: THREAD, runId: this.runId }, 8);
    switch (this.c.int(8)) {
      case 1:
        ev.outcome = { type: "success" };
        break;
      case 2:
        ev.outcome = { type: "success", pendingToolCallIds: ["c1"] };
        break;
      case 3:
      case 4: {
        const interrupts: unknown[] = [];
        const n = 1 + this.c.int(3);
        for (let k = 0; k < n; k++) {
          interrupts.push(
            k === 0
              ? { id: `i${k}`, reason: "confirmation" }
              : { id: `i${k}`, reason: "x", toolCallId: "c1" },
          );
        }
        ev.outcome = { type: "interrupt", interrupts };
        break;
      }
      case 5:
        ev.outcome = { type: "cancelled" };
        break;
      case 6:
        // Unknown outcome types are read as success, with no further reading (§3.4).
        ev.outcome = { type: "some-future-outcome", interrupts: [] };
        break;
      default:
        break;
    }
    this.emit(ev);
  }

  // --- text messages (rule 3, rule 9) --------------------------------------------------

  textStart(): void {
    const id = this.c.pick(this.unopened(this.m.openText));
    const owner = this.m.messageReg.get(id);
    const tag = this.tagFor(owner);
    this.emitChecked(
      tagged({ type: "TEXT_MESSAGE_START", messageId: id, role: "assistant" }, tag),
      owner,
    );
    this.m.openText.add(id);
    if (!this.m.messageReg.has(id)) this.m.messageReg.set(id, tag);
  }
  textContent(): void {
    const id = this.c.pick([...this.m.openText]);
    const owner = this.m.messageReg.get(id);
    this.emitChecked(
      tagged({ type: "TEXT_MESSAGE_CONTENT", messageId: id, delta: "hi" }, this.tagFor(owner)),
      owner,
    );
  }
  textEnd(id: string): void {
    const owner = this.m.messageReg.get(id);
    this.emitChecked(
      tagged({ type: "TEXT_MESSAGE_END", messageId: id }, this.tagFor(owner)),
      owner,
    );
    this.m.openText.delete(id);
  }

  // --- tool calls (rules 4, 9, 10) ----------------------------------------------------

  toolStart(): void {
    const id = this.c.pick(this.unopened(this.m.openTool));
    let parent: string | undefined;
    const pk = this.c.int(4);
    if (pk === 1 || pk === 2) {
      // Prefer an open message (a call narrated by the message it sits in).
      const open = [...this.m.openText];
      parent = open.length > 0 && pk === 1 ? this.c.pick(open) : this.anyId();
    }
    const tcOwner = this.m.toolReg.get(id);
    const ok = (tag: Owner, p: string | undefined): boolean => {
      if (!agrees(tag, tcOwner)) return false; // rule 9
      const pOwner = p === undefined ? undefined : this.m.messageReg.get(p);
      if (pOwner === undefined) return true; // unrecorded parent: rule 10 is a no-op
      if (tag !== PARENT) return tag === pOwner; // tagged: must agree with P
      return tcOwner === undefined || tcOwner === pOwner; // untagged inherits P
    };
    let candidates = ALL_TAGS.filter((t) => ok(t, parent));
    if (candidates.length === 0) {
      parent = undefined;
      candidates = ALL_TAGS.filter((t) => ok(t, undefined));
    }
    // Bias towards the interesting cases: untagged, or tagged with the inherited owner.
    const pOwner = parent === undefined ? undefined : this.m.messageReg.get(parent);
    if (typeof pOwner === "string" && candidates.includes(pOwner)) candidates.push(pOwner);
    if (candidates.includes(PARENT)) candidates.push(PARENT);
    const tag = this.c.pick(candidates);
    const ev: Ev = { type: "TOOL_CALL_START", toolCallId: id, toolCallName: "search" };
    if (parent !== undefined) ev.parentMessageId = parent;
    // A fresh tag fails rule 9 if the call has an owner, else rule 10 if the parent has one.
    const onRetag =
      tcOwner !== undefined
        ? "OWNER_MISMATCH"
        : pOwner !== undefined
          ? "TOOL_CALL_PARENT_OWNER_MISMATCH"
          : undefined;
    this.emit(tagged(ev, tag), onRetag);
    this.m.openTool.add(id);
    if (!this.m.toolReg.has(id)) {
      this.m.toolReg.set(id, tag !== PARENT ? tag : (pOwner ?? PARENT));
    }
  }
  toolArgs(): void {
    const id = this.c.pick([...this.m.openTool]);
    const owner = this.m.toolReg.get(id);
    this.emitChecked(
      tagged({ type: "TOOL_CALL_ARGS", toolCallId: id, delta: "{}" }, this.tagFor(owner)),
      owner,
    );
  }
  toolEnd(id: string): void {
    const owner = this.m.toolReg.get(id);
    this.emitChecked(tagged({ type: "TOOL_CALL_END", toolCallId: id }, this.tagFor(owner)), owner);
    this.m.openTool.delete(id);
  }
  toolResult(): void {
    // Any call: ended, still open (rule 5 is retired, §7), or never started in this run.
    const open = [...this.m.openTool];
    const known = [...this.m.toolReg.keys()];
    const k = this.c.int(10);
    const callId =
      k < 3 && open.length > 0
        ? this.c.pick(open)
        : k < 8 && known.length > 0
          ? this.c.pick(known)
          : this.anyId();
    const messageId = this.anyId();
    const tag = this.anyTag(); // never compared with the call's owner (§8.4)
    this.emit(
      tagged({ type: "TOOL_CALL_RESULT", toolCallId: callId, messageId, content: "ok" }, tag),
    );
    this.m.messageReg.set(messageId, tag); // mints the tool message (overwrites)
  }

  // --- reasoning (rules 4, 9; §8.6, §9.11) --------------------------------------------

  reasoningStart(): void {
    // Often the id of an open reasoning message: a span and its message may share one.
    const closed = this.unopened(this.m.openSpans);
    const sharing = closed.filter((id) => this.m.openReasoning.has(id) || this.m.spanReg.has(id));
    const id = this.c.pick(sharing.length > 0 && this.c.bool(60) ? sharing : closed);
    const owner = this.m.spanReg.get(id);
    const tag = this.tagFor(owner);
    this.emitChecked(tagged({ type: "REASONING_START", messageId: id }, tag), owner);
    this.m.openSpans.add(id);
    if (!this.m.spanReg.has(id)) this.m.spanReg.set(id, tag);
  }
  reasoningEnd(id: string): void {
    const owner = this.m.spanReg.get(id);
    this.emitChecked(tagged({ type: "REASONING_END", messageId: id }, this.tagFor(owner)), owner);
    this.m.openSpans.delete(id);
  }
  reasoningMessageStart(): void {
    const closed = this.unopened(this.m.openReasoning);
    const inSpan = closed.filter((id) => this.m.openSpans.has(id));
    const id = this.c.pick(inSpan.length > 0 && this.c.bool(40) ? inSpan : closed);
    const owner = this.m.reasoningReg.get(id);
    const tag = this.tagFor(owner);
    this.emitChecked(
      tagged({ type: "REASONING_MESSAGE_START", messageId: id, role: "reasoning" }, tag),
      owner,
    );
    this.m.openReasoning.add(id);
    if (!this.m.reasoningReg.has(id)) this.m.reasoningReg.set(id, tag);
  }
  reasoningMessageContent(): void {
    const id = this.c.pick([...this.m.openReasoning]);
    const owner = this.m.reasoningReg.get(id);
    this.emitChecked(
      tagged({ type: "REASONING_MESSAGE_CONTENT", messageId: id, delta: "…" }, this.tagFor(owner)),
      owner,
    );
  }
  reasoningMessageEnd(id: string): void {
    const owner = this.m.reasoningReg.get(id);
    this.emitChecked(
      tagged({ type: "REASONING_MESSAGE_END", messageId: id }, this.tagFor(owner)),
      owner,
    );
    this.m.openReasoning.delete(id);
  }
  encryptedValue(): void {
    const subtype = this.c.pick(["message", "message", "tool-call", "tool-call", "future", ""]);
    // For "message", ids only the reasoning registry knows exercise the fallback (§8.6).
    const id =
      subtype === "tool-call"
        ? this.knownId(this.m.toolReg)
        : this.knownId(
            this.m.messageReg,
            [...this.m.reasoningReg.keys()].filter((k) => !this.m.messageReg.has(k)),
          );
    let owner: Owner | undefined;
    if (subtype === "tool-call") owner = this.m.toolReg.get(id);
    else if (subtype === "message") {
      owner = this.m.messageReg.has(id) ? this.m.messageReg.get(id) : this.m.reasoningReg.get(id);
    }
    const tag = this.tagFor(owner); // unknown subtype: owner undefined, any tag
    this.emitChecked(
      tagged(
        { type: "REASONING_ENCRYPTED_VALUE", subtype, entityId: id, encryptedValue: "zz" },
        tag,
      ),
      owner,
    );
  }

  // --- activities (§8.3) --------------------------------------------------------------

  activitySnapshot(): void {
    const id = this.knownId(this.m.activityReg);
    const tag = this.anyTag();
    const ev: Ev = { type: "ACTIVITY_SNAPSHOT", messageId: id, activityType: "plan", content: {} };
    const rk = this.c.int(3);
    if (rk === 1) ev.replace = true;
    if (rk === 2) ev.replace = false;
    this.emit(tagged(ev, tag));
    if (!this.m.activityReg.has(id) || ev.replace !== false) this.m.activityReg.set(id, tag);
  }
  activityDelta(): void {
    const id = this.knownId(this.m.activityReg);
    const owner = this.m.activityReg.get(id);
    this.emitChecked(
      tagged({ type: "ACTIVITY_DELTA", messageId: id, patch: [] }, this.tagFor(owner)),
      owner,
    );
  }

  // --- steps (rules 6, 11) ------------------------------------------------------------

  stepStart(): void {
    const combos: Array<{ owner: Owner; name: string }> = [];
    for (const owner of ALL_TAGS) {
      for (const name of STEP_NAMES) {
        if (!this.m.steps.has(stepKey(owner, name))) combos.push({ owner, name });
      }
    }
    // Prefer a name already open under another owner: one name, several owners at once.
    const openNames = new Set([...this.m.steps.values()].map((s) => s.name));
    const shared = combos.filter((x) => openNames.has(x.name));
    const { owner, name } = this.c.pick(shared.length > 0 && this.c.bool(60) ? shared : combos);
    this.emit(tagged({ type: "STEP_STARTED", stepName: name }, owner));
    this.m.steps.set(stepKey(owner, name), { owner, name });
  }
  stepFinish(owner: Owner, name: string): void {
    // (owner, name) is open, so a fresh owner finds the name open under another owner only.
    this.emit(tagged({ type: "STEP_FINISHED", stepName: name }, owner), "STEP_OWNER_MISMATCH");
    this.m.steps.delete(stepKey(owner, name));
  }

  // --- subagents (rules 12, 13) -------------------------------------------------------

  subagentStart(): void {
    const fresh = SUBAGENTS.filter((s) => !this.m.active.has(s) && !this.m.finished.has(s));
    const id = this.c.pick(fresh);
    const ev: Ev = { type: "SUBAGENT_STARTED", subagentRunId: id, name: "helper" };
    const parents = [...this.m.active, ...this.m.finished];
    if (parents.length > 0 && this.c.bool(60)) ev.parentSubagentRunId = this.c.pick(parents);
    this.emit(ev);
    this.m.active.add(id);
  }
  subagentClose(id: string): void {
    const type = this.c.pick(["SUBAGENT_FINISHED", "SUBAGENT_FINISHED", "SUBAGENT_ERROR"]);
    const ev: Ev = { type, subagentRunId: id };
    if (type === "SUBAGENT_FINISHED" && this.c.bool(30)) {
      ev.outcome = this.c.pick([
        { type: "success" },
        { type: "suspended", interruptIds: [] },
        { type: "suspended" },
        { type: "bogus" },
      ]);
    }
    this.emit(ev);
    this.m.active.delete(id);
    this.m.finished.add(id);
  }

  // --- snapshots and unordered events -------------------------------------------------

  messagesSnapshot(): void {
    const msgs = this.seedMessages();
    const ev = this.ignoredTag({ type: "MESSAGES_SNAPSHOT", messages: msgs.map(messageObject) }, 6);
    this.emit(ev);
    // Authoritative: every message overwrites, in array order (§8.5).
    for (const msg of msgs) {
      this.m.registryForRole(msg.role).set(msg.id, msg.owner);
      if (msg.role === "assistant" && msg.toolCalls !== undefined) {
        for (const tc of msg.toolCalls) this.m.toolReg.set(tc, msg.owner);
      }
    }
  }

  unordered(): void {
    const k = this.c.int(10);
    switch (k) {
      case 0:
        this.emit(tagged({ type: "STATE_SNAPSHOT", snapshot: { a: 1 } }, this.anyTag()));
        return;
      case 1:
        this.emit(tagged({ type: "STATE_DELTA", delta: [] }, this.anyTag()));
        return;
      case 2:
        this.emit(tagged({ type: "RAW", event: { x: null }, source: "s" }, this.anyTag()));
        return;
      case 3:
        this.emit(tagged({ type: "CUSTOM", name: "n", value: null }, this.anyTag()));
        return;
      case 4:
        // Chunks pass through (§9.4): their ids are not read, even when malformed.
        this.emit(
          tagged(
            { type: "TEXT_MESSAGE_CHUNK", messageId: this.c.pick([...IDS, null, 7]), delta: "d" },
            this.anyTag(),
          ),
        );
        return;
      case 5:
        this.emit(
          tagged(
            {
              type: "TOOL_CALL_CHUNK",
              toolCallId: this.c.pick([...IDS, null]),
              parentMessageId: null,
            },
            this.anyTag(),
          ),
        );
        return;
      case 6:
        this.emit(
          tagged({ type: "REASONING_MESSAGE_CHUNK", messageId: this.anyId() }, this.anyTag()),
        );
        return;
      default:
        this.unknownEvent();
    }
  }

  // --- the main loop ------------------------------------------------------------------

  step(): void {
    const m = this.m;
    const actions: Array<[number, boolean, () => void]> = [
      [6, m.openText.size < IDS.length, () => this.textStart()],
      [5, m.openText.size > 0, () => this.textContent()],
      [4, m.openText.size > 0, () => this.textEnd(this.c.pick([...m.openText]))],
      [6, m.openTool.size < IDS.length, () => this.toolStart()],
      [4, m.openTool.size > 0, () => this.toolArgs()],
      [4, m.openTool.size > 0, () => this.toolEnd(this.c.pick([...m.openTool]))],
      [3, true, () => this.toolResult()],
      [3, m.openSpans.size < IDS.length, () => this.reasoningStart()],
      [2, m.openSpans.size > 0, () => this.reasoningEnd(this.c.pick([...m.openSpans]))],
      [3, m.openReasoning.size < IDS.length, () => this.reasoningMessageStart()],
      [2, m.openReasoning.size > 0, () => this.reasoningMessageContent()],
      [
        2,
        m.openReasoning.size > 0,
        () => this.reasoningMessageEnd(this.c.pick([...m.openReasoning])),
      ],
      [3, true, () => this.encryptedValue()],
      [2, true, () => this.activitySnapshot()],
      [2, true, () => this.activityDelta()],
      [4, true, () => this.stepStart()],
      [
        3,
        m.steps.size > 0,
        () => {
          const s = this.c.pick([...m.steps.values()]);
          this.stepFinish(s.owner, s.name);
        },
      ],
      [
        3,
        SUBAGENTS.some((s) => !m.active.has(s) && !m.finished.has(s)),
        () => this.subagentStart(),
      ],
      [3, m.active.size > 0, () => this.subagentClose(this.c.pick([...m.active]))],
      [2, true, () => this.messagesSnapshot()],
      [3, true, () => this.unordered()],
    ];
    const applicable = actions.filter(([, ok]) => ok);
    const total = applicable.reduce((acc, [w]) => acc + w, 0);
    let r = this.c.int(total);
    for (const [w, , run] of applicable) {
      if (r < w) {
        run();
        return;
      }
      r -= w;
    }
  }
}

/** An ending drawn from the choices: mostly finished, often failed, sometimes failed late. */
function anyEnding(c: Choices): Ending {
  const r = c.int(8);
  return r < 2 ? "error" : r < 3 ? "late-error" : "finished";
}

export interface BuiltRun {
  events: Ev[];
  /** Per event, the code expected when its tag is replaced by a never-used subagent id. */
  onRetag: Array<string | undefined>;
  /** Where each run is, in order. */
  runs: RunInfo[];
}

/**
 * Builds a stream with exactly one run: events of unknown types, RUN_STARTED … its close
 * (as `options.ending` says), and, for "either", perhaps unknown types after it.
 */
export function buildRun(choices: readonly number[], options: BuildOptions): Ev[] {
  return buildRunWithMeta(choices, options).events;
}

export function buildRunWithMeta(choices: readonly number[], options: BuildOptions): BuiltRun {
  const c = new Choices(choices);
  const b = new Builder(c);
  const ending = options.ending === "either" ? anyEnding(c) : options.ending;
  const prelude = c.int(3);
  for (let k = 0; k < prelude; k++) b.unknownEvent();
  b.startRun();
  while (!c.exhausted) b.step();
  b.endRun(ending);
  if (options.ending === "either" && c.int(4) === 0) b.unknownEvent();
  return { events: b.events, onRetag: b.onRetag, runs: b.runs };
}

/**
 * Builds a stream of any shape SPEC version 4 accepts, without any option: perhaps a
 * RUN_ERROR first (a run that failed before it began), then runs one after the other, each
 * ending in RUN_FINISHED, RUN_ERROR or RUN_FINISHED and a late RUN_ERROR, with events of
 * unknown types before, between and after them. At least one run or leading RUN_ERROR.
 */
export function buildStream(choices: readonly number[]): Ev[] {
  return buildStreamWithMeta(choices).events;
}

export function buildStreamWithMeta(choices: readonly number[]): BuiltRun {
  const c = new Choices(choices);
  const b = new Builder(c);
  const unknowns = (n: number) => {
    for (let k = 0; k < n; k++) b.unknownEvent();
  };
  unknowns(c.int(3));
  const leading = c.int(6) === 0;
  if (leading) b.leadingError();
  const count = leading ? c.int(3) : 1 + c.int(4);
  for (let k = 0; k < count; k++) {
    if (k > 0 || leading) unknowns(c.int(4) === 0 ? 1 + c.int(2) : 0);
    b.startRun();
    const last = k === count - 1;
    while (!c.exhausted) {
      if (!last && c.int(16) === 0) break;
      b.step();
    }
    b.endRun(anyEnding(c));
  }
  unknowns(c.int(4) === 0 ? 1 : 0);
  return { events: b.events, onRetag: b.onRetag, runs: b.runs };
}

const choicesArb = fc.array(fc.nat({ max: 0x7fffffff }), { maxLength: 300, size: "max" });

/** A valid stream with one run, ending in RUN_FINISHED, RUN_ERROR or both. */
export const validRun: fc.Arbitrary<Ev[]> = choicesArb.map((xs) =>
  buildRun(xs, { ending: "either" }),
);

/** A valid one-run stream with the model's per-event retag predictions. */
export const validRunWithMeta: fc.Arbitrary<BuiltRun> = choicesArb.map((xs) =>
  buildRunWithMeta(xs, { ending: "either" }),
);

/** A valid one-run stream whose last event is its RUN_FINISHED (everything closed). */
export const finishedRun: fc.Arbitrary<Ev[]> = choicesArb.map((xs) =>
  buildRun(xs, { ending: "finished" }),
);

/** A valid stream of any shape: several runs, a leading RUN_ERROR, late failures (§9.6). */
export const validStream: fc.Arbitrary<Ev[]> = choicesArb.map((xs) => buildStream(xs));

/** The same, with the model's per-event retag predictions and where each run is. */
export const validStreamWithMeta: fc.Arbitrary<BuiltRun> = choicesArb.map((xs) =>
  buildStreamWithMeta(xs),
);

/**
 * Several valid one-run streams. Under version 4 their concatenation is itself a valid
 * stream, with no option (§9.6): nothing open crosses a RUN_STARTED.
 */
export const sequentialRuns: fc.Arbitrary<Ev[][]> = fc.array(
  fc
    .array(fc.nat({ max: 0x7fffffff }), { maxLength: 60, size: "max" })
    .map((xs) => buildRun(xs, { ending: "either" })),
  { minLength: 1, maxLength: 4 },
);
