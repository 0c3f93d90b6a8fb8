/**
 * The command line: flags parsed by `node:util` `parseArgs` (strict), checked, and the help.
 * @module
 */

import { parseArgs } from "node:util";
import type { Format } from "./check.ts";
import { RULES_IN_WORDS, wrap } from "./report.ts";

export const HELP = `ag-ui-verify: check that an AG-UI agent's event stream follows the protocol's rules

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

/** A problem with how the command was called, or with reading an input: exit 2. */
export class UsageError extends Error {}

export interface Options {
  readonly paths: readonly string[];
  readonly format: Format | undefined;
  readonly url: string | undefined;
  readonly input: string | undefined;
  readonly headers: readonly [string, string][];
  readonly allowSequentialRuns: boolean;
  readonly maxBufferSize: number | undefined;
  readonly json: boolean;
  readonly noColor: boolean;
  readonly help: boolean;
  readonly version: boolean;
}

const FLAGS = {
  format: { type: "string" },
  url: { type: "string" },
  input: { type: "string" },
  header: { type: "string", multiple: true },
  "allow-sequential-runs": { type: "boolean" },
  "max-buffer-size": { type: "string" },
  json: { type: "boolean" },
  "no-color": { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

/** parseArgs's errors, said the way the rest of the command speaks. */
function flagError(error: unknown): UsageError {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof Error ? Reflect.get(error, "code") : undefined;
  const quoted = /'([^']*)'/.exec(message)?.[1] ?? "";
  const flag = quoted.match(/--?[\w-]+/g)?.pop() ?? quoted;
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    return new UsageError(`unknown option ${JSON.stringify(flag)}`);
  }
  if (message.includes("does not take an argument"))
    return new UsageError(`${flag} takes no value`);
  if (message.includes("argument missing")) return new UsageError(`${flag} needs a value`);
  if (message.includes("ambiguous")) {
    return new UsageError(`${flag} needs a value (write ${flag}=-x for one that starts with -)`);
  }
  return new UsageError(message.split("\n")[0] ?? message);
}

function positiveInteger(flag: string, text: string): number {
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new UsageError(`${flag} must be a positive whole number, not ${text}`);
  }
  return n;
}

function header(text: string): [string, string] {
  const colon = text.indexOf(":");
  const name = text.slice(0, Math.max(colon, 0)).trim();
  const value = text.slice(colon + 1).trim();
  try {
    if (colon === -1 || name === "") throw new TypeError("no name");
    new Headers([[name, value]]);
  } catch {
    throw new UsageError(`--header ${JSON.stringify(text)} is not 'Name: value'`);
  }
  return [name, value];
}

/** The options, or a {@link UsageError} saying what is wrong with the command line. */
export function parseOptions(args: readonly string[]): Options {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof FLAGS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: [...args], options: FLAGS, strict: true, allowPositionals: true });
  } catch (error) {
    throw flagError(error);
  }
  const { values: v, positionals: paths } = parsed;
  const format = v.format;
  if (format !== undefined && format !== "sse" && format !== "jsonl") {
    throw new UsageError(`unknown format ${JSON.stringify(format)}; expected sse or jsonl`);
  }
  const options: Options = {
    paths,
    format,
    url: v.url,
    input: v.input,
    headers: (v.header ?? []).map(header),
    allowSequentialRuns: v["allow-sequential-runs"] === true,
    maxBufferSize:
      v["max-buffer-size"] === undefined
        ? undefined
        : positiveInteger("--max-buffer-size", v["max-buffer-size"]),
    json: v.json === true,
    noColor: v["no-color"] === true,
    help: v.help === true,
    version: v.version === true,
  };
  if (options.help || options.version) return options;
  if (options.url !== undefined) {
    if (paths.length > 0) throw new UsageError("give a capture or --url, not both");
    if (format !== undefined) throw new UsageError("--format is for captures, not --url");
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new UsageError(`--url ${JSON.stringify(options.url)} is not a URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new UsageError(`--url must be http or https, not ${url.protocol}`);
    }
    return options;
  }
  if (paths.length === 0)
    throw new UsageError("no input: give a capture file, - for stdin, or --url <url>");
  if (paths.length > 1) throw new UsageError(`one capture at a time; got ${paths.length}`);
  if (options.input !== undefined) throw new UsageError("--input needs --url");
  if (options.headers.length > 0) throw new UsageError("--header needs --url");
  return options;
}
