// Small, implementation-independent helpers for mutating generated runs.

import { FIELDS_READ, isEventType } from "./spec-tables.ts";
import { type Ev, RUN_LEVEL_TYPES } from "./valid-run.ts";

/** The 31 recognised types; the table lives in spec-tables.ts. */
export { RECOGNISED } from "./spec-tables.ts";

export type PathKey = string | number;
export type Path = readonly PathKey[];

export function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** Renders a path the way §4.1 names fields: `a.b[2].c`. */
export function renderPath(path: Path): string {
  let out = "";
  for (const k of path) {
    if (typeof k === "number") out += `[${k}]`;
    else out += out === "" ? k : `.${k}`;
  }
  return out;
}

/** A deep copy of a JSON-like value (events here contain only JSON values). */
export function cloneJson(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(cloneJson);
  if (isRecord(x)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x)) {
      // defineProperty so that a key such as "__proto__" stays an own data property.
      Object.defineProperty(out, k, {
        value: cloneJson(v),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return x;
}

export const DELETE: unique symbol = Symbol("DELETE");

/** Returns a copy of `root` with the value at `path` replaced (or deleted). */
export function withPath(root: Ev, path: Path, value: unknown): Ev {
  const copy = cloneJson(root);
  if (!isRecord(copy) || typeof copy.type !== "string") throw new Error("not an event");
  let cur: unknown = copy;
  for (let i = 0; i < path.length - 1; i++) {
    const k = path[i];
    if (typeof k === "number" && Array.isArray(cur)) cur = cur[k];
    else if (typeof k === "string" && isRecord(cur)) cur = cur[k];
    else throw new Error(`bad path ${renderPath(path)}`);
  }
  const last = path[path.length - 1];
  if (typeof last === "number" && Array.isArray(cur)) {
    if (value === DELETE) throw new Error("cannot delete an array element");
    cur[last] = value;
  } else if (typeof last === "string" && isRecord(cur)) {
    if (value === DELETE) delete cur[last];
    else cur[last] = value;
  } else {
    throw new Error(`bad path ${renderPath(path)}`);
  }
  return { ...copy, type: copy.type };
}

/** Which protocol text decides (§9.14): "draft" reads the run ids too. */
export type Protocol = "1.1" | "draft";

/** Top-level required fields per type (§3.2), with the ids protocol draft requires. */
function requiredFields(type: string, protocol: Protocol): string[] {
  if (!isEventType(type)) return [];
  const out = FIELDS_READ[type].filter(([, required]) => required).map(([name]) => name);
  if (protocol === "draft" && (type === "RUN_STARTED" || type === "RUN_FINISHED")) {
    out.push("threadId", "runId");
  }
  return out;
}

/** Required fields nested inside Message arrays (§3.3), as paths. */
function messagePaths(prefix: Path, messages: unknown): Path[] {
  const out: Path[] = [];
  if (!Array.isArray(messages)) return out;
  messages.forEach((msg, i) => {
    out.push([...prefix, i, "id"], [...prefix, i, "role"]);
    if (isRecord(msg) && msg.role === "assistant" && Array.isArray(msg.toolCalls)) {
      msg.toolCalls.forEach((_tc, j) => {
        out.push([...prefix, i, "toolCalls", j, "id"]);
      });
    }
  });
  return out;
}

/**
 * Paths of required values the verifier reads on this event (§3.2–§3.4). Deleting one
 * gives FIELD_MISSING; setting it to null, FIELD_NULL; to a number, FIELD_WRONG_TYPE.
 */
export function requiredPaths(ev: Ev, protocol: Protocol = "1.1"): Path[] {
  const out: Path[] = requiredFields(ev.type, protocol).map((k) => [k]);
  if (ev.type === "MESSAGES_SNAPSHOT") out.push(...messagePaths(["messages"], ev.messages));
  if (ev.type === "RUN_STARTED" && isRecord(ev.input)) {
    out.push(...messagePaths(["input", "messages"], ev.input.messages));
  }
  if (ev.type === "RUN_FINISHED" && isRecord(ev.outcome)) out.push(["outcome", "type"]);
  return out;
}

/**
 * Paths of array elements the verifier reads (they must be objects, §4.1). Setting one to
 * null gives FIELD_NULL; to a number or string, FIELD_WRONG_TYPE.
 */
export function elementPaths(ev: Ev): Path[] {
  const out: Path[] = [];
  const msgs = (prefix: Path, messages: unknown): void => {
    if (!Array.isArray(messages)) return;
    messages.forEach((msg, i) => {
      out.push([...prefix, i]);
      if (isRecord(msg) && msg.role === "assistant" && Array.isArray(msg.toolCalls)) {
        msg.toolCalls.forEach((_tc, j) => {
          out.push([...prefix, i, "toolCalls", j]);
        });
      }
    });
  };
  if (ev.type === "MESSAGES_SNAPSHOT") msgs(["messages"], ev.messages);
  if (ev.type === "RUN_STARTED" && isRecord(ev.input))
    msgs(["input", "messages"], ev.input.messages);
  if (
    ev.type === "RUN_FINISHED" &&
    isRecord(ev.outcome) &&
    ev.outcome.type === "interrupt" &&
    Array.isArray(ev.outcome.interrupts)
  ) {
    ev.outcome.interrupts.forEach((_x, i) => {
      out.push(["outcome", "interrupts", i]);
    });
  }
  return out;
}

/**
 * Paths of optional read fields present or absent on this event whose `null` is FIELD_NULL
 * (§4.3). The tag is read on every recognised type but the run-level ones and
 * MESSAGES_SNAPSHOT, where it is not read at all (§3.1).
 */
export function nullablePaths(ev: Ev): Path[] {
  if (!isEventType(ev.type)) return [];
  const out: Path[] = RUN_LEVEL_TYPES.has(ev.type) ? [] : [["subagentRunId"]];
  if (ev.type === "TOOL_CALL_START") out.push(["parentMessageId"]);
  if (ev.type === "SUBAGENT_STARTED") out.push(["parentSubagentRunId"]);
  if (ev.type === "ACTIVITY_SNAPSHOT") out.push(["replace"]);
  if (ev.type === "RUN_FINISHED") out.push(["outcome"]);
  if (ev.type === "RUN_STARTED") {
    out.push(["input"]);
    if (isRecord(ev.input)) out.push(["input", "messages"]);
  }
  if (ev.type === "MESSAGES_SNAPSHOT" || ev.type === "RUN_STARTED") {
    const prefix: Path = ev.type === "MESSAGES_SNAPSHOT" ? ["messages"] : ["input", "messages"];
    const messages =
      ev.type === "MESSAGES_SNAPSHOT"
        ? ev.messages
        : isRecord(ev.input)
          ? ev.input.messages
          : undefined;
    if (Array.isArray(messages)) {
      messages.forEach((msg, i) => {
        out.push([...prefix, i, "subagentRunId"]);
        if (isRecord(msg) && msg.role === "assistant") out.push([...prefix, i, "toolCalls"]);
      });
    }
  }
  if (ev.type === "RUN_FINISHED" && isRecord(ev.outcome) && ev.outcome.type === "interrupt") {
    out.push(["outcome", "interrupts"]);
  }
  return out;
}

export function indicesWhere(
  events: readonly Ev[],
  pred: (ev: Ev, i: number) => boolean,
): number[] {
  const out: number[] = [];
  events.forEach((ev, i) => {
    if (pred(ev, i)) out.push(i);
  });
  return out;
}

export function pickFrom<T>(xs: readonly T[], n: number): T | undefined {
  return xs.length === 0 ? undefined : xs[n % xs.length];
}
