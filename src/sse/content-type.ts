/**
 * Which responses carry an event stream: shared by the client, the proxy and the fetch
 * wrapper (SPEC §16), and kept out of the public entry.
 * @module
 */

import type { ProtobufSupport } from "../_util/transport.ts";

/**
 * True when a content type names an SSE stream (`text/event-stream`, any case, any
 * parameters).
 * @internal
 */
export function isEventStreamType(type: string | null): boolean {
  return type !== null && /^\s*text\/event-stream\s*(;|$)/i.test(type);
}

/** True when a content type names `mediaType` (any case, any parameters). */
function isMediaType(type: string | null, mediaType: string): boolean {
  if (type === null) return false;
  const semicolon = type.indexOf(";");
  return (semicolon === -1 ? type : type.slice(0, semicolon)).trim().toLowerCase() === mediaType;
}

/**
 * The protobuf transport a caller passed (`{ protobuf }`), when a response's content type
 * is its media type; otherwise undefined (SPEC §21.3): how every API that reads a
 * `Response` decides to read frames.
 * @internal
 */
export function protobufFor(
  type: string | null,
  protobuf: ProtobufSupport | undefined,
): ProtobufSupport | undefined {
  return protobuf !== undefined && isMediaType(type, protobuf.mediaType) ? protobuf : undefined;
}

/**
 * True when a content type says protobuf, without the transport to read it: for the words
 * that tell the caller to pass `{ protobuf }`.
 * @internal
 */
export function saysProtobuf(type: string | null): boolean {
  return type !== null && /vnd\.ag-ui\.event\+proto/i.test(type);
}
