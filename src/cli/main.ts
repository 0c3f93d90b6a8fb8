#!/usr/bin/env node
/**
 * The `ag-ui-verify` command: lints recorded AG-UI event streams (SSE or JSON Lines, from
 * files, HAR files or stdin) or a live agent endpoint, and reports every finding for people
 * or, with `--reporter`, for programs and CI. Exit status 0: no finding at or above
 * `--fail-on`; 1: one; 2: a usage or I/O problem.
 *
 * src/cli/ is the only part of src/ that touches `process` or the file system; the
 * library never imports from it. Built to dist/cli.js.
 * @module
 */

import { readFileSync, statSync } from "node:fs";
import process from "node:process";
import { isMainThread } from "node:worker_threads";
import type { LintedInput, ToolInfo } from "../report/formats-shared.ts";
import { invalidLine } from "../report/lint-text.ts";
import { plural } from "../report/render.ts";
import { escapeControls } from "../report/safe.ts";
import { Summary } from "../report/summary.ts";
import { lintOptions, type Options, parseOptions } from "./args.ts";
import { checkItems, serveWorker, startWorkers } from "./corpus.ts";
import { help, helpAll } from "./help.ts";
import { expand, forWorker } from "./inputs.ts";
import { Output, type ReportWriter, reportWriter, type WriterOptions } from "./output.ts";
import { messageOf, UsageError } from "./problems.ts";
import { lintFile, lintSource, openStream } from "./read.ts";
import { type RulesPage, rulesPage } from "./rules-page.ts";
import { lintUrl } from "./url.ts";

/** The package's package.json, next to dist/ (undefined when it cannot be read). */
function manifest(): unknown {
  try {
    return JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  } catch {
    return undefined;
  }
}

/** A string field of package.json. */
function field(name: string): string | undefined {
  const pkg = manifest();
  const value = typeof pkg === "object" && pkg !== null ? Reflect.get(pkg, name) : undefined;
  return typeof value === "string" ? value : undefined;
}

const version = (): string => field("version") ?? "unknown";

function useColor(options: Options, out: Output): boolean {
  const { NO_COLOR, FORCE_COLOR } = process.env;
  if (options.noColor || (NO_COLOR !== undefined && NO_COLOR !== "")) return false;
  if (FORCE_COLOR !== undefined) return FORCE_COLOR !== "0" && FORCE_COLOR !== "false";
  return out.terminal;
}

/** The tool as the reports name it: version, home page, where the rule pages are. */
function tool(rules: RulesPage): ToolInfo {
  const home = field("homepage");
  return {
    name: "ag-ui-verify",
    version: version(),
    ...(rules.url === undefined ? {} : { rulesUrl: rules.url }),
    ...(home === undefined ? {} : { informationUri: home }),
  };
}

/** How the report is written, for `options` (`single`: one input's full report). */
function writerOptions(options: Options, out: Output, single: boolean): WriterOptions {
  const cwd = process.cwd();
  const rules = rulesPage(options.rulesUrl, cwd);
  const color = useColor(options, out);
  // GitHub Actions sets it for each step; empty or unset, there is no step summary.
  const stepSummary =
    options.reporter === "github" ? process.env.GITHUB_STEP_SUMMARY || undefined : undefined;
  return {
    tool: tool(rules),
    rulesPage: rules.text,
    single,
    color,
    cwd,
    stepSummary,
    rulesUrl: options.rulesUrl,
  };
}

/**
 * Ends the report (the summary, the step summary), closes the output; false (after a line
 * on stderr) when the step summary could not be appended.
 */
