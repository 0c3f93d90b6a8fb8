/**
 * Checking many inputs at once: this thread and `jobs - 1` worker threads take inputs in
 * order, and the outcomes are handed on in input order, whatever finished first, so the
 * output does not depend on the number of jobs.
 * @module
 */

import process from "node:process";
import { parentPort, Worker, workerData } from "node:worker_threads";
import { UsageError } from "./args.ts";
import type { CheckOptions } from "./check.ts";
import { readHar } from "./har.ts";
import type { Item } from "./inputs.ts";
import { checkBytes, checkFile, checkStream } from "./read.ts";
import { jsonReport, type Report } from "./report.ts";

/** What one item gave: a report per input (a HAR file gives one per event stream). */
export interface Outcome {
  readonly reports: Report[];
  /** HAR entries that are not event streams. */
  readonly skipped: number;
}

/** How far results may run ahead of the first unfinished item: bounds what waits in memory. */
const WINDOW = 256;

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

/** The worker's side: check each item it is sent, and send the outcome back. */
export function serveWorker(): void {
  const options: CheckOptions = workerData;
  parentPort?.on("message", ({ i, item }: { i: number; item: Item }) => {
    parentPort?.postMessage({ i, outcome: checkItem(item, options) });
  });
}

/**
 * Checks `items` with `jobs` lanes (this thread, plus workers that load this same module)
 * and calls `deliver` for each, in order.
 */
export async function checkItems(
  items: readonly Item[],
  options: CheckOptions,
  jobs: number,
  deliver: (outcome: Outcome) => void,
): Promise<void> {
  const waiting = new Map<number, Outcome>();
  let next = 0;
  let delivered = 0;
  let wake: (() => void) | undefined;
  const feeders: (() => void)[] = [];
  const finished = (i: number, outcome: Outcome) => {
    waiting.set(i, outcome);
    for (let o = waiting.get(delivered); o !== undefined; o = waiting.get(delivered)) {
      waiting.delete(delivered);
      deliver(o);
      delivered++;
    }
    wake?.();
    for (const feed of feeders) feed();
  };
  const claim = (): number | undefined =>
    next < items.length && next - delivered < WINDOW ? next++ : undefined;

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

  const workers: Worker[] = [];
  let failure: ((error: unknown) => void) | undefined;
  const failed = new Promise<never>((_, reject) => {
    failure = reject;
  });
  for (let k = 0; k < Math.min(jobs, items.length) - 1; k++) {
    const worker = new Worker(new URL(import.meta.url), { workerData: options });
    let inFlight = 0;
    const feed = () => {
      // Two items each, so a worker never waits for the next one to arrive.
      for (
        let i = inFlight < 2 ? claim() : undefined;
        i !== undefined;
        i = inFlight < 2 ? claim() : undefined
      ) {
        const done = stdin.get(i);
        if (done !== undefined) finished(i, done);
        else {
          inFlight++;
          worker.postMessage({ i, item: items[i] });
        }
      }
    };
    worker.on("message", ({ i, outcome }: { i: number; outcome: Outcome }) => {
      inFlight--;
      finished(i, outcome);
    });
    worker.on("error", (error) => failure?.(error));
    workers.push(worker);
    feeders.push(feed);
    feed();
  }
  try {
    const mainLane = async () => {
      let yielded = performance.now();
      while (delivered < items.length) {
        const i = claim();
        if (i === undefined) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          continue;
        }
        finished(i, stdin.get(i) ?? checkItem(items[i] as Item, options));
        // Let the workers' results in now and then.
        if (performance.now() - yielded > 5) {
          await new Promise((resolve) => setImmediate(resolve));
          yielded = performance.now();
        }
      }
    };
    await Promise.race([mainLane(), failed]);
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}
