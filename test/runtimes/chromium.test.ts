// Headless Chromium (Debian's `chromium`, driven by playwright-core), loading the built
// package with no bundler: pages on the local agent server map `ag-ui-verify`,
// `ag-ui-verify/schema` and `eventsource-parser` to dist/ files with an import map.
//   - test/browser/page.html runs the shared runtime cases with the browser's fetch;
//   - examples/browser/index.html streams a run into the DOM.
// Needs `npm run build` first (npm test does it).
//
// Without a browser these tests skip, except under CI (`CI` set), where a failing test takes
// their place: CI installs chromium (`apt-get install chromium`). `CHROMIUM_PATH` overrides
// the browser's path.

import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runtimeCases, VIOLATION_PREFIX, validRun } from "../runtime/cases.ts";
import { type AgentServer, startAgentServer } from "../server/agent-server.ts";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CI = (process.env.CI ?? "") !== "" && process.env.CI !== "false" && process.env.CI !== "0";
const installed = existsSync(CHROMIUM);
const INSTALL_HINT =
  "install it with `apt-get update && apt-get install -y chromium`, or set CHROMIUM_PATH";

if (!installed && CI) {
  // CI installs the browser: a missing one fails the run instead of skipping it.
  it("Chromium is installed (CI requires it)", () => {
    expect.fail(`CI is set but there is no Chromium at ${CHROMIUM}: ${INSTALL_HINT}.`);
  });
} else if (!installed) {
  console.warn(`Skipping the Chromium tests: no browser at ${CHROMIUM} (${INSTALL_HINT}).`);
}

type CaseResult = { name: string; ok: boolean; error?: string };

/** Each message's text, in order: what the examples show. */
function messageTexts(events: readonly { type: string }[]): string[] {
  const texts = new Map<string, string>();
  for (const event of events as { type: string; messageId?: string; delta?: string }[]) {
    if (event.type === "TEXT_MESSAGE_START") texts.set(event.messageId ?? "", "");
    if (event.type === "TEXT_MESSAGE_CONTENT") {
      const id = event.messageId ?? "";
      texts.set(id, (texts.get(id) ?? "") + (event.delta ?? ""));
    }
  }
  return [...texts.values()];
}

/** Collects the page's uncaught errors and console errors, for failure messages. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.stack ?? error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console.error: ${message.text()}`);
  });
  return problems;
}

describe.skipIf(!installed)("Chromium", () => {
  let server: AgentServer;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(join(REPO, "dist/index.js"))) throw new Error("no dist/: run `npm run build`");
    // The cases, compiled to a JS module the page can import (node_modules/ is git-ignored).
    const out = join(REPO, "node_modules/.cache/ag-ui-verify");
    await mkdir(out, { recursive: true });
    const result = await build({
      entryPoints: [join(REPO, "test/runtime/cases.ts")],
      bundle: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      write: false,
      logLevel: "silent",
    });
    await writeFile(join(out, "cases.js"), result.outputFiles[0]?.text ?? "");

    server = await startAgentServer();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Opens `path` on the agent server; waits for `ready` (a page expression) to hold. */
  async function open(path: string, ready: string): Promise<Page> {
    const page = await browser.newPage();
    const problems = watch(page);
    await page.goto(`${server.url}${path}`);
    try {
      await page.waitForFunction(ready, undefined, { timeout: 20_000 });
    } catch (error) {
      throw new Error(`${path}: ${ready} never held\n${problems.join("\n")}`, { cause: error });
    }
    return page;
  }

  describe("the runtime cases, with the browser's fetch", () => {
    let results: CaseResult[];

    beforeAll(async () => {
      const page = await open("/files/test/browser/page.html", "window.__results !== undefined");
      results = await page.evaluate(() => Reflect.get(window, "__results"));
      await page.close();
    });

    it("runs every case", () => {
      const names = runtimeCases({} as never, "").map((c) => c.name);
      expect(results.map((r) => r.name)).toEqual(names);
    });

    for (const { name } of runtimeCases({} as never, "")) {
      it(name, () => {
        const result = results.find((r) => r.name === name);
        expect(result?.error).toBeUndefined();
        expect(result).toEqual({ name, ok: true });
      });
    }
  });

  describe("examples/browser/index.html", () => {
    const paragraphs = (page: Page) =>
      page.$$eval("#transcript p", (ps) => ps.map((p) => p.textContent));

    it("streams a run's text into the page", async () => {
      const page = await open(
        "/files/examples/browser/index.html?agent=/run/valid%3Fchunk%3D64%26delay%3D10",
        "document.getElementById('status').textContent === 'Done.'",
      );
      expect(await paragraphs(page)).toEqual(messageTexts(validRun()));
      expect(await page.isHidden("#error")).toBe(true);
      await page.close();
    });

    it("shows a broken stream's VerifyError, after the text that came before it", async () => {
      const page = await open(
        "/files/examples/browser/index.html?agent=/run/violation",
        "document.getElementById('status').textContent === 'Failed.'",
      );
      expect(await paragraphs(page)).toEqual(messageTexts(validRun().slice(0, VIOLATION_PREFIX)));
      const error = await page.textContent("#error");
      expect(error).toMatch(/^Broken stream: /);
      expect(error).toContain("m1");
      await page.close();
    });
  });
});
