/**
 * The command line: flags parsed by `node:util` `parseArgs` (strict) and checked; a misspelt
 * flag, reporter or code gets the closest known one suggested. The help is in help.ts.
 * @module
 */

import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { VERIFY_ERROR_CODES } from "../errors.ts";
import { type Severity, WARNING_CODES } from "../lint/types.ts";
import { RULES_PAGE } from "../report/lint-text.ts";
import type { Format } from "../sse/json-lines.ts";
import { DEFAULT_EXTENSIONS } from "./inputs.ts";
import { UsageError } from "./problems.ts";
import type { ReadOptions } from "./read.ts";
import { rulesUrl } from "./rules-page.ts";
import { closest } from "./suggest.ts";

export interface Options {
  readonly paths: readonly string[];
  readonly format: Format | undefined;
  readonly url: string | undefined;
  readonly input: string | undefined;
  readonly headers: readonly [string, string][];
  readonly timeoutMs: number;
  readonly extensions: readonly string[];
  readonly jobs: number;
  /** `--protocol`: which protocol text decides (SPEC §9.14). */
  readonly protocol: "1.1" | "draft";
  readonly strict: boolean;
  readonly maxBufferSize: number | undefined;
  readonly maxIds: number | undefined;
  /** The report format (`--json` is `ndjson`). */
  readonly reporter: Reporter;
  /** `--output`: the file the report goes to, instead of stdout. */
  readonly output: string | undefined;
  readonly failOn: Severity | "none";
  /** `--severity` overrides, by code. */
  readonly severity: Readonly<Record<string, Severity | "off">>;
  readonly noColor: boolean;
  /** `--rules-url`: where the rule pages are (an absolute URL), instead of the packaged page. */
  readonly rulesUrl: string | undefined;
  /** `--help` (`"short"`) or `--help-all` (`"all"`). */
  readonly help: "short" | "all" | undefined;
  readonly version: boolean;
  /** What the command changed in what it was asked (a clamped --jobs), for stderr. */
  readonly notes: readonly string[];
  /** Deprecated flags given, one line each, always printed on stderr. */
  readonly deprecations: readonly string[];
}

/** The report formats of `--reporter`. */
export const REPORTERS = ["text", "ndjson", "junit", "sarif", "github", "html"] as const;
export type Reporter = (typeof REPORTERS)[number];

/** What every input is read and linted with, from the command line. */
export function lintOptions(options: Options): ReadOptions {
  return {
    format: options.format,
    protocol: options.protocol,
    strict: options.strict,
    maxBufferSize: options.maxBufferSize,
    maxIds: options.maxIds,
    severity: options.severity,
    // The HTML report draws the events: each input keeps them, bounded (SPEC §22).
    keepEvents: options.reporter === "html",
  };
}

/** The longest message --max-buffer-size may allow: 512 MiB. */
export const MAX_BUFFER_LIMIT = 512 * 1024 * 1024;

const FLAGS = {
  format: { type: "string" },
  url: { type: "string" },
  input: { type: "string" },
  header: { type: "string", multiple: true },
  timeout: { type: "string" },
  ext: { type: "string", multiple: true },
  jobs: { type: "string", short: "j" },
  "allow-sequential-runs": { type: "boolean" },
  protocol: { type: "string" },
  strict: { type: "boolean" },
  "max-buffer-size": { type: "string" },
  "max-ids": { type: "string" },
  json: { type: "boolean" },
  reporter: { type: "string" },
  output: { type: "string", short: "o" },
  "fail-on": { type: "string" },
  severity: { type: "string", multiple: true },
  "no-color": { type: "boolean" },
  "rules-url": { type: "string" },
  help: { type: "boolean", short: "h" },
  "help-all": { type: "boolean" },
  version: { type: "boolean", short: "v" },
} as const;

/** The long flags, as written: `--format`, …. */
const LONG_FLAGS: readonly string[] = Object.keys(FLAGS).map((name) => `--${name}`);

/**
 * `unknown option "--reportr"`, and the closest known flag when one is close. A long flag
 * written with one dash (`-reporter`, which parseArgs reads as `-r -e …`) is compared
 * whole, as it was meant.
 */
