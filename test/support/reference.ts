// A slow, deliberately plain reference verifier written directly from spec/SPEC.md §3–§9
// (version 4), without looking at src/verify/. The differential test compares it with
// `verifyAll`. It computes verdicts only: no messages, no poisoning (§10.4 does not change a
// verdict), and no id limit (§17.1: the differential's streams hold a handful of ids).

import { SseDecodeFailure } from "../../src/index.ts";
import { type EventType, FIELDS_READ, type FieldKind, isEventType } from "./spec-tables.ts";

export type ReferenceVerdict = "accepted" | { code: string; index: number; field?: string };

export interface ReferenceOptions {
  /** Which protocol text decides (§9.14). Default "1.1". */
  protocol?: "1.1" | "draft";
}

/** The parent agent. Distinct from every string, including "" (§0). */
const PARENT: unique symbol = Symbol("PARENT");
type Owner = typeof PARENT | string;

/** A rejection raised inside the reference; turned into a verdict by `referenceVerdict`. */
class Reject {
  readonly code: string;
  readonly field: string | undefined;
  constructor(code: string, field?: string) {
    this.code = code;
    this.field = field;
  }
}

// ---------------------------------------------------------------------------------------
// Rule 0 field checks (§4)

type Rec = Record<string, unknown>;

/** A JSON object: not null, not an array (§3.2). */
function isObject(v: unknown): v is Rec {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** `undefined` counts as absent (§0). */
function isAbsent(obj: Rec, key: string): boolean {
  return obj[key] === undefined;
}

function hasKind(v: unknown, kind: FieldKind): boolean {
  switch (kind) {
    case "string":
      return typeof v === "string";
    case "boolean":
      return typeof v === "boolean";
    case "object":
      return isObject(v);
    case "array":
      return Array.isArray(v);
  }
}

/**
 * Checks one field. Returns true when it is present (and of the right kind), false when it
 * is absent and optional. Throws a Reject otherwise.
 */
function checkField(
  obj: Rec,
  key: string,
  kind: FieldKind,
  required: boolean,
  path: string,
): boolean {
  if (isAbsent(obj, key)) {
    if (required) throw new Reject("FIELD_MISSING", path);
    return false;
  }
  const v = obj[key];
  if (v === null) throw new Reject("FIELD_NULL", path);
  if (!hasKind(v, kind)) throw new Reject("FIELD_WRONG_TYPE", path);
  return true;
}

/** An element of a read array: must be an object (§4.1). */
function checkElement(v: unknown, path: string): asserts v is Rec {
  if (v === null) throw new Reject("FIELD_NULL", path);
  if (!isObject(v)) throw new Reject("FIELD_WRONG_TYPE", path);
}

/** Message of §3.3: id, role, subagentRunId, toolCalls (assistant only). */
function checkMessage(m: Rec, path: string): void {
  checkField(m, "id", "string", true, `${path}.id`);
  checkField(m, "role", "string", true, `${path}.role`);
  checkField(m, "subagentRunId", "string", false, `${path}.subagentRunId`);
  if (m.role === "assistant") {
    if (checkField(m, "toolCalls", "array", false, `${path}.toolCalls`)) {
      const calls = m.toolCalls as unknown[];
      for (let i = 0; i < calls.length; i++) {
        const p = `${path}.toolCalls[${i}]`;
        const c = calls[i];
        checkElement(c, p);
        checkField(c, "id", "string", true, `${p}.id`);
      }
    }
  }
}

function checkMessages(arr: unknown[], path: string): void {
  for (let i = 0; i < arr.length; i++) {
    const p = `${path}[${i}]`;
    const m = arr[i];
    checkElement(m, p);
    checkMessage(m, p);
  }
}

/** Types with no tag in the protocol: their `subagentRunId` is not read at all (§3.1). */
const UNTAGGED: ReadonlySet<string> = new Set([
  "RUN_STARTED",
  "RUN_FINISHED",
  "RUN_ERROR",
  "MESSAGES_SNAPSHOT",
]);

/** The fields a type reads, in the order of §3.2 (the tag first, where it is read). */
function fieldsRead(type: EventType, draft: boolean): [string, boolean, FieldKind][] {
  const out: [string, boolean, FieldKind][] = [];
  for (const [key, required, kind] of FIELDS_READ[type]) {
    if (key === "subagentRunId" && UNTAGGED.has(type)) continue;
    out.push([key, required, kind]);
  }
  // §3.2: "with protocol draft also `threadId` R string, `runId` R string", after the rest.
  if (draft && (type === "RUN_STARTED" || type === "RUN_FINISHED")) {
    out.push(["threadId", true, "string"], ["runId", true, "string"]);
  }
  return out;
}

/**
 * The fields §3.2 lists for the type, in its order (the tag first), each field's nested
 * content (§3.3, §3.4) before the next field.
 */
function checkFields(type: EventType, e: Rec, draft: boolean): void {
  for (const [key, required, kind] of fieldsRead(type, draft)) {
    if (!checkField(e, key, kind, required, key)) continue;
    if (key === "input") {
      const input = e.input as Rec;
      if (checkField(input, "messages", "array", false, "input.messages")) {
        checkMessages(input.messages as unknown[], "input.messages");
      }
    } else if (key === "outcome") {
      const o = e.outcome as Rec;
      checkField(o, "type", "string", true, "outcome.type");
      if (o.type === "interrupt") {
        if (checkField(o, "interrupts", "array", false, "outcome.interrupts")) {
          const arr = o.interrupts as unknown[];
          for (let i = 0; i < arr.length; i++) checkElement(arr[i], `outcome.interrupts[${i}]`);
        }
      }
    } else if (key === "messages") {
      checkMessages(e.messages as unknown[], "messages");
    }
  }
}

// ---------------------------------------------------------------------------------------
// State (§5)

/** Per-run state: all of it is dropped when a new run starts (§9.6). */
interface RunState {
  openText: Set<string>;
  openTool: Set<string>;
  openReasoning: Set<string>;
  openSpans: Set<string>;
  openSteps: { owner: Owner; name: string }[];
  active: Set<string>;
  finished: Set<string>;
  messageReg: Map<string, Owner>;
  reasoningReg: Map<string, Owner>;
  spanReg: Map<string, Owner>;
  toolReg: Map<string, Owner>;
  activityReg: Map<string, Owner>;
  /** With protocol draft: the run's RUN_STARTED ids. */
  threadId: string | undefined;
  runId: string | undefined;
}

function freshRun(): RunState {
  return {
    openText: new Set(),
    openTool: new Set(),
    openReasoning: new Set(),
    openSpans: new Set(),
    openSteps: [],
    active: new Set(),
    finished: new Set(),
    messageReg: new Map(),
    reasoningReg: new Map(),
    spanReg: new Map(),
    toolReg: new Map(),
    activityReg: new Map(),
    threadId: undefined,
    runId: undefined,
  };
}

/** The tag: a string, or undefined when absent (field checks have already run). */
function tagOf(e: Rec): string | undefined {
  return e.subagentRunId as string | undefined;
}

function ownerOf(tag: string | undefined): Owner {
  return tag === undefined ? PARENT : tag;
}

/** §0: a tag agrees with an owner when absent or equal (a string never equals PARENT). */
function agrees(tag: string | undefined, owner: Owner): boolean {
  return tag === undefined || tag === owner;
}

/** Rule 9 against one registry. */
function rule9(reg: Map<string, Owner>, id: string, tag: string | undefined): void {
  if (reg.has(id) && !agrees(tag, reg.get(id) as Owner)) throw new Reject("OWNER_MISMATCH");
}

function registryForRole(s: RunState, role: string): Map<string, Owner> {
  if (role === "reasoning") return s.reasoningReg;
  if (role === "activity") return s.activityReg;
  return s.messageReg;
}

/** §8.5 seeding. Messages have already passed the field checks. */
function seed(s: RunState, messages: unknown[], authoritative: boolean): void {
  for (const raw of messages) {
    const m = raw as Rec;
    const id = m.id as string;
    const role = m.role as string;
    const owner = ownerOf(m.subagentRunId as string | undefined);
    const reg = registryForRole(s, role);
    if (authoritative || !reg.has(id)) reg.set(id, owner);
    if (role === "assistant" && m.toolCalls !== undefined) {
      for (const c of m.toolCalls as Rec[]) {
        const cid = c.id as string;
        if (authoritative || !s.toolReg.has(cid)) s.toolReg.set(cid, owner);
      }
    }
  }
}

/** Rule 8, and with protocol draft the duplicate interrupt ids of §9.14. */
function checkOutcome(o: Rec | undefined, draft: boolean): void {
  if (o === undefined || o.type !== "interrupt") return;
  const arr = o.interrupts as Rec[] | undefined;
  if (arr === undefined || arr.length === 0) throw new Reject("INTERRUPT_OUTCOME_EMPTY");
  if (!draft) return;
  const seen = new Set<string>();
  for (let i = 0; i < arr.length; i++) {
    const id = (arr[i] as Rec).id;
    if (typeof id !== "string") continue; // only string ids are compared
    if (seen.has(id)) throw new Reject("INTERRUPT_ID_DUPLICATE", `outcome.interrupts[${i}].id`);
    seen.add(id);
  }
}

// ---------------------------------------------------------------------------------------
// The verifier

/** §5: FINISHED and FAILED together are "closed". */
type Phase = "BEFORE_RUN" | "RUNNING" | "FINISHED" | "FAILED";

/** §6 step 3, for a recognised type: the phase check's code, or undefined to continue. */
function phaseCheck(phase: Phase, type: string): string | undefined {
  switch (phase) {
    case "BEFORE_RUN":
      return type === "RUN_STARTED" || type === "RUN_ERROR"
        ? undefined
        : "EVENT_BEFORE_RUN_STARTED";
    case "RUNNING":
      return type === "RUN_STARTED" ? "RUN_ALREADY_STARTED" : undefined;
    case "FINISHED":
      return type === "RUN_STARTED" || type === "RUN_ERROR" ? undefined : "EVENT_AFTER_RUN_CLOSED";
    case "FAILED":
      return type === "RUN_STARTED" ? undefined : "EVENT_AFTER_RUN_CLOSED";
  }
}

export function referenceVerdict(events: unknown[], options?: ReferenceOptions): ReferenceVerdict {
  const draft = options?.protocol === "draft";
  let phase: Phase = "BEFORE_RUN";
  let s = freshRun();
  /** With protocol draft: the threadId of the stream's first RUN_STARTED. */
  let streamThread: string | undefined;

  for (let index = 0; index < events.length; index++) {
    const value = events[index];
    try {
      // Step 2: shape checks.
      if (value instanceof SseDecodeFailure) throw new Reject(value.code);
      if (!isObject(value)) throw new Reject("EVENT_NOT_OBJECT");
      if (typeof value.type !== "string") throw new Reject("EVENT_TYPE_INVALID");
      const type = value.type;

      // Unknown and THINKING_* types pass every phase check, and only `type` is read
      // (§6 step 3, §9.2, §9.5).
      if (!isEventType(type)) continue;

      // Step 3: phase checks (rules 1, 2).
      const phaseCode = phaseCheck(phase, type);
      if (phaseCode !== undefined) throw new Reject(phaseCode);

      // Step 4: field checks.
      checkFields(type, value, draft);

      // Steps 5 and 6.
      const e = value;
      const tag = UNTAGGED.has(type) ? undefined : tagOf(e);
      switch (type) {
        case "RUN_STARTED": {
          const threadId = e.threadId as string;
          if (draft && streamThread !== undefined && threadId !== streamThread) {
            throw new Reject("THREAD_ID_MISMATCH");
          }
          s = freshRun();
          phase = "RUNNING";
          if (draft) {
            streamThread ??= threadId;
            s.threadId = threadId;
            s.runId = e.runId as string;
          }
          const input = e.input as Rec | undefined;
          if (input !== undefined && input.messages !== undefined) {
            seed(s, input.messages as unknown[], false);
          }
          break;
        }
        case "RUN_FINISHED": {
          if (draft && e.runId !== s.runId) throw new Reject("RUN_ID_MISMATCH");
          if (draft && e.threadId !== s.threadId) throw new Reject("THREAD_ID_MISMATCH");
          // r7
          if (
            s.openText.size > 0 ||
            s.openTool.size > 0 ||
            s.openReasoning.size > 0 ||
            s.openSpans.size > 0 ||
            s.openSteps.length > 0
          ) {
            throw new Reject("OPEN_AT_RUN_FINISHED");
          }
          // r8 (and the draft's duplicate interrupt ids)
          checkOutcome(e.outcome as Rec | undefined, draft);
          // r13
          if (s.active.size > 0) throw new Reject("SUBAGENT_OPEN_AT_RUN_FINISHED");
          phase = "FINISHED";
          break;
        }
        case "RUN_ERROR":
          // Before any run, inside one, or once after RUN_FINISHED (§9.8).
          phase = "FAILED";
          break;
        case "TEXT_MESSAGE_START": {
          const id = e.messageId as string;
          if (s.openText.has(id)) throw new Reject("TEXT_MESSAGE_ALREADY_OPEN");
          rule9(s.messageReg, id, tag);
          s.openText.add(id);
          if (!s.messageReg.has(id)) s.messageReg.set(id, ownerOf(tag));
          break;
        }
        case "TEXT_MESSAGE_CONTENT":
        case "TEXT_MESSAGE_END": {
          const id = e.messageId as string;
          if (!s.openText.has(id)) throw new Reject("TEXT_MESSAGE_NOT_OPEN");
          rule9(s.messageReg, id, tag);
          if (type === "TEXT_MESSAGE_END") s.openText.delete(id);
          break;
        }
        case "TOOL_CALL_START": {
          const id = e.toolCallId as string;
          if (s.openTool.has(id)) throw new Reject("TOOL_CALL_ALREADY_OPEN");
          rule9(s.toolReg, id, tag);
          const pmid = e.parentMessageId as string | undefined;
          const hasP = pmid !== undefined && s.messageReg.has(pmid);
          const P = hasP ? (s.messageReg.get(pmid as string) as Owner) : undefined;
          if (hasP && tag !== undefined && tag !== P) {
            throw new Reject("TOOL_CALL_PARENT_OWNER_MISMATCH");
          }
          if (hasP && tag === undefined && s.toolReg.has(id) && s.toolReg.get(id) !== P) {
            throw new Reject("TOOL_CALL_PARENT_OWNER_MISMATCH");
          }
          s.openTool.add(id);
          if (!s.toolReg.has(id)) {
            s.toolReg.set(id, tag !== undefined ? tag : hasP ? (P as Owner) : PARENT);
          }
          break;
        }
        case "TOOL_CALL_ARGS":
        case "TOOL_CALL_END": {
          const id = e.toolCallId as string;
          if (!s.openTool.has(id)) throw new Reject("TOOL_CALL_NOT_OPEN");
          rule9(s.toolReg, id, tag);
          if (type === "TOOL_CALL_END") s.openTool.delete(id);
          break;
        }
        case "TOOL_CALL_RESULT":
          // Rule 5 is retired (§7): a result may answer an open call, or none at all.
          s.messageReg.set(e.messageId as string, ownerOf(tag));
          break;
        case "REASONING_START": {
          const id = e.messageId as string;
          if (s.openSpans.has(id)) throw new Reject("REASONING_SPAN_ALREADY_OPEN");
          rule9(s.spanReg, id, tag);
          s.openSpans.add(id);
          if (!s.spanReg.has(id)) s.spanReg.set(id, ownerOf(tag));
          break;
        }
        case "REASONING_END": {
          const id = e.messageId as string;
          if (!s.openSpans.has(id)) throw new Reject("REASONING_SPAN_NOT_OPEN");
          rule9(s.spanReg, id, tag);
          s.openSpans.delete(id);
          break;
        }
        case "REASONING_MESSAGE_START": {
          const id = e.messageId as string;
          if (s.openReasoning.has(id)) throw new Reject("REASONING_MESSAGE_ALREADY_OPEN");
          rule9(s.reasoningReg, id, tag);
          s.openReasoning.add(id);
          if (!s.reasoningReg.has(id)) s.reasoningReg.set(id, ownerOf(tag));
          break;
        }
        case "REASONING_MESSAGE_CONTENT":
        case "REASONING_MESSAGE_END": {
          const id = e.messageId as string;
          if (!s.openReasoning.has(id)) throw new Reject("REASONING_MESSAGE_NOT_OPEN");
          rule9(s.reasoningReg, id, tag);
          if (type === "REASONING_MESSAGE_END") s.openReasoning.delete(id);
          break;
        }
        case "REASONING_ENCRYPTED_VALUE": {
          const id = e.entityId as string;
          if (e.subtype === "tool-call") rule9(s.toolReg, id, tag);
          else if (e.subtype === "message") {
            rule9(s.messageReg.has(id) ? s.messageReg : s.reasoningReg, id, tag);
          }
          break;
        }
        case "ACTIVITY_SNAPSHOT": {
          const id = e.messageId as string;
          if (!s.activityReg.has(id) || e.replace !== false) s.activityReg.set(id, ownerOf(tag));
          break;
        }
        case "ACTIVITY_DELTA":
          rule9(s.activityReg, e.messageId as string, tag);
          break;
        case "MESSAGES_SNAPSHOT":
          seed(s, e.messages as unknown[], true);
          break;
        case "STEP_STARTED": {
          const owner = ownerOf(tag);
          const name = e.stepName as string;
          if (s.openSteps.some((st) => st.owner === owner && st.name === name)) {
            throw new Reject("STEP_ALREADY_ACTIVE");
          }
          s.openSteps.push({ owner, name });
          break;
        }
        case "STEP_FINISHED": {
          const owner = ownerOf(tag);
          const name = e.stepName as string;
          const at = s.openSteps.findIndex((st) => st.owner === owner && st.name === name);
          if (at < 0) {
            if (s.openSteps.some((st) => st.name === name)) {
              throw new Reject("STEP_OWNER_MISMATCH");
            }
            throw new Reject("STEP_NOT_STARTED");
          }
          s.openSteps.splice(at, 1);
          break;
        }
        case "SUBAGENT_STARTED": {
          const id = e.subagentRunId as string;
          if (s.active.has(id)) throw new Reject("SUBAGENT_ALREADY_ACTIVE");
          if (s.finished.has(id)) throw new Reject("SUBAGENT_ALREADY_FINISHED");
          const parent = e.parentSubagentRunId as string | undefined;
          if (parent !== undefined && !s.active.has(parent) && !s.finished.has(parent)) {
            throw new Reject("SUBAGENT_PARENT_NOT_STARTED");
          }
          s.active.add(id);
          break;
        }
        case "SUBAGENT_FINISHED":
        case "SUBAGENT_ERROR": {
          const id = e.subagentRunId as string;
          if (!s.active.has(id)) throw new Reject("SUBAGENT_NOT_ACTIVE");
          s.active.delete(id);
          s.finished.add(id);
          break;
        }
        default:
          // Chunks, STATE_*, RAW, CUSTOM: no checks, no effects.
          break;
      }
    } catch (err) {
      if (err instanceof Reject) {
        return err.field === undefined
          ? { code: err.code, index }
          : { code: err.code, index, field: err.field };
      }
      throw err;
    }
  }

  // §9.7 end of input: FINISHED and FAILED both end a stream well.
  if (phase === "BEFORE_RUN")
    return { code: "STREAM_ENDED_BEFORE_RUN_STARTED", index: events.length };
  if (phase === "RUNNING") return { code: "STREAM_ENDED_BEFORE_RUN_CLOSED", index: events.length };
  return "accepted";
}
