/**
 * `--reporter sarif` (SPEC §18.3): SARIF 2.1.0, one run, one rule per code that occurs, one
 * result per finding, located at the input's path (and line, when known). Inputs that could
 * not be read are the invocation's notifications. Library code: no I/O.
 *
 * The types below are the part of SARIF this report writes (a test checks them against
 * `@types/sarif`), so the library needs no SARIF package.
 * @module
 */

import type { Finding } from "../lint/types.ts";
import {
  describeCode,
  jsonText,
  type LintedInput,
  outcomeOf,
  plural,
  ruleUrl,
  type ToolInfo,
  WARNING_DEFAULTS,
  wellFormed,
} from "./formats-shared.ts";

/** A SARIF message: plain text. */
export interface SarifMessage {
  readonly text: string;
}

/** Where a result or notification is: the input's path, and the line when known. */
export interface SarifLocation {
  readonly physicalLocation: {
    readonly artifactLocation: { readonly uri: string };
    readonly region?: { readonly startLine: number };
  };
  /** A HAR entry's URL. */
  readonly message?: SarifMessage;
}

/** One rule of the driver: a code. */
export interface SarifRule {
  readonly id: string;
  readonly shortDescription: SarifMessage;
  readonly helpUri?: string;
  readonly defaultConfiguration: { readonly level: "error" | "warning" };
}

/** One finding. */
export interface SarifResult {
  readonly ruleId: string;
  readonly ruleIndex: number;
  readonly level: "error" | "warning";
  readonly message: SarifMessage;
  readonly locations: SarifLocation[];
  /** The finding's events: first and last index, how many, the event type and field. */
  readonly properties: {
    readonly index: number;
    readonly lastIndex: number;
    readonly count: number;
    readonly eventType?: string;
    readonly field?: string;
    readonly offset?: number;
  };
}

/** A problem of the run itself: an input not read, or findings past maxFindings. */
export interface SarifNotification {
  readonly level: "error" | "note";
  readonly message: SarifMessage;
  readonly locations: SarifLocation[];
}

/** The log: one run. */
export interface SarifLog {
  readonly $schema: string;
  readonly version: "2.1.0";
  readonly runs: [
    {
      readonly tool: {
        readonly driver: {
          readonly name: string;
          readonly version: string;
          readonly informationUri?: string;
          readonly rules: SarifRule[];
        };
      };
      readonly invocations: [
        {
          readonly executionSuccessful: boolean;
          readonly toolExecutionNotifications?: SarifNotification[];
        },
      ];
      readonly results: SarifResult[];
    },
  ];
}

/** The schema a SARIF 2.1.0 log names. */
export const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";

/** An absolute path's root (`""` for `/`, `C:` for a drive) and its segments, `.` and `..` resolved. */
function absolute(path: string): { root: string; parts: string[] } | undefined {
  const slashed = path.replaceAll("\\", "/");
  const drive = /^[A-Za-z]:\//.test(slashed);
  if (!drive && !slashed.startsWith("/")) return undefined;
  const parts: string[] = [];
  for (const part of slashed.slice(drive ? 3 : 1).split("/")) {
    if (part === "..") parts.pop();
    else if (part !== "" && part !== ".") parts.push(part);
  }
  return { root: drive ? slashed.slice(0, 2).toUpperCase() : "", parts };
}

/**
 * `path` relative to the directory `dir` (`/` or `\` separated), when both are absolute and
 * the path lies below it; undefined otherwise. Plain string work: no file system, so no
 * symbolic link is followed. A drive letter path compares without case, as Windows does.
 */
export function relativePath(path: string, dir: string): string | undefined {
  const file = absolute(path);
  const base = absolute(dir);
  if (file === undefined || base === undefined || file.root !== base.root) return undefined;
  if (file.parts.length <= base.parts.length) return undefined;
  const same =
    file.root === ""
      ? (a: string, b: string | undefined) => a === b
      : (a: string, b: string | undefined) => a.toLowerCase() === b?.toLowerCase();
  if (!base.parts.every((part, i) => same(part, file.parts[i]))) return undefined;
  return file.parts.slice(base.parts.length).join("/");
}

/**
 * A path as a URI reference: forward slashes, each segment percent-encoded as UTF-8 (so
 * `:`, `?`, `#`, `%`, spaces and control characters cannot change what it means; a lone
 * surrogate, which UTF-8 cannot hold, as U+FFFD). A relative path stays relative; an
 * absolute one becomes relative to `workingDirectory` when it lies below it (SPEC §18.3),
 * and otherwise a `file:` URI (`/x`, `C:\x`).
 */
