/**
 * HAR files (the network export of Chrome, Firefox and Safari DevTools): every entry whose
 * response is `text/event-stream` is an input of its own, named by method, URL and the
 * entry's start time; base64 bodies are decoded.
 * @module
 */

import { readFileSync } from "node:fs";
import { ioMessage, messageOf, UsageError } from "./problems.ts";

/** One SSE response of a HAR file. */
export interface HarStream {
  readonly name: string;
  readonly body: Uint8Array;
}

const get = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null ? Reflect.get(value, key) : undefined;
const text = (value: unknown): string => (typeof value === "string" ? value : "");
const isSse = (type: unknown) => /^\s*text\/event-stream\s*(;|$)/i.test(text(type));

/** Whether a HAR entry's response is an event stream, by its content type or its header. */
function sseResponse(response: unknown): boolean {
  if (isSse(get(get(response, "content"), "mimeType"))) return true;
  const headers = get(response, "headers");
  return (
    Array.isArray(headers) &&
    headers.some(
      (h) => text(get(h, "name")).toLowerCase() === "content-type" && isSse(get(h, "value")),
    )
  );
}

/**
 * The event streams of the HAR file at `path` (their bodies decoded one at a time, as they
 * are read), and how many entries were something else. Throws a {@link UsageError} when
 * the file cannot be read or is not a HAR file.
 */
export function readHar(path: string): { streams: Iterable<HarStream>; skipped: number } {
  let log: unknown;
  try {
    log = get(JSON.parse(readFileSync(path, "utf8")), "log");
  } catch (error) {
    if (error instanceof SyntaxError) {
      throw new UsageError(`${JSON.stringify(path)} is not a HAR file: ${messageOf(error)}`);
    }
    throw new UsageError(ioMessage(error, JSON.stringify(path)));
  }
  const entries = get(log, "entries");
  if (!Array.isArray(entries)) {
    throw new UsageError(`${JSON.stringify(path)} is not a HAR file: it has no log.entries list`);
  }
  const sse = entries.filter((entry) => sseResponse(get(entry, "response")));
  const streams = function* () {
    for (const entry of sse) {
      const request = get(entry, "request");
      const name = `${path}: ${text(get(request, "method"))} ${text(get(request, "url"))} ${text(get(entry, "startedDateTime"))}`;
      const content = get(get(entry, "response"), "content");
      const body = text(get(content, "text"));
      const base64 = get(content, "encoding") === "base64";
      yield { name, body: Buffer.from(body, base64 ? "base64" : "utf8") };
    }
  };
  return { streams: streams(), skipped: entries.length - sse.length };
}
