/**
 * Chunk expansion (SPEC §15): `TEXT_MESSAGE_CHUNK`, `TOOL_CALL_CHUNK` and
 * `REASONING_MESSAGE_CHUNK` turned into the start, content and end events they stand for,
 * event for event as `@ag-ui/client` 1.0.0's `transformChunks` expands them.
 * @module
 */

import type { AgUiEvent } from "../events/index.ts";
import { maxIdsOf, weight } from "../verify/verifier.ts";

/** What one chunk type expands into. */
interface ChunkForm {
  /** Index of this form's id index in {@link ChunkExpanderStream}'s state. */
  readonly slot: 0 | 1 | 2;
  /** The entity, as error messages name it. */
  readonly noun: string;
  readonly idField: "messageId" | "toolCallId";
  readonly start: string;
  readonly content: string;
  readonly end: string;
  /**
   * Fields the opening chunk fixes for the whole stream, each with the value an absent one
   * stands for. A continuation may leave them out or repeat them unchanged, nothing else.
   */
  readonly fixed: readonly (readonly [field: string, absent: unknown])[];
  /** A field an opening chunk must carry besides its id. */
  readonly required: string | undefined;
  /** The role every start event of this form carries, whatever the chunk says. */
  readonly role: string | undefined;
  /** The chunk type's protocol fields; any other key rides on an expanded event. */
  readonly known: ReadonlySet<string>;
}

const BASE_FIELDS = ["type", "timestamp", "rawEvent", "metadata", "subagentRunId"];

const TEXT: ChunkForm = {
  slot: 0,
  noun: "text message",
  idField: "messageId",
  start: "TEXT_MESSAGE_START",
  content: "TEXT_MESSAGE_CONTENT",
  end: "TEXT_MESSAGE_END",
  fixed: [
    ["role", "assistant"],
    ["name", undefined],
  ],
  required: undefined,
  role: undefined,
  known: new Set([...BASE_FIELDS, "messageId", "role", "name", "delta"]),
};

const TOOL: ChunkForm = {
  slot: 1,
  noun: "tool call",
  idField: "toolCallId",
  start: "TOOL_CALL_START",
  content: "TOOL_CALL_ARGS",
  end: "TOOL_CALL_END",
  fixed: [
    ["toolCallName", undefined],
    ["parentMessageId", undefined],
  ],
  required: "toolCallName",
  role: undefined,
  known: new Set([...BASE_FIELDS, "toolCallId", "toolCallName", "parentMessageId", "delta"]),
};

const REASONING: ChunkForm = {
  slot: 2,
  noun: "reasoning message",
  idField: "messageId",
  start: "REASONING_MESSAGE_START",
  content: "REASONING_MESSAGE_CONTENT",
  end: "REASONING_MESSAGE_END",
  fixed: [],
  required: undefined,
  role: "reasoning",
  known: new Set([...BASE_FIELDS, "messageId", "delta"]),
};

/** The stream a lane is assembling from chunks. */
interface OpenStream {
  readonly form: ChunkForm;
  readonly id: unknown;
  /** The opening chunk's `subagentRunId` as sent (even `null`): the end event carries it. */
  readonly tag: unknown;
  /** What its id and tag weigh against the expander's bound. */
  readonly weight: number;
  /** The `form.fixed` fields the opener set (or their defaults); absent ones are left out. */
  readonly fixed: Readonly<Record<string, unknown>>;
}

/**
 * What an event does besides passing through: "lane" ends the stream of the lane its tag
 * names, "subagent" that of the subagent it ends, "all" every stream; a chunk form expands.
 */
type Effect = "lane" | "subagent" | "all" | ChunkForm;

/**
 * The effect of each event type that has one. The others (RAW, ACTIVITY_*,
 * REASONING_ENCRYPTED_VALUE, SUBAGENT_STARTED, unknown types) pass by without ending
 * anything.
 */
