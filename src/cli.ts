#!/usr/bin/env node
/**
 * The `ag-ui-verify` command: checks a recorded AG-UI event stream (SSE or JSON Lines, from
 * a file or stdin) or a live agent endpoint, and reports for people or, with `--json`, for
 * programs. Exit status 0: valid; 1: the stream breaks a rule; 2: a usage or I/O problem.
 *
 * This is the only file in src/ that touches `process` or the file system (through Node's
 * built-in modules, which Deno provides too); the library stays web-standard. It is built
 * to dist/cli.js and is not part of the library's entry point.
 * @module
 */

import { createReadStream, readFileSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import process from "node:process";
import { CaptureCheck, type CaptureFormat, concat, detectFormat, Tally } from "./capture.ts";
import { HttpError, runAgent } from "./client.ts";
import { isVerifyError, type VerifyError } from "./errors.ts";
import type { RunAgentInput } from "./events.ts";
import { type CheckResult, jsonReport, RULES_IN_WORDS, style, textReport, wrap } from "./report.ts";

const HELP = `ag-ui-verify: check that an AG-UI agent's event stream follows the protocol's rules

Usage:
  ag-ui-verify [options] <capture>    check a recorded stream (a file, or - for stdin)
  ag-ui-verify [options] --url <url> [--input <run-input.json>] [--header 'Name: value']...
                                      run an agent (POST) and check its events as they arrive

A capture is a response body as recorded (SSE: "data: {...}" lines, each message ended
by a blank line) or JSON Lines (one event per line). The format is detected from the
first character ("{" or "[" means JSON Lines); --format overrides.

Examples:
  ag-ui-verify examples/captures/chat.sse
  curl -sN -H 'content-type: application/json' -d @input.json https://agent.example/run | ag-ui-verify -
  ag-ui-verify --url https://agent.example/run --input input.json --header 'Authorization: Bearer TOKEN'
  ag-ui-verify --json capture.sse > report.json

Input:
  <capture>                  a file to check; - reads stdin
  --format sse|jsonl         read the capture as SSE or as JSON Lines, without detecting
  --url <url>                POST a RunAgentInput to this agent endpoint and check the answer
  --input <file>             the RunAgentInput (JSON) to POST; - reads stdin
                             (default: no messages, a new threadId and runId)
  --header 'Name: value'     an extra request header; repeat for more

Checking:
  --allow-sequential-runs    accept further runs after the first one closes
  --max-buffer-size <n>      the longest message (SSE) or line (JSON Lines) to accept, in
                             characters (default 10485760, 10 MiB)

Output:
  --json                     print one JSON object instead of the report (for programs, CI)
  --no-color                 no colours (also NO_COLOR=1; FORCE_COLOR=1 forces colours)
  -h, --help                 show this help
  -v, --version              show the version

Exit status:
  0  the stream is valid
  1  the stream breaks a rule; undecodable data and a stream cut off mid-run count too
  2  a usage or I/O problem: a bad flag, a missing file, an unreachable URL, an HTTP error

The rules (0-13):
${RULES_IN_WORDS.map((rule, i) => wrap(`${String(i).padStart(4)}. `, rule)).join("\n")}
`;

/** A problem with how the command was called, or with reading its input: exit 2. */
class UsageError extends Error {}

interface Options {
  path: string | undefined;
  format: CaptureFormat | undefined;
  url: string | undefined;
  input: string | undefined;
  headers: [string, string][];
  allowSequentialRuns: boolean;
  maxBufferSize: number | undefined;
  json: boolean;
  noColor: boolean;
  help: boolean;
  version: boolean;
}

const BOOLEAN_FLAGS = new Set([
  "--allow-sequential-runs",
  "--json",
  "--no-color",
  "--help",
  "-h",
  "--version",
  "-v",
]);
const VALUE_FLAGS = new Set(["--format", "--url", "--input", "--header", "--max-buffer-size"]);

function parseArgs(argv: readonly string[]): Options {
  const options: Options = {
    path: undefined,
    format: undefined,
    url: undefined,
    input: undefined,
    headers: [],
    allowSequentialRuns: false,
    maxBufferSize: undefined,
    json: false,
    noColor: false,
    help: false,
    version: false,
  };
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === "-" || !arg.startsWith("-")) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (BOOLEAN_FLAGS.has(name)) {
      if (eq !== -1) throw new UsageError(`${name} takes no value`);
      if (name === "--allow-sequential-runs") options.allowSequentialRuns = true;
      else if (name === "--json") options.json = true;
      else if (name === "--no-color") options.noColor = true;
      else if (name === "--help" || name === "-h") options.help = true;
      else options.version = true;
      continue;
    }
    if (!VALUE_FLAGS.has(name)) throw new UsageError(`unknown option ${JSON.stringify(arg)}`);
    let value: string;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      const next = argv[++i];
      if (next === undefined) throw new UsageError(`${name} needs a value`);
      value = next;
    }
    if (name === "--format") {
      if (value !== "sse" && value !== "jsonl") {
        throw new UsageError(`unknown format ${JSON.stringify(value)}; expected sse or jsonl`);
      }
      options.format = value;
    } else if (name === "--url") options.url = value;
    else if (name === "--input") options.input = value;
    else if (name === "--header") options.headers.push(parseHeader(value));
    else {
      const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
      if (!Number.isSafeInteger(n) || n < 1) {
        throw new UsageError(`--max-buffer-size must be a positive whole number, not ${value}`);
      }
      options.maxBufferSize = n;
    }
  }
  if (options.help || options.version) return options;
  if (positionals.length > 1) {
    throw new UsageError(`one capture at a time; got ${positionals.length}`);
  }
  options.path = positionals[0];
  if (options.url !== undefined) {
    if (options.path !== undefined) throw new UsageError("give a capture or --url, not both");
    if (options.format !== undefined) throw new UsageError("--format is for captures, not --url");
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new UsageError(`--url ${JSON.stringify(options.url)} is not a URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new UsageError(`--url must be http or https, not ${url.protocol}`);
    }
  } else {
    if (options.path === undefined) {
      throw new UsageError("no input: give a capture file, - for stdin, or --url <url>");
    }
    if (options.input !== undefined) throw new UsageError("--input needs --url");
    if (options.headers.length > 0) throw new UsageError("--header needs --url");
  }
  return options;
}

function parseHeader(text: string): [string, string] {
  const colon = text.indexOf(":");
  const name = colon === -1 ? "" : text.slice(0, colon).trim();
  const value = colon === -1 ? "" : text.slice(colon + 1).trim();
  try {
    if (name === "") throw new TypeError("no name");
    new Headers([[name, value]]);
  } catch {
    throw new UsageError(`--header ${JSON.stringify(text)} is not 'Name: value'`);
  }
  return [name, value];
}

// ---------------------------------------------------------------------------------------
// Reading

/** A one-line message for a failed file operation. */
function ioMessage(error: unknown, what: string): string {
  const code = errorCode(error);
  const reasons: Record<string, string> = {
    ENOENT: "no such file",
    EISDIR: "it is a directory",
    EACCES: "permission denied",
    EPERM: "permission denied",
    ENOTDIR: "a part of the path is not a directory",
  };
  const reason = (code !== undefined && reasons[code]) || oneLine(messageOf(error));
  return `cannot read ${what}: ${reason}`;
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = Reflect.get(error, "code");
  return typeof code === "string" ? code : undefined;
}

function messageOf(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return "an unprintable error";
  }
}

function oneLine(text: string, max = 300): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max)}…`;
}

/** A progress line on stderr for long inputs, when stderr is a terminal. */
class Progress {
  readonly #enabled: boolean;
  readonly #total: number | undefined;
  readonly #label: string;
  readonly #start = performance.now();
  #last = 0;
  #shown = false;

  constructor(enabled: boolean, label: string, total?: number) {
    this.#enabled = enabled;
    this.#label = label;
    this.#total = total;
  }

  update(bytes: number, events: number): void {
    if (!this.#enabled) return;
    const now = performance.now();
    // Quiet for short inputs; then at most ten updates a second.
    if (now - this.#start < 500 || now - this.#last < 100) return;
    this.#last = now;
    const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
    const of =
      this.#total === undefined || this.#total === 0
        ? ""
        : ` of ${mib(this.#total)} (${Math.floor((bytes / this.#total) * 100)}%)`;
    const text = `${events.toLocaleString("en-US")} events, ${mib(bytes)}${of}: ${this.#label}`;
    process.stderr.write(`\r\u001b[K${text.slice(0, (process.stderr.columns || 80) - 1)}`);
    this.#shown = true;
  }

  clear(): void {
    if (this.#shown) process.stderr.write("\r\u001b[K");
    this.#shown = false;
  }
}

let progress: Progress | undefined;

const SNIFF_BYTES = 64 * 1024;

/** Checks a capture read from `source`, streaming it chunk by chunk. */
async function checkCapture(
  source: AsyncIterable<unknown>,
  name: string,
  options: Options,
  size: number | undefined,
): Promise<CheckResult> {
  const start = performance.now();
  const tally = new Tally();
  const verifyOptions = {
    allowSequentialRuns: options.allowSequentialRuns,
    maxBufferSize: options.maxBufferSize,
  };
  progress = new Progress(process.stderr.isTTY === true, name, size);
  let format = options.format;
  let check: CaptureCheck | undefined;
  let sniffed: Uint8Array[] = [];
  let sniffedBytes = 0;
  let error: VerifyError | undefined;
  const utf8 = new TextEncoder();
  try {
    try {
      for await (const raw of source) {
        const chunk = raw instanceof Uint8Array ? raw : utf8.encode(String(raw));
        if (check === undefined) {
          // Hold the first bytes until they show the format (or are plenty).
          sniffed.push(chunk);
          sniffedBytes += chunk.length;
          format ??= detectFormat(concat(sniffed));
          if (format === undefined && sniffedBytes < SNIFF_BYTES) continue;
          check = new CaptureCheck(format ?? "sse", verifyOptions, tally);
          check.push(concat(sniffed));
          sniffed = [];
        } else {
          check.push(chunk);
        }
        progress.update(check.bytes, tally.events);
      }
    } catch (thrown) {
      if (isVerifyError(thrown)) throw thrown;
      throw new UsageError(ioMessage(thrown, name === "-" ? "stdin" : JSON.stringify(name)));
    }
    if (check === undefined) {
      const bytes = concat(sniffed);
      check = new CaptureCheck(format ?? detectFormat(bytes) ?? "sse", verifyOptions, tally);
      if (bytes.length > 0) check.push(bytes);
    }
    check.finish();
  } catch (thrown) {
    if (!isVerifyError(thrown)) throw thrown;
    error = thrown;
  } finally {
    progress.clear();
  }
  return {
    input: name,
    format: check?.format ?? format ?? "sse",
    tally,
    bytes: check?.bytes ?? sniffedBytes,
    durationMs: performance.now() - start,
    error,
    position: error === undefined ? undefined : check?.position,
    unterminated: check?.unterminated,
  };
}

async function checkFile(path: string, options: Options): Promise<CheckResult> {
  if (path === "-") return checkCapture(process.stdin, "-", options, undefined);
  let size: number;
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw Object.assign(new Error("directory"), { code: "EISDIR" });
    size = info.size;
  } catch (error) {
    throw new UsageError(ioMessage(error, JSON.stringify(path)));
  }
  return checkCapture(createReadStream(path, { highWaterMark: 64 * 1024 }), path, options, size);
}

function isRunAgentInput(value: unknown): value is RunAgentInput {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

async function readInput(path: string | undefined): Promise<RunAgentInput> {
  if (path === undefined) {
    return {
      threadId: `thread-${crypto.randomUUID()}`,
      runId: `run-${crypto.randomUUID()}`,
      messages: [],
      tools: [],
      context: [],
      state: {},
      forwardedProps: {},
    };
  }
  let text: string;
  try {
    if (path === "-") {
      const chunks: Uint8Array[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk);
      text = new TextDecoder().decode(concat(chunks));
    } else {
      text = await readFile(path, "utf8");
    }
  } catch (error) {
    throw new UsageError(ioMessage(error, `--input ${JSON.stringify(path)}`));
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--input ${JSON.stringify(path)} is not JSON: ${messageOf(error)}`);
  }
  if (!isRunAgentInput(value)) {
    throw new UsageError(
      `--input ${JSON.stringify(path)} must hold a JSON object (a RunAgentInput)`,
    );
  }
  return value;
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** Runs the agent at `url` and checks its events as they arrive. */
async function checkUrl(url: string, options: Options): Promise<CheckResult> {
  const input = await readInput(options.input);
  const tally = new Tally();
  progress = new Progress(process.stderr.isTTY === true, url);
  const bar = progress;
  let bytes = 0;
  // Counts the body's bytes on their way to the library's decoder.
  const counting = async (request: Request): Promise<Response> => {
    const response = await fetch(request);
    if (response.body === null || NULL_BODY_STATUSES.has(response.status)) return response;
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          bytes += chunk.byteLength;
          bar.update(bytes, tally.events);
          controller.enqueue(chunk);
        },
      }),
    );
    const { status, statusText, headers } = response;
    return new Response(body, { status, statusText, headers });
  };
  const start = performance.now();
  let error: VerifyError | undefined;
  try {
    let events: Awaited<ReturnType<typeof runAgent>>;
    try {
      events = await runAgent(url, input, {
        fetch: counting,
        headers: options.headers,
        allowSequentialRuns: options.allowSequentialRuns,
        maxBufferSize: options.maxBufferSize,
      });
    } catch (thrown) {
      if (thrown instanceof HttpError) throw new UsageError(oneLine(thrown.message));
      throw new UsageError(`cannot reach ${url}: ${causeOf(thrown)}`);
    }
    try {
      for await (const event of events) tally.accept(event);
    } catch (thrown) {
      if (!isVerifyError(thrown)) {
        throw new UsageError(
          `the connection to ${url} failed after ${tally.events} events: ${causeOf(thrown)}`,
        );
      }
      error = thrown;
    }
  } finally {
    bar.clear();
  }
  return { input: url, format: "url", tally, bytes, durationMs: performance.now() - start, error };
}

/** The innermost message of a network error (`fetch failed` says little by itself). */
function causeOf(error: unknown): string {
  let message = messageOf(error);
  let current = error;
  for (let depth = 0; depth < 5; depth++) {
    const cause = current instanceof Error ? current.cause : undefined;
    if (cause === undefined) break;
    message = messageOf(cause);
    current = cause;
  }
  return oneLine(message);
}

// ---------------------------------------------------------------------------------------

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
  const env = process.env;
  if (options.noColor || (env.NO_COLOR !== undefined && env.NO_COLOR !== "")) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force !== "false";
  return process.stdout.isTTY === true;
}

function say(text: string): void {
  process.stdout.write(text);
}

/** The one-line message on stderr, and for --json the usage-error object on stdout. */
function usageFailure(message: string, json: boolean): number {
  if (json) say(`${JSON.stringify({ valid: false, usageError: message })}\n`);
  process.stderr.write(`ag-ui-verify: ${message}\n`);
  return 2;
}

async function main(argv: readonly string[]): Promise<number> {
  const json = argv.includes("--json");
  let options: Options;
  try {
    options = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return usageFailure(`${error.message} (see --help)`, json);
  }
  if (options.help) {
    say(HELP);
    return 0;
  }
  if (options.version) {
    say(`ag-ui-verify ${version()}\n`);
    return 0;
  }
  let result: CheckResult;
  try {
    result =
      options.url !== undefined
        ? await checkUrl(options.url, options)
        : await checkFile(options.path ?? "-", options);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return usageFailure(error.message, options.json);
  }
  if (options.json) say(`${JSON.stringify(jsonReport(result), null, 2)}\n`);
  else say(textReport(result, style(useColor(options))));
  const { error, position } = result;
  if (error === undefined) return 0;
  const where = position === undefined ? "" : `, line ${position.line}`;
  process.stderr.write(
    `ag-ui-verify: invalid stream (${result.input}${where}): ${error.message}\n`,
  );
  return 1;
}

// A closed stdout (`| head`) is not worth a stack trace.
process.stdout.on("error", () => {});
process.on("SIGINT", () => {
  progress?.clear();
  process.exit(130);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    progress?.clear();
    process.stderr.write(`ag-ui-verify: internal error: ${oneLine(messageOf(error))}\n`);
    process.exitCode = 2;
  },
);
