// Issue 27 row 13 (d) and (e): a corpus's inputs by folder in JUnit (one classname per
// folder, which CI tools group test cases by), and SARIF locations relative to the working
// directory (SPEC §18.3) when an input's absolute path lies below it. Pure functions of
// plain data: the command passes the working directory in.
import { describe, expect, it } from "vitest";
import { lint } from "../src/lint/index.ts";
import { folderOf, type LintedInput, type ToolInfo } from "../src/report/formats-shared.ts";
import { junit } from "../src/report/junit.ts";
import { artifactUri, relativePath, sarifLog } from "../src/report/sarif.ts";

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
