// The tables of SPEC.md (version 4) that tests need, parsed from spec/SPEC.md itself so the
// two cannot drift. Where a test needs a literal type (the event types, the codes), the
// table is also transcribed below, and the transcription is checked against the parse when
// this module loads: a SPEC edit that the transcription misses fails every suite that
// imports it, with the difference in the message. Never import these from src/ (nor src's
// own tables into tests): a wrong table in src must not pass its own tests.
import { readFileSync } from "node:fs";

const specUrl = new URL("../../spec/SPEC.md", import.meta.url);
const SPEC = readFileSync(specUrl, "utf8");
const LINES = SPEC.split("\n").map((line) => line.trimEnd());

// ---------------------------------------------------------------------------------------
// Reading SPEC.md.

function fail(what: string, detail: string): never {
  throw new Error(`test/support/spec-tables.ts: ${what} disagrees with spec/SPEC.md: ${detail}`);
}

/** The lines of the section under `heading` (an exact line), up to the next `##`/`###`. */
function section(heading: string): string[] {
  const start = LINES.indexOf(heading);
  if (start === -1) fail(heading, "no such heading");
  const rest = LINES.slice(start + 1);
  const end = rest.findIndex((line) => /^#{2,3} /.test(line));
  return end === -1 ? rest : rest.slice(0, end);
}

/** The body rows of the first Markdown table in `lines`, as trimmed cells. */
function tableRows(lines: readonly string[], where: string): string[][] {
  const table = lines.filter((line) => line.startsWith("|"));
  const header = table[0];
  if (header === undefined || !/^\|(-+\|)+$/.test(table[1] ?? "")) fail(where, "no table");
  const cells = (line: string) =>
    line
      .slice(1, -1)
      .split("|")
      .map((cell) => cell.trim());
  const width = cells(header).length;
  return table.slice(2).map((line) => {
    const row = cells(line);
    if (row.length !== width) fail(where, `a row of ${row.length} cells, not ${width}: ${line}`);
    return row;
  });
}

/** The `code`-quoted names in a cell, in order. */
const quoted = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? "");

/** Throws unless `actual` (the transcription) equals `parsed`, order included. */
function sameList(what: string, actual: readonly unknown[], parsed: readonly unknown[]): void {
  const show = (v: unknown) => (v === undefined ? "nothing" : JSON.stringify(v));
  const length = Math.max(actual.length, parsed.length);
  for (let i = 0; i < length; i++) {
    if (show(actual[i]) !== show(parsed[i])) {
      fail(what, `at position ${i} transcribed ${show(actual[i])}, SPEC says ${show(parsed[i])}`);
    }
  }
}

// ---------------------------------------------------------------------------------------
// §3: the event catalogue.

/*
 * §3.1: "A *recognised* type is one of the 31 current types of §3.2 (every row except the
 * deprecated THINKING_* row). The tag `subagentRunId` is read on every recognised type: when
 * present it MUST be a string (§4). On `SUBAGENT_*` events it is the subagent's own id and is
 * required. On run-level events (`RUN_STARTED`, `RUN_FINISHED`, `RUN_ERROR`) and
 * `MESSAGES_SNAPSHOT` the protocol defines no tag: the property is not read there at all,
 * whatever its value".
 *
 * §3.2: "Only the "Fields read" column is validated (§4)"; "tag" is `subagentRunId`
 * (O string, §3.1).
 */
const CATALOGUE = tableRows(section("### 3.2 Table"), "§3.2");

