// The HTML report of SPEC §22 as a pure function, without a browser: what reaches the page
// from an input is data (one JSON block, `<` escaped, nothing else from the input in the
// markup), the Content-Security-Policy names the page's own script and style by hash and
// allows nothing else, the timeline's model (runs, lanes, bars, pins) is what §22 says, the
// middle of a long input is elided, the file stays within its bound, and what the command
// keeps of a long input draws the same page as the whole input.
// The page in a real browser: test/runtimes/html-report.test.ts.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { type LintReport, lint, renderHtml } from "../src/lint/index.ts";
import { cspHash } from "../src/report/html-hash.ts";
import { boundedCopy, boundedJson, eventJson, LIMITS } from "../src/report/html-json.ts";
import { EventKeeper } from "../src/report/html-keep.ts";
import { ENTITY_KINDS, type InputModel } from "../src/report/html-types.ts";

type Ev = Record<string, unknown>;
const RUN = (runId = "r1"): Ev => ({ type: "RUN_STARTED", threadId: "t1", runId });
const END = (runId = "r1"): Ev => ({ type: "RUN_FINISHED", threadId: "t1", runId });
const text = (messageId: string, tag?: string): Ev[] =>
  [
    { type: "TEXT_MESSAGE_START", messageId, role: "assistant" },
    { type: "TEXT_MESSAGE_CONTENT", messageId, delta: "hi" },
    { type: "TEXT_MESSAGE_END", messageId },
  ].map((e) => (tag === undefined ? e : { ...e, subagentRunId: tag }));

const DATA = /<script type="application\/json" id="ag-ui-verify-data">([\s\S]*?)<\/script>/;

interface PageData {
  tool: string;
  rules: string | null;
  inputs: (InputModel & { ev: unknown[] })[];
}

/** The page's data block, parsed. */
function dataOf(html: string): PageData {
  const block = DATA.exec(html)?.[1];
  if (block === undefined) throw new Error("no data block");
  return JSON.parse(block) as PageData;
}

function page(events: readonly unknown[], report: LintReport = lint(events)) {
  const html = renderHtml([{ name: "in.jsonl", report, events }]);
  const input = dataOf(html).inputs[0];
  if (input === undefined) throw new Error("no input");
  return { html, input, report };
}

/** Where each finding is pinned: its code, section and lane. */
const pins = (input: InputModel) => input.findings.map((f) => [f[0], f[9], f[10]]);

const HOSTILE = [
  "</script><script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "javascript:alert(1)",
  "\u202eevil\u202c\u2066x\u2069",
  "<!--",
  "\u2028\u2029\u0000\u001b[31m",
];

