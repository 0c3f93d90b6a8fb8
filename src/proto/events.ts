/**
 * One `Event` frame ↔ one AG-UI event, as `@ag-ui/proto` 1.0.0 reads and writes them
 * (SPEC §21.1): the envelope's one arm names the type, the base event's fields come up to
 * the top, and the shapes the wire flattens (run and subagent outcomes, content parts,
 * patch operations, the run input's messages) are rebuilt.
 * @module
 */

import { ARMS, EVENT_TYPE, PATCH_OP } from "./wire.generated.ts";
import { messageIndex, type Obj, readMessage, WireError } from "./wire.ts";
import { Writer, writeMessage } from "./writer.ts";

const EVENT = messageIndex("Event");
/** Event type → the envelope arm's field number and name. */
const ARM_OF = new Map<string, number>(Object.entries(ARMS).map(([n, t]) => [t, Number(n)]));

/** A frame whose envelope sets no arm this build knows, but is well formed: a later event. */
export class UnknownArm {}

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The arm fields of the envelope, by field number, as the tables name them. */
const ARM_NAMES: ReadonlyMap<number, string> = new Map(
  Object.keys(ARMS).map((n) => [Number(n), armName(Number(n))]),
);

function armName(number: number): string {
  const type = ARMS[number] as string;
  return type.toLowerCase().replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/**
 * Decodes one frame's payload into the AG-UI event it carries; an {@link UnknownArm} for a
 * frame carrying only arms this build predates; throws a {@link WireError} for bytes that
 * are not an `Event`.
 */
export function decodeEvent(bytes: Uint8Array): Obj | UnknownArm {
  const armsSeen = scanArms(bytes);
  if (armsSeen === undefined) return new UnknownArm();
  const envelope = readMessage(bytes, EVENT);
  const armName = ARM_NAMES.get(armsSeen) as string;
  const decoded = envelope[armName];
  if (!isObj(decoded)) throw new WireError("the envelope's event is not a message");
  const type = ARMS[armsSeen] as string;
  const base = decoded.baseEvent;
  if (!isObj(base)) throw new WireError(`the ${type} event has no base event`);
  const declared = EVENT_TYPE[base.type as number];
  if (declared !== type) {
    throw new WireError(`the envelope carries ${type} but the base event says ${String(declared)}`);
  }
  const event: Obj = { type };
  if (base.timestamp !== undefined) event.timestamp = base.timestamp;
  if (base.rawEvent !== undefined) event.rawEvent = base.rawEvent;
  if (base.metadata !== undefined) event.metadata = base.metadata;
  for (const key of Object.keys(decoded)) {
    if (key !== "baseEvent") event[key] = decoded[key];
  }
  reshape(event, type);
  return event;
}

/**
 * The one known arm the envelope sets (its field number), undefined when it sets none but
 * carries a well-formed unknown one; throws for two different arms, or none at all.
 */
function scanArms(bytes: Uint8Array): number | undefined {
  let arm: number | undefined;
  let future = false;
  let pos = 0;
  const view = { bytes, pos };
  while (view.pos < bytes.length) {
    const tag = varint(view);
    const number = Math.floor(tag / 8);
    const wireType = tag % 8;
    if (number === 0) throw new WireError("field number 0");
    if (wireType === 2) {
      const length = varint(view);
      if (view.pos + length > bytes.length)
        throw new WireError("a field's length runs past the frame");
      if (ARM_NAMES.has(number)) {
        if (arm !== undefined && arm !== number)
          throw new WireError("the envelope sets two events");
        arm = number;
      } else future = true;
      view.pos += length;
    } else if (ARM_NAMES.has(number)) {
      throw new WireError("an event arm has the wrong wire type");
    } else if (wireType === 0) varint(view);
    else if (wireType === 1) view.pos += 8;
    else if (wireType === 5) view.pos += 4;
    else throw new WireError(`wire type ${wireType} in the envelope`);
    if (view.pos > bytes.length) throw new WireError("the frame ends inside a field");
  }
  pos = view.pos;
  if (arm !== undefined) return arm;
  if (future && pos === bytes.length) return undefined;
  throw new WireError("the envelope sets no event");
}

function varint(view: { bytes: Uint8Array; pos: number }): number {
  let result = 0;
  for (let i = 0; i < 10; i++) {
    if (view.pos >= view.bytes.length) throw new WireError("the frame ends inside a varint");
    const byte = view.bytes[view.pos++] as number;
    if (i < 7) result += (byte & 0x7f) * 2 ** (7 * i);
    if (byte < 0x80) return result;
  }
  throw new WireError("a varint runs longer than 10 bytes");
}

/** The shapes the wire flattens, rebuilt in place; unset optional fields left out. */
function reshape(event: Obj, type: string): void {
  switch (type) {
    case "MESSAGES_SNAPSHOT":
      event.messages = list(event.messages).map((m) => fromWireMessage(m as Obj));
      break;
    case "RUN_FINISHED":
      outcome(event, ["pendingToolCallIds", "interrupts"], { interrupt: "interrupts" });
      if (list(event.usage).length === 0) delete event.usage;
      break;
    case "SUBAGENT_FINISHED":
      outcome(event, ["interruptIds"], {});
      break;
    case "RUN_ERROR":
      if (list(event.usage).length === 0) delete event.usage;
      break;
    case "STATE_DELTA":
      event.delta = list(event.delta).map((op) => fromWireOp(op as Obj));
      break;
    case "ACTIVITY_DELTA":
      event.patch = list(event.patch).map((op) => fromWireOp(op as Obj));
      break;
    case "TOOL_CALL_RESULT": {
      const parts = list(event.contentParts);
      if (event.content !== undefined && parts.length > 0) {
        throw new WireError("a tool result carries both string content and content parts");
      }
      if (event.content === undefined) event.content = contentParts(parts);
      delete event.contentParts;
      break;
    }
    case "RUN_STARTED":
      if (isObj(event.input)) event.input = fromWireInput(event.input);
      break;
  }
}

/**
 * A run's or subagent's outcome, flattened on the wire into a string and the lists it
 * carries: rebuilt as `{ type, …lists that are not empty }`; with no outcome, the lists
 * that are not empty stay at the top. `required` names a list an outcome always carries.
 */
function outcome(event: Obj, lists: readonly string[], required: Record<string, string>): void {
  const name =
    typeof event.outcome === "string" && event.outcome !== "" ? event.outcome : undefined;
  const held: Obj = {};
  for (const key of lists) {
    held[key] = event[key];
    delete event[key];
  }
  delete event.outcome;
  if (name === undefined) {
    for (const key of lists) if (list(held[key]).length > 0) event[key] = held[key];
    return;
  }
  const out: Obj = { type: name };
  const always = required[name];
  if (always !== undefined) out[always] = list(held[always]);
  for (const key of lists) if (key !== always && list(held[key]).length > 0) out[key] = held[key];
  event.outcome = out;
}

function fromWireOp(op: Obj): Obj {
  const name = PATCH_OP[op.op as number];
  op.op = name === undefined ? String(op.op) : name.toLowerCase();
  return op;
}

const SOURCES = ["data", "url", "file"] as const;
const PARTS = ["text", "image", "audio", "video", "document"] as const;

function fromWireSource(source: Obj): Obj | undefined {
  const set = SOURCES.filter((k) => source[k] !== undefined);
  if (set.length > 1) throw new WireError("a content source carries more than one kind");
  const kind = set[0];
  if (kind === undefined) return undefined;
  return { type: kind, ...(source[kind] as Obj) };
}

/** Content parts from the wire: a part of a kind this build does not know is left out. */
function contentParts(parts: readonly unknown[]): Obj[] {
  const out: Obj[] = [];
  for (const p of parts) {
    const part = p as Obj;
    const set = PARTS.filter((k) => part[k] !== undefined);
    if (set.length > 1) throw new WireError("a content part carries more than one kind");
    const kind = set[0];
    if (kind === undefined) continue;
    const body = part[kind] as Obj;
    if (kind === "text") {
      out.push({ type: "text", ...body });
      continue;
    }
    const result: Obj = { type: kind, ...body };
    if (isObj(body.source)) {
      const source = fromWireSource(body.source);
      if (source === undefined) continue;
      result.source = source;
    }
    out.push(result);
  }
  return out;
}

const KNOWN_ROLES = new Set([
  "developer",
  "system",
  "assistant",
  "user",
  "tool",
  "activity",
  "reasoning",
]);
const PART_ROLES = new Set(["user", "tool"]);

/** The wire's one Message, holding every role's fields, back to the role's own shape. */
function fromWireMessage(wire: Obj): Obj {
  const message: Obj = { ...wire };
  const role = typeof wire.role === "string" ? wire.role : "";
  const parts = list(wire.contentParts);
  const known = KNOWN_ROLES.has(role);
  const usesParts = known ? PART_ROLES.has(role) : parts.length > 0;
  const usesMap = known ? role === "activity" : !usesParts && wire.activityContent !== undefined;
  const forms =
    (wire.content !== undefined ? 1 : 0) +
    (parts.length > 0 ? 1 : 0) +
    (wire.activityContent !== undefined ? 1 : 0);
  if (!known && forms > 1) throw new WireError("a message carries more than one content form");
  if (known) {
    if (!usesParts && parts.length > 0)
      throw new WireError(`a ${role} message carries content parts`);
    if (wire.activityContent !== undefined && !usesMap) {
      throw new WireError(`a ${role} message carries activity content`);
    }
    if (usesMap && wire.content !== undefined) {
      throw new WireError("an activity message carries string content");
    }
    if (usesParts && wire.content !== undefined && parts.length > 0) {
      throw new WireError("a message carries both string content and content parts");
    }
  }
  if (usesParts && wire.content === undefined) message.content = contentParts(parts);
  if (usesMap && wire.activityContent !== undefined) message.content = wire.activityContent;
  delete message.activityContent;
  delete message.contentParts;
  if (list(wire.toolCalls).length === 0) delete message.toolCalls;
  return message;
}

function fromWireInput(wire: Obj): Obj {
  const out: Obj = {};
  for (const key of ["threadId", "runId", "protocolVersion", "parentRunId", "state"]) {
    if (wire[key] !== undefined) out[key] = wire[key];
  }
  out.messages = list(wire.messages).map((m) => fromWireMessage(m as Obj));
  out.tools = list(wire.tools);
  out.context = list(wire.context);
  if (wire.forwardedProps !== undefined) out.forwardedProps = wire.forwardedProps;
  out.resume = list(wire.resume);
  return out;
}

// ---------------------------------------------------------------------------------------
// Encoding

/** The `Event` message for `event`: its bytes, without the frame's length. */
export function encodeEvent(event: Obj): Uint8Array {
  const type = event.type;
  const arm = typeof type === "string" ? ARM_OF.get(type) : undefined;
  if (arm === undefined) {
    throw new TypeError(`${String(type)} has no protobuf form (AG-UI's Event has no arm for it)`);
  }
  const { type: _t, timestamp, rawEvent, metadata, ...rest } = event;
  toWire(rest, type as string);
  const body: Obj = {
    baseEvent: {
      type: EVENT_TYPE.indexOf(type as string),
      timestamp,
      rawEvent,
      metadata: objectOrUndefined(metadata),
    },
    ...rest,
  };
  const w = new Writer();
  writeMessage(w, { [ARM_NAMES.get(arm) as string]: body }, EVENT);
  return w.finish();
}

const objectOrUndefined = (v: unknown): Obj | undefined => (isObj(v) ? v : undefined);

function toWire(rest: Obj, type: string): void {
  switch (type) {
    case "MESSAGES_SNAPSHOT":
      rest.messages = list(rest.messages).map((m) => toWireMessage(m));
      break;
    case "RUN_FINISHED": {
      const o = rest.outcome;
      rest.pendingToolCallIds = isObj(o) && o.type === "success" ? list(o.pendingToolCallIds) : [];
      rest.interrupts = isObj(o) && o.type === "interrupt" ? list(o.interrupts) : [];
      rest.outcome = isObj(o) && typeof o.type === "string" ? o.type : "";
      rest.usage = list(rest.usage);
      break;
    }
    case "SUBAGENT_FINISHED": {
      const o = rest.outcome;
      rest.interruptIds = isObj(o) && o.type === "suspended" ? list(o.interruptIds) : [];
      rest.outcome = isObj(o) && typeof o.type === "string" ? o.type : "";
      break;
    }
    case "RUN_ERROR":
      rest.usage = list(rest.usage);
      break;
    case "STATE_DELTA":
      rest.delta = list(rest.delta).map(toWireOp);
      break;
    case "ACTIVITY_DELTA":
      rest.patch = list(rest.patch).map(toWireOp);
      break;
    case "TOOL_CALL_RESULT":
      if (Array.isArray(rest.content)) {
        rest.contentParts = toWireParts(rest.content);
        rest.content = undefined;
      } else rest.contentParts = [];
      break;
    case "RUN_STARTED":
      if (rest.input !== undefined) rest.input = toWireInput(rest.input);
      break;
  }
}

function toWireOp(op: unknown): Obj {
  const o = isObj(op) ? op : {};
  const name = typeof o.op === "string" ? o.op.toUpperCase() : "";
  return { ...o, op: PATCH_OP.indexOf(name) };
}

function toWireSource(source: unknown): Obj | undefined {
  if (!isObj(source)) return undefined;
  const { type, ...body } = source;
  return typeof type === "string" && (SOURCES as readonly string[]).includes(type)
    ? { [type]: body }
    : undefined;
}

function toWireParts(parts: readonly unknown[]): Obj[] {
  const out: Obj[] = [];
  for (const p of parts) {
    if (!isObj(p)) continue;
    const { type, ...body } = p;
    if (type === "text") out.push({ text: body });
    else if (type === "image" || type === "audio" || type === "video" || type === "document") {
      out.push({ [type]: { ...body, source: toWireSource(body.source) } });
    } else if (type === "binary") {
      const mimeType = body.mimeType;
      const source = body.data
        ? { data: { value: body.data, mimeType } }
        : body.url
          ? { url: { value: body.url, mimeType } }
          : body.id
            ? { url: { value: body.id, mimeType } }
            : undefined;
      if (source !== undefined) {
        out.push({
          document: {
            source,
            metadata: { legacyBinary: true, filename: body.filename, id: body.id },
          },
        });
      }
    }
  }
  return out;
}

function toWireMessage(value: unknown): Obj {
  const message = isObj(value) ? value : {};
  const wire: Obj = { ...message, contentParts: [] };
  wire.metadata = objectOrUndefined(message.metadata);
  wire.toolCalls = list(message.toolCalls).map((c) => ({
    ...(isObj(c) ? c : {}),
    metadata: objectOrUndefined(isObj(c) ? c.metadata : undefined),
  }));
  if (Array.isArray(message.content)) {
    wire.contentParts = toWireParts(message.content);
    wire.content = undefined;
  } else if (message.role === "activity") {
    wire.activityContent = objectOrUndefined(message.content) ?? {};
    wire.content = undefined;
  }
  return wire;
}

function toWireInput(value: unknown): Obj | undefined {
  if (!isObj(value)) return undefined;
  const withMetadata = (v: unknown) => ({
    ...(isObj(v) ? v : {}),
    metadata: objectOrUndefined(isObj(v) ? v.metadata : undefined),
  });
  return {
    threadId: value.threadId,
    runId: value.runId,
    protocolVersion: value.protocolVersion,
    parentRunId: value.parentRunId,
    state: value.state,
    messages: list(value.messages).map(toWireMessage),
    tools: list(value.tools).map(withMetadata),
    context: list(value.context),
    forwardedProps: value.forwardedProps,
    resume: list(value.resume).map(withMetadata),
  };
}