/** The 31 recognised event types of SPEC §3.2, in the table's order (THINKING_* excluded). */
export const EVENT_TYPES = [
  "RUN_STARTED",
  "RUN_FINISHED",
  "RUN_ERROR",
  "STEP_STARTED",
  "STEP_FINISHED",
  "TEXT_MESSAGE_START",
  "TEXT_MESSAGE_CONTENT",
  "TEXT_MESSAGE_END",
  "TEXT_MESSAGE_CHUNK",
  "TOOL_CALL_START",
  "TOOL_CALL_ARGS",
  "TOOL_CALL_END",
  "TOOL_CALL_CHUNK",
  "TOOL_CALL_RESULT",
  "REASONING_START",
  "REASONING_MESSAGE_START",
  "REASONING_MESSAGE_CONTENT",
  "REASONING_MESSAGE_END",
  "REASONING_MESSAGE_CHUNK",
  "REASONING_END",
  "REASONING_ENCRYPTED_VALUE",
  "ACTIVITY_SNAPSHOT",
  "ACTIVITY_DELTA",
  "STATE_SNAPSHOT",
  "STATE_DELTA",
  "MESSAGES_SNAPSHOT",
  "RAW",
  "CUSTOM",
  "SUBAGENT_STARTED",
  "SUBAGENT_FINISHED",
  "SUBAGENT_ERROR",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** The same 31 types, for membership tests. */
export const RECOGNISED: ReadonlySet<string> = new Set(EVENT_TYPES);

export function isEventType(type: string): type is EventType {
  return RECOGNISED.has(type);
}

/**
 * The deprecated THINKING_* row of §3.2: "treated exactly like an unknown type (§9.5)";
 * fields read: "— (not even the tag)".
 */
export const THINKING_TYPES = [
  "THINKING_START",
  "THINKING_END",
  "THINKING_TEXT_MESSAGE_START",
  "THINKING_TEXT_MESSAGE_CONTENT",
  "THINKING_TEXT_MESSAGE_END",
] as const;

/** The JSON type a read field must have (§3.2, §4). */
export type FieldKind = "string" | "boolean" | "object" | "array";

/** One top-level field the verifier reads: [name, required, JSON type]. */
export type FieldRead = readonly [name: string, required: boolean, kind: FieldKind];

/**
 * The JSON type of each word the "Fields read" column uses. §3.4: of `outcome` "it MUST be
 * an object (not null, not an array)".
 */
const KIND_OF_WORD: Readonly<Record<string, FieldKind>> = {
  string: "string",
  boolean: "boolean",
  object: "object",
  array: "array",
  RunFinishedOutcome: "object",
};

/** `name` R|O kind …, one entry of the "Fields read" column; undefined for a nested path. */
function fieldOf(entry: string, where: string): FieldRead | undefined {
  const m = /^`([^`]+)` ([RO]) (\w+)/.exec(entry);
  const kind = m === null ? undefined : KIND_OF_WORD[m[3] ?? ""];
  if (m === null || kind === undefined) fail(where, `unread entry of "Fields read": ${entry}`);
  const name = m[1] ?? "";
  // §3.2 lists nested content (`input.messages`) too; §3.3 and §3.4 describe it.
  return name.includes(".") ? undefined : [name, m[2] === "R", kind];
}

const TAG: FieldRead = ["subagentRunId", false, "string"];
const DRAFT_PREFIX = "with protocol draft also ";

/**
 * One "Fields read" cell: the fields read under protocol 1.1, the tag first (§4.1: "the tag
 * first, then the fields in the order §3.2 lists them"), and the fields protocol draft reads
 * after them.
 */
function parseFieldsRead(cell: string, where: string): [FieldRead[], FieldRead[]] {
  if (cell.startsWith("—")) return [[], []];
  const base: FieldRead[] = [];
  const draft: FieldRead[] = [];
  let tagged = false;
  for (const entry of cell.split("; ")) {
    if (entry === "tag") tagged = true;
    else if (entry.startsWith(DRAFT_PREFIX)) {
      for (const part of entry.slice(DRAFT_PREFIX.length).split(", ")) {
        const field = fieldOf(part, where);
        if (field !== undefined) draft.push(field);
      }
    } else {
      const field = fieldOf(entry, where);
      if (field !== undefined) base.push(field);
    }
  }
  return [tagged ? [TAG, ...base] : base, draft];
}

const parsedFields = new Map<string, [FieldRead[], FieldRead[]]>();
const parsedThinking: string[] = [];
for (const [typeCell = "", fieldsCell = ""] of CATALOGUE) {
  const names = quoted(typeCell);
  if (names.length === 1) {
    parsedFields.set(names[0] ?? "", parseFieldsRead(fieldsCell, `§3.2 ${typeCell}`));
  } else {
    // the THINKING_* row: "— (not even the tag)"
    if (!fieldsCell.startsWith("—")) fail("§3.2 THINKING_*", `reads ${fieldsCell}`);
    parsedThinking.push(...names);
  }
}
sameList("EVENT_TYPES (§3.2)", EVENT_TYPES, [...parsedFields.keys()]);
sameList("THINKING_TYPES (§3.2)", THINKING_TYPES, parsedThinking);

function readsOf(type: EventType, draft: boolean): readonly FieldRead[] {
  const fields = parsedFields.get(type);
  if (fields === undefined) fail("§3.2", `no row for ${type}`);
  return Object.freeze(draft ? fields[1] : fields[0]);
}

/**
 * The "Fields read" column of §3.2 under protocol 1.1 (the default), per recognised type,
 * top-level fields only, in the order they are checked (§4.1): the tag first, where the
 * type reads it, then the table's order. The nested content of `input`, `outcome` and
 * `messages` is described in §3.3 and §3.4. Run-level types and MESSAGES_SNAPSHOT read no
 * tag (§3.1); SUBAGENT_* read `subagentRunId` as a required field.
 */
export const FIELDS_READ: Readonly<Record<EventType, readonly FieldRead[]>> = Object.freeze(
  Object.fromEntries(EVENT_TYPES.map((type) => [type, readsOf(type, false)])) as Record<
    EventType,
    readonly FieldRead[]
  >,
);

/**
 * The fields §3.2 adds "with protocol draft also", per type (§9.14: "`RUN_STARTED` and
 * `RUN_FINISHED` read `threadId` and `runId` (R strings, §3.2)"), checked after the type's
 * FIELDS_READ. Types that read nothing more under draft are absent.
 */
export const DRAFT_FIELDS_READ: Readonly<Partial<Record<EventType, readonly FieldRead[]>>> =
  Object.freeze(
    Object.fromEntries(
      EVENT_TYPES.map((type) => [type, readsOf(type, true)] as const).filter(
        ([, fields]) => fields.length > 0,
      ),
    ),
  );

/** The top-level fields a type reads under `protocol` (§3.2, §9.14), in the order of §4.1. */
export function fieldsRead(type: EventType, protocol: "1.1" | "draft" = "1.1"): FieldRead[] {
  return [...FIELDS_READ[type], ...(protocol === "draft" ? (DRAFT_FIELDS_READ[type] ?? []) : [])];
}

/**
 * §3.1: "On run-level events (`RUN_STARTED`, `RUN_FINISHED`, `RUN_ERROR`) and
 * `MESSAGES_SNAPSHOT` the protocol defines no tag: the property is not read there at all,
 * whatever its value (1.1 strips an undescribed property; it is never an error)."
 */
export const UNTAGGED_TYPES: ReadonlySet<EventType> = new Set(
  EVENT_TYPES.filter((type) => !FIELDS_READ[type].some(([name]) => name === "subagentRunId")),
);
{
  const sentence = /On run-level events \(([^)]*)\) and (`\w+`) the protocol defines no tag/.exec(
    section("### 3.1 Common fields").join(" "),
  );
  if (sentence === null) fail("§3.1", "no sentence naming the untagged types");
  sameList("UNTAGGED_TYPES (§3.1, §3.2)", [...UNTAGGED_TYPES], quoted(sentence.slice(1).join()));
}

// ---------------------------------------------------------------------------------------
// §10.2: the codes.

/**
 * Every code of §10.2 and the rule it belongs to, in the table's order; SCHEMA_MISMATCH,
 * which §14 adds ("a rule 0 `VerifyError` with the new code **`SCHEMA_MISMATCH`**"), with
 * the other rule 0 codes. §10.2: "Version 4 removes `TOOL_CALL_RESULT_BEFORE_END` (now a
 * lint warning code, §18.5) and adds the two span codes and the three draft codes"; the
 * codes §20 and §21 add (§20.2, §21.2) are not listed here. No code belongs to rule 5
 * (§10.1: "0..13, never 5").
 */
export const RULE_OF_CODE = {
  INVALID_JSON: 0,
  SSE_BUFFER_OVERFLOW: 0,
  ID_LIMIT_EXCEEDED: 0,
  EVENT_NOT_OBJECT: 0,
  EVENT_TYPE_INVALID: 0,
  FIELD_MISSING: 0,
  FIELD_NULL: 0,
  FIELD_WRONG_TYPE: 0,
  SCHEMA_MISMATCH: 0,
  EVENT_BEFORE_RUN_STARTED: 1,
  RUN_ALREADY_STARTED: 1,
  STREAM_ENDED_BEFORE_RUN_STARTED: 1,
  EVENT_AFTER_RUN_CLOSED: 2,
  STREAM_ENDED_BEFORE_RUN_CLOSED: 2,
  TEXT_MESSAGE_ALREADY_OPEN: 3,
  TEXT_MESSAGE_NOT_OPEN: 3,
  TOOL_CALL_ALREADY_OPEN: 4,
  TOOL_CALL_NOT_OPEN: 4,
  REASONING_MESSAGE_ALREADY_OPEN: 4,
  REASONING_MESSAGE_NOT_OPEN: 4,
  REASONING_SPAN_ALREADY_OPEN: 4,
  REASONING_SPAN_NOT_OPEN: 4,
  STEP_ALREADY_ACTIVE: 6,
  STEP_NOT_STARTED: 6,
  OPEN_AT_RUN_FINISHED: 7,
  INTERRUPT_OUTCOME_EMPTY: 8,
  INTERRUPT_ID_DUPLICATE: 8,
  OWNER_MISMATCH: 9,
  TOOL_CALL_PARENT_OWNER_MISMATCH: 10,
  STEP_OWNER_MISMATCH: 11,
  SUBAGENT_ALREADY_ACTIVE: 12,
  SUBAGENT_ALREADY_FINISHED: 12,
  SUBAGENT_PARENT_NOT_STARTED: 12,
  SUBAGENT_NOT_ACTIVE: 12,
  SUBAGENT_OPEN_AT_RUN_FINISHED: 13,
  RUN_ID_MISMATCH: 2,
  THREAD_ID_MISMATCH: 2,
} as const;
{
  const parsed: [string, number][] = tableRows(section("### 10.2 Codes"), "§10.2").map(
    ([code = "", rule = ""]) => [quoted(code)[0] ?? code, Number(rule)],
  );
  // §14 adds SCHEMA_MISMATCH to rule 0; it is listed after §10.2's rule 0 codes.
  const schema = /a rule (\d+) `VerifyError` with the new code \*\*`SCHEMA_MISMATCH`\*\*/.exec(
    section("## 14. Schema check (opt-in)").join(" "),
  );
  if (schema === null) fail("§14", "no sentence adding SCHEMA_MISMATCH");
  const at = parsed.findIndex(([, rule]) => rule > 0);
  parsed.splice(at === -1 ? parsed.length : at, 0, ["SCHEMA_MISMATCH", Number(schema[1])]);
  sameList("RULE_OF_CODE (§10.2, §14)", Object.entries(RULE_OF_CODE), parsed);
}

export type Code = keyof typeof RULE_OF_CODE;

export function isCode(code: string): code is Code {
  return Object.hasOwn(RULE_OF_CODE, code);
}

/** The codes of §10.2, in the table's order. */
export const CODES: readonly Code[] = Object.keys(RULE_OF_CODE).filter(isCode);

/** The rule a code belongs to; undefined for a string that is no code of §10.2. */
export function ruleOfCode(code: string): number | undefined {
  return isCode(code) ? RULE_OF_CODE[code] : undefined;
}

// ---------------------------------------------------------------------------------------
// §4 and §7: the rules' titles.

/**
 * The title of each rule, 0–13, parsed from the headings: rule 0 from §4's
 * (`## 4. Rule 0: malformed input`), the others from §7's (`### Rule N — title`). Rule 5's
 * is "retired from the verifier (version 4)": no code belongs to it (§10.1).
 */
export const RULE_TITLES: readonly string[] = (() => {
  const titles: string[] = [];
  for (const line of LINES) {
    const m = /^## \d+\. Rule (\d+): (.+)$/.exec(line) ?? /^### Rule (\d+) — (.+)$/.exec(line);
    if (m === null) continue;
    const rule = Number(m[1]);
    if (rule !== titles.length) fail("RULE_TITLES (§4, §7)", `rule ${rule} after ${titles.length}`);
    titles.push(m[2] ?? "");
  }
  if (titles.length !== 14) fail("RULE_TITLES (§4, §7)", `${titles.length} rules, not 0–13`);
  return Object.freeze(titles);
})();

/** `Rule N — title`, the name of rule N's describe block in test/rules.test.ts. */
export function ruleHeading(rule: number): string {
  return `Rule ${rule} — ${RULE_TITLES[rule] ?? "?"}`;
}