export function artifactUri(path: string, workingDirectory?: string): string {
  const encoded = (p: string) => p.split("/").map(encodeURIComponent).join("/");
  const inside =
    workingDirectory === undefined
      ? undefined
      : relativePath(wellFormed(path), wellFormed(workingDirectory));
  if (inside !== undefined) return encoded(inside);
  const slashed = wellFormed(path).replaceAll("\\", "/");
  if (/^[A-Za-z]:\//.test(slashed))
    return `file:///${slashed.slice(0, 2)}${encoded(slashed.slice(2))}`;
  if (slashed.startsWith("/")) return `file://${encoded(slashed)}`;
  return encoded(slashed);
}

/** How the SARIF log is written, beyond the inputs and the tool. */
export interface SarifOptions {
  /**
   * The working directory (absolute): an input's absolute path below it is written
   * relative to it, as SARIF consumers (GitHub code scanning) expect.
   */
  readonly workingDirectory?: string | undefined;
}

/**
 * The location of `input`, at `line` when it is a line number of the file (a HAR entry's
 * lines are its body's, not the HAR file's: none).
 */
function locationOf(input: LintedInput, options: SarifOptions, line?: number): SarifLocation {
  const artifactLocation = { uri: artifactUri(input.name, options.workingDirectory) };
  // A protobuf input's `line` counts frames, not lines of the file: no region.
  const region =
    input.url === undefined &&
    input.report?.input?.format !== "proto" &&
    line !== undefined &&
    Number.isSafeInteger(line) &&
    line >= 1;
  return {
    physicalLocation: region
      ? { artifactLocation, region: { startLine: line } }
      : { artifactLocation },
    ...(input.url === undefined ? {} : { message: { text: input.url } }),
  };
}

function resultOf(
  input: LintedInput,
  f: Finding,
  ruleIndex: number,
  options: SarifOptions,
): SarifResult {
  return {
    ruleId: f.code,
    ruleIndex,
    level: f.severity === "error" ? "error" : "warning",
    message: { text: f.message },
    locations: [locationOf(input, options, f.line)],
    properties: {
      index: f.index,
      lastIndex: f.lastIndex,
      count: f.count,
      ...(f.eventType === undefined ? {} : { eventType: f.eventType }),
      ...(f.field === undefined ? {} : { field: f.field }),
      ...(f.offset === undefined ? {} : { offset: f.offset }),
    },
  };
}

/** The SARIF log of `inputs`, as an object (see {@link sarif} for its text). */
export function sarifLog(
  inputs: readonly LintedInput[],
  tool: ToolInfo,
  options: SarifOptions = {},
): SarifLog {
  const rules: SarifRule[] = [];
  const ruleIndex = new Map<string, number>();
  const results: SarifResult[] = [];
  const notifications: SarifNotification[] = [];
  let unreadable = 0;
  for (const input of inputs) {
    const outcome = outcomeOf(input);
    if (outcome.problem !== undefined) {
      unreadable++;
      notifications.push({
        level: "error",
        message: { text: outcome.problem },
        locations: [locationOf(input, options)],
      });
      continue;
    }
    for (const f of outcome.report.findings) {
      let index = ruleIndex.get(f.code);
      if (index === undefined) {
        index = rules.length;
        ruleIndex.set(f.code, index);
        const helpUri = ruleUrl(tool, f.code);
        rules.push({
          id: f.code,
          shortDescription: { text: describeCode(f.code) },
          ...(helpUri === undefined ? {} : { helpUri }),
          defaultConfiguration: { level: WARNING_DEFAULTS.has(f.code) ? "warning" : "error" },
        });
      }
      results.push(resultOf(input, f, index, options));
    }
    if (outcome.report.omitted > 0) {
      const more = plural(outcome.report.omitted, "more finding");
      notifications.push({
        level: "note",
        message: { text: `${more} past maxFindings, not reported` },
        locations: [locationOf(input, options)],
      });
    }
  }
  return {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: tool.name,
            version: tool.version,
            ...(tool.informationUri === undefined ? {} : { informationUri: tool.informationUri }),
            rules,
          },
        },
        invocations: [
          {
            executionSuccessful: unreadable === 0,
            ...(notifications.length === 0 ? {} : { toolExecutionNotifications: notifications }),
          },
        ],
        results,
      },
    ],
  };
}

/** The SARIF 2.1.0 log of `inputs`: JSON text, indented, ending with a line feed. */
export function sarif(
  inputs: readonly LintedInput[],
  tool: ToolInfo,
  options: SarifOptions = {},
): string {
  return `${jsonText(sarifLog(inputs, tool, options), 2)}\n`;
}