function unknownOption(flag: string, args: readonly string[]): UsageError {
  const word = /^-[^-]$/.test(flag)
    ? args.find((arg) => arg.startsWith(flag) && arg.length > 2 && !arg.startsWith("--"))
    : undefined;
  const name = word === undefined ? flag : `-${word.split("=")[0]}`;
  const near = closest(name, LONG_FLAGS);
  const shown = word === undefined ? flag : (word.split("=")[0] ?? flag);
  return new UsageError(
    `unknown option ${JSON.stringify(shown)}${near === undefined ? "" : `: did you mean ${near}?`}`,
  );
}

/** parseArgs's errors, said the way the rest of the command speaks. */
function flagError(error: unknown, args: readonly string[]): UsageError {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof Error ? Reflect.get(error, "code") : undefined;
  const quoted = /'([^']*)'/.exec(message)?.[1] ?? "";
  const flag = quoted.match(/--?[\w-]+/g)?.pop() ?? quoted;
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return unknownOption(flag, args);
  if (message.includes("does not take an argument"))
    return new UsageError(`${flag} takes no value`);
  if (message.includes("argument missing")) return new UsageError(`${flag} needs a value`);
  if (message.includes("ambiguous")) {
    return new UsageError(`${flag} needs a value (write ${flag}=-x for one that starts with -)`);
  }
  return new UsageError(message.split("\n")[0] ?? message);
}

/** A whole number from 1 to `max` (Infinity: any), or a {@link UsageError} naming the range. */
function positiveInteger(
  flag: string,
  text: string,
  max = Number.MAX_SAFE_INTEGER,
  unit = "",
): number {
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? "" : ` up to ${max}${unit}`;
    throw new UsageError(`${flag} must be a positive whole number${range}, not ${text}`);
  }
  return n;
}

/** --jobs: at least 1, at most the machine's available parallelism (with a note). */
function jobs(text: string | undefined, notes: string[]): number {
  const cores = availableParallelism();
  if (text === undefined) return cores;
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(n >= 1)) throw new UsageError(`--jobs must be a positive whole number, not ${text}`);
  if (n <= cores) return n;
  notes.push(`--jobs ${text} is more than the ${cores} available cores; checking ${cores} at once`);
  return cores;
}

/** --max-ids: a whole number from 1, or Infinity for no limit. */
function maxIds(text: string): number {
  if (/^infinity$/i.test(text)) return Number.POSITIVE_INFINITY;
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new UsageError(`--max-ids must be a positive whole number or Infinity, not ${text}`);
  }
  return n;
}

function seconds(flag: string, text: string): number {
  const n = /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
  if (!(n > 0)) throw new UsageError(`${flag} must be a positive number of seconds, not ${text}`);
  return n;
}

/** `--reporter`, and `--json` as its other name. */
function reporter(name: string | undefined, json: boolean): Reporter {
  if (name !== undefined && !(REPORTERS as readonly string[]).includes(name)) {
    const near = closest(name, REPORTERS);
    throw new UsageError(
      `unknown reporter ${JSON.stringify(name)}; expected one of ${REPORTERS.join(", ")}${near === undefined ? "" : `: did you mean ${near}?`}`,
    );
  }
  if (json && name !== undefined && name !== "ndjson") {
    throw new UsageError(`--json means --reporter ndjson, not ${name}: give one of them`);
  }
  return json ? "ndjson" : ((name as Reporter | undefined) ?? "text");
}

const CODES: ReadonlySet<string> = new Set<string>([...VERIFY_ERROR_CODES, ...WARNING_CODES]);

/**
 * The `--severity CODE=level` flags, by code (a later one for a code wins); an unknown code
 * is a usage error that names the closest code, or where the codes are (`rulesPage`).
 */
