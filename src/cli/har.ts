/**
 * HAR files (the network export of Chrome, Firefox and Safari DevTools): every entry whose
 * response is `text/event-stream` (or AG-UI's protobuf media type) is an input of its own, named by method, URL and the
 * entry's start time; base64 bodies are decoded. A HAR file is read whole, so one larger
 * than {@link HAR_MAX} is refused.
 * @module
 */

import { closeSync, readFileSync } from "node:fs";
import { getHeapStatistics } from "node:v8";
import { clip } from "../report/safe.ts";
import { ioMessage, messageOf, UsageError } from "./problems.ts";
import { openRegular, type Source } from "./read.ts";

/**
 * One SSE response of a HAR file: its body, or why there is none to check; with the
 * request's body when it is a JSON object (the run's `RunAgentInput`, SPEC §18.5).
 */
export type HarStream =
  | {
      readonly url: string;
      readonly body: Uint8Array;
      readonly problem?: undefined;
      readonly request?: Record<string, unknown> | undefined;
    }
  | {
      readonly url: string;
      readonly body?: undefined;
      readonly problem: string;
      readonly request?: undefined;
    };

/**
 * The largest HAR file read: 256 MiB, or an eighth of the JavaScript heap when that is
 * less. Parsing holds the text and the parsed entries at once, about three times the file
 * (twice that for text that is not ASCII), and several workers may parse at once.
 */
export const HAR_MAX = Math.min(
  256 * 1024 ** 2,
  Math.floor(getHeapStatistics().heap_size_limit / 8),
);

const get = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null ? Reflect.get(value, key) : undefined;
const text = (value: unknown): string => (typeof value === "string" ? value : "");
/** An event stream's content type: SSE, or AG-UI's protobuf frames (SPEC §21.3). */
const isSse = (type: unknown) =>
  /^\s*(text\/event-stream|application\/vnd\.ag-ui\.event\+proto)\s*(;|$)/i.test(text(type));

/**
 * Whether a HAR entry's response is an event stream (SSE or protobuf), by its content type
 * or its header. A protobuf body is told from its first byte when it is read.
 */
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

const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;

function tooLarge(path: string, size: number): UsageError {
  return new UsageError(
    `${JSON.stringify(path)} is too large: ${mib(size)}, over the ${mib(HAR_MAX)} a HAR file may have here (it is read whole); split it, or save its event streams as captures`,
  );
}

/**
 * The event streams of the HAR file at `path` (their bodies decoded one at a time, as they
 * are read), and how many entries were something else. Throws a {@link UsageError} when
 * the file cannot be read, is too large or is not a HAR file; a {@link NotRegular} when it
 * is a FIFO, a device….
 */
export function readHar(path: string): { streams: Iterable<HarStream>; skipped: number } {
  const { fd, size } = openRegular(path);
  let content: string;
  try {
    if (size > HAR_MAX) throw tooLarge(path, size);
    content = readFileSync(fd, "utf8");
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(ioMessage(error, JSON.stringify(path)));
  } finally {
    closeSync(fd);
  }
  return parseHar(content, path);
}

/** {@link readHar} for a HAR file given as a stream (a FIFO): read up to {@link HAR_MAX}. */
export async function readHarStream(
  source: Source,
  path: string,
): Promise<{ streams: Iterable<HarStream>; skipped: number }> {
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of source) {
      size += chunk.length;
      if (size > HAR_MAX) {
        source.destroy();
        throw tooLarge(path, size);
      }
      parts.push(chunk);
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(ioMessage(error, JSON.stringify(path)));
  }
  return parseHar(Buffer.concat(parts).toString("utf8"), path);
}

/** A request body that is a JSON object, parsed; undefined for any other. */
function runInput(body: unknown): Record<string, unknown> | undefined {
  if (typeof body !== "string") return undefined;
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The event streams of a HAR file's text. */
function parseHar(
  content: string,
  path: string,
): { streams: Iterable<HarStream>; skipped: number } {
  let log: unknown;
  try {
    log = get(JSON.parse(content), "log");
  } catch (error) {
    throw new UsageError(`${JSON.stringify(path)} is not a HAR file: ${messageOf(error)}`);
  }
  const entries = get(log, "entries");
  if (!Array.isArray(entries)) {
    throw new UsageError(`${JSON.stringify(path)} is not a HAR file: it has no log.entries list`);
  }
  const sse = entries.filter((entry) => sseResponse(get(entry, "response")));
  const streams = function* (): Generator<HarStream> {
    for (const entry of sse) {
      const request = get(entry, "request");
      const url = clip(text(get(request, "url")), 2000);
      const what = `${clip(text(get(request, "method")), 100)} ${url} ${clip(text(get(entry, "startedDateTime")), 100)}`;
      const content = get(get(entry, "response"), "content");
      const body = get(content, "text");
      const size = get(content, "size");
      // No text, or none for a body the HAR says had bytes: the browser did not keep it.
      if (typeof body !== "string" || (body === "" && typeof size === "number" && size > 0)) {
        yield { url: what, problem: "no body recorded" };
        continue;
      }
      const base64 = get(content, "encoding") === "base64";
      yield {
        url: what,
        body: Buffer.from(body, base64 ? "base64" : "utf8"),
        request: runInput(get(get(request, "postData"), "text")),
      };
    }
  };
  return { streams: streams(), skipped: entries.length - sse.length };
}
