// The machine-readable report formats of SPEC §18.3 (JUnit, SARIF, GitHub workflow
// commands, NDJSON) as pure functions of linted inputs: exact outputs on small cases, every
// piece of input text escaped for its format (hostile paths, URLs and messages: `%`, `:`,
// `,`, CR, LF, ESC, `<&"'>`, lone surrogates, 10 KB), and one input against many.
// The schema validations (xmllint, ajv) are in test/runtimes/report-validate.test.ts.
import type * as Sarif from "sarif";
import { describe, expect, it } from "vitest";
import { type Finding, type LintReport, lint } from "../src/lint/index.ts";
import {
  CODE_DESCRIPTIONS,
  type LintedInput,
  printable,
  type ToolInfo,
  totals,
  wellFormed,
} from "../src/report/formats-shared.ts";
import { commandMessage, commandProperty, github } from "../src/report/github.ts";
import { junit, xmlAttribute, xmlText } from "../src/report/junit.ts";
import { ndjson } from "../src/report/ndjson.ts";
import { artifactUri, sarif, sarifLog } from "../src/report/sarif.ts";

const TOOL: ToolInfo = { name: "ag-ui-verify", version: "1.2.3" };
const TOOL_RULES: ToolInfo = { ...TOOL, rulesUrl: "https://example.test/docs/rules.md" };

const RUN = { type: "RUN_STARTED", threadId: "t1", runId: "r1" };
const END = { type: "RUN_FINISHED", threadId: "t1", runId: "r1" };
const content = (delta: string) => ({ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta });

/** A finding written by hand: an error of rule 0 at event 0 unless told otherwise. */
function finding(over: Partial<Finding> & Pick<Finding, "code" | "message">): Finding {
  return {
    severity: "error",
    rule: 0,
    index: 0,
    lastIndex: 0,
    count: 1,
    eventType: undefined,
    field: undefined,
    ...over,
  };
}

/** A report of `findings`, its counts and verdict made from them. */
function reportOf(findings: Finding[], over: Partial<LintReport> = {}): LintReport {
  const errors = findings.filter((f) => f.severity === "error").length;
  return {
    findings,
    errors,
    warnings: findings.length - errors,
    omitted: 0,
    valid: errors === 0,
    events: 10,
    ...over,
  };
}

// Real reports from the linter.
const VALID = lint([RUN, END]);
const NOT_OPEN = lint([RUN, content("a"), content("b"), END]);
const NOT_OPEN_MESSAGE =
  'TEXT_MESSAGE_CONTENT at index 1: text message "m1" is not open; expected its start first. [TEXT_MESSAGE_NOT_OPEN, rule 3]';

// Handwritten reports: several findings with lines, warnings only.
const SEVERAL = reportOf([
  finding({
    code: "FIELD_MISSING",
    index: 1,
    lastIndex: 1,
    eventType: "TEXT_MESSAGE_START",
    field: "messageId",
    message: "messageId is missing",
    line: 4,
    offset: 40,
  }),
  finding({
    code: "TOOL_CALL_ARGS_NOT_JSON",
    severity: "warning",
    rule: undefined,
    index: 3,
    lastIndex: 3,
    message: "args are not JSON",
    line: 9,
  }),
  finding({
    code: "EVENT_AFTER_RUN_CLOSED",
    rule: 2,
    index: 5,
    lastIndex: 8,
    count: 4,
    message: "the run is closed",
    line: 14,
  }),
]);
const WARNINGS_ONLY = reportOf([
  finding({
    code: "RUN_ID_MISMATCH",
    severity: "warning",
    rule: undefined,
    index: 2,
    lastIndex: 2,
    message: "runId r2 is not r1",
  }),
]);

const MIXED: LintedInput[] = [
  { name: "ok.sse", report: VALID },
  { name: "dir/several.sse", report: SEVERAL },
  { name: "warn.jsonl", report: WARNINGS_ONLY },
  { name: "gone.sse", problem: "cannot read gone.sse: no such file" },
  { name: "caps.har", url: "https://agent.test/run?a=1&b=2", report: NOT_OPEN },
];

