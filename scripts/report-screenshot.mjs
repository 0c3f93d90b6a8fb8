/**
 * Writes docs/report.png, the picture of the HTML report that docs/report.md (and the
 * README) show: the command's `--reporter html` page of a bundled capture, opened in
 * headless Chromium (Debian's `chromium`, or CHROMIUM_PATH) with playwright-core, its
 * finding selected. Run it after `npx tsup` whenever the report's look changes:
 *
 *   npx tsup && node scripts/report-screenshot.mjs
 *
 * `--capture <file>` draws another capture, `--out <file>` writes elsewhere.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const { values } = parseArgs({
  options: {
    capture: { type: "string", default: "examples/captures/owner-mismatch.sse" },
    out: { type: "string", default: "docs/report.png" },
  },
});
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(join(ROOT, "dist/cli.js"))) throw new Error("no dist/cli.js: run `npx tsup` first");
if (!existsSync(CHROMIUM))
  throw new Error(`no Chromium at ${CHROMIUM}: install it, or set CHROMIUM_PATH`);

const dir = mkdtempSync(join(tmpdir(), "report-screenshot-"));
const html = join(dir, "report.html");
const run = spawnSync(
  process.execPath,
  ["dist/cli.js", "--reporter", "html", "--output", html, values.capture],
  { cwd: ROOT, encoding: "utf8" },
);
// 1 is a capture with an error, which is what the picture is for.
if (run.status !== 0 && run.status !== 1) throw new Error(`the command failed:\n${run.stderr}`);

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--font-render-hinting=none"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await page.goto(pathToFileURL(html).href);
  await page.waitForFunction("document.documentElement.dataset.ready === 'true'");
  // The first finding selected: its message, rule page and event in the side panel.
  const pin = await page.$("[data-finding]");
  if (pin !== null) await pin.click();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(ROOT, values.out) });
  console.log(`${values.out}: ${values.capture}`);
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
