/**
 * What the event APIs read (SPEC §21.3): a byte stream, `null`, or a `Response`, whose
 * status and `Content-Type` say whether it carries events at all.
 * @module
 */

import type { VerifyError } from "../errors.ts";
import { isEventStreamType } from "../sse/content-type.ts";
import { toVerifyError, Violation } from "../verify/verifier.ts";

/** A body to decode, and whether it came from a `Response` (for the words of an empty one). */
export interface Opened {
  readonly body: ReadableStream<Uint8Array> | null;
  readonly response: boolean;
  /** Set when a `Response` carries no events: the stream fails with it, its body untouched. */
  readonly failure: VerifyError | undefined;
}

/**
 * Opens what an event API was handed: a `ReadableStream` or `null` as it is; a `Response`
 * by its status and content type (2xx, and `text/event-stream` or none; anything else is
 * `RESPONSE_NOT_EVENTS`). Anything else throws a `TypeError` that names what was passed.
 * @internal
 */
export function openSource(source: unknown, api: string): Opened {
  if (source === null || source === undefined) {
    return { body: null, response: false, failure: undefined };
  }
  if (typeof source === "object" && typeof (source as ReadableStream).getReader === "function") {
    return { body: source as ReadableStream<Uint8Array>, response: false, failure: undefined };
  }
  if (isResponse(source)) {
    const type = source.headers.get("content-type");
    const failure =
      source.status >= 200 && source.status <= 299 && (type === null || isEventStreamType(type))
        ? undefined
        : toVerifyError(notEvents(source.status, type), 0, undefined, undefined);
    return { body: source.body, response: true, failure };
  }
  throw new TypeError(
    `${api} reads a ReadableStream<Uint8Array>, a Response or null; got ${described(source)}`,
  );
}

/** A `Response`, from this realm or another (a polyfill, an iframe): read by its shape. */
function isResponse(value: unknown): value is Response {
  if (typeof value !== "object" || value === null) return false;
  const r = value as Partial<Response>;
  return (
    typeof r.status === "number" &&
    typeof r.headers === "object" &&
    r.headers !== null &&
    typeof r.headers.get === "function" &&
    "body" in r
  );
}

function notEvents(status: number, type: string | null): Violation {
  const shown = type === null ? "no content type" : `content type ${clip(type)}`;
  return new Violation(
    "RESPONSE_NOT_EVENTS",
    `HTTP ${status} with ${shown}; expected 200 with text/event-stream.`,
  );
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/** What was passed, in words, with the way out for the usual mistakes. */
function described(value: unknown): string {
  const v = value as { pipe?: unknown; constructor?: { name?: unknown } } | null;
  if (typeof v?.pipe === "function") return "a Node.js stream (convert it: Readable.toWeb)";
  const name = typeof value === "string" ? "string" : v?.constructor?.name;
  const kind = typeof name === "string" ? `a ${name}` : `a value of type ${typeof value}`;
  return `${clip(String(kind))} (wrap bytes or text: new Response(x).body)`;
}
