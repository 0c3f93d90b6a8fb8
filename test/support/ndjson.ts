// The NDJSON report's shape (`--reporter ndjson`, src/report/ndjson.ts), as the tests of the
// command expect it: written out here once, so a change to the format is one change here.

/** The keys of an input's line, in order (a HAR entry's `url` comes after `name`). */
export const INPUT_KEYS = [
  "name",
  "valid",
  "errors",
  "warnings",
  "omitted",
  "events",
  "input",
  "findings",
] as const;

/** The keys of a finding, in order. */
export const FINDING_KEYS = [
  "code",
  "severity",
  "rule",
  "index",
  "lastIndex",
  "count",
  "eventType",
  "field",
  "message",
  "line",
  "offset",
] as const;

/** The keys of the summary line's object, in order. */
export const SUMMARY_KEYS = [
  "inputs",
  "valid",
  "invalid",
  "unreadable",
  "errors",
  "warnings",
  "byCode",
  "skippedHarEntries",
  "bytes",
  "durationMs",
  "codes",
  "problems",
  "largest",
] as const;

/** The line of an input that could not be read. */
export function unreadableLine(name: string, problem: string, url?: string) {
  return {
    name,
    ...(url === undefined ? {} : { url }),
    valid: false,
    errors: 0,
    warnings: 0,
    omitted: 0,
    events: 0,
    findings: [],
    problem,
  };
}