/** Every kind of text an input can carry that a format must escape. */
const HOSTILE = "a%b:c,d\re\nf\x1b[31mg<&\"'>h\ud800i\udc00j\x00k\x7f\x9bl\u2028m\tn";
const BIG = `${"x".repeat(10_240)}${HOSTILE}`;
const HOSTILE_REPORT = reportOf([
  finding({
    code: "FIELD_WRONG_TYPE",
    eventType: HOSTILE,
    field: HOSTILE,
    message: HOSTILE,
    line: 3,
  }),
  finding({
    code: "SSE_LINE_IGNORED",
    severity: "warning",
    rule: undefined,
    index: 1,
    lastIndex: 1,
    message: BIG,
  }),
]);
const HOSTILE_INPUTS: LintedInput[] = [
  { name: `dir/${HOSTILE}.sse`, url: `https://h.test/${HOSTILE}`, report: HOSTILE_REPORT },
  { name: `gone${HOSTILE}`, problem: HOSTILE },
];

/** Characters that must never reach any output raw (LF only between lines, tab allowed). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: it looks for them
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe("the shared character hygiene", () => {
  it("writes controls as \\xHH, keeps what it is told, and replaces lone surrogates", () => {
    expect(printable(HOSTILE)).toBe(
      "a%b:c,d\\x0de\\x0af\\x1b[31mg<&\"'>h\ufffdi\ufffdj\\x00k\\x7f\\x9bl\u2028m\\x09n",
    );
    expect(printable("a\tb\nc\rd", "\t\n")).toBe("a\tb\nc\\x0dd");
    expect(printable("pair \ud83d\ude00 ok \ufffe\uffff")).toBe(
      "pair \ud83d\ude00 ok \ufffd\ufffd",
    );
    expect(printable("plain")).toBe("plain");
    expect(wellFormed("x\udc00\ud800")).toBe("x\ufffd\ufffd");
    expect(wellFormed("\ud83d\ude00\ud83d")).toBe("\ud83d\ude00\ufffd");
  });

  it("describes every code", () => {
    for (const [code, text] of Object.entries(CODE_DESCRIPTIONS)) {
      expect(text.length, code).toBeGreaterThan(10);
      expect(text.length, code).toBeLessThan(100);
    }
  });

  it("adds up inputs: verdicts, findings, and kept findings by code", () => {
    expect(totals(MIXED)).toEqual({
      inputs: 5,
      valid: 2,
      invalid: 2,
      unreadable: 1,
      errors: 3,
      warnings: 2,
      byCode: {
        EVENT_AFTER_RUN_CLOSED: 1,
        FIELD_MISSING: 1,
        RUN_ID_MISMATCH: 1,
        TEXT_MESSAGE_NOT_OPEN: 1,
        TOOL_CALL_ARGS_NOT_JSON: 1,
      },
    });
    expect(totals([])).toEqual({
      inputs: 0,
      valid: 0,
      invalid: 0,
      unreadable: 0,
      errors: 0,
      warnings: 0,
      byCode: {},
    });
  });
});

describe("junit", () => {
  it("writes one test case per input: a failure, system-out, an error", () => {
    expect(junit(MIXED, TOOL_RULES)).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="ag-ui-verify" tests="5" failures="2" errors="1">',
        '  <testsuite name="ag-ui-verify" tests="5" failures="2" errors="1" skipped="0">',
        "    <properties>",
        '      <property name="version" value="1.2.3"/>',
        '      <property name="rules" value="https://example.test/docs/rules.md"/>',
        "    </properties>",
        '    <testcase name="ok.sse" classname="."/>',
        '    <testcase name="dir/several.sse" classname="dir">',
        '      <failure message="messageId is missing" type="FIELD_MISSING">error FIELD_MISSING line 4, event #1, count 1: messageId is missing',
        "error EVENT_AFTER_RUN_CLOSED line 14, event #5, count 4: the run is closed",
        "warning TOOL_CALL_ARGS_NOT_JSON line 9, event #3, count 1: args are not JSON</failure>",
        "      <system-out>warning TOOL_CALL_ARGS_NOT_JSON line 9, event #3, count 1: args are not JSON</system-out>",
        "    </testcase>",
        '    <testcase name="warn.jsonl" classname=".">',
        "      <system-out>warning RUN_ID_MISMATCH event #2, count 1: runId r2 is not r1</system-out>",
        "    </testcase>",
        '    <testcase name="gone.sse" classname=".">',
        '      <error message="cannot read gone.sse: no such file" type="unreadable">cannot read gone.sse: no such file</error>',
        "    </testcase>",
        '    <testcase name="caps.har https://agent.test/run?a=1&amp;b=2" classname=".">',
        `      <failure message="${NOT_OPEN_MESSAGE.replaceAll('"', "&quot;")}" type="TEXT_MESSAGE_NOT_OPEN">error TEXT_MESSAGE_NOT_OPEN event #1, count 2: ${NOT_OPEN_MESSAGE}</failure>`,
        "    </testcase>",
        "  </testsuite>",
        "</testsuites>",
        "",
      ].join("\n"),
    );
  });

  it("writes no input as an empty suite, and one input as one test case", () => {
    expect(junit([], TOOL)).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="ag-ui-verify" tests="0" failures="0" errors="0">',
        '  <testsuite name="ag-ui-verify" tests="0" failures="0" errors="0" skipped="0">',
        "    <properties>",
        '      <property name="version" value="1.2.3"/>',
        "    </properties>",
        "  </testsuite>",
        "</testsuites>",
        "",
      ].join("\n"),
    );
    const one = junit([{ name: "ok.sse", report: VALID }], TOOL);
    expect(one.match(/<testcase /g)).toHaveLength(1);
    expect(one).toContain('tests="1" failures="0" errors="0"');
  });

  it("says how many findings maxFindings left out, and an invalid input with none kept", () => {
    const kept = reportOf([finding({ code: "FIELD_NULL", message: "null" })], { omitted: 7 });
    expect(junit([{ name: "a", report: kept }], TOOL)).toContain(
      "count 1: null\n… and 7 more findings past maxFindings, not kept</failure>",
    );
    const none = lint([RUN, content("a"), END], { maxFindings: 0 });
    expect(none).toMatchObject({ valid: false, findings: [], omitted: 1 });
    expect(junit([{ name: "b", report: none }], TOOL)).toContain(
      '<failure message="1 error, none kept (maxFindings)" type="invalid">… and 1 more finding past maxFindings, not kept</failure>',
    );
    const valid = reportOf([], { omitted: 2, warnings: 2 });
    expect(junit([{ name: "c", report: valid }], TOOL)).toContain(
      "<system-out>… and 2 more findings past maxFindings, not kept</system-out>",
    );
  });

  it("escapes attributes and text, and writes nothing XML 1.0 forbids", () => {
    expect(xmlAttribute(HOSTILE)).toBe(
      "a%b:c,d\\x0de\\x0af\\x1b[31mg&lt;&amp;&quot;&apos;&gt;h\ufffdi\ufffdj\\x00k\\x7f\\x9bl\u2028m&#9;n",
    );
    expect(xmlText(HOSTILE, "\t")).toBe(
      "a%b:c,d\\x0de\\x0af\\x1b[31mg&lt;&amp;\"'&gt;h\ufffdi\ufffdj\\x00k\\x7f\\x9bl\u2028m\tn",
    );
    const xml = junit(HOSTILE_INPUTS, { ...TOOL, version: HOSTILE, rulesUrl: HOSTILE });
    expect(xml).not.toMatch(RAW_CONTROL);
    expect(xml).not.toMatch(LONE_SURROGATE);
    expect(xml).toContain(
      `<testcase name="${xmlAttribute(`dir/${HOSTILE}.sse https://h.test/${HOSTILE}`)}"`,
    );
    expect(xml).toContain(`<failure message="${xmlAttribute(HOSTILE)}" type="FIELD_WRONG_TYPE">`);
    expect(xml).toContain(`<error message="${xmlAttribute(HOSTILE)}" type="unreadable">`);
    // Every `<` opens a tag, every `&` an entity: the text holds neither raw.
    for (const tag of xml.match(/<[^>]*>?/g) ?? []) {
      expect(tag).toMatch(/^<(\?xml .*\?|\/?[a-z-]+( [a-z]+="[^"<]*")*\/?)>$/);
    }
    expect(xml.replace(/&(amp|lt|gt|quot|apos|#9|#10|#13);/g, "")).not.toContain("&");
    // A 10 KB message is there whole, on its one line.
    const lines = xml.split("\n");
    const big = lines.find((l) => l.includes("x".repeat(10_240)));
    expect(big).toBe(
      `warning SSE_LINE_IGNORED event #1, count 1: ${"x".repeat(10_240)}${xmlText(HOSTILE, "\t")}</failure>`,
    );
    expect(lines).toHaveLength(18);
  });
});

describe("sarif", () => {
  it("writes one run: the rules that occur, one result per finding, unreadable inputs as notifications", () => {
    const log = JSON.parse(sarif(MIXED, TOOL_RULES));
    const at = (uri: string, startLine?: number) => ({
      physicalLocation: {
        artifactLocation: { uri },
        ...(startLine === undefined ? {} : { region: { startLine } }),
      },
    });
    expect(log).toEqual({
      $schema: "https://json.schemastore.org/sarif-2.1.0.json",
      version: "2.1.0",
      runs: [
        {
          tool: {
            driver: {
              name: "ag-ui-verify",
              version: "1.2.3",
              rules: [
                ["FIELD_MISSING", "error"],
                ["TOOL_CALL_ARGS_NOT_JSON", "warning"],
                ["EVENT_AFTER_RUN_CLOSED", "error"],
                ["RUN_ID_MISMATCH", "warning"],
                ["TEXT_MESSAGE_NOT_OPEN", "error"],
              ].map(([id = "", level]) => ({
                id,
                shortDescription: { text: CODE_DESCRIPTIONS[id as keyof typeof CODE_DESCRIPTIONS] },
                helpUri: `https://example.test/docs/rules.md#${id.toLowerCase()}`,
                defaultConfiguration: { level },
              })),
            },
          },
          invocations: [
            {
              executionSuccessful: false,
              toolExecutionNotifications: [
                {
                  level: "error",
                  message: { text: "cannot read gone.sse: no such file" },
                  locations: [at("gone.sse")],
                },
              ],
            },
          ],
          results: [
            {
              ruleId: "FIELD_MISSING",
              ruleIndex: 0,
              level: "error",
              message: { text: "messageId is missing" },
              locations: [at("dir/several.sse", 4)],
              properties: {
                index: 1,
                lastIndex: 1,
                count: 1,
                eventType: "TEXT_MESSAGE_START",
                field: "messageId",
                offset: 40,
              },
            },
            {
              ruleId: "TOOL_CALL_ARGS_NOT_JSON",
              ruleIndex: 1,
              level: "warning",
              message: { text: "args are not JSON" },
              locations: [at("dir/several.sse", 9)],
              properties: { index: 3, lastIndex: 3, count: 1 },
            },
            {
              ruleId: "EVENT_AFTER_RUN_CLOSED",
              ruleIndex: 2,
              level: "error",
              message: { text: "the run is closed" },
              locations: [at("dir/several.sse", 14)],
              properties: { index: 5, lastIndex: 8, count: 4 },
            },
            {
              ruleId: "RUN_ID_MISMATCH",
              ruleIndex: 3,
              level: "warning",
              message: { text: "runId r2 is not r1" },
              locations: [at("warn.jsonl")],
              properties: { index: 2, lastIndex: 2, count: 1 },
            },
            {
              ruleId: "TEXT_MESSAGE_NOT_OPEN",
              ruleIndex: 4,
              level: "error",
              message: { text: NOT_OPEN_MESSAGE },
              locations: [
                { ...at("caps.har"), message: { text: "https://agent.test/run?a=1&b=2" } },
              ],
              properties: { index: 1, lastIndex: 2, count: 2, eventType: "TEXT_MESSAGE_CONTENT" },
            },
          ],
        },
      ],
    });
  });

  it("has the types of @types/sarif", () => {
    const log: Sarif.Log = sarifLog(MIXED, TOOL_RULES);
    expect(log.runs).toHaveLength(1);
  });

  it("calls a run with every input read successful, and writes no helpUri without rulesUrl", () => {
    const log = sarifLog([{ name: "a.sse", report: NOT_OPEN }], {
      ...TOOL,
      informationUri: "https://example.test/",
    });
    expect(log.runs[0].invocations).toEqual([{ executionSuccessful: true }]);
    expect(log.runs[0].tool.driver.informationUri).toBe("https://example.test/");
    expect(log.runs[0].tool.driver.rules[0]).not.toHaveProperty("helpUri");
    expect(sarifLog([], TOOL).runs[0]).toMatchObject({
      results: [],
      tool: { driver: { rules: [] } },
    });
  });

  it("notes the findings maxFindings left out", () => {
    const log = sarifLog([{ name: "a.sse", report: reportOf([], { omitted: 3 }) }], TOOL);
    expect(log.runs[0].invocations[0]).toEqual({
      executionSuccessful: true,
      toolExecutionNotifications: [
        {
          level: "note",
          message: { text: "3 more findings past maxFindings, not reported" },
          locations: [{ physicalLocation: { artifactLocation: { uri: "a.sse" } } }],
        },
      ],
    });
  });

  it("writes paths as URI references: forward slashes, percent-encoded, absolute ones as file: URIs", () => {
    expect(artifactUri("dir/run.sse")).toBe("dir/run.sse");
    expect(artifactUri("dir\\sub\\run.sse")).toBe("dir/sub/run.sse");
    expect(artifactUri("a b/c#d?e%f:g,h.sse")).toBe("a%20b/c%23d%3Fe%25f%3Ag%2Ch.sse");
    expect(artifactUri("/tmp/x y.sse")).toBe("file:///tmp/x%20y.sse");
    expect(artifactUri("C:\\work\\x.sse")).toBe("file:///C:/work/x.sse");
    expect(artifactUri("ünï/\ud800.sse")).toBe("%C3%BCn%C3%AF/%EF%BF%BD.sse");
    expect(artifactUri("a\x1b\n.sse")).toBe("a%1B%0A.sse");
  });

  it("escapes every string as JSON, and writes no raw control character", () => {
    const text = sarif(HOSTILE_INPUTS, { ...TOOL, version: HOSTILE });
    expect(text).not.toMatch(RAW_CONTROL);
    expect(text).not.toMatch(LONE_SURROGATE);
    expect(text).not.toMatch(/\\ud[89a-f][0-9a-f]{2}/i);
    expect(text).toContain("\\u001b[31m");
    expect(text).toContain("\\u009b");
    expect(text).toContain("\\u2028");
    const log: Sarif.Log = JSON.parse(text);
    const run = log.runs[0];
    expect(run?.results?.map((r) => r.message.text)).toEqual([
      wellFormed(HOSTILE),
      wellFormed(BIG),
    ]);
    const uri = run?.results?.[0]?.locations?.[0]?.physicalLocation?.artifactLocation?.uri ?? "";
    expect(uri).toMatch(/^[A-Za-z0-9%/._~!'()*-]+$/);
    expect(decodeURIComponent(uri)).toBe(wellFormed(`dir/${HOSTILE}.sse`));
    // A HAR entry's line is in its recorded body, not in the HAR file: no region.
    expect(run?.results?.[0]?.locations?.[0]?.physicalLocation?.region).toBeUndefined();
    expect(run?.invocations?.[0]?.toolExecutionNotifications?.[0]?.message.text).toBe(
      wellFormed(HOSTILE),
    );
  });

  it("leaves out a line that is not a line number", () => {
    const bad = reportOf([finding({ code: "FIELD_NULL", message: "m", line: 0 })]);
    const log = sarifLog([{ name: "a", report: bad }], TOOL);
    expect(log.runs[0].results[0]?.locations[0]?.physicalLocation).toEqual({
      artifactLocation: { uri: "a" },
    });
  });
});

describe("github", () => {
  it("writes one workflow command per finding, and unreadable inputs as errors", () => {
    expect(github(MIXED)).toBe(
      [
        "::error file=dir/several.sse,line=4,title=FIELD_MISSING::messageId is missing",
        "::warning file=dir/several.sse,line=9,title=TOOL_CALL_ARGS_NOT_JSON::args are not JSON",
        "::error file=dir/several.sse,line=14,title=EVENT_AFTER_RUN_CLOSED::the run is closed (4 events, #5 to #8)",
        "::warning file=warn.jsonl,title=RUN_ID_MISMATCH::runId r2 is not r1",
        "::error file=gone.sse::cannot read gone.sse: no such file",
        `::error file=caps.har,title=TEXT_MESSAGE_NOT_OPEN::${NOT_OPEN_MESSAGE} (2 events, #1 to #2) [https://agent.test/run?a=1&b=2]`,
        "",
      ].join("\n"),
    );
    expect(github([])).toBe("");
    expect(github([{ name: "ok.sse", report: VALID }])).toBe("");
  });

  it("writes a notice for the findings maxFindings left out", () => {
    expect(github([{ name: "a,b.sse", report: reportOf([], { omitted: 1 }) }])).toBe(
      "::notice file=a%2Cb.sse::1 more finding past maxFindings, not shown\n",
    );
  });

  it("escapes messages and properties the way GitHub reads them", () => {
    expect(commandMessage("100% a:b,c\r\nd")).toBe("100%25 a:b,c%0D%0Ad");
    expect(commandProperty("100% a:b,c\r\nd")).toBe("100%25 a%3Ab%2Cc%0D%0Ad");
    expect(commandMessage(HOSTILE)).toBe(
      "a%25b:c,d%0De%0Af\\x1b[31mg<&\"'>h\ufffdi\ufffdj\\x00k\\x7f\\x9bl\u2028m\tn",
    );
    expect(commandProperty(HOSTILE)).toBe(
      "a%25b%3Ac%2Cd%0De%0Af\\x1b[31mg<&\"'>h\ufffdi\ufffdj\\x00k\\x7f\\x9bl\u2028m\tn",
    );
    const out = github(HOSTILE_INPUTS);
    expect(out).not.toMatch(RAW_CONTROL);
    expect(out).not.toMatch(LONE_SURROGATE);
    const lines = out.split("\n");
    expect(lines).toEqual([
      // A HAR entry's line is in its recorded body, not in the HAR file: none.
      `::error file=${commandProperty(`dir/${HOSTILE}.sse`)},title=FIELD_WRONG_TYPE::${commandMessage(`${HOSTILE} [https://h.test/${HOSTILE}]`)}`,
      `::warning file=${commandProperty(`dir/${HOSTILE}.sse`)},title=SSE_LINE_IGNORED::${commandMessage(`${BIG} [https://h.test/${HOSTILE}]`)}`,
      `::error file=${commandProperty(`gone${HOSTILE}`)}::${commandMessage(HOSTILE)}`,
      "",
    ]);
    // The properties hold no separator of their own: `,` and `:` only between them.
    for (const line of lines.slice(0, -1)) {
      const props = line.slice(line.indexOf(" ") + 1, line.indexOf("::", 2));
      for (const prop of props.split(",")) expect(prop).toMatch(/^(file|line|title)=[^:,]*$/);
    }
    // A hostile code is a property too.
    const code = reportOf([finding({ code: "A:B,C\n::x" as Finding["code"], message: "m" })]);
    expect(github([{ name: "f", report: code }])).toBe(
      "::error file=f,title=A%3AB%2CC%0A%3A%3Ax::m\n",
    );
  });
});

describe("ndjson", () => {
  it("writes one line per input, then the summary", () => {
    const lines = ndjson(MIXED).split("\n");
    expect(lines.at(-1)).toBe("");
    expect(lines.slice(0, -1).map((l) => JSON.parse(l))).toEqual([
      {
        name: "ok.sse",
        valid: true,
        errors: 0,
        warnings: 0,
        omitted: 0,
        events: 2,
        findings: [],
      },
      {
        name: "dir/several.sse",
        valid: false,
        errors: 2,
        warnings: 1,
        omitted: 0,
        events: 10,
        findings: [
          {
            code: "FIELD_MISSING",
            severity: "error",
            rule: 0,
            index: 1,
            lastIndex: 1,
            count: 1,
            eventType: "TEXT_MESSAGE_START",
            field: "messageId",
            message: "messageId is missing",
            line: 4,
            offset: 40,
          },
          {
            code: "TOOL_CALL_ARGS_NOT_JSON",
            severity: "warning",
            rule: null,
            index: 3,
            lastIndex: 3,
            count: 1,
            eventType: null,
            field: null,
            message: "args are not JSON",
            line: 9,
            offset: null,
          },
          {
            code: "EVENT_AFTER_RUN_CLOSED",
            severity: "error",
            rule: 2,
            index: 5,
            lastIndex: 8,
            count: 4,
            eventType: null,
            field: null,
            message: "the run is closed",
            line: 14,
            offset: null,
          },
        ],
      },
      {
        name: "warn.jsonl",
        valid: true,
        errors: 0,
        warnings: 1,
        omitted: 0,
        events: 10,
        findings: [
          {
            code: "RUN_ID_MISMATCH",
            severity: "warning",
            rule: null,
            index: 2,
            lastIndex: 2,
            count: 1,
            eventType: null,
            field: null,
            message: "runId r2 is not r1",
            line: null,
            offset: null,
          },
        ],
      },
      {
        name: "gone.sse",
        valid: false,
        errors: 0,
        warnings: 0,
        omitted: 0,
        events: 0,
        findings: [],
        problem: "cannot read gone.sse: no such file",
      },
      {
        name: "caps.har",
        url: "https://agent.test/run?a=1&b=2",
        valid: false,
        errors: 1,
        warnings: 0,
        omitted: 0,
        events: 4,
        findings: [
          {
            code: "TEXT_MESSAGE_NOT_OPEN",
            severity: "error",
            rule: 3,
            index: 1,
            lastIndex: 2,
            count: 2,
            eventType: "TEXT_MESSAGE_CONTENT",
            field: null,
            message: NOT_OPEN_MESSAGE,
            line: null,
            offset: null,
          },
        ],
      },
      { summary: totals(MIXED) },
    ]);
  });

  it("writes exactly this for one valid input", () => {
    expect(ndjson([{ name: "ok.sse", report: VALID }])).toBe(
      [
        '{"name":"ok.sse","valid":true,"errors":0,"warnings":0,"omitted":0,"events":2,"findings":[]}',
        '{"summary":{"inputs":1,"valid":1,"invalid":0,"unreadable":0,"errors":0,"warnings":0,"byCode":{}}}',
        "",
      ].join("\n"),
    );
    expect(ndjson([])).toBe(
      '{"summary":{"inputs":0,"valid":0,"invalid":0,"unreadable":0,"errors":0,"warnings":0,"byCode":{}}}\n',
    );
  });

  it("has the same shape for one input as for many", () => {
    for (const [i, input] of MIXED.entries()) {
      const one = ndjson([input]).split("\n");
      const many = ndjson(MIXED).split("\n");
      expect(one).toHaveLength(3);
      expect(one[0]).toBe(many[i]);
      expect(Object.keys(JSON.parse(one[1] ?? "").summary)).toEqual(
        Object.keys(JSON.parse(many.at(-2) ?? "").summary),
      );
    }
  });

  it("adds the caller's summary fields after the totals, which they cannot replace", () => {
    const last = ndjson([{ name: "a", report: VALID }], { durationMs: 12, inputs: 99, skipped: 1 })
      .trimEnd()
      .split("\n")
      .at(-1);
    expect(last).toBe(
      '{"summary":{"inputs":1,"valid":1,"invalid":0,"unreadable":0,"errors":0,"warnings":0,"byCode":{},"durationMs":12,"skipped":1}}',
    );
  });

  it("writes the input's format and size when the report has them, and no event values", () => {
    const withInput = { ...SEVERAL, input: { format: "sse", bytes: 120 } } as const;
    const [line] = ndjson([{ name: "a", report: withInput }]).split("\n");
    expect(JSON.parse(line ?? "")).toMatchObject({ input: { format: "sse", bytes: 120 } });
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    const before = reportOf([finding({ code: "FIELD_NULL", message: "m", before: [10n, cyclic] })]);
    expect(ndjson([{ name: "b", report: before }])).not.toContain("before");
  });

  it("escapes every string as JSON, and writes no raw control character", () => {
    const text = ndjson(HOSTILE_INPUTS, { note: HOSTILE });
    expect(text).not.toMatch(RAW_CONTROL);
    expect(text).not.toMatch(LONE_SURROGATE);
    expect(text).not.toContain("\u2028");
    const lines = text.split("\n");
    expect(lines).toHaveLength(4);
    const [first, second, summary] = lines.map((l) => (l === "" ? undefined : JSON.parse(l)));
    expect(first).toMatchObject({
      name: wellFormed(`dir/${HOSTILE}.sse`),
      url: wellFormed(`https://h.test/${HOSTILE}`),
      findings: [
        {
          eventType: wellFormed(HOSTILE),
          field: wellFormed(HOSTILE),
          message: wellFormed(HOSTILE),
        },
        { message: wellFormed(BIG) },
      ],
    });
    expect(second).toMatchObject({ valid: false, problem: wellFormed(HOSTILE) });
    expect(summary.summary).toMatchObject({ note: wellFormed(HOSTILE), unreadable: 1 });
    const code = reportOf([finding({ code: "__proto__\ud800" as Finding["code"], message: "m" })]);
    const byCode = JSON.parse(ndjson([{ name: "c", report: code }]).split("\n")[1] ?? "").summary
      .byCode;
    expect(Object.keys(byCode)).toEqual(["__proto__\ufffd"]);
  });
});
