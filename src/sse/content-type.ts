/**
 * Which responses carry an event stream: shared by the client, the proxy and the fetch
 * wrapper (SPEC §16), and kept out of the public entry.
 * @module
 */

/**
 * True when a content type names an SSE stream (`text/event-stream`, any case, any
 * parameters).
 * @internal
 */
export function isEventStreamType(type: string | null): boolean {
  return type !== null && /^\s*text\/event-stream\s*(;|$)/i.test(type);
}

/**
 * True when a content type names `mediaType` (any case, any parameters): how the event
 * APIs recognise the protobuf transport's `application/vnd.ag-ui.event+proto` (SPEC §21.3).
 * @internal
 */
export function isMediaType(type: string | null, mediaType: string): boolean {
  if (type === null) return false;
  const semicolon = type.indexOf(";");
  return (semicolon === -1 ? type : type.slice(0, semicolon)).trim().toLowerCase() === mediaType;
}
