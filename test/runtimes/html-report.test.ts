// The HTML report (SPEC §22) in headless Chromium (Debian's `chromium`, driven by
// playwright-core), as the command writes it (`--reporter html --output`), opened from
// file://: it loads with no console error, no request and no dialog; its lanes, bars and
// pinned findings are what the events and the report hold, counted from the DOM, for every
// bundled capture and a generated capture of several runs and nested subagents; selecting
// a finding, a bar or an event shows it; a hostile capture runs nothing and shows its ids
// as text; a 100,000-event capture renders, elided, within the size bound.
// Needs `npx tsup` first (npm test builds). Without a browser these tests skip, except
// under CI, where a failing test takes their place.

import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  expectedTimeline,
  HOSTILE_IDS,
  harStreams,
  hostileCapture,
  longCapture,
  multiAgentCapture,
  sse,
  sseEvents,
} from "../support/html-oracle.ts";
import { runCli } from "./cli-run.ts";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CI = (process.env.CI ?? "") !== "" && process.env.CI !== "false" && process.env.CI !== "0";
const installed = existsSync(CHROMIUM);

if (!installed && CI) {
  it("Chromium is installed (CI requires it)", () => {
    expect.fail(
      `CI is set but there is no Chromium at ${CHROMIUM}: install it, or set CHROMIUM_PATH.`,
    );
  });
}

interface Finding {
  code: string;
  index: number;
}
interface NdjsonInput {
  name: string;
  url?: string;
  events: number;
  findings: Finding[];
}

/** The command's NDJSON objects for `args` (the summary line left out). */
async function ndjson(args: string[]): Promise<NdjsonInput[]> {
  const run = await runCli(["--reporter", "ndjson", ...args], { cwd: REPO });
  return run.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as NdjsonInput & { summary?: unknown })
    .filter((o) => o.summary === undefined);
}

/** What one input's section holds, counted from the DOM. */
interface Drawn {
  input: string;
  runs: number;
  lanes: number;
  bars: Record<string, number>;
  pins: [string, number][];
  subagents: string[][];
}

const drawn = (page: Page): Promise<Drawn[]> =>
  page.$$eval("section.input", (sections) =>
    sections.map((s) => {
      const bars: Record<string, number> = {};
      for (const b of s.querySelectorAll<HTMLElement>("[data-entity]")) {
        const kind = b.dataset.entity ?? "";
        bars[kind] = (bars[kind] ?? 0) + 1;
      }
      return {
        input: (s as HTMLElement).dataset.input ?? "",
        runs: s.querySelectorAll("[data-run]").length,
        lanes: s.querySelectorAll("[data-lane]").length,
        bars,
        pins: [...s.querySelectorAll<HTMLElement>("[data-finding]")].map(
          (p) => [p.dataset.finding ?? "", Number(p.dataset.index)] as [string, number],
        ),
        subagents: [...s.querySelectorAll("[data-run]")].map((run) =>
          [...run.querySelectorAll<HTMLElement>("[data-lane]")].map((l) =>
            l.dataset.lane === "parent" ? "(parent)" : (l.dataset.subagent ?? "?"),
          ),
        ),
      };
    }),
  );

const byIndex = (pins: [string, number][]) =>
  [...pins].sort(([a, i], [b, j]) => i - j || (a < b ? -1 : a > b ? 1 : 0));