function severities(flags: readonly string[], rulesPage: string): Record<string, Severity | "off"> {
  const out: Record<string, Severity | "off"> = Object.create(null);
  for (const flag of flags) {
    for (const item of flag.split(",")) {
      const [code = "", level = "", ...rest] = item.trim().split("=");
      const name = code.trim().toUpperCase();
      if (!CODES.has(name)) {
        const near = closest(name, [...CODES]);
        const hint = near === undefined ? `the codes are in ${rulesPage}` : `did you mean ${near}?`;
        throw new UsageError(
          `--severity ${JSON.stringify(item)}: unknown code ${JSON.stringify(code)}; ${hint}`,
        );
      }
      const value = level.trim().toLowerCase();
      if (rest.length > 0 || (value !== "error" && value !== "warning" && value !== "off")) {
        throw new UsageError(
          `--severity ${JSON.stringify(item)}: expected CODE=error, CODE=warning or CODE=off`,
        );
      }
      out[name] = value;
    }
  }
  return out;
}

function protocol(text: string | undefined): "1.1" | "draft" {
  if (text === undefined || text === "1.1" || text === "draft") return text ?? "1.1";
  throw new UsageError(`--protocol must be 1.1 or draft, not ${JSON.stringify(text)}`);
}

function failOn(text: string | undefined): Severity | "none" {
  if (text === undefined) return "error";
  if (text === "error" || text === "warning" || text === "none") return text;
  throw new UsageError(`--fail-on must be error, warning or none, not ${JSON.stringify(text)}`);
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

/**
 * The options, or a {@link UsageError} saying what is wrong with the command line;
 * `rulesPage` is where its messages say the codes are.
 */
export function parseOptions(args: readonly string[], rulesPage: string = RULES_PAGE): Options {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof FLAGS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: [...args], options: FLAGS, strict: true, allowPositionals: true });
  } catch (error) {
    throw flagError(error, args);
  }
  const { values: v, positionals: paths } = parsed;
  const notes: string[] = [];
  const format = v.format;
  if (format !== undefined && format !== "sse" && format !== "jsonl" && format !== "proto") {
    throw new UsageError(`unknown format ${JSON.stringify(format)}; expected sse, jsonl or proto`);
  }
  const options: Options = {
    paths,
    format,
    url: v.url,
    input: v.input,
    headers: (v.header ?? []).map(header),
    timeoutMs: v.timeout === undefined ? 60_000 : seconds("--timeout", v.timeout) * 1000,
    extensions:
      v.ext === undefined
        ? DEFAULT_EXTENSIONS
        : v.ext
            .flatMap((list) => list.split(","))
            .map((ext) => ext.trim().replace(/^\./, "").toLowerCase()),
    jobs: jobs(v.jobs, notes),
    protocol: protocol(v.protocol),
    strict: v.strict === true,
    maxBufferSize:
      v["max-buffer-size"] === undefined
        ? undefined
        : positiveInteger(
            "--max-buffer-size",
            v["max-buffer-size"],
            MAX_BUFFER_LIMIT,
            " (512 MiB)",
          ),
    maxIds: v["max-ids"] === undefined ? undefined : maxIds(v["max-ids"]),
    reporter: reporter(v.reporter, v.json === true),
    output: v.output,
    failOn: failOn(v["fail-on"]),
    severity: severities(v.severity ?? [], rulesPage),
    noColor: v["no-color"] === true,
    rulesUrl: v["rules-url"] === undefined ? undefined : rulesUrl(v["rules-url"]),
    help: v["help-all"] === true ? "all" : v.help === true ? "short" : undefined,
    version: v.version === true,
    notes,
    deprecations:
      v["allow-sequential-runs"] === true
        ? [
            "--allow-sequential-runs is deprecated and ignored: several runs in one stream are always accepted (AG-UI 1.1)",
          ]
        : [],
  };
  if (options.help !== undefined || options.version) return options;
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
  if (paths.length === 0) {
    throw new UsageError(
      "no input: give captures (files or directories), - for stdin, or --url <url>",
    );
  }
  if (paths.filter((path) => path === "-").length > 1) {
    throw new UsageError("stdin (-) can be read only once");
  }
  if (options.output === "") throw new UsageError("--output needs a file name");
  if (options.extensions.includes(""))
    throw new UsageError("--ext needs extensions, such as sse,jsonl");
  if (options.input !== undefined) throw new UsageError("--input needs --url");
  if (options.headers.length > 0) throw new UsageError("--header needs --url");
  if (v.timeout !== undefined) throw new UsageError("--timeout needs --url");
  return options;
}
