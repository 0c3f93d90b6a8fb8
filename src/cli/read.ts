/**
 * Reading inputs for checking: a file (read twice when invalid: fast, then again with
 * positions to say where), or a stream such as stdin or a FIFO (read once, with positions).
 * @module
 */

import {
  closeSync,
  constants,
  createReadStream,
  fstatSync,
  openSync,
  readSync,
  type Stats,
  statSync,
} from "node:fs";
import { Socket } from "node:net";
import process from "node:process";
import { isatty, ReadStream } from "node:tty";
import { Check, type CheckOptions } from "../report/check.ts";
import type { Result } from "../report/render.ts";
import { special } from "./inputs.ts";
import { ioMessage, NotRegular, UsageError } from "./problems.ts";

/**
 * Opening never waits: a FIFO without a writer opens at once (and its reads wait, in the
 * event loop); a walk's file that turns out to be one is not read at all. Nor does it make
 * a terminal the command's own.
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/**
 * Opens the regular file at `path` (a symbolic link is followed), checking before the open
 * (opening a device can do things) and after it (the path may change in between). Throws a
 * {@link NotRegular} for a FIFO, a device…, a {@link UsageError} when it cannot be read.
 */
export function openRegular(path: string): { fd: number; size: number } {
  const what = JSON.stringify(path);
  const check = (stats: Stats) => {
    if (stats.isDirectory()) throw new UsageError(`cannot read ${what}: it is a directory`);
    if (!stats.isFile()) throw new NotRegular(path, special(stats));
  };
  let fd: number | undefined;
  try {
    check(statSync(path));
    fd = openSync(path, OPEN_FLAGS);
    const stats = fstatSync(fd);
    check(stats);
    return { fd, size: stats.size };
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    if (error instanceof UsageError) throw error;
    throw new UsageError(ioMessage(error, what));
  }
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

/**
 * Checks the regular file at `path`; throws a {@link NotRegular} when it is something else
 * (a FIFO, a device…), and a {@link UsageError} when it cannot be read.
 */
export function checkFile(path: string, options: CheckOptions): Result {
  const io = <T>(operation: () => T): T => {
    try {
      return operation();
    } catch (error) {
      throw new UsageError(ioMessage(error, JSON.stringify(path)));
    }
  };
  const { fd } = openRegular(path);
  try {
    return twice(path, options, (check) => {
      for (let at = 0; ; ) {
        const n = io(() => readSync(fd, buffer, 0, CHUNK, at));
        at += n;
        // A regular file reads short only at its end, which spares one read per file.
        if (n === 0 || !check.push(buffer.subarray(0, n)) || n < CHUNK) break;
      }
      check.finish();
    });
  } finally {
    closeSync(fd);
  }
}

/** Names of stdin. */
const STDIN = new Set(["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"]);

/** A source of chunks that can be stopped. */
export type Source = AsyncIterable<Uint8Array> & { destroy(): void };

/**
 * Opens the path for reading as a stream, whatever it is: a FIFO or a socket through the
 * event loop (so waiting for a writer holds no thread), a terminal as a terminal, anything
 * else (a device, a regular file) as a file stream. Throws a {@link UsageError} when it
 * cannot be opened.
 */
export function openStream(path: string): Source {
  const what = JSON.stringify(path);
  let fd: number;
  let stats: Stats;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    // Linux opens no socket by name, and stdin may be one (a parent's socketpair).
    const code = error instanceof Error ? Reflect.get(error, "code") : undefined;
    if (code === "ENXIO" && STDIN.has(path)) return process.stdin;
    throw new UsageError(ioMessage(error, what));
  }
  try {
    stats = fstatSync(fd);
  } catch (error) {
    closeSync(fd);
    throw new UsageError(ioMessage(error, what));
  }
  if (stats.isDirectory()) {
    closeSync(fd);
    throw new UsageError(`cannot read ${what}: it is a directory`);
  }
  if (stats.isFIFO() || stats.isSocket()) {
    return new Socket({ fd, readable: true, writable: false });
  }
  return isatty(fd) ? new ReadStream(fd) : createReadStream("", { fd });
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
