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