function finish(writer: ReportWriter, out: Output, summary: Summary, ms: number): boolean {
  try {
    writer.end(summary, ms);
    return true;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    warn(error.message);
    return false;
  } finally {
    out.close();
  }
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

/**
 * The exit status: 2 when an input could not be read, 1 for a finding at --fail-on or
 * above (a line on stderr says so when only warnings fail it).
 */
function status(summary: Summary, options: Options): number {
  if (summary.unreadable > 0) return 2;
  const { errors, warnings } = summary.totals;
  if (options.failOn === "none") return 0;
  if (errors > 0) return 1;
  if (options.failOn !== "warning" || warnings === 0) return 0;
  warn(`${plural(warnings, "warning")}, and --fail-on warning`);
  return 1;
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
 * Lints many inputs: the report as they come (in input order), the summary at the end.
 * Ctrl-C (SIGINT) stops the work, prints the summary of what was handed on so far,
 * "interrupted after N of M inputs", and exits 130.
 */
async function corpus(options: Options, out: Output): Promise<number> {
  const start = performance.now();
  // One worker starts while the inputs are found (a walk can take as long); the rest once
  // they are known, no more than there are files.
  const early = options.paths.some((path) => path !== "-") ? startWorkers(1) : [];
  const items = expand(options.paths, options.extensions);
  const files = Math.min(options.jobs, items.filter(forWorker).length);
  const workers = [...early.slice(0, files), ...startWorkers(files - early.length)];
  for (const idle of early.slice(files)) void idle.terminate();
  const summary = new Summary();
  const writer = reportWriter(options.reporter, out, writerOptions(options, out, false));
  const progress = new Progress(items.length, process.stderr.isTTY === true);
  const stop = new AbortController();
  const interrupt = () => stop.abort();
  process.once("SIGINT", interrupt);
  let done = 0;
  try {
    await checkItems(
      items,
      lintOptions(options),
      workers,
      (outcome) => {
        summary.add(outcome);
        for (const input of outcome.inputs) {
          writer.input(input);
          if (input.problem !== undefined) {
            progress.clear();
            warn(
              input.url === undefined
                ? input.problem
                : `${input.name}: ${input.url}: ${input.problem}`,
            );
          }
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
  const ended = finish(writer, out, summary, performance.now() - start);
  if (summary.invalid > 0) {
    warn(`${summary.invalid} of ${plural(summary.inputs, "input")} invalid`);
  }
  if (interrupted) {
    warn(`interrupted after ${done} of ${plural(items.length, "input")}`);
    // Whatever is still open (a stream's last read) must not keep the process.
    await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
    process.exit(130);
  }
  return ended ? status(summary, options) : 2;
}

/** The one input of a run that has one: a file, stdin, a FIFO, or --url. */
async function one(options: Options): Promise<LintedInput> {
  const path = options.paths[0] ?? "-";
  const read = lintOptions(options);
  try {
    if (options.url !== undefined) return await lintUrl(options.url, options);
    if (path === "-") return await lintSource(process.stdin, "-", read);
    if (regular(path)) return lintFile(path, read);
    return await lintSource(openStream(path), path, read); // a FIFO, /dev/stdin…
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return { name: options.url ?? path, problem: error.message };
  }
}

async function main(args: readonly string[]): Promise<number> {
  let options: Options;
  try {
    options = parseOptions(args, rulesPage(undefined, process.cwd()).text);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return usageFailure(`${error.message} (see --help)`, args.includes("--json"));
  }
  if (options.help !== undefined) {
    const page = rulesPage(options.rulesUrl, process.cwd()).text;
    say(options.help === "all" ? helpAll(page) : help(page));
    return 0;
  }
  if (options.version) {
    say(`ag-ui-verify ${version()}\n`);
    return 0;
  }
  for (const line of options.deprecations) warn(line);
  // Notes are for the person at a terminal: piped, the output is the same for every --jobs.
  if (process.stderr.isTTY) for (const note of options.notes) warn(note);
  let out: Output;
  try {
    out = new Output(options.output);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return usageFailure(error.message, options.reporter === "ndjson");
  }
  if (options.url === undefined && !oneCapture(options.paths)) return corpus(options, out);
  const start = performance.now();
  const input = await one(options);
  const summary = new Summary();
  summary.add({ inputs: [input], skipped: 0 });
  const writer = reportWriter(options.reporter, out, writerOptions(options, out, true));
  writer.input(input);
  const ended = finish(writer, out, summary, performance.now() - start);
  if (input.problem !== undefined) warn(input.problem);
  else if (input.report !== undefined) {
    // The report holds the messages; this line, for logs, names the first error alone.
    const line = invalidLine({ ...input, report: input.report });
    if (line !== undefined) warn(line);
  }
  return ended ? status(summary, options) : 2;
}

if (!isMainThread) serveWorker();
else {
  // A closed stdout (`| head`) is not worth a stack trace.
  process.stdout.on("error", () => {});
  // Until main says otherwise: a run that ends without a verdict (a lost worker result)
  // must not look like success.
  process.exitCode = 2;
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