describe("renderHtml: input reaches the page as data only", () => {
  const events: Ev[] = [
    RUN(HOSTILE[0]),
    ...HOSTILE.flatMap((id) => text(id, id)),
    { type: HOSTILE[1], payload: HOSTILE },
    { type: "CUSTOM", name: HOSTILE[2], value: "x".repeat(1_000_000) },
    END(HOSTILE[0]),
  ];
  const { html, input, report } = page(events);

  it("writes the fixed markup, then one data block and one script", () => {
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<!--");
    // Nothing of the input outside the data block.
    const block = DATA.exec(html);
    const before = html.slice(0, block?.index);
    const after = html.slice((block?.index ?? 0) + (block?.[0].length ?? 0));
    for (const s of HOSTILE.slice(0, 3)) {
      expect(before).not.toContain(s);
      expect(after).not.toContain(s);
    }
    // `<`, and what would make the source read otherwise than it is, are escapes.
    expect(DATA.exec(html)?.[1]).not.toMatch(/[<\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
  });

  it("keeps every hostile string, as a string, in the data", () => {
    const bars = input.bars.map((b) => b[2]);
    expect(bars).toEqual(HOSTILE);
    expect(input.lanes.map((l) => l[2]).slice(1)).toEqual(HOSTILE);
    expect(input.types).toContain(HOSTILE[1]);
    expect(input.runs[0]?.[3]).toBe(HOSTILE[0]);
    expect(input.ev[HOSTILE.length * 3 + 1]).toEqual({ type: HOSTILE[1], payload: HOSTILE });
    expect(input.findings.length).toBe(report.findings.length);
  });

  it("clips a 1 MB string, saying how long it was", () => {
    const custom = input.ev[HOSTILE.length * 3 + 2] as { value: string };
    expect(custom.value.length).toBeLessThanOrEqual(LIMITS.string);
    expect(custom.value).toMatch(/^x+… \(1,000,000 characters\)$/);
    expect(html.length).toBeLessThan(200_000);
  });

  it("allows its own script and style by hash, and nothing else", () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
    const sha = (s: string) => `'sha256-${createHash("sha256").update(s).digest("base64")}'`;
    expect(csp?.split("; ")).toEqual([
      "default-src 'none'",
      `script-src ${sha(script)}`,
      `style-src ${sha(style)}`,
      "img-src 'none'",
      "font-src 'none'",
      "connect-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
    ]);
    expect(cspHash("abc")).toBe(sha("abc"));
  });

  it("names nothing to fetch, and its script builds no markup from text", () => {
    const markup = html.replace(DATA, "");
    expect(markup).not.toMatch(/\s(src|href|action|srcset|poster)=/i);
    expect(markup).not.toMatch(/url\(|@import/i);
    expect(markup).not.toMatch(
      /innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function|setAttribute\("(href|src|on)/,
    );
  });

  it("links rule pages only to an http, https or file URL", () => {
    const rules = (rulesUrl: string) =>
      dataOf(renderHtml([{ name: "x", report: lint([]), events: [] }], { rulesUrl })).rules;
    expect(rules("https://example.test/rules.md#top")).toBe("https://example.test/rules.md");
    expect(rules("file:///tmp/rules.md")).toBe("file:///tmp/rules.md");
    expect(rules("javascript:alert(1)")).toBeNull();
    expect(rules("data:text/html,x")).toBeNull();
    expect(rules("not a url")).toBeNull();
  });
});

describe("renderHtml: the timeline (SPEC §22)", () => {
  it("draws a lane per agent, subagents nested, and a bar per entity from open to close", () => {
    const events: Ev[] = [
      RUN(),
      { type: "STEP_STARTED", stepName: "plan" },
      { type: "SUBAGENT_STARTED", subagentRunId: "s1", name: "researcher" },
      { type: "SUBAGENT_STARTED", subagentRunId: "", parentSubagentRunId: "s1" },
      ...text("m1", ""),
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "f", subagentRunId: "s1" },
      { type: "TOOL_CALL_END", toolCallId: "c1", subagentRunId: "s1" },
      { type: "TOOL_CALL_RESULT", toolCallId: "c1", messageId: "t1", content: "ok" },
      { type: "REASONING_START", messageId: "r1" },
      { type: "REASONING_MESSAGE_START", messageId: "r1", role: "reasoning" },
      { type: "REASONING_MESSAGE_END", messageId: "r1" },
      { type: "REASONING_END", messageId: "r1" },
      { type: "ACTIVITY_SNAPSHOT", messageId: "a1", activityType: "plan", content: {} },
      { type: "ACTIVITY_DELTA", messageId: "a1", activityType: "plan", patch: [] },
      { type: "STATE_SNAPSHOT", snapshot: {} },
      { type: "SUBAGENT_FINISHED", subagentRunId: "" },
      { type: "SUBAGENT_FINISHED", subagentRunId: "s1" },
      { type: "STEP_FINISHED", stepName: "plan" },
      END(),
    ];
    const { input } = page(events);
    expect(input.runs).toEqual([[0, 20, "finished", "r1"]]);
    // [run, parent, subagent, name, start, end, status, depth, rows]
    expect(input.lanes).toEqual([
      [0, -1, null, null, -1, -1, null, 0, 3],
      [0, 0, "s1", "researcher", 2, 18, "finished", 1, 1],
      [0, 1, "", null, 3, 17, "finished", 2, 1],
    ]);
    const bars = input.bars.map(([lane, kind, id, from, to, closed]) => [
      lane,
      ENTITY_KINDS[kind],
      id,
      from,
      to,
      closed,
    ]);
    expect(bars).toEqual([
      [0, "step", "plan", 1, 19, 1],
      [2, "text", "m1", 4, 6, 1],
      [1, "tool-call", "c1", 7, 8, 1],
      [0, "span", "r1", 10, 13, 1],
      [0, "reasoning", "r1", 11, 12, 1],
      [0, "activity", "a1", 14, 15, 1],
    ]);
    // The tool message a result mints is a tick, as are state events and the lifecycle.
    expect(input.ent[9]).toBe(-1);
    expect(input.ent[16]).toBe(-1);
    expect(input.ent.filter((b) => b !== -1)).toHaveLength(13);
  });

  it("runs an unclosed bar to the end of input, and pins an end-of-input finding to the last run's end", () => {
    const { input } = page([
      RUN(),
      END(),
      RUN("r2"),
      { type: "TEXT_MESSAGE_START", messageId: "m1" },
    ]);
    expect(input.runs).toEqual([
      [0, 1, "finished", "r1"],
      [2, 3, "open", "r2"],
    ]);
    expect(input.bars).toEqual([[1, 0, "m1", 3, 4, 0, 0]]);
    expect(pins(input)).toEqual([["STREAM_ENDED_BEFORE_RUN_CLOSED", 3, 1]]);
  });

  it("pins a finding before the first run, or between runs, to a strip of its own", () => {
    const { input } = page([
      { type: "STATE_SNAPSHOT", snapshot: {} },
      RUN(),
      END(),
      { type: "RAW", event: {} },
      RUN("r2"),
      END("r2"),
      { type: "CUSTOM", name: "late" },
    ]);
    expect(input.sec).toEqual([0, 1, 1, 2, 3, 3, 4]);
    expect(pins(input)).toEqual([
      ["EVENT_BEFORE_RUN_STARTED", 0, -1],
      ["EVENT_AFTER_RUN_CLOSED", 2, -1],
      ["EVENT_AFTER_RUN_CLOSED", 4, -1],
    ]);
  });

  it("pins a finding in the lane of its event, and a merged one once, with its count", () => {
    const events: Ev[] = [
      RUN(),
      { type: "SUBAGENT_STARTED", subagentRunId: "s1" },
      ...Array.from({ length: 5 }, () => ({
        type: "TEXT_MESSAGE_CONTENT",
        messageId: "nope",
        delta: "x",
        subagentRunId: "s1",
      })),
      { type: "SUBAGENT_FINISHED", subagentRunId: "s1" },
      END(),
    ];
    const { input } = page(events);
    const errors = input.findings.filter((f) => f[1] === 0);
    expect(errors.map((f) => [f[0], f[3], f[4], f[5], f[9], f[10]])).toEqual([
      ["TEXT_MESSAGE_NOT_OPEN", 2, 6, 5, 1, 1],
    ]);
  });

  it("draws the stream as sent: RUN_FINISHED with an open message ends the run and the message, unclosed", () => {
    const { input } = page([RUN(), { type: "TEXT_MESSAGE_START", messageId: "m1" }, END()]);
    expect(input.runs).toEqual([[0, 2, "finished", "r1"]]);
    expect(input.bars).toEqual([[0, 0, "m1", 1, 2, 0, 0]]);
    expect(input.findings.map((f) => [f[0], f[3], f[9]])).toEqual([
      ["OPEN_AT_RUN_FINISHED", 2, 1],
      ["STREAM_ENDED_BEFORE_RUN_CLOSED", 3, 1],
    ]);
  });

  it("stacks bars that overlap in one lane on rows of their own", () => {
    const events: Ev[] = [
      RUN(),
      { type: "TEXT_MESSAGE_START", messageId: "a" },
      { type: "TEXT_MESSAGE_START", messageId: "b" },
      { type: "TEXT_MESSAGE_END", messageId: "a" },
      { type: "TEXT_MESSAGE_END", messageId: "b" },
      ...text("c"),
      END(),
    ];
    const { input } = page(events);
    expect(input.bars.map((b) => [b[2], b[6]])).toEqual([
      ["a", 0],
      ["b", 1],
      ["c", 0],
    ]);
    expect(input.lanes[0]?.[8]).toBe(2);
  });
});

/** `runs` runs of `per` events each (a text message streamed in each). */
function longInput(runs: number, per: number): Ev[] {
  const out: Ev[] = [];
  for (let r = 0; r < runs; r++) {
    out.push(RUN(`r${r}`), { type: "TEXT_MESSAGE_START", messageId: `m${r}` });
    for (let i = 0; i < per - 4; i++) {
      out.push({ type: "TEXT_MESSAGE_CONTENT", messageId: `m${r}`, delta: `${i} ` });
    }
    out.push({ type: "TEXT_MESSAGE_END", messageId: `m${r}` }, END(`r${r}`));
  }
  return out;
}

describe("renderHtml: a long input", () => {
  it("keeps the first and last 10,000 events and says how many it elides", () => {
    // Runs of 5,000 events: runs 2 and 3 lie wholly inside the gap [10,000, 20,000).
    const events = longInput(6, 5_000);
    const { input } = page(events);
    expect(input.gap).toEqual([10_000, 20_000]);
    expect(input.ev).toHaveLength(20_000);
    expect(input.sec).toHaveLength(20_000);
    expect(input.ev[10_000]).toEqual(events[20_000]);
    expect(input.runs).toHaveLength(6);
    expect(input.runs[2]).toEqual([10_000, 14_999, "finished", "r2"]);
    expect(input.elidedBars).toBe(2);
    expect(input.bars.map((b) => b[2])).toEqual(["m0", "m1", "m4", "m5"]);
  });

  it("pins a finding in the elided part to its run", () => {
    const events = longInput(6, 5_000);
    events[12_000] = { type: "TEXT_MESSAGE_CONTENT", messageId: "ghost" };
    const { input } = page(events);
    expect(pins(input)).toEqual([["TEXT_MESSAGE_NOT_OPEN", 5, 2]]);
  });

  it("draws the same page from what the command keeps as from every event", () => {
    const events = longInput(5, 6_001);
    events.splice(15_000, 0, { type: "TEXT_MESSAGE_START", messageId: "open" });
    const keeper = new EventKeeper();
    for (const e of events) keeper.push(e);
    const kept = keeper.events();
    expect(kept).toHaveLength(events.length);
    // Holes between the ends, but for what opens or closes something.
    expect(kept.filter((e) => e !== undefined).length).toBeLessThan(20_100);
    const report = lint(events);
    const full = renderHtml([{ name: "x", report, events }]);
    expect(renderHtml([{ name: "x", report, events: kept }])).toBe(full);
  });

  it("stays under twice the input's size + 2 MB, however many `<` it holds", () => {
    const events: Ev[] = [RUN()];
    for (let i = 0; i < 19_000; i++) {
      events.push({ type: "CUSTOM", name: "<".repeat(40), value: "<".repeat(i % 500) });
    }
    events.push(END());
    const input = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("");
    const { html } = page(events);
    expect(html.length).toBeLessThan(2 * input.length + 2 * 1024 * 1024);
  });
});

describe("the events' JSON", () => {
  it("cuts deep, wide and long values and stays valid JSON", () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const wide = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`k${i}`, i]));
    const value = { deep, wide, list: Array.from({ length: 1_000 }, (_, i) => i) };
    const parsed = JSON.parse(boundedJson(value)) as { wide: object; list: unknown[] };
    expect(Object.keys(parsed.wide)).toHaveLength(LIMITS.keys);
    expect(parsed.list).toHaveLength(LIMITS.items);
    expect(parsed.list.at(-1)).toBe("… (801 more items)");
    expect(boundedJson(value)).toContain('"[…]"');
    expect(JSON.parse(eventJson({ type: "X", s: "<".repeat(10_000) }))).toMatchObject({
      type: "X",
    });
    expect(eventJson({ type: "X", s: "<".repeat(10_000) }).length).toBeLessThan(6 * 10_100);
  });

  it("says how long a string was when what the command kept of it is clipped again", () => {
    const kept = boundedCopy({ type: "CUSTOM", value: "A<".repeat(512 * 1024) });
    expect(eventJson(kept)).toContain("… (1,048,576 characters)");
    expect(eventJson(kept).length).toBeLessThan(5_000);
  });

  it("writes a lone surrogate as U+FFFD", () => {
    expect(JSON.parse(boundedJson({ s: "a\ud800b" }))).toEqual({ s: "a\ufffdb" });
  });
});
