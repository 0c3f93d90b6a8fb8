/**
 * Reading inputs for checking: a file (read twice when invalid: fast, then again with
 * positions to say where), or a stream such as stdin (read once, with positions).
 * @module
 */

import { closeSync, openSync, readSync } from "node:fs";
import { UsageError } from "./args.ts";
import { Check, type CheckOptions } from "./check.ts";
import type { Result } from "./report.ts";

const REASONS: Record<string, string> = {
  ENOENT: "no such file",
  EISDIR: "it is a directory",
  EACCES: "permission denied",
  EPERM: "permission denied",
  ENOTDIR: "a part of the path is not a directory",
};

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A one-line message for a failed file operation on `what`. */
export function ioMessage(error: unknown, what: string): string {
  const code = error instanceof Error ? Reflect.get(error, "code") : undefined;
  const reason =
    (typeof code === "string" && REASONS[code]) || messageOf(error).replace(/\s+/g, " ");
  return `cannot read ${what}: ${reason}`;
}

function result(check: Check, input: string, start: number): Result {
  return {
    input,
    format: check.format ?? "sse",
    tally: check.tally,
    bytes: check.bytes,
    durationMs: performance.now() - start,
    error: check.error,
    position: check.position,
    unterminated: check.unterminated,
  };
}

/**
 * One buffer for every file read in this thread (a check keeps no bytes it is given).
 * 64 KiB, as a file stream reads: the decoder checks `maxBufferSize` only against a line
 * that a chunk leaves unfinished, so the chunk size bounds what a long line may get past.
 */
const buffer = new Uint8Array(64 * 1024);

/**
 * Checks the file at `path`. Reads it without positions (faster); an invalid file is read
 * again with them, to say where it breaks. Throws a {@link UsageError} when it cannot be read.
 */
export function checkFile(path: string, options: CheckOptions): Result {
  const start = performance.now();
  const unreadable = (error: unknown) => new UsageError(ioMessage(error, JSON.stringify(path)));
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    throw unreadable(error);
  }
  const readAll = (check: Check): Check => {
    for (let at = 0; ; ) {
      let n: number;
      try {
        n = readSync(fd, buffer, 0, buffer.length, at);
      } catch (error) {
        throw unreadable(error);
      }
      if (n === 0) break;
      at += n;
      if (!check.push(buffer.subarray(0, n))) return check;
    }
    check.finish();
    return check;
  };
  try {
    let check = readAll(new Check(options, false));
    if (check.error !== undefined) check = readAll(new Check(options, true));
    return result(check, path, start);
  } finally {
    closeSync(fd);
  }
}

/** Checks a stream that can be read only once (stdin), with positions. */
export async function checkStream(
  source: AsyncIterable<Uint8Array>,
  name: string,
  options: CheckOptions,
): Promise<Result> {
  const start = performance.now();
  const check = new Check(options, true);
  try {
    for await (const chunk of source) if (!check.push(chunk)) return result(check, name, start);
  } catch (error) {
    throw new UsageError(ioMessage(error, name === "-" ? "stdin" : JSON.stringify(name)));
  }
  check.finish();
  return result(check, name, start);
}
