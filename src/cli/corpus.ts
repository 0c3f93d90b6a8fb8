/**
 * Checking many inputs at once: this thread and `jobs - 1` worker threads each claim the
 * next input from a shared counter, and the outcomes are handed on in input order,
 * whatever finished first, so the output does not depend on the number of jobs.
 * @module
 */

import process from "node:process";
import { parentPort, Worker } from "node:worker_threads";
import type { CheckOptions } from "../report/check.ts";
import { jsonReport, type Report } from "../report/render.ts";
import type { Outcome } from "../report/summary.ts";
import { readHar } from "./har.ts";
import type { Item } from "./inputs.ts";
import { UsageError } from "./problems.ts";
import { checkBytes, checkFile, checkStream } from "./read.ts";

/** How far results may run ahead of the first one not yet handed on: bounds what waits. */
const WINDOW = 256;
/** The shared counters: the next item to claim, and how many were handed on. */
const NEXT = 0;
const DELIVERED = 1;

interface Job {
  readonly items: readonly Item[];
  readonly options: CheckOptions;
  readonly counters: Int32Array;
}

/** The next item for this lane, from the counter all lanes share; undefined when none is left. */
function claim(job: Job): number | undefined {
  const i = Atomics.add(job.counters, NEXT, 1);
  return i < job.items.length ? i : undefined;
}

/** Checks one item in this thread. */
export function checkItem(item: Item, options: CheckOptions): Outcome {
  try {
    if (item.kind === "problem") throw new UsageError(item.problem ?? "no input");
    if (item.kind !== "har")
      return { reports: [jsonReport(checkFile(item.path, options))], skipped: 0 };
    const { streams, skipped } = readHar(item.path);
    const reports: Report[] = [];
    for (const { name, body } of streams) reports.push(jsonReport(checkBytes(body, name, options)));
    if (reports.length === 0) {
      throw new UsageError(`${JSON.stringify(item.path)} holds no text/event-stream response`);
    }
    return { reports, skipped };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return { reports: [{ valid: false, input: item.path, usageError: error.message }], skipped: 0 };
  }
}

/** The worker's side: given the job, claim items and check them until none is left. */
export function serveWorker(): void {
  parentPort?.once("message", (job: Job) => work(job));
}

function work(job: Job): void {
  for (let i = claim(job); i !== undefined; i = claim(job)) {
    // Far ahead of what was handed on: wait, so results do not pile up in memory.
    for (let d = Atomics.load(job.counters, DELIVERED); i - d >= WINDOW; ) {
      Atomics.wait(job.counters, DELIVERED, d, 100);
      d = Atomics.load(job.counters, DELIVERED);
    }
    const item = job.items[i];
    // stdin is read by this thread's parent alone.
    const outcome =
      item === undefined || item.kind === "stdin" ? null : checkItem(item, job.options);
    parentPort?.postMessage({ i, outcome });
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
 * Checks `items` in this thread and in `workers`, each lane claiming the next item from a
 * shared counter, and calls `deliver` for each outcome, in item order. Ends the workers.
 */
export async function checkItems(
  items: readonly Item[],
  options: CheckOptions,
  workers: readonly Worker[],
  deliver: (outcome: Outcome) => void,
): Promise<void> {
  const job: Job = { items, options, counters: new Int32Array(new SharedArrayBuffer(8)) };
  // stdin can be read only here, and only once: first, with positions.
  const stdin = new Map<number, Outcome>();
  for (const [i, item] of items.entries()) {
    if (item.kind !== "stdin") continue;
    try {
      stdin.set(i, {
        reports: [jsonReport(await checkStream(process.stdin, "-", options))],
        skipped: 0,
      });
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      stdin.set(i, {
        reports: [{ valid: false, input: "-", usageError: error.message }],
        skipped: 0,
      });
    }
  }
  const waiting = new Map<number, Outcome>();
  let delivered = 0;
  let wake: (() => void) | undefined;
  const finished = (i: number, outcome: Outcome | null) => {
    waiting.set(i, outcome ?? stdin.get(i) ?? { reports: [], skipped: 0 });
    for (let o = waiting.get(delivered); o !== undefined; o = waiting.get(delivered)) {
      waiting.delete(delivered);
      deliver(o);
      delivered++;
    }
    Atomics.store(job.counters, DELIVERED, delivered);
    Atomics.notify(job.counters, DELIVERED);
    wake?.();
  };
  let failure: ((error: unknown) => void) | undefined;
  const failed = new Promise<never>((_, reject) => {
    failure = reject;
  });
  for (const worker of workers) {
    worker.on("message", ({ i, outcome }: { i: number; outcome: Outcome | null }) =>
      finished(i, outcome),
    );
    worker.on("error", (error) => failure?.(error));
    worker.postMessage(job);
  }
  const until = () =>
    new Promise<void>((resolve) => {
      wake = resolve;
    });
  const mainLane = async () => {
    let yielded = performance.now();
    for (let i = claim(job); i !== undefined; i = claim(job)) {
      while (i - delivered >= WINDOW) await until();
      const item = items[i];
      finished(i, item === undefined || item.kind === "stdin" ? null : checkItem(item, options));
      // Let the workers' results in now and then.
      if (performance.now() - yielded > 5) {
        await new Promise((resolve) => setImmediate(resolve));
        yielded = performance.now();
      }
    }
    while (delivered < items.length) await until();
  };
  try {
    await Promise.race([mainLane(), failed]);
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}
