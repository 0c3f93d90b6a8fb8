// Generated AG-UI events of all 31 types that protobuf carries, for the differential against
// @ag-ui/proto 1.0.0 (SPEC §21.1): every optional field present or absent at random,
// strings from ASCII to astral emoji, JSON values of every kind, and the shapes the wire
// flattens (outcomes, messages of every role with every content form, content parts with
// every source kind, patch operations, a run's input) built the way the 1.1 schema
// describes them. The plain sub-messages (interrupts, usage, tools, tool calls, context,
// resume entries) are filled from the wire tables, which name their fields.

import { createRng } from "../../bench/runs.mjs";
import { encodeFrame } from "../../src/proto/index.ts";
import { ARMS, KINDS, MESSAGES, NAMES } from "../../src/proto/wire.generated.ts";

type Rec = Record<string, unknown>;
type Rng = ReturnType<typeof createRng>;

const STRINGS = [
  "",
  "a",
  "héllo wörld",
  "東京",
  "🚀🧑‍💻",
  "line\nbreak",
  '"quoted" \\ back',
  "x".repeat(300),
];

function str(rng: Rng): string {
  return rng.chance(0.5) ? rng.word(rng.int(1, 12)) : rng.pick(STRINGS);
}

function int(rng: Rng): number {
  return rng.pick([
    0,
    1,
    -1,
    1_700_000_000_000,
    Number.MAX_SAFE_INTEGER,
    -Number.MAX_SAFE_INTEGER,
    rng.int(0, 1e9),
  ]);
}

function json(rng: Rng, depth = 0): unknown {
  const k = rng.int(0, depth > 2 ? 3 : 5);
  if (k === 0) return null;
  if (k === 1) return rng.chance(0.5);
  if (k === 2) return rng.pick([0, -0.5, 1e21, 3.25, -7, rng.int(-1e6, 1e6)]);
  if (k === 3) return str(rng);
  if (k === 4) return Array.from({ length: rng.int(0, 3) }, () => json(rng, depth + 1));
  return object(rng, depth + 1);
}

function object(rng: Rng, depth = 0): Rec {
  const out: Rec = {};
  for (let i = rng.int(0, 3); i > 0; i--) out[str(rng)] = json(rng, depth + 1);
  return out;
}

const K = (kind: (typeof KINDS)[number]) => KINDS.indexOf(kind);

/** A message of the wire tables, every field filled (optional ones at random). */
function fromTable(rng: Rng, name: string, skip: ReadonlySet<string> = new Set()): Rec {
  const out: Rec = {};
  const fields = MESSAGES[NAMES.indexOf(name)] ?? [];
  for (const [, field, kind, sub] of fields) {
    if (skip.has(field)) continue;
    const optional = [
      K("ostr"),
      K("oi32"),
      K("oi64"),
      K("obool"),
      K("odbl"),
      K("value"),
      K("rvalue"),
      K("struct"),
      K("list"),
      K("msg"),
    ].includes(kind);
    if (optional && rng.chance(0.4)) continue;
    if (kind === K("str") || kind === K("ostr")) out[field] = str(rng);
    else if (kind === K("i64") || kind === K("oi64")) out[field] = int(rng);
    else if (kind === K("bool") || kind === K("obool")) out[field] = rng.chance(0.5);
    else if (kind === K("value") || kind === K("rvalue")) out[field] = json(rng);
    else if (kind === K("struct")) out[field] = object(rng);
    else if (kind === K("strs")) out[field] = Array.from({ length: rng.int(0, 3) }, () => str(rng));
    else if (kind === K("msg")) out[field] = fromTable(rng, NAMES[sub as number] as string);
    else if (kind === K("msgs")) {
      out[field] = Array.from({ length: rng.int(0, 2) }, () =>
        fromTable(rng, NAMES[sub as number] as string),
      );
    }
  }
  return out;
}

function source(rng: Rng): Rec {
  const kind = rng.pick(["data", "url", "file"]);
  const out: Rec = { type: kind, value: str(rng) };
  if (kind === "data") out.mimeType = rng.pick(["image/png", "application/pdf"]);
  else if (rng.chance(0.5)) out.mimeType = "image/png";
  if (kind === "file" && rng.chance(0.5)) out.provider = str(rng);
  return out;
}

function part(rng: Rng): Rec {
  const kind = rng.pick(["text", "image", "audio", "video", "document"]);
  const out: Rec =
    kind === "text" ? { type: "text", text: str(rng) } : { type: kind, source: source(rng) };
  if (rng.chance(0.4)) out.id = str(rng);
  if (rng.chance(0.3)) out.metadata = object(rng);
  return out;
}

const parts = (rng: Rng) => Array.from({ length: rng.int(1, 3) }, () => part(rng));

