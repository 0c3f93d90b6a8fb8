/**
 * Reading inputs for linting: a regular file, bytes held in memory (a HAR entry's body), or
 * a stream such as stdin or a FIFO, each chunk by chunk into one {@link InputReader}.
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
import type { LintOptions, LintReport } from "../lint/types.ts";
import { protobuf } from "../proto/index.ts";
import type { LintedInput } from "../report/formats-shared.ts";
import { EventKeeper } from "../report/html-keep.ts";
import { InputReader } from "../report/input-reader.ts";
import { agUiSchema } from "../schema/index.ts";
import type { Format } from "../sse/json-lines.ts";
import { special } from "./inputs.ts";
import { ioMessage, NotRegular, UsageError } from "./problems.ts";

/**
 * What every input is linted with: the linter's options as plain data (they go to the
 * worker threads), `strict` for the AG-UI event schema, and the input format, if forced.
 */
export interface ReadOptions extends Omit<LintOptions, "schema" | "protobuf"> {
  readonly format?: Format | undefined;
  readonly strict?: boolean | undefined;
  /** Keep each input's events, bounded, for the HTML report. */
  readonly keepEvents?: boolean | undefined;
}

/** A reader for one input, with the schema when `strict`; protobuf frames are always read. */
export function inputReader(options: ReadOptions): InputReader {
  const { strict, keepEvents, ...rest } = options;
  const keep = keepEvents === true ? new EventKeeper() : undefined;
  return new InputReader({
    ...rest,
    schema: strict === true ? agUiSchema : undefined,
    protobuf,
    keep,
  });
}

/** A linted input as the command reads it: always with a report. */
export type Read = LintedInput & { readonly report: LintReport };

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

const CHUNK = 64 * 1024;
/**
 * One buffer for every file read in this thread (a reader copies what it keeps), in 64 KiB
 * chunks, as a file stream reads. The report does not depend on the chunk size.
 */
const buffer = new Uint8Array(CHUNK);

function read(name: string, url: string | undefined, reader: InputReader): Read {
  const { report, array, events } = reader.finish();
  return {
    name,
    ...(url === undefined ? {} : { url }),
    report,
    ...(array ? { array } : {}),
    ...(events === undefined ? {} : { events }),
  };
}

/**
 * Lints the regular file at `path`; throws a {@link NotRegular} when it is something else
 * (a FIFO, a device…), and a {@link UsageError} when it cannot be read.
 */
export function lintFile(path: string, options: ReadOptions): Read {
  const { fd } = openRegular(path);
  try {
    const reader = inputReader(options);
    for (let at = 0; ; ) {
      let n: number;
      try {
        n = readSync(fd, buffer, 0, CHUNK, at);
      } catch (error) {
        throw new UsageError(ioMessage(error, JSON.stringify(path)));
      }
      at += n;
      if (n === 0) break;
      reader.push(buffer.subarray(0, n));
      // A regular file reads short only at its end, which spares one read per file.
      if (n < CHUNK) break;
    }
    return read(path, undefined, reader);
  } finally {
    closeSync(fd);
  }
}

/** Lints bytes held in memory (a HAR entry's body: `name` the HAR file, `url` the entry). */
export function lintBytes(
  bytes: Uint8Array,
  name: string,
  url: string,
  options: ReadOptions,
): Read {
  const reader = inputReader(options);
  for (let at = 0; at < bytes.length; at += CHUNK) reader.push(bytes.subarray(at, at + CHUNK));
  return read(name, url, reader);
}

/** Lints a stream that can be read only once (stdin, a FIFO). */
export async function lintSource(
  source: AsyncIterable<Uint8Array>,
  name: string,
  options: ReadOptions,
): Promise<Read> {
  const reader = inputReader(options);
  try {
    for await (const chunk of source) reader.push(chunk);
  } catch (error) {
    throw new UsageError(ioMessage(error, name === "-" ? "stdin" : JSON.stringify(name)));
  }
  return read(name, undefined, reader);
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
