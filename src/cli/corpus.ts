/**
 * Checking many inputs at once: worker threads each claim the next file from a shared
 * counter, the main thread reads stdin and the other streams (which can wait) itself, and
 * the outcomes are handed on in input order, whatever finished first, so the output does
 * not depend on the number of jobs. The main thread checks no file, so that it answers
 * Ctrl-C at once: stopping ends the workers and the streams.
 * @module
 */

import process from "node:process";
import { parentPort, Worker } from "node:worker_threads";
import type { LintOptions } from "../lint/types.ts";
import type { LintedInput } from "../report/formats-shared.ts";
import type { Outcome } from "../report/summary.ts";
import { type HarStream, readHar, readHarStream } from "./har.ts";
import { forWorker, type Item } from "./inputs.ts";
import { NotRegular, UsageError } from "./problems.ts";
import {
  lintBytes,
  lintFile,
  lintSource,
  openStream,
  type ReadOptions,
  type Source,
} from "./read.ts";

/** How far results may run ahead of the first one not yet handed on: bounds what waits. */
const WINDOW = 256;
/** The shared counters: the next item to claim, and how many were handed on. */
const NEXT = 0;
const DELIVERED = 1;

interface Job {
  readonly items: readonly Item[];
  readonly options: ReadOptions;
  readonly counters: Int32Array;
}

/** The next item for this lane, from the counter all lanes share; undefined when none is left. */
function claim(job: Job): number | undefined {
  const i = Atomics.add(job.counters, NEXT, 1);
  return i < job.items.length ? i : undefined;
}

const unreadable = (name: string, error: UsageError): Outcome => ({
  inputs: [{ name, problem: error.message }],
  skipped: 0,
});

/** The outcome of a HAR file's streams: a report each, or its problem (no body). */
function harOutcome(
  path: string,
  har: { streams: Iterable<HarStream>; skipped: number },
  options: ReadOptions,
): Outcome {
  const inputs: LintedInput[] = [];
  for (const stream of har.streams) {
    const { url, body, problem } = stream;
    // The request the stream answers turns on the request checks (SPEC §18.5).
    const request = stream.request as LintOptions["request"];
    const read = request === undefined ? options : { ...options, request };
    inputs.push(
      body === undefined ? { name: path, url, problem } : lintBytes(body, path, url, read),
    );
  }
  if (inputs.length === 0) {
    throw new UsageError(`${JSON.stringify(path)} holds no text/event-stream response`);
  }
  return { inputs, skipped: har.skipped };
}

/** Checks one file, HAR file, skipped file or problem, in this thread. */
export function checkItem(item: Item, options: ReadOptions): Outcome {
  try {
    if (item.kind === "skipped") {
      return {
        inputs: [],
        skipped: 0,
        skippedFile: { input: item.path, what: item.problem ?? "" },
      };
    }
    if (item.kind === "file") {
      return { inputs: [lintFile(item.path, options)], skipped: 0 };
    }
    if (item.kind === "har") return harOutcome(item.path, readHar(item.path), options);
    throw new UsageError(item.problem ?? "no input");
  } catch (error) {
    if (error instanceof NotRegular) {
      return { inputs: [], skipped: 0, skippedFile: { input: item.path, what: error.what } };
    }
    if (!(error instanceof UsageError)) throw error;
    return unreadable(item.path, error);
  }
}

/** Reads stdin or another stream item (a FIFO, /dev/stdin…) in this thread. */
async function checkSource(item: Item, options: ReadOptions, open: Set<Source>): Promise<Outcome> {
  let source: Source | undefined;
  try {
    source = item.kind === "stdin" ? process.stdin : openStream(item.path);
    open.add(source);
    if (item.kind !== "stdin" && item.path.toLowerCase().endsWith(".har")) {
      return harOutcome(item.path, await readHarStream(source, item.path), options);
    }
    return { inputs: [await lintSource(source, item.path, options)], skipped: 0 };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return unreadable(item.path, error);
  } finally {
    if (source !== undefined) open.delete(source);
  }
}