function message(rng: Rng): Rec {
  const role = rng.pick([
    "developer",
    "system",
    "assistant",
    "user",
    "tool",
    "activity",
    "reasoning",
  ]);
  const out: Rec = { id: str(rng), role };
  if (role === "activity") {
    out.activityType = str(rng);
    out.content = object(rng);
  } else if (role === "user" || role === "tool") {
    out.content = rng.chance(0.5) ? str(rng) : parts(rng);
  } else if (rng.chance(0.7)) out.content = str(rng);
  if (role === "tool") out.toolCallId = str(rng);
  if (role === "assistant" && rng.chance(0.5)) {
    out.toolCalls = Array.from({ length: rng.int(1, 2) }, () => fromTable(rng, "ToolCall"));
  }
  if (rng.chance(0.3)) out.name = str(rng);
  if (rng.chance(0.2)) out.metadata = object(rng);
  if (rng.chance(0.2)) out.subagentRunId = str(rng);
  if (role === "reasoning" && rng.chance(0.5)) out.encryptedValue = str(rng);
  return out;
}

const OPS = ["add", "remove", "replace", "move", "copy", "test"];

function op(rng: Rng): Rec {
  const o = rng.pick(OPS);
  const out: Rec = { op: o, path: `/${rng.word(3)}` };
  if (o === "move" || o === "copy") out.from = `/${rng.word(3)}`;
  if (o === "add" || o === "replace" || o === "test") out.value = json(rng);
  return out;
}

/** The fields of an event type beyond the base ones, shaped as the 1.1 schema shapes them. */
function body(rng: Rng, type: string, arm: string): Rec {
  switch (type) {
    case "MESSAGES_SNAPSHOT":
      return { messages: Array.from({ length: rng.int(0, 4) }, () => message(rng)) };
    case "STATE_DELTA":
      return {
        ...fromTable(rng, arm, new Set(["baseEvent", "delta"])),
        delta: Array.from({ length: rng.int(0, 3) }, () => op(rng)),
      };
    case "ACTIVITY_DELTA":
      return {
        ...fromTable(rng, arm, new Set(["baseEvent", "patch"])),
        patch: Array.from({ length: rng.int(0, 3) }, () => op(rng)),
      };
    case "TOOL_CALL_RESULT": {
      const out = fromTable(rng, arm, new Set(["baseEvent", "content", "contentParts"]));
      out.content = rng.chance(0.5) ? str(rng) : parts(rng);
      return out;
    }
    case "RUN_FINISHED": {
      const out = fromTable(
        rng,
        arm,
        new Set(["baseEvent", "outcome", "interrupts", "pendingToolCallIds"]),
      );
      const kind = rng.pick(["none", "success", "interrupt", "cancelled"]);
      const ids = () => Array.from({ length: rng.int(1, 2) }, () => str(rng));
      if (kind === "success")
        out.outcome = rng.chance(0.5)
          ? { type: "success" }
          : { type: "success", pendingToolCallIds: ids() };
      if (kind === "interrupt") {
        out.outcome = {
          type: "interrupt",
          interrupts: Array.from({ length: rng.int(1, 2) }, () => fromTable(rng, "Interrupt")),
        };
      }
      if (kind === "cancelled") out.outcome = { type: "cancelled" };
      if (rng.chance(0.5)) delete out.usage;
      return out;
    }
    case "SUBAGENT_FINISHED": {
      const out = fromTable(rng, arm, new Set(["baseEvent", "outcome", "interruptIds"]));
      const kind = rng.pick(["none", "success", "suspended"]);
      if (kind === "success") out.outcome = { type: "success" };
      if (kind === "suspended") out.outcome = { type: "suspended", interruptIds: [str(rng)] };
      return out;
    }
    case "RUN_ERROR": {
      const out = fromTable(rng, arm, new Set(["baseEvent"]));
      if (rng.chance(0.5)) delete out.usage;
      return out;
    }
    case "RUN_STARTED": {
      const out = fromTable(rng, arm, new Set(["baseEvent", "input"]));
      if (rng.chance(0.5)) {
        const input = fromTable(rng, "RunAgentInput", new Set(["messages"]));
        input.messages = Array.from({ length: rng.int(0, 3) }, () => message(rng));
        out.input = input;
      }
      return out;
    }
    default:
      return fromTable(rng, arm, new Set(["baseEvent"]));
  }
}

/** The arm message's name for an event type. */
function armMessage(type: string): string {
  const fields = MESSAGES[NAMES.indexOf("Event")] ?? [];
  const number = Number(Object.entries(ARMS).find(([, t]) => t === type)?.[0]);
  const arm = fields.find(([n]) => n === number);
  return NAMES[arm?.[3] as number] as string;
}

/** Every event type protobuf carries. */
export const PROTO_TYPES: readonly string[] = Object.values(ARMS);

/** `n` generated events, cycling through every type, seeded by `seed`. */
export function protoEvents(seed: number, n: number): Rec[] {
  const rng = createRng(seed);
  const out: Rec[] = [];
  for (let i = 0; i < n; i++) {
    const type = PROTO_TYPES[i % PROTO_TYPES.length] as string;
    const event: Rec = { type, ...body(rng, type, armMessage(type)) };
    if (rng.chance(0.3)) event.timestamp = int(rng);
    if (rng.chance(0.2)) event.rawEvent = json(rng);
    if (rng.chance(0.2)) event.metadata = object(rng);
    out.push(event);
  }
  return out;
}

/** `parts` one after another, in one buffer. */
export function joinBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A protobuf body: the frames of `events`, one after another. */
export const protoBody = (events: readonly Rec[]): Uint8Array<ArrayBuffer> =>
  joinBytes(events.map(encodeFrame));