describe.skipIf(!installed)("the HTML report in Chromium", () => {
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    if (!existsSync(join(REPO, "dist/cli.js"))) throw new Error("no dist/: run `npx tsup`");
    dir = mkdtempSync(join(tmpdir(), "html-report-"));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
    });
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** The command's HTML report of `args`, in `name` under the temporary folder. */
  async function report(name: string, args: string[]): Promise<string> {
    const file = join(dir, name);
    const run = await runCli(["--reporter", "html", "--output", file, ...args], { cwd: REPO });
    expect(run.code === 0 || run.code === 1, run.stderr).toBe(true);
    return file;
  }

  /** Opens `file`, waits for the page to be drawn, and watches what it does. */
  async function open(file: string) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const url = pathToFileURL(file).href;
    const problems: string[] = [];
    const requests: string[] = [];
    const dialogs: string[] = [];
    const navigations: string[] = [];
    page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") {
        problems.push(`console.${message.type()}: ${message.text()}`);
      }
    });
    page.on("request", (request) => {
      if (request.url() !== url) requests.push(request.url());
    });
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on("framenavigated", (frame) => {
      if (frame.url() !== url) navigations.push(frame.url());
    });
    const start = performance.now();
    await page.goto(url);
    await page.waitForFunction("document.documentElement.dataset.ready === 'true'", undefined, {
      timeout: 120_000,
    });
    const ms = performance.now() - start;
    return { page, url, problems, requests, dialogs, navigations, ms };
  }

  it("draws every bundled capture: its runs, lanes, bars and findings", async () => {
    const file = await report("captures.html", ["examples/captures"]);
    const reports = await ndjson(["examples/captures"]);
    const { page, problems, requests, dialogs } = await open(file);
    // A corpus: a summary row per input, each opening the input's timeline.
    expect(await page.$$eval("table.summary tbody tr", (rows) => rows.length)).toBe(reports.length);
    for (const row of await page.$$("table.summary tbody tr")) await row.click();
    const sections = await drawn(page);
    expect(sections.map((s) => s.input)).toEqual(reports.map((r) => r.name));
    const har = harStreams(readFileSync(join(REPO, "examples/captures/session.har"), "utf8"));
    let entry = 0;
    for (const [k, input] of reports.entries()) {
      const text = input.name.endsWith(".har")
        ? (har[entry++] ?? "")
        : readFileSync(join(REPO, input.name), "utf8");
      const events = input.name.endsWith(".jsonl")
        ? text
            .split("\n")
            .filter((l) => l !== "")
            .map((l) => JSON.parse(l) as unknown)
        : sseEvents(text);
      expect(events.length, input.name).toBe(input.events);
      const want = expectedTimeline(events);
      const got = sections[k];
      expect(got?.runs, input.name).toBe(want.runs);
      expect(got?.lanes, input.name).toBe(want.lanes);
      expect(got?.bars, input.name).toEqual(want.bars);
      const pins = input.findings.map((f) => [f.code, f.index] as [string, number]);
      expect(byIndex(got?.pins ?? []), input.name).toEqual(byIndex(pins));
    }
    expect(sections.reduce((n, s) => n + s.pins.length, 0)).toBeGreaterThan(5);
    expect({ problems, requests, dialogs }).toEqual({ problems: [], requests: [], dialogs: [] });
    await page.close();
  });

  it("draws a capture of several runs and nested subagents, lane for lane", async () => {
    const events = multiAgentCapture();
    const capture = join(dir, "multi.sse");
    writeFileSync(capture, sse(events));
    const [input] = await ndjson([capture]);
    const { page, problems, requests } = await open(await report("multi.html", [capture]));
    const [got] = await drawn(page);
    const want = expectedTimeline(events);
    expect(want.runs).toBe(3);
    expect(want.lanes).toBe(12);
    expect(got?.runs).toBe(want.runs);
    expect(got?.lanes).toBe(want.lanes);
    expect(got?.bars).toEqual(want.bars);
    // Each subagent under the one that started it: parent, s1, s2, "".
    expect(got?.subagents).toEqual(Array(3).fill(["(parent)", "s1", "s2", ""]));
    const depth = await page.$$eval('[data-run="0"] [data-lane] .lane-label', (labels) =>
      labels.map((l) => (l as HTMLElement).style.paddingLeft),
    );
    expect(depth).toEqual(["6px", "20px", "34px", "48px"]);
    const pins = (input?.findings ?? []).map((f) => [f.code, f.index] as [string, number]);
    expect(pins.map(([code]) => code)).toContain("STREAM_ENDED_BEFORE_RUN_CLOSED");
    expect(byIndex(got?.pins ?? [])).toEqual(byIndex(pins));
    // The end-of-input finding is pinned in the last run.
    const last = await page.$$eval(
      '[data-run="2"] [data-finding="STREAM_ENDED_BEFORE_RUN_CLOSED"]',
      (p) => p.length,
    );
    expect(last).toBe(1);
    // The call left open runs to the end, marked.
    expect(
      await page.$eval('[data-entity="tool-call"][data-id="left-open"]', (b) => b.className),
    ).toContain("open");
    expect({ problems, requests }).toEqual({ problems: [], requests: [] });
    await page.close();
  });

  it("shows a finding's message, rule page and event when it is selected, and the event's bar", async () => {
    const capture = "examples/captures/owner-mismatch.sse";
    const events = sseEvents(readFileSync(join(REPO, capture), "utf8"));
    const [input] = await ndjson([capture]);
    const { page, problems } = await open(await report("owner.html", [capture]));
    await page.click('[data-finding="OWNER_MISMATCH"]');
    const json = await page.textContent("#detail pre.json");
    expect(JSON.parse(json ?? "")).toEqual(events[7]);
    const detail = await page.textContent("#detail");
    expect(detail).toContain(input?.findings[0] ? "OWNER_MISMATCH" : "?");
    expect(await page.getAttribute("#detail a", "href")).toMatch(/rules\.md#owner_mismatch$/);
    expect(await page.getAttribute(".row.sel", "data-e")).toBe("7");
    // The keyboard: the table's rows, one at a time.
    await page.focus(".viewport");
    await page.keyboard.press("Home");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    expect(await page.getAttribute(".row.sel", "data-e")).toBe("2");
    expect(await page.textContent("#detail h2")).toBe("Event 2: SUBAGENT_STARTED");
    // An event of a message highlights the message's bar.
    await page.keyboard.press("ArrowDown");
    expect(
      await page.$eval('[data-entity="text"][data-id="msg-flights-1"]', (b) =>
        b.classList.contains("hl"),
      ),
    ).toBe(true);
    // A bar shows what it is, and its first event.
    await page.click('[data-entity="text"][data-id="msg-hotels-1"]');
    expect(await page.textContent("#detail h2")).toBe("text message msg-hotels-1");
    expect(JSON.parse((await page.textContent("#detail pre.json")) ?? "")).toEqual(events[4]);
    // A finding is reachable by keyboard.
    await page.focus('[data-finding="OWNER_MISMATCH"]');
    await page.click("#detail h2");
    await page.focus('[data-finding="OWNER_MISMATCH"]');
    await page.keyboard.press("Enter");
    expect(await page.textContent("#detail h2")).toBe("error OWNER_MISMATCH");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("sorts and filters the summary of several inputs", async () => {
    const { page } = await open(await report("sort.html", ["examples/captures"]));
    const names = () =>
      page.$$eval("table.summary tbody tr td:first-child", (c) => c.map((x) => x.textContent));
    const errors = () =>
      page.$$eval("table.summary tbody tr td:nth-child(3)", (c) =>
        c.map((x) => Number(x.textContent)),
      );
    await page.click("table.summary th:nth-child(3) button");
    await page.click("table.summary th:nth-child(3) button");
    const sorted = await errors();
    expect(sorted).toEqual([...sorted].sort((a, b) => b - a));
    expect(sorted[0]).toBe(3);
    await page.fill(".summary-box input", "owner_mismatch");
    expect(await names()).toHaveLength(2);
    await page.close();
  });

  it("shows a hostile capture's ids as text, and runs nothing of it", async () => {
    const capture = join(dir, "hostile.sse");
    const text = sse(hostileCapture());
    writeFileSync(capture, text);
    const file = await report("hostile.html", [capture]);
    // SPEC §22: under twice the input's size + 2 MB.
    expect(statSync(file).size).toBeLessThan(2 * Buffer.byteLength(text) + 2 * 1024 * 1024);
    const [input] = await ndjson([capture]);
    const { page, url, problems, requests, dialogs, navigations } = await open(file);
    // Click everything that can be clicked.
    for (const handle of await page.$$("[data-finding], [data-entity], .tick")) {
      await handle.click({ force: true });
    }
    const pins = await page.$$eval("[data-finding]", (p) => p.length);
    expect(pins).toBe(input?.findings.length);
    // Every hostile id is a bar's id, shown as text (bidi controls as escapes).
    const bars = await page.$$eval('[data-entity="text"]', (b) =>
      b.map((e) => [(e as HTMLElement).dataset.id, e.textContent]),
    );
    expect(bars.map(([id]) => id)).toEqual(HOSTILE_IDS);
    expect(bars[1]?.[1]).toBe(HOSTILE_IDS[1]);
    expect(bars[3]?.[1]).toBe("\\u202egnp.exe\\u202c safe \\u2066x\\u2069");
    const dom = await page.evaluate(() => {
      const texts: string[] = [];
      const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n !== null; n = walk.nextNode())
        texts.push(n.textContent ?? "");
      const handlers = [...document.querySelectorAll("*")].flatMap((e) =>
        [...e.attributes].filter((a) => a.name.startsWith("on")).map((a) => a.name),
      );
      return {
        pwned: Reflect.get(window, "__pwned"),
        images: document.images.length,
        scripts: document.scripts.length,
        handlers,
        links: [...document.querySelectorAll("a")].map((a) => a.href),
        bidi: texts.some((t) => /[\u202a-\u202e\u2066-\u2069]/.test(t)),
        shown: texts.filter((t) => t.includes("<img src=x")).length,
      };
    });
    expect(dom.pwned).toBeUndefined();
    expect(dom.images).toBe(0);
    expect(dom.scripts).toBe(2);
    expect(dom.handlers).toEqual([]);
    expect(dom.links.every((href) => href.startsWith("https://github.com/ag-ui-verify/"))).toBe(
      true,
    );
    expect(dom.bidi).toBe(false);
    expect(dom.shown).toBeGreaterThan(0);
    // The 1 MB string, clipped, saying how long it was.
    await page.selectOption(".filters select >> nth=0", { label: "CUSTOM" });
    await page.click(".row");
    expect(await page.textContent("#detail pre.json")).toContain("… (1,048,576 characters)");
    expect(page.url()).toBe(url);
    expect({ problems, requests, dialogs, navigations }).toEqual({
      problems: [],
      requests: [],
      dialogs: [],
      navigations: [],
    });
    await page.close();
  });

  it("renders a 100,000-event capture, elided, within the size bound", async () => {
    const capture = join(dir, "long.sse");
    const text = longCapture(100_000);
    writeFileSync(capture, text);
    const [input] = await ndjson([capture]);
    expect(input?.events).toBe(100_000);
    const start = performance.now();
    const file = await report("long.html", [capture]);
    const written = performance.now() - start;
    const size = statSync(file).size;
    expect(size).toBeLessThan(Buffer.byteLength(text) + 2 * 1024 * 1024);
    const { page, problems, requests, ms } = await open(file);
    console.log(
      `100,000 events: input ${Buffer.byteLength(text).toLocaleString("en-US")} bytes, report ${size.toLocaleString("en-US")} bytes, written in ${Math.round(written)} ms, drawn in Chromium in ${Math.round(ms)} ms`,
    );
    const runs = text.split('"RUN_STARTED"').length - 1;
    expect(await page.$$eval("[data-run]", (r) => r.length)).toBe(runs);
    const elided = await page.$$eval("[data-run][data-elided]", (r) => r.length);
    expect(elided).toBeGreaterThan(70);
    expect(await page.textContent(".note")).toContain("80,000 events elided");
    expect(await page.textContent(".filters .muted")).toBe("20,000 events shown (80,000 elided)");
    expect(await page.$$eval("[data-finding]", (p) => p.length)).toBe(input?.findings.length);
    expect({ problems, requests }).toEqual({ problems: [], requests: [] });
    await page.close();
  });
});