/**
 * The outcome without the events before each first error: nothing a run of many inputs
 * prints shows them, and an event nested deeper than structured cloning can rebuild would
 * make the main thread drop the whole message (a `messageerror`).
 */
function cloneable(outcome: Outcome): Outcome {
  const inputs = outcome.inputs.map((input) => {
    const report = input.report;
    if (report === undefined || !report.findings.some((f) => f.before !== undefined)) return input;
    const findings = report.findings.map(({ before: _before, ...f }) => f);
    return { ...input, report: { ...report, findings } };
  });
  return { ...outcome, inputs };
}

/** The worker's side: given the job, claim files and check them until none is left. */
export function serveWorker(): void {
  parentPort?.once("message", (job: Job) => work(job));
}

function work(job: Job): void {
  for (let i = claim(job); i !== undefined; i = claim(job)) {
    const item = job.items[i];
    if (item === undefined || !forWorker(item)) continue; // the main thread's
    // Far ahead of what was handed on: wait, so results do not pile up in memory.
    for (let d = Atomics.load(job.counters, DELIVERED); i - d >= WINDOW; ) {
      Atomics.wait(job.counters, DELIVERED, d, 100);
      d = Atomics.load(job.counters, DELIVERED);
    }
    parentPort?.postMessage({ i, outcome: cloneable(checkItem(item, job.options)) });
  }
}

/**
 * Starts `count` workers (threads that load this same module), before the inputs are
 * known: a worker takes a while to start, and finding the inputs can take as long.
 */
export function startWorkers(count: number): Worker[] {
  return Array.from({ length: Math.max(count, 0) }, () => new Worker(new URL(import.meta.url)));
}

/**
 * Checks `items`, the files in `workers` (each claiming the next from a shared counter),
 * the streams in this thread, and calls `deliver` for each outcome, in item order, until
 * all are done or `signal` aborts. Ends the workers and the streams; returns how many
 * items were delivered.
 */
export async function checkItems(
  items: readonly Item[],
  options: ReadOptions,
  workers: readonly Worker[],
  deliver: (outcome: Outcome) => void,
  signal: AbortSignal,
): Promise<number> {
  const job: Job = { items, options, counters: new Int32Array(new SharedArrayBuffer(8)) };
  const ready = new Map<number, Outcome>();
  let delivered = 0;
  let done: (() => void) | undefined;
  let failure: ((error: unknown) => void) | undefined;
  const ended = new Promise<void>((resolve, reject) => {
    done = resolve;
    failure = reject;
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
  const finished = (i: number, outcome: Outcome) => {
    if (signal.aborted) return;
    ready.set(i, outcome);
    for (let o = ready.get(delivered); o !== undefined; o = ready.get(delivered)) {
      ready.delete(delivered);
      deliver(o);
      delivered++;
    }
    Atomics.store(job.counters, DELIVERED, delivered);
    Atomics.notify(job.counters, DELIVERED);
    if (delivered === items.length) done?.();
  };
  for (const worker of workers) {
    worker.on("message", ({ i, outcome }: { i: number; outcome: Outcome }) => finished(i, outcome));
    worker.on("error", (error) => failure?.(error));
    // A message that could not be rebuilt is an outcome lost: fail, rather than wait forever.
    worker.on("messageerror", (error) => failure?.(error));
    worker.postMessage(job);
  }
  // What needs no file: skipped files and problems, at once.
  for (const [i, item] of items.entries()) {
    if (item.kind === "skipped" || item.kind === "problem") finished(i, checkItem(item, options));
  }
  if (items.length === 0) done?.();
  // Streams, one after the other, in this thread: they can wait, and stdin can be read once.
  const open = new Set<Source>();
  const streams = async () => {
    for (const [i, item] of items.entries()) {
      if (signal.aborted) return;
      if (item.kind === "stdin" || item.kind === "stream") {
        finished(i, await checkSource(item, options, open));
      }
    }
  };
  streams().catch((error: unknown) => failure?.(error));
  try {
    await ended;
  } finally {
    for (const source of open) source.destroy();
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return delivered;
}
