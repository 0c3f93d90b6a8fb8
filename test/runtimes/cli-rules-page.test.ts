// Issue 27 row 9: the rule pages ship in the package, and every report names them where they
// open. The package is laid out as npm installs it (the files `npm pack` lists, copied into
// node_modules/ag-ui-verify of a project; its dependencies linked), and its command run
// from the project, as `npx ag-ui-verify` runs it, and from a folder outside it: the text
// report names the page relative to the working directory, or as a file: URL; SARIF's
// helpUri and JUnit's rules property are URLs, or --rules-url's.

import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./cli-run.ts";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const manifest = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8"));

let root: string;
/** The project that depends on the package, and the package inside it. */
let project: string;
let installed: string;
/** The command as npx runs it: the package's bin. */
let bin: string;

const BROKEN = [
  { type: "RUN_STARTED", threadId: "t", runId: "r" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "x" },
  { type: "RUN_FINISHED", threadId: "t", runId: "r" },
];
const sse = (events: readonly unknown[]) =>
  events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("");

/** What `npm pack` would ship: the paths it lists. */
function packed(): Promise<string[]> {
  return new Promise((done, fail) => {
    execFile(
      "npm",
      ["pack", "--dry-run", "--json", "--ignore-scripts"],
      { cwd: REPO, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout) => {
        if (error !== null) fail(error);
        else done(JSON.parse(stdout)[0].files.map((f: { path: string }) => f.path));
      },
    );
  });
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "ag-ui-verify-rules-"));
  project = join(root, "project");
  installed = join(project, "node_modules", "ag-ui-verify");
  for (const file of await packed()) {
    await mkdir(dirname(join(installed, file)), { recursive: true });
    await copyFile(join(REPO, file), join(installed, file));
  }
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    await symlink(join(REPO, "node_modules", name), join(project, "node_modules", name), "dir");
  }
  bin = join(installed, manifest.bin["ag-ui-verify"]);
  await writeFile(join(project, "broken.sse"), sse(BROKEN));
  await mkdir(join(root, "elsewhere"));
  await writeFile(join(root, "elsewhere", "broken.sse"), sse(BROKEN));
});

afterAll(async () => {
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

/** The installed command, run in `cwd`. */
function command(args: readonly string[], cwd: string) {
  return runCli(args, { cwd, cli: bin });
}

/** The section of the page `link` (`<page>#<anchor>`) opens: its heading must be there. */
function opens(link: string, cwd: string): boolean {
  const [page = "", anchor = ""] = link.split("#");
  const file = page.startsWith("file:") ? fileURLToPath(page) : join(cwd, page);
  if (!existsSync(file)) return false;
  return readFileSync(file, "utf8").includes(`\n### ${anchor.toUpperCase()}\n`);
}

/** The rule page links a text report ends its findings with. */
const links = (stdout: string) => [...stdout.matchAll(/ {2}(\S+#[a-z_]+)\n/g)].map((m) => m[1]);

describe("the rule pages in the installed package", () => {
  it("ship: docs/rules.md is packed, and links only to itself or to absolute URLs", () => {
    const page = join(installed, "docs", "rules.md");
    expect(existsSync(page)).toBe(true);
    const targets = [...readFileSync(page, "utf8").matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
    expect(targets.length).toBeGreaterThan(50);
    expect(targets.filter((t) => !/^(#[a-z0-9_-]+|https:\/\/\S+)$/.test(t ?? ""))).toEqual([]);
  });

  it("package.json names the repository, the home page and where bugs go, consistently", () => {
    expect(manifest.repository).toEqual({
      type: "git",
      url: "git+https://github.com/ag-ui-verify/ag-ui-verify.git",
    });
    const home = "https://github.com/ag-ui-verify/ag-ui-verify";
    expect(manifest.homepage).toBe(`${home}#readme`);
    expect(manifest.bugs).toEqual({ url: `${home}/issues` });
  });

  it("the text report from the project names them relative to it, and the link opens", async () => {
    const r = await command(["broken.sse"], project);
    expect(r.code).toBe(1);
    const found = links(r.stdout);
    expect(found).toEqual([
      `${join("node_modules", "ag-ui-verify", "docs", "rules.md")}#text_message_not_open`,
    ]);
    expect(found.every((link) => link !== undefined && opens(link, project))).toBe(true);
  });

  it("from a folder outside the package, names them as a file: URL that opens", async () => {
    const cwd = join(root, "elsewhere");
    const r = await command(["broken.sse"], cwd);
    const page = pathToFileURL(join(installed, "docs", "rules.md")).href;
    expect(links(r.stdout)).toEqual([`${page}#text_message_not_open`]);
    expect(opens(`${page}#text_message_not_open`, cwd)).toBe(true);
    // The summary of several inputs names each code's page too.
    const many = await command(["broken.sse", "broken.sse"], cwd);
    expect(many.stdout).toContain(`${page}#text_message_not_open\n`);
    // And the help says where they are.
    expect((await command(["--help"], cwd)).stdout).toContain(`${page}#<code in lower case>`);
  });

  it("SARIF's helpUri and JUnit's rules property are the packaged page's URL by default", async () => {
    const page = pathToFileURL(join(installed, "docs", "rules.md")).href;
    const sarif = JSON.parse(
      (await command(["broken.sse", "--reporter", "sarif"], project)).stdout,
    );
    const driver = sarif.runs[0].tool.driver;
    expect(driver.rules.map((rule: { helpUri?: string }) => rule.helpUri)).toEqual([
      `${page}#text_message_not_open`,
    ]);
    expect(driver.informationUri).toBe(manifest.homepage);
    const junit = (await command(["broken.sse", "--reporter", "junit"], project)).stdout;
    expect(junit).toContain(`<property name="rules" value="${page}"/>`);
  });
});

describe("--rules-url", () => {
  const URL_ = "https://docs.example.test/ag-ui-verify/rules.md";

  it("is where every report points: the text, the summary, SARIF and JUnit", async () => {
    const text = await command(["broken.sse", "--rules-url", URL_], project);
    expect(links(text.stdout)).toEqual([`${URL_}#text_message_not_open`]);
    const many = await command(["broken.sse", "broken.sse", "--rules-url", URL_], project);
    expect(many.stdout).toContain(`${URL_}#text_message_not_open\n`);
    const sarif = JSON.parse(
      (await command(["broken.sse", "--reporter", "sarif", `--rules-url=${URL_}`], project)).stdout,
    );
    expect(sarif.runs[0].tool.driver.rules[0].helpUri).toBe(`${URL_}#text_message_not_open`);
    const junit = (
      await command(["broken.sse", "--reporter", "junit", "--rules-url", URL_], project)
    ).stdout;
    expect(junit).toContain(`<property name="rules" value="${URL_}"/>`);
  });

  it.each([
    ["docs/rules.md", "is not an absolute URL; give one such as https://"],
    ["javascript:alert(1)", "must be an http, https or file URL, not javascript:"],
    [`${URL_}#top`, "without a #fragment"],
  ])("%s is a usage error", async (value, message) => {
    const r = await command(["broken.sse", "--rules-url", value], project);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`ag-ui-verify: --rules-url`);
    expect(r.stderr).toContain(message);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });
});
