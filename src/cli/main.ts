#!/usr/bin/env node
/**
 * The `ag-ui-verify` command: checks a recorded AG-UI event stream (SSE or JSON Lines, from
 * a file or stdin) or a live agent endpoint, and reports for people or, with `--json`, for
 * programs. Exit status 0: valid; 1: the stream breaks a rule; 2: a usage or I/O problem.
 *
 * src/cli/ is the only part of src/ that touches `process` or the file system; the
 * library never imports from it. Built to dist/cli.js.
 * @module
 */

import { readFileSync, statSync } from "node:fs";
import process from "node:process";
import { isMainThread } from "node:worker_threads";
import { jsonReport, plural, type Result, style, textReport } from "../report/render.ts";
import { escapeControls, shown } from "../report/safe.ts";
import { Summary } from "../report/summary.ts";
import { HELP, type Options, parseOptions } from "./args.ts";
import { checkItems, serveWorker, startWorkers } from "./corpus.ts";
import { expand, forWorker } from "./inputs.ts";
import { messageOf, UsageError } from "./problems.ts";
import { checkFile, checkStream, openStream } from "./read.ts";
import { checkUrl } from "./url.ts";

function version(): string {
  try {
    const pkg: unknown = JSON.parse(
      readFileSync(new URL("../package.json", import.meta.url), "utf8"),
    );
    const v = typeof pkg === "object" && pkg !== null ? Reflect.get(pkg, "version") : undefined;
    return typeof v === "string" ? v : "unknown";
  } catch {
    return "unknown";
  }
}

function useColor(options: Options): boolean {
  const { NO_COLOR, FORCE_COLOR } = process.env;
  if (options.noColor || (NO_COLOR !== undefined && NO_COLOR !== "")) return false;
  if (FORCE_COLOR !== undefined) return FORCE_COLOR !== "0" && FORCE_COLOR !== "false";
  return process.stdout.isTTY === true;
}

const say = (text: string): void => {
  process.stdout.write(text);
};

/** One line on stderr, control characters (and line feeds) in it escaped. */
const warn = (text: string): void => {
  process.stderr.write(`ag-ui-verify: ${escapeControls(text)}\n`);
};

/** The one-line message on stderr, and for --json the usage-error object on stdout. */
function usageFailure(message: string, json: boolean): number {
  if (json) say(`${JSON.stringify({ valid: false, usageError: message })}\n`);
  warn(message);
  return 2;
}

/** A live line on stderr while many inputs are checked (a terminal only). */
class Progress {
  readonly #total: number;
  readonly #enabled: boolean;
  readonly #start = performance.now();
  #last = 0;
  #shown = false;

  constructor(total: number, enabled: boolean) {
    this.#total = total;
    this.#enabled = enabled;
  }

