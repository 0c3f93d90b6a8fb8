/**
 * What the event APIs read (SPEC §21.3): a byte stream, `null`, or a `Response`, whose
 * status and `Content-Type` say whether it carries events at all.
 * @module
 */

import type { BodyDecoder, ProtobufSupport } from "../_util/transport.ts";
import type { ConformWarning, VerifyError } from "../errors.ts";
import { isEventStreamType, protobufFor, saysProtobuf } from "../sse/content-type.ts";
import { type DecoderOptions, SseDecoder } from "../sse/decoder.ts";
import { toVerifyError, Violation } from "../verify/verifier.ts";

/** Options of the APIs that read a body or a `Response` (SPEC §21.3). */
export interface SourceOptions extends DecoderOptions {
  /**
   * The protobuf transport, `protobuf` from `ag-ui-verify/proto`: with it, a `Response`
   * whose content type is `application/vnd.ag-ui.event+proto` is read as protobuf frames.
   * Without it such a response is `RESPONSE_NOT_EVENTS`. Default: none.
   */
  protobuf?: ProtobufSupport | undefined;
  /** With `protobuf`: the largest frame, its 4-byte length included. Default 10 MiB. */
  maxFrameSize?: number | undefined;
  /** Warnings, in stream order: a protobuf frame dropped for an event type it does not know. */
  onWarning?: ((warning: ConformWarning) => void) | undefined;
}

export type { ProtobufSupport };

/** A body to decode, how, and whether it came from a `Response` (for the words of an empty one). */
export interface Opened {
  readonly body: ReadableStream<Uint8Array> | null;
  readonly response: boolean;
  /** Set when a `Response` carries no events: the stream fails with it, its body untouched. */
  readonly failure: VerifyError | undefined;
  /** A decoder for the body, handing values to `emit`. */
  readonly decoder: (emit: (value: unknown) => void) => BodyDecoder;
}

/**
 * Opens what an event API was handed: a `ReadableStream` or `null` as it is, read as SSE;
 * a `Response` by its status and content type (2xx, and `text/event-stream` or none, or
 * with `options.protobuf` its media type; anything else is `RESPONSE_NOT_EVENTS`). Anything
 * else throws a `TypeError` that names what was passed.
 * @internal
 */
export function openSource(source: unknown, api: string, options?: SourceOptions): Opened {
  const sse = (emit: (value: unknown) => void) => new SseDecoder(emit, options);
  if (source === null || source === undefined) {
    return { body: null, response: false, failure: undefined, decoder: sse };
  }
  if (typeof source === "object" && typeof (source as ReadableStream).getReader === "function") {
    return {
      body: source as ReadableStream<Uint8Array>,
      response: false,
      failure: undefined,
      decoder: sse,
    };
  }
  if (isResponse(source)) {
    const type = source.headers.get("content-type");
    const ok = source.status >= 200 && source.status <= 299;
    const protobuf = protobufFor(type, options?.protobuf);
    if (ok && protobuf !== undefined) {
      const settings = { maxFrameSize: options?.maxFrameSize, onWarning: options?.onWarning };
      return {
        body: source.body,
        response: true,
        failure: undefined,
        decoder: (emit) => protobuf.decoder(emit, settings),
      };
    }
    const failure =
      ok && (type === null || isEventStreamType(type))
        ? undefined
        : toVerifyError(notEvents(source.status, type, options?.protobuf), 0, undefined, undefined);
    return { body: source.body, response: true, failure, decoder: sse };
  }
  throw unreadable(api, "a ReadableStream<Uint8Array>, a Response or null", source);
}

/** The `TypeError` for a value an API cannot read: what it reads, and what it got. @internal */
export function unreadable(api: string, reads: string, value: unknown): TypeError {
  return new TypeError(`${api} reads ${reads}; got ${described(value)}`);
}

/** A `Response`, from this realm or another (a polyfill, an iframe): read by its shape. @internal */
export function isResponse(value: unknown): value is Response {
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

function notEvents(
  status: number,
  type: string | null,
  protobuf: ProtobufSupport | undefined,
): Violation {
  const shown = type === null ? "no content type" : `content type ${clip(type)}`;
  const expected =
    protobuf !== undefined
      ? `text/event-stream or ${protobuf.mediaType}`
      : saysProtobuf(type)
        ? "text/event-stream (to read protobuf, pass { protobuf } from ag-ui-verify/proto)"
        : "text/event-stream";
  return new Violation(
    "RESPONSE_NOT_EVENTS",
    `HTTP ${status} with ${shown}; expected 200 with ${expected}.`,
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