const EFFECTS: ReadonlyMap<string, Effect> = new Map<string, Effect>([
  ...[
    "TEXT_MESSAGE_START",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_END",
    "TOOL_CALL_START",
    "TOOL_CALL_ARGS",
    "TOOL_CALL_END",
    "TOOL_CALL_RESULT",
    "STATE_SNAPSHOT",
    "STATE_DELTA",
    "CUSTOM",
    "STEP_STARTED",
    "STEP_FINISHED",
    "REASONING_START",
    "REASONING_MESSAGE_START",
    "REASONING_MESSAGE_CONTENT",
    "REASONING_MESSAGE_END",
    "REASONING_END",
  ].map((type) => [type, "lane"] as const),
  ...["RUN_STARTED", "RUN_FINISHED", "RUN_ERROR", "MESSAGES_SNAPSHOT"].map(
    (type) => [type, "all"] as const,
  ),
  ["SUBAGENT_FINISHED", "subagent"],
  ["SUBAGENT_ERROR", "subagent"],
  ["TEXT_MESSAGE_CHUNK", TEXT],
  ["TOOL_CALL_CHUNK", TOOL],
  ["REASONING_MESSAGE_CHUNK", REASONING],
]);

/** The explicit events of each form, which carry its id (1.1: they end its chunk stream). */
const EXPLICIT: ReadonlyMap<string, ChunkForm> = new Map<string, ChunkForm>([
  ["TEXT_MESSAGE_START", TEXT],
  ["TEXT_MESSAGE_CONTENT", TEXT],
  ["TEXT_MESSAGE_END", TEXT],
  ["TOOL_CALL_START", TOOL],
  ["TOOL_CALL_ARGS", TOOL],
  ["TOOL_CALL_END", TOOL],
  ["REASONING_MESSAGE_START", REASONING],
  ["REASONING_MESSAGE_CONTENT", REASONING],
  ["REASONING_MESSAGE_END", REASONING],
]);