  update(done: number, bytes: number, invalid: number): void {
    const now = performance.now();
    if (!this.#enabled || now - this.#last < 100) return;
    this.#last = now;
    const rate = bytes / 1024 ** 2 / Math.max((now - this.#start) / 1000, 1e-3);
    const text = `${done.toLocaleString("en-US")}/${this.#total.toLocaleString("en-US")} files · ${rate.toFixed(1)} MiB/s · ${invalid.toLocaleString("en-US")} invalid`;
    process.stderr.write(`\r\u001b[K${text}`);
    this.#shown = true;
  }

  clear(): void {
    if (this.#shown) process.stderr.write("\r\u001b[K");
    this.#shown = false;
  }
}

/** Whether `path` is a regular file (or cannot be read: checkFile says why). */
function regular(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return true;
  }
}

/** Whether `paths` is one capture, which gets the full report (not a directory, not HAR). */
function oneCapture(paths: readonly string[]): boolean {
  const [path] = paths;
  if (paths.length !== 1 || path === undefined) return false;
  if (path === "-") return true;
  try {
    return !statSync(path).isDirectory() && !path.toLowerCase().endsWith(".har");
  } catch {
    return true; // reported as today: cannot read "<path>": …
  }
}

/**
 * Checks many inputs: NDJSON or a summary on stdout. Ctrl-C (SIGINT) stops the work, prints
 * the summary of what was handed on so far, "interrupted after N of M inputs", and exits 130.
 */
async function corpus(options: Options): Promise<number> {
  const start = performance.now();
  // One worker starts while the inputs are found (a walk can take as long); the rest once
  // they are known, no more than there are files.
  const early = options.paths.some((path) => path !== "-") ? startWorkers(1) : [];
  const items = expand(options.paths, options.extensions);
  const files = Math.min(options.jobs, items.filter(forWorker).length);
  const workers = [...early.slice(0, files), ...startWorkers(files - early.length)];
  for (const idle of early.slice(files)) void idle.terminate();
  const summary = new Summary();
  const progress = new Progress(items.length, process.stderr.isTTY === true);
  const stop = new AbortController();
  const interrupt = () => stop.abort();
  process.once("SIGINT", interrupt);
  let done = 0;
  // NDJSON lines go out in batches: one write per line costs more than checking a capture.
  let lines = "";
  try {
    await checkItems(
      items,
      options,
      workers,
      (outcome) => {
        summary.add(outcome);
        for (const report of outcome.reports) {
          if (options.json) lines += `${JSON.stringify(report)}\n`;
          if (report.usageError !== undefined) {
            progress.clear();
            warn(report.usageError);
          }
        }
        if (lines.length > 65536) {
          say(lines);
          lines = "";
        }
        progress.update(++done, summary.bytes, summary.invalid);
      },
      stop.signal,
    );
  } finally {
    process.off("SIGINT", interrupt);
  }
  const interrupted = stop.signal.aborted;
  if (interrupted) summary.interrupted = { after: done, of: items.length };
  progress.clear();
  say(lines);
  const durationMs = performance.now() - start;
  say(
    options.json
      ? `${JSON.stringify(summary.json(durationMs))}\n`
      : summary.text(style(useColor(options)), durationMs),
  );
  if (summary.invalid > 0) {
    warn(`${summary.invalid} of ${plural(summary.inputs, "input")} invalid`);
  }
  if (interrupted) {
    warn(`interrupted after ${done} of ${plural(items.length, "input")}`);
    // Whatever is still open (a stream's last read) must not keep the process.
    await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
    process.exit(130);
  }
  return summary.unreadable > 0 ? 2 : summary.invalid > 0 ? 1 : 0;
}

async function main(args: readonly string[]): Promise<number> {
  let options: Options;
  try {
    options = parseOptions(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return usageFailure(`${error.message} (see --help)`, args.includes("--json"));
  }
  if (options.help) {
    say(HELP);
    return 0;
  }
  if (options.version) {
    say(`ag-ui-verify ${version()}\n`);
    return 0;
  }
  // Notes are for the person at a terminal: piped, the output is the same for every --jobs.
  if (process.stderr.isTTY) for (const note of options.notes) warn(note);
  if (options.url === undefined && !oneCapture(options.paths)) return corpus(options);
  const path = options.paths[0] ?? "-";
  let result: Result;
  try {
    if (options.url !== undefined) result = await checkUrl(options.url, options);
    else if (path === "-") result = await checkStream(process.stdin, "-", options);
    else if (regular(path)) result = checkFile(path, options);
    else result = await checkStream(openStream(path), path, options); // a FIFO, /dev/stdin…
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return usageFailure(error.message, options.json);
  }
  if (options.json) say(`${JSON.stringify(jsonReport(result), null, 2)}\n`);
  else say(textReport(result, style(useColor(options))));
  const { error, position } = result;
  if (error === undefined) return 0;
  // The report above holds the message; this line, for logs, names the code alone.
  const where = position === undefined ? "" : `, line ${position.line}`;
  warn(
    `invalid stream (${shown(result.input, 1000)}${where}): ${error.code} (rule ${error.rule}) at index ${error.index}`,
  );
  return 1;
}

if (!isMainThread) serveWorker();
else {
  // A closed stdout (`| head`) is not worth a stack trace.
  process.stdout.on("error", () => {});
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      warn(`internal error: ${messageOf(error).replace(/\s+/g, " ")}`);
      process.exitCode = 2;
    },
  );
}
