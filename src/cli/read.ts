/**
 * Reading inputs for checking: a file (read twice when invalid: fast, then again with
 * positions to say where), or a stream such as stdin (read once, with positions).
 * @module
 */

import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { Check, type CheckOptions } from "../report/check.ts";
import type { Result } from "../report/render.ts";
import { ioMessage, UsageError } from "./problems.ts";

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

const CHUNK = 64 * 1024;
/**
 * One buffer for every file read in this thread (a check keeps no bytes it is given), in
 * 64 KiB chunks, as a file stream reads. The verdict does not depend on the chunk size.
 */
const buffer = new Uint8Array(CHUNK);

/** What this thread has checked so far: how many inputs, and how many were invalid. */
const record = { inputs: 0, invalid: 0 };

/**
 * Checks an input read by `feed` (which pushes its chunks into the check, then finishes
 * it). Positions cost about a fifth of the decoding, so an input is read without them,
 * and an invalid one again with them, to say where; but once more than a quarter of the
 * inputs were invalid, reading twice costs more than positions do, and it reads once.
 */
function twice(input: string, options: CheckOptions, feed: (check: Check) => void): Result {
  const start = performance.now();
  const positions = record.inputs >= 16 && record.invalid * 4 > record.inputs;
  let check = new Check(options, positions);
  feed(check);
  record.inputs++;
  if (check.error !== undefined) {
    record.invalid++;
    if (!positions) {
      check = new Check(options, true);
      feed(check);
    }
  }
  return result(check, input, start);
}

/** Checks the file at `path`; throws a {@link UsageError} when it cannot be read. */
export function checkFile(path: string, options: CheckOptions): Result {
  const io = <T>(operation: () => T): T => {
    try {
      return operation();
    } catch (error) {
      throw new UsageError(ioMessage(error, JSON.stringify(path)));
    }
  };
  const fd = io(() => openSync(path, "r"));
  try {
    const regular = io(() => fstatSync(fd).isFile());
    return twice(path, options, (check) => {
      for (let at = 0; ; ) {
        const n = io(() => readSync(fd, buffer, 0, CHUNK, at));
        at += n;
        // A regular file reads short only at its end, which spares one read per file.
        if (n === 0 || !check.push(buffer.subarray(0, n)) || (regular && n < CHUNK)) break;
      }
      check.finish();
    });
  } finally {
    closeSync(fd);
  }
}

/** Checks bytes held in memory (a HAR entry's body), chunk by chunk. */
export function checkBytes(bytes: Uint8Array, input: string, options: CheckOptions): Result {
  return twice(input, options, (check) => {
    for (let at = 0; at < bytes.length; at += CHUNK) {
      if (!check.push(bytes.subarray(at, at + CHUNK))) break;
    }
    check.finish();
  });
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