/** A value as an error message shows it: strings JSON-quoted, so `""` is visible. */
function show(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

function owner(lane: unknown): string {
  return lane === undefined ? "the parent agent" : `subagent ${show(lane)}`;
}

/** Why a chunk cannot be expanded: a code of SPEC §20.2, the words, the field. @internal */
export class ChunkFailure {
  /** The code the 1.1 pipeline fails with. */
  readonly code:
    | "CHUNK_ID_MISSING"
    | "CHUNK_NAME_MISSING"
    | "CHUNK_CONFLICT"
    | "CHUNK_AMBIGUOUS"
    | "ID_LIMIT_EXCEEDED";
  /** What is wrong, after "TYPE at index N" (`opens a text message but has no messageId`). */
  readonly text: string;
  /** The chunk's field it is about. */
  readonly field: string | undefined;
  /** Made by the expansion. */
  constructor(code: ChunkFailure["code"], text: string, field: string | undefined) {
    this.code = code;
    this.text = text;
    this.field = field;
  }
}

/**
 * The chunk expansion both {@link ChunkExpanderStream} and the 1.1 pipeline run: {@link
 * ChunkExpander.push} an event, and it hands on what the event expands into, or throws a
 * {@link ChunkFailure}. With `byId` (AG-UI 1.1, SPEC §20.1), an explicit message, tool-call
 * or reasoning event carrying the id of a stream being assembled ends that stream, whatever
 * lane it is in; without, only its own lane's stream, as `transformChunks` does. With
 * `maxIds`, the open streams' ids and tags together weigh at most that much, as the
 * verifier weighs ids (SPEC §17.1): a chunk that would open one more throws
 * `ID_LIMIT_EXCEEDED`, so a stream tagging chunks with endless subagent ids cannot grow
 * the lanes without bound.
 * @internal
 */
export class ChunkExpander {
  /** Lane (a tag, or undefined for the parent agent) → the stream it is assembling. */
  readonly #lanes = new Map<unknown, OpenStream>();
  /** Per form: id → the lane holding the open stream with that id. */
  readonly #holders: readonly [
    Map<unknown, unknown>,
    Map<unknown, unknown>,
    Map<unknown, unknown>,
  ] = [new Map(), new Map(), new Map()];
  readonly #byId: boolean;
  readonly #maxIds: number;
  /** What the open streams weigh against `#maxIds`. */
  #held = 0;

  constructor(byId = false, maxIds = Number.POSITIVE_INFINITY) {
    this.#byId = byId;
    this.#maxIds = maxIds;
  }

  /** Whether no chunk stream is open: every event but a chunk passes through unchanged. */
  get idle(): boolean {
    return this.#lanes.size === 0;
  }

  push(event: AgUiEvent, emit: (event: AgUiEvent) => void): void {
    const effect = EFFECTS.get(event.type);
    // No chunk stream open: only a chunk has anything to do.
    if (this.#lanes.size === 0 && typeof effect !== "object") {
      emit(event);
      return;
    }
    if (effect === "lane") {
      if (this.#byId) this.#endById(event, emit);
      this.#endLane(event.subagentRunId ?? undefined, emit);
    } else if (effect === "all") {
      for (const open of this.#lanes.values()) emit(endEvent(open));
      this.#lanes.clear();
      this.#held = 0;
      for (const held of this.#holders) held.clear();
    } else if (effect === "subagent") {
      // A terminal without its id is malformed and must not end the parent's stream.
      if (event.subagentRunId != null) this.#endLane(event.subagentRunId, emit);
    } else if (effect !== undefined) {
      this.#expand(effect, event, emit);
      return;
    }
    emit(event);
  }

  /** 1.1: an explicit event naming a stream being assembled ends it, in whatever lane. */
  #endById(event: AgUiEvent, emit: (event: AgUiEvent) => void): void {
    const form = EXPLICIT.get(event.type);
    if (form === undefined) return;
    const id = event[form.idField];
    const held = this.#holders[form.slot];
    if (id !== undefined && held.has(id)) this.#endLane(held.get(id), emit);
  }

  #endLane(lane: unknown, emit: (event: AgUiEvent) => void): void {
    const open = this.#lanes.get(lane);
    if (open === undefined) return;
    this.#lanes.delete(lane);
    this.#held -= open.weight;
    this.#holders[open.form.slot].delete(open.id);
    emit(endEvent(open));
  }

  #expand(form: ChunkForm, chunk: AgUiEvent, emit: (event: AgUiEvent) => void): void {
    const lanes = this.#lanes;
    const id = chunk[form.idField];
    const sentTag = chunk.subagentRunId;
    // A null tag is malformed; for choosing a lane it reads as no tag, but it is kept
    // on what the chunk expands into, so the verifier downstream still sees it.
    const tag = sentTag ?? undefined;
    const held = this.#holders[form.slot];

    let lane: unknown = tag;
    if (id !== undefined) {
      if (held.has(id)) {
        lane = held.get(id);
        if (tag !== undefined && tag !== lane) {
          throw new ChunkFailure(
            "CHUNK_CONFLICT",
            `is tagged ${show(tag)}, but ${form.noun} ${show(id)} is open for ${owner(lane)}`,
            "subagentRunId",
          );
        }
      }
    } else if (tag === undefined && lanes.get(undefined)?.form !== form) {
      // An untagged continuation with no id, where the parent has no stream of its kind:
      // it can only mean the one lane that has.
      if (held.size > 1) {
        throw new ChunkFailure(
          "CHUNK_AMBIGUOUS",
          `has no ${form.idField} and no subagentRunId, and ${held.size} lanes have a ${form.noun} open; tag the chunk`,
          form.idField,
        );
      }
      for (const only of held.values()) lane = only;
    }

    let open = lanes.get(lane);
    if (open !== undefined && open.form === form && (id === undefined || id === open.id)) {
      for (const [field] of form.fixed) {
        const value = chunk[field];
        if (value !== undefined && value !== open.fixed[field]) {
          throw new ChunkFailure(
            "CHUNK_CONFLICT",
            `has ${field} ${show(value)}, but ${form.noun} ${show(open.id)} was opened with ${show(open.fixed[field])}`,
            field,
          );
        }
      }
    } else {
      open = undefined;
      if (id === undefined) {
        throw new ChunkFailure(
          "CHUNK_ID_MISSING",
          `opens a ${form.noun} but has no ${form.idField}`,
          form.idField,
        );
      }
      if (form.required !== undefined && chunk[form.required] === undefined) {
        throw new ChunkFailure(
          "CHUNK_NAME_MISSING",
          `opens ${form.noun} ${show(id)} but has no ${form.required}`,
          form.required,
        );
      }
    }
    const continues = open !== undefined;

    // Fields the chunk type does not define ride along on the expanded event. Plain
    // assignment, so a key named "__proto__" is lost here exactly as upstream loses it;
    // its mere presence still counts.
    let extra: Record<string, unknown> | undefined;
    for (const key of Object.keys(chunk)) {
      if (form.known.has(key)) continue;
      extra ??= {};
      extra[key] = chunk[key];
    }

    const delta = chunk.delta;
    const rawEvent = chunk.rawEvent;
    const metadata = chunk.metadata;
    const hasContent = delta !== undefined || rawEvent !== undefined;

    if (open === undefined) {
      const w = idWeight(id) + (lane === undefined ? 0 : idWeight(lane));
      const replaced = lanes.get(lane)?.weight ?? 0;
      if (this.#held - replaced + w > this.#maxIds) {
        throw new ChunkFailure(
          "ID_LIMIT_EXCEEDED",
          `opens ${form.noun} ${show(id)}, but the open chunk streams would then hold more than ${this.#maxIds.toLocaleString("en-US")} ids (an id longer than 64 characters counts once per 64), the most maxIds allows; expected no new stream (raise maxIds, or set it to Infinity)`,
          form.idField,
        );
      }
      this.#endLane(lane, emit);
      this.#held += w;
      const fixed: Record<string, unknown> = {};
      for (const [field, absent] of form.fixed) {
        const value = chunk[field] === undefined ? absent : chunk[field];
        if (value !== undefined) fixed[field] = value;
      }
      open = { form, id, tag: sentTag, weight: w, fixed };
      lanes.set(lane, open);
      held.set(id, lane);

      let start: AgUiEvent = { type: form.start, [form.idField]: id };
      if (form.role !== undefined) start.role = form.role;
      Object.assign(start, fixed);
      if (sentTag !== undefined) start.subagentRunId = sentTag;
      if (metadata !== undefined) start.metadata = metadata;
      // With no content event to carry them, the extra fields go on the start event,
      // under its own fields.
      if (extra !== undefined && !hasContent) start = { ...extra, ...start };
      emit(start);
    }

    const contentTag = sentTag !== undefined ? sentTag : open.tag;
    if (hasContent) {
      const content: AgUiEvent = {
        ...extra,
        type: form.content,
        [form.idField]: open.id,
        delta: delta === undefined ? "" : delta,
      };
      if (contentTag !== undefined) content.subagentRunId = contentTag;
      if (metadata !== undefined) content.metadata = metadata;
      if (rawEvent !== undefined) content.rawEvent = rawEvent;
      emit(content);
    } else if (continues && (metadata !== undefined || sentTag === null || extra !== undefined)) {
      // A continuation with nothing to add but metadata, extra fields or a null tag
      // still yields an (empty) content event, so none of them is dropped unseen.
      const content: AgUiEvent = {
        ...extra,
        type: form.content,
        [form.idField]: open.id,
        delta: "",
      };
      if (metadata !== undefined) content.metadata = metadata;
      if (contentTag !== undefined) content.subagentRunId = contentTag;
      emit(content);
    }
  }
}

