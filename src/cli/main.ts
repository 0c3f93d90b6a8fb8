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

import { readFileSync } from "node:fs";
import process from "node:process";
import { HELP, type Options, parseOptions, UsageError } from "./args.ts";
import { checkFile, checkStream, messageOf } from "./read.ts";
import { jsonReport, type Result, style, textReport } from "./report.ts";
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

/** The one-line message on stderr, and for --json the usage-error object on stdout. */
function usageFailure(message: string, json: boolean): number {
  if (json) say(`${JSON.stringify({ valid: false, usageError: message })}\n`);
  process.stderr.write(`ag-ui-verify: ${message}\n`);
  return 2;
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
  const path = options.paths[0] ?? "-";
  let result: Result;
  try {
    if (options.url !== undefined) result = await checkUrl(options.url, options);
    else if (path === "-") result = await checkStream(process.stdin, "-", options);
    else result = checkFile(path, options);
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

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `ag-ui-verify: internal error: ${messageOf(error).replace(/\s+/g, " ")}\n`,
    );
    process.exitCode = 2;
  },
);
