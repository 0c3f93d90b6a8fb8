// Issue 27 row 13 (d), (e), (f): a corpus's inputs by folder in JUnit (one classname per
// folder, which CI tools group test cases by) and in the text summary (each folder's counts
// and codes, bounded), and SARIF locations relative to the working
// directory (SPEC §18.3) when an input's absolute path lies below it. Pure functions of
// plain data: the command passes the working directory in.
import { describe, expect, it } from "vitest";
import { lint } from "../src/lint/index.ts";
import { folderOf, type LintedInput, type ToolInfo } from "../src/report/formats-shared.ts";
import { junit } from "../src/report/junit.ts";
import { style } from "../src/report/render.ts";
import { artifactUri, relativePath, sarifLog } from "../src/report/sarif.ts";
import { Summary } from "../src/report/summary.ts";

const TOOL: ToolInfo = { name: "ag-ui-verify", version: "1.2.3" };
const RUN = { type: "RUN_STARTED", threadId: "t", runId: "r" };
const END = { type: "RUN_FINISHED", threadId: "t", runId: "r" };
const VALID = lint([RUN, END]);
const INVALID = lint([RUN, { type: "TEXT_MESSAGE_END", messageId: "m" }, END]);

/** The classname of each test case, in order. */
const classnames = (xml: string) =>
  [...xml.matchAll(/<testcase name="[^"]*" classname="([^"]*)"/g)].map((m) => m[1]);

describe("folderOf", () => {
  it.each([
    ["captures/langgraph/run-1.sse", "captures/langgraph"],
    ["captures/run.sse", "captures"],
    ["run.sse", "."],
    ["-", "."],
    ["/tmp/x/run.sse", "/tmp/x"],
    ["/run.sse", "/"],
    ["a//b.sse", "a"],
    ["captures\\crew\\run.sse", "captures\\crew"],
    ["C:\\runs\\a.sse", "C:\\runs"],
    ["C:\\a.sse", "C:\\"],
  ])("%s is in %s", (name, folder) => {
    expect(folderOf({ name })).toBe(folder);
  });

  it("a live stream is its URL; a HAR entry is in its HAR file's folder", () => {
    expect(folderOf({ name: "https://agent.test/run", live: true })).toBe("https://agent.test/run");
    const entry: LintedInput = { name: "har/session.har", url: "https://a.test/x/y" };
    expect(folderOf(entry)).toBe("har");
  });
});

describe("junit: a classname per folder", () => {
  it("classes each test case by its input's folder, not one classname for all", () => {
    const xml = junit(
      [
        { name: "captures/langgraph/a.sse", report: VALID },
        { name: "captures/langgraph/b.sse", report: INVALID },
        { name: "captures/crewai/c.jsonl", report: VALID },
        { name: "captures/session.har", url: "https://a.test/run", report: INVALID },
        { name: "top.sse", problem: "cannot read" },
      ],
      TOOL,
    );
    expect(classnames(xml)).toEqual([
      "captures/langgraph",
      "captures/langgraph",
      "captures/crewai",
      "captures",
      ".",
    ]);
  });

  it("escapes a folder as an attribute", () => {
    const xml = junit([{ name: 'a<&"\n>/x.sse', report: VALID }], TOOL);
    expect(classnames(xml)).toEqual(["a&lt;&amp;&quot;\\x0a&gt;"]);
  });
});

describe("sarif: paths relative to the working directory", () => {
  it.each([
    ["/work/repo/captures/a.sse", "/work/repo", "captures/a.sse"],
    ["/work/repo/captures/a.sse", "/work/repo/", "captures/a.sse"],
    ["/work/repo/./x/../captures/a.sse", "/work/repo", "captures/a.sse"],
    ["/work/repo/a.sse", "/", "work/repo/a.sse"],
    ["C:\\work\\repo\\runs\\a.sse", "C:\\work\\repo", "runs/a.sse"],
    ["c:\\Work\\Repo\\runs\\a.sse", "C:\\work\\repo", "runs/a.sse"],
    ["C:/work/repo/a.sse", "C:\\work\\repo", "a.sse"],
  ])("%s below %s is %s", (path, dir, relative) => {
    expect(relativePath(path, dir)).toBe(relative);
  });

  it.each([
    ["/work/repo2/a.sse", "/work/repo"],
    ["/work/a.sse", "/work/repo"],
    ["/work/repo", "/work/repo"],
    ["/work/repo/../other/a.sse", "/work/repo"],
    ["D:\\work\\repo\\a.sse", "C:\\work\\repo"],
    ["/Work/Repo/a.sse", "/work/repo"],
    ["captures/a.sse", "/work/repo"],
    ["/work/repo/a.sse", "work/repo"],
  ])("%s is not below %s", (path, dir) => {
    expect(relativePath(path, dir)).toBeUndefined();
  });

  it("writes an absolute path below the working directory relative, percent-encoded; others as before", () => {
    expect(artifactUri("/work/repo/a b/c#d.sse", "/work/repo")).toBe("a%20b/c%23d.sse");
    expect(artifactUri("/elsewhere/x.sse", "/work/repo")).toBe("file:///elsewhere/x.sse");
    expect(artifactUri("C:\\elsewhere\\x.sse", "C:\\work")).toBe("file:///C:/elsewhere/x.sse");
    expect(artifactUri("captures/x.sse", "/work/repo")).toBe("captures/x.sse");
    expect(artifactUri("/work/repo/x.sse")).toBe("file:///work/repo/x.sse");
  });

  it("locates results and notifications relative to the working directory", () => {
    const log = sarifLog(
      [
        { name: "/work/repo/captures/b.sse", report: INVALID },
        { name: "/work/other/c.sse", report: INVALID },
        { name: "/work/repo/gone.sse", problem: "cannot read" },
      ],
      TOOL,
      { workingDirectory: "/work/repo" },
    );
    const [run] = log.runs;
    const uri = (l: { physicalLocation: { artifactLocation: { uri: string } } } | undefined) =>
      l?.physicalLocation.artifactLocation.uri;
    expect(run.results.map((r) => uri(r.locations[0]))).toEqual([
      "captures/b.sse",
      "file:///work/other/c.sse",
    ]);
    expect(run.invocations[0].toolExecutionNotifications?.map((n) => uri(n.locations[0]))).toEqual([
      "gone.sse",
    ]);
  });
});

describe("the corpus summary, by folder", () => {
  const WARNED = lint([RUN, { ...END, runId: "other" }]);
  /** The text summary of `inputs`, without colour, its "By folder" section alone. */
  function byFolder(inputs: readonly LintedInput[]): string[] {
    const summary = new Summary();
    summary.add({ inputs, skipped: 0 });
    const lines = summary.text(style(false), 0).split("\n");
    const from = lines.findIndex((l) => l.startsWith("By folder"));
    if (from === -1) return [];
    const to = lines.indexOf("", from);
    return lines.slice(from, to);
  }

  it("groups the inputs by folder: counts, and the codes with how many inputs have each", () => {
    expect(
      byFolder([
        { name: "captures/langgraph/a.sse", report: VALID },
        { name: "captures/langgraph/b.sse", report: INVALID },
        { name: "captures/langgraph/c.sse", report: INVALID },
        { name: "captures/langgraph/d.sse", report: WARNED },
        { name: "captures/crewai/e.sse", report: VALID },
        { name: "captures/crewai/f.sse", problem: "cannot read" },
        { name: "captures/crewai/g.sse", report: WARNED },
        { name: "top.sse", report: VALID },
      ]),
    ).toEqual([
      "By folder (each code: the inputs that have it)",
      "  captures/langgraph  4 inputs: 2 valid (1 with warnings), 2 invalid",
      "    ✘ TEXT_MESSAGE_NOT_OPEN 2",
      "    ! RUN_ID_MISMATCH 1",
      "  captures/crewai  3 inputs: 2 valid (1 with warnings), 0 invalid, 1 unreadable",
      "    ! RUN_ID_MISMATCH 1",
      "  .  1 input: 1 valid, 0 invalid",
    ]);
  });

  it("is left out when every input is in one folder", () => {
    expect(
      byFolder([
        { name: "captures/a.sse", report: VALID },
        { name: "captures/b.sse", report: INVALID },
      ]),
    ).toEqual([]);
  });

  it("is bounded: 20 folders, those with the most failures first, 6 codes each, the rest counted", () => {
    const inputs: LintedInput[] = [];
    for (let i = 0; i < 30; i++) {
      const name = `runs/f${String(i).padStart(2, "0")}`;
      inputs.push({ name: `${name}/ok.sse`, report: VALID });
      // Folders 10 and 20 have invalid inputs: they come first.
      if (i === 10 || i === 20) inputs.push({ name: `${name}/bad.sse`, report: INVALID });
    }
    const codes = [
      "FIELD_MISSING",
      "FIELD_NULL",
      "FIELD_WRONG_TYPE",
      "EVENT_NOT_OBJECT",
      "EVENT_TYPE_INVALID",
      "INVALID_JSON",
      "STEP_NOT_STARTED",
      "TOOL_CALL_NOT_OPEN",
    ];
    const many = lint([RUN, END]);
    inputs.push({
      name: "runs/f20/many.sse",
      report: {
        ...many,
        valid: false,
        errors: codes.length,
        findings: codes.map((code, i) => ({
          code: code as "FIELD_MISSING",
          severity: "error" as const,
          rule: 0,
          index: i,
          lastIndex: i,
          count: 1,
          eventType: undefined,
          field: undefined,
          message: code,
        })),
      },
    });
    const lines = byFolder(inputs);
    const folders = lines.filter((l) => /^ {2}\S/.test(l));
    expect(folders).toHaveLength(21);
    expect(folders[0]).toBe("  runs/f20  3 inputs: 1 valid, 2 invalid");
    expect(folders[1]).toBe("  runs/f10  2 inputs: 1 valid, 1 invalid");
    expect(folders[2]).toBe("  runs/f00  1 input: 1 valid, 0 invalid");
    expect(folders[20]).toBe("  … and 10 more folders: 10 inputs, 0 invalid");
    // runs/f20 has 9 codes, each in one input: 6 listed (by name, as the counts tie), 3 counted.
    expect(lines.slice(2, 5)).toEqual([
      "    ✘ EVENT_NOT_OBJECT 1, EVENT_TYPE_INVALID 1, FIELD_MISSING 1, FIELD_NULL 1,",
      "      FIELD_WRONG_TYPE 1, INVALID_JSON 1",
      "      … and 3 more codes",
    ]);
  });

  it("keeps at most 10,000 folders apart; inputs in more are counted together", () => {
    const inputs: LintedInput[] = [];
    for (let i = 0; i < 10_005; i++) inputs.push({ name: `d${i}/x.sse`, report: VALID });
    inputs.push({ name: "d10004/y.sse", report: INVALID });
    const lines = byFolder(inputs);
    expect(lines.at(-1)).toBe(
      "  … and 9,980 more folders and other folders: 9,986 inputs, 1 invalid",
    );
  });
});