/** An id's weight (SPEC §17.1); a value that is not a string, which enforcement lets through only as a number or the like, weighs one. */
function idWeight(id: unknown): number {
  return typeof id === "string" ? weight(id) : 1;
}

function endEvent(open: OpenStream): AgUiEvent {
  const event: AgUiEvent = { type: open.form.end, [open.form.idField]: open.id };
  if (open.tag !== undefined) event.subagentRunId = open.tag;
  return event;
}

/**
 * A `TransformStream` that expands the chunk shorthand: each `TEXT_MESSAGE_CHUNK`,
 * `TOOL_CALL_CHUNK` and `REASONING_MESSAGE_CHUNK` becomes the start, content and end events
 * it stands for, so a UI handles one form (SPEC §15). The output equals, event for event,
 * what `@ag-ui/client` 1.0.0's `transformChunks` produces for the same input.
 *
 * - Chunk streams are assembled per lane: the subagent a chunk's `subagentRunId` names, or
 *   the parent agent. A lane holds one stream at a time; a chunk with a new id, or of
 *   another kind, ends the lane's stream (its end event comes first) and opens the next.
 * - A chunk whose id is open in some lane continues that stream. A continuation may leave
 *   out its id: it continues the stream of the lane its tag names, else the parent's
 *   stream of its kind, else the only open stream of its kind.
 * - A chunk with no `delta` and no `rawEvent` opens a stream without a content event.
 * - Any other event of a lane (`TEXT_MESSAGE_START`, `TOOL_CALL_RESULT`, `STEP_STARTED`,
 *   `CUSTOM`, `STATE_DELTA`, …) ends that lane's stream before it; `SUBAGENT_FINISHED` and
 *   `SUBAGENT_ERROR` end the subagent's; `RUN_STARTED`, `RUN_FINISHED`, `RUN_ERROR` and
 *   `MESSAGES_SNAPSHOT` end them all. A stream still open when the input ends gets no end
 *   event.
 * - Every other event passes through as the same object.
 * - The stream errors (with an `Error`) at the chunk `transformChunks` throws on: an
 *   opening chunk without its id (or a tool call's `toolCallName`), a chunk whose tag
 *   contradicts the lane holding its id, an id-less untagged chunk several subagent lanes
 *   could continue, a continuation that changes `role`, `name`, `toolCallName` or
 *   `parentMessageId`; and at a chunk that would open more streams than `maxIds` allows.
 *   By then the reader has had every event expanded before it.
 *
 * It does not verify. To verify a stream that uses chunks, verify the raw stream (chunks
 * pass the verifier, SPEC §9.4), then expand; `runAgent(…, { expandChunks: true })` does
 * that. The verifier does not look inside chunks, so an accepted raw stream can still
 * expand into a rejected one, for instance when a chunk names a message an explicit
 * `TEXT_MESSAGE_START` already opened.
 *
 * One event in gives its whole expansion out: it keeps the default queuing strategies, so
 * the next event is taken only once the reader has drained the last one's expansion.
 *
 * @example
 * ```ts
 * import { ChunkExpanderStream } from "ag-ui-verify";
 * const chunks = [
 *   { type: "RUN_STARTED", threadId: "t1", runId: "r1" },
 *   { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", delta: "Hel" },
 *   { type: "TEXT_MESSAGE_CHUNK", delta: "lo" },
 *   { type: "RUN_FINISHED", threadId: "t1", runId: "r1" },
 * ];
 * const source = new ReadableStream({
 *   start(controller) {
 *     for (const event of chunks) controller.enqueue(event);
 *     controller.close();
 *   },
 * });
 * const types: string[] = [];
 * await source.pipeThrough(new ChunkExpanderStream()).pipeTo(
 *   new WritableStream({
 *     write(event) {
 *       types.push(event.type);
 *     },
 *   }),
 * );
 * // types: RUN_STARTED, TEXT_MESSAGE_START, TEXT_MESSAGE_CONTENT, TEXT_MESSAGE_CONTENT,
 * //   TEXT_MESSAGE_END, RUN_FINISHED
 * ```
 */
export class ChunkExpanderStream extends TransformStream<AgUiEvent, AgUiEvent> {
  /**
   * `maxIds` bounds the open chunk streams as the verifier bounds a run's ids (default
   * 100,000): each stream's id and subagent tag, an id longer than 64 characters once per
   * 64. A chunk that would open one more errors the stream, so a producer tagging chunks
   * with endless subagent ids cannot make it hold a lane for each. Throws a `TypeError` for
   * a `maxIds` that is not a number from 0 up.
   */
  constructor(options?: { readonly maxIds?: number | undefined }) {
    const expander = new ChunkExpander(false, maxIdsOf(options));
    let index = -1;
    super({
      transform(event, controller) {
        index++;
        try {
          expander.push(event, (e) => controller.enqueue(e));
        } catch (thrown) {
          if (!(thrown instanceof ChunkFailure)) throw thrown;
          throw new Error(`${event.type} at index ${index} ${thrown.text}`);
        }
      },
    });
  }
}
