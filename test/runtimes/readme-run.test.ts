// Every snippet of README.md runs, and does what the README says it does (issue 27, row 12).
// test/runtimes/docs-typescript.test.ts compiles the TypeScript blocks; this test runs them:
//
// - each TypeScript block, transpiled, in a Node process of its own (test/support/
//   readme-harness.mjs), against the built package by its name, once with a valid capture
//   and once with a broken one served by every `fetch`; what reached `render` and
//   `showBrokenStream`, what it threw, the rejections nobody handled and `process.exitCode`
//   are compared with the table below, which names every block (a new block without a row
//   fails). The HttpAgent blocks run the real `@ag-ui/client` 1.0.0, so the README's account
//   of both `onViolation` modes, the marked RUN_ERROR and the unhandled-rejection caveat
//   (issue 27, row 4), is the client's behaviour and not a paraphrase;
// - the Vitest block as a Vitest suite of its own;
// - every `npx ag-ui-verify …` command of a block or an inline code span, with the built
//   command, in a folder holding the paths it names: none is a usage error (exit 2);
// - every `npm run …` names a script, and the claims about the package (its name, the
//   dependencies, the Node version, the subpaths, the number of codes) match package.json
//   and the build.
// Needs a build (`npm test` builds first).

import { execFile } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FencedBlock, fencedBlocks, isStandaloneTypeScript } from "../support/doc-blocks.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** Inside the repository (git-ignored), so that `ag-ui-verify` resolves to the package itself. */
const WORK = path.join(ROOT, ".readme-run");
const HARNESS = fileURLToPath(new URL("../support/readme-harness.mjs", import.meta.url));
const VALID = path.join(ROOT, "examples/captures/agentic.sse");
/** OWNER_MISMATCH at index 7, after seven valid events. */
const BROKEN = path.join(ROOT, "examples/captures/owner-mismatch.sse");
const SSE = "text/event-stream";
const PROTO = "application/vnd.ag-ui.event+proto";

const readme = fencedBlocks(ROOT, "README.md");
const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
const readmeText = readFileSync(path.join(ROOT, "README.md"), "utf8");

interface Ran {
  fetches: number;
  rendered: number;
  broken: string[];
  logged: string[];
  unhandled: { name: string; code?: string; message: string }[];
  served?: { status: number; text: string } | undefined;
  error?: { name: string; code?: string; message: string } | undefined;
  exitCode: number;
}

function node(
  args: string[],
  cwd = ROOT,
): Promise<{ code: number; output: string; stdout: string }> {
  return new Promise((done) => {
    const env = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" };
    execFile(process.execPath, args, { cwd, env, maxBuffer: 1 << 26 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
      done({ code, output: stdout + stderr, stdout });
    });
  });
}

async function runSnippet(file: string, capture: string, type = SSE): Promise<Ran> {
  const { code, output, stdout } = await node([HARNESS, file, capture, type]);
  expect(code, output).toBe(0);
  const ran = JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as Ran;
  return { error: undefined, served: undefined, ...ran };
}

/** The snippet as a module beside the package: TypeScript transpiled, nothing else changed. */
function writeSnippet(block: FencedBlock, name: string): string {
  const js = ts.transpileModule(block.code, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    fileName: `${name}.ts`,
  }).outputText;
  const file = path.join(WORK, `${name}.mjs`);
  writeFileSync(file, js);
  return file;
}

const validEvents = readFileSync(VALID, "utf8").match(/^data:/gm)?.length ?? 0;

type Check = (valid: Ran, broken: Ran) => void;

/** What a block that reads the events does: all of them when valid; when broken, the error. */
const readsAndThrows: Check = (valid, broken) => {
  expect(valid.error).toBeUndefined();
  expect(valid.rendered).toBeGreaterThan(0);
  expect(broken.error).toMatchObject({ name: "VerifyError", code: "OWNER_MISMATCH" });
};

/**
 * Every TypeScript block of the README, by its heading and its place under it: what it does
 * with the valid capture and with the broken one.
 */
const EXPECTED: Record<string, Check> = {
  "ag-ui-verify #1": (valid, broken) => {
    readsAndThrows(valid, broken);
    expect(valid.rendered).toBe(validEvents);
    // "after every valid event": the seven before the violation were rendered.
    expect(broken.rendered).toBe(7);
  },
  "Read an agent endpoint with `fetch` #1": (valid, broken) => {
    expect(valid).toMatchObject({ error: undefined, broken: [], rendered: validEvents });
    expect(broken.error).toBeUndefined();
    expect(broken.rendered).toBe(7);
    expect(broken.broken).toEqual([expect.stringContaining("[OWNER_MISMATCH, rule 9]")]);
  },
  "Typed events you can trust #1": (valid, broken) => {
    readsAndThrows(valid, broken);
  },
  "Run an agent (`runAgent`) #1": (valid, broken) => {
    readsAndThrows(valid, broken);
    expect(valid.fetches).toBe(1);
  },
  "A conformant AG-UI 1.1 consumer without @ag-ui/client (`ag-ui-verify/conform`) #1":
    readsAndThrows,
  "A conformant AG-UI 1.1 consumer without @ag-ui/client (`ag-ui-verify/conform`) #2":
    readsAndThrows,
  "AG-UI over protobuf (`ag-ui-verify/proto`) #1": readsAndThrows,
  "Using it with HttpAgent, CopilotKit, assistant-ui #1": (valid, broken) => {
    for (const ran of [valid, broken]) expect(ran).toMatchObject({ error: undefined, fetches: 0 });
  },
  // The default "run-error": runAgent resolves; the marked RUN_ERROR reaches onRunErrorEvent.
  "Using it with HttpAgent, CopilotKit, assistant-ui #2": (valid, broken) => {
    expect(valid).toMatchObject({ error: undefined, broken: [], rendered: 0, unhandled: [] });
    expect(broken).toMatchObject({ error: undefined, rendered: 0, unhandled: [] });
    expect(broken.broken).toEqual([
      expect.stringMatching(/^ag-ui-verify rejected the stream: .*\[OWNER_MISMATCH, rule 9\]/),
    ]);
  },
  // "error": runAgent rejects and onRunFailed fires, both with the VerifyError; HttpAgent
  // 1.0.0 also leaves an unhandled rejection of it (the caveat), which the snippet handles.
  "Using it with HttpAgent, CopilotKit, assistant-ui #3": (valid, broken) => {
    expect(valid).toMatchObject({ error: undefined, broken: [], unhandled: [] });
    expect(broken.error).toBeUndefined();
    expect(broken.broken).toEqual([expect.stringContaining("[OWNER_MISMATCH, rule 9]")]);
    expect(broken.unhandled).toEqual([
      expect.objectContaining({ name: "VerifyError", code: "OWNER_MISMATCH" }),
    ]);
  },
  "Proxy an agent through a Worker (`verifyResponse`) #1": (valid, broken) => {
    expect(valid.error).toBeUndefined();
    expect(valid.served).toEqual({ status: 200, text: readFileSync(VALID, "utf8") });
    expect(broken.error).toBeUndefined();
    expect(broken.served?.text).toMatch(
      /"type":"RUN_ERROR".*"code":"AG_UI_VERIFY_OWNER_MISMATCH"[^\n]*\n\n$/,
    );
  },
  "Lint in code (`ag-ui-verify/lint`) #1": (valid, broken) => {
    expect(valid).toMatchObject({ error: undefined, exitCode: 0 });
    expect(broken).toMatchObject({ error: undefined, exitCode: 1 });
    expect(broken.logged).toContainEqual(expect.stringMatching(/^error OWNER_MISMATCH line \d+: /));
  },
  // Builds the pipeline; reading it is the first blocks' business.
  "Compose the stages yourself #1": (valid, broken) => {
    for (const ran of [valid, broken]) expect(ran).toMatchObject({ error: undefined, fetches: 0 });
  },
};

/** The blocks run by Vitest itself, not by the harness. */
const VITEST_BLOCK =
  "Test a backend (`ag-ui-verify/testing`, `ag-ui-verify/vitest`, `ag-ui-verify/jest`) #1";

const named = (() => {
  const seen = new Map<string, number>();
  return readme.filter(isStandaloneTypeScript).map((block) => {
    const heading = block.heading === "" ? "ag-ui-verify" : block.heading;
    const n = (seen.get(heading) ?? 0) + 1;
    seen.set(heading, n);
    return { key: `${heading} #${n}`, block };
  });
})();

beforeAll(() => {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
});
afterAll(() => rmSync(WORK, { recursive: true, force: true }));

describe("README TypeScript blocks run as documented", () => {
  it("every block has a row, and every row a block", () => {
    expect(named.map((n) => n.key).sort()).toEqual([...Object.keys(EXPECTED), VITEST_BLOCK].sort());
  });

  it.each(
    named
      .filter((n) => n.key !== VITEST_BLOCK)
      .map((n) => [`${n.block.where} ${n.key}`, n] as const),
  )("%s", async (_where, { key, block }) => {
    const file = writeSnippet(block, `block-${block.firstLine}`);
    const protobuf = /ag-ui-verify\/proto/.test(block.code);
    // The protobuf block gets a protobuf body; the same events as the SSE captures.
    const [valid, broken] = protobuf
      ? await Promise.all([
          runSnippet(file, await protoCapture(VALID), PROTO),
          runSnippet(file, await protoCapture(BROKEN), PROTO),
        ])
      : await Promise.all([runSnippet(file, VALID), runSnippet(file, BROKEN)]);
    EXPECTED[key]?.(valid, broken);
  });

  it("the Vitest block passes on a valid stream and fails with the report on a broken one", async () => {
    const block = named.find((n) => n.key === VITEST_BLOCK)?.block;
    expect(block).toBeDefined();
    if (block === undefined) return;
    const dir = path.join(WORK, "vitest");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, "readme.test.mjs"),
      ts.transpileModule(block.code, {
        compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
      }).outputText,
    );
    // The prelude's `agent` and `input`: an agent whose run() gives the capture's SSE text.
    writeFileSync(
      path.join(dir, "setup.mjs"),
      `import { readFileSync } from "node:fs";
globalThis.input = { threadId: "t", runId: "r", messages: [], tools: [], context: [], state: {}, forwardedProps: {} };
globalThis.agent = { run: () => readFileSync(process.env.README_CAPTURE, "utf8") };
`,
    );
    writeFileSync(
      path.join(dir, "vitest.config.mjs"),
      `export default { test: { include: ["*.test.mjs"], setupFiles: ["./setup.mjs"] } };\n`,
    );
    const vitest = path.join(ROOT, "node_modules/vitest/vitest.mjs");
    const run = (capture: string) => {
      process.env.README_CAPTURE = capture;
      return node([vitest, "run", "--root", dir]);
    };
    const valid = await run(VALID);
    expect(valid.output).toMatch(/Tests {2}1 passed \(1\)/);
    expect(valid.code).toBe(0);
    const broken = await run(BROKEN);
    expect(broken.output).toMatch(/Tests {2}1 failed \(1\)/);
    expect(broken.output).toMatch(/at index 7: .*\[OWNER_MISMATCH, rule 9\]/);
    expect(broken.code).toBe(1);
    delete process.env.README_CAPTURE;
  });
});

/** The capture's events as protobuf frames, written with the package's own encoder. */
async function protoCapture(sse: string): Promise<string> {
  const { encodeFrame } = await import("ag-ui-verify/proto");
  const events = readFileSync(sse, "utf8")
    .split("\n")
    .filter((l) => l.startsWith("data:"))
    .map((l) => JSON.parse(l.slice(5)));
  const frames = events.map((e) => encodeFrame(e));
  const bytes = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
  let at = 0;
  for (const f of frames) {
    bytes.set(f, at);
    at += f.length;
  }
  const file = path.join(WORK, `${path.basename(sse, ".sse")}.pb`);
  writeFileSync(file, bytes);
  return file;
}

describe("README commands", () => {
  /** Every `npx ag-ui-verify …` of a sh or yaml block, or of an inline code span. */
  const commands = [
    ...readme
      .filter((b) => b.lang === "sh" || b.lang === "yaml")
      .flatMap((b) => b.code.split("\n"))
      .map((l) => /npx ag-ui-verify(?: [^#\n]*)?/.exec(l)?.[0]),
    ...[...readmeText.matchAll(/`(npx ag-ui-verify[^`]*)`/g)].map((m) => m[1]),
  ]
    .filter((c): c is string => c !== undefined)
    .map((c) => c.trim())
    .filter((c, i, all) => all.indexOf(c) === i);

  it("finds them", () => {
    expect(commands.length).toBeGreaterThanOrEqual(5);
  });

  it.each(commands.map((c) => [c]))("%s: runs, with no usage or I/O problem", async (command) => {
    // A folder holding what the commands name: the bundled captures where the README
    // says, and a captures/ folder and a session.har as a user's project would have.
    const cwd = path.join(WORK, `cmd-${commands.indexOf(command)}`);
    cpSync(path.join(ROOT, "examples/captures"), path.join(cwd, "examples/captures"), {
      recursive: true,
    });
    cpSync(path.join(ROOT, "examples/captures"), path.join(cwd, "captures"), { recursive: true });
    cpSync(path.join(ROOT, "examples/captures/session.har"), path.join(cwd, "session.har"));
    const args = command
      .replace(/^npx ag-ui-verify\s*/, "")
      .split(/\s+/)
      .filter(Boolean);
    const { code, output } = await node([path.join(ROOT, "dist/cli.js"), ...args], cwd);
    expect([0, 1], output).toContain(code);
    const out = args.indexOf("--output");
    if (out >= 0)
      expect(readFileSync(path.join(cwd, args[out + 1] ?? "")).length).toBeGreaterThan(0);
  });

  it("every `npm run` names a script of package.json", () => {
    const runs = [...readmeText.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1] ?? "");
    expect(runs.length).toBeGreaterThanOrEqual(5);
    for (const name of new Set(runs)) expect(Object.keys(pkg.scripts), name).toContain(name);
  });
});

describe("README claims match the package", () => {
  const firstScreen = readmeText.slice(0, readmeText.indexOf("\n---\n"));

  it("installs the package by its name, and Deno by the JSR name deno.json gives", () => {
    const deno = JSON.parse(readFileSync(path.join(ROOT, "deno.json"), "utf8"));
    expect(firstScreen).toContain(`npm install ${pkg.name} `);
    expect(firstScreen).toContain(`from "jsr:${deno.name}"`);
  });

  it("names exactly the dependencies package.json has, and how many", () => {
    const sentence = firstScreen.split(/(?<=\.)\s/).find((s) => /dependenc/.test(s)) ?? "";
    const named = [...sentence.matchAll(/`([@\w/.-]+)`/g)]
      .map((m) => m[1])
      .filter((n) => !n?.startsWith("/"));
    expect(named.sort()).toEqual(Object.keys(pkg.dependencies).sort());
    const words = ["no", "one", "two", "three", "four"];
    expect(sentence).toContain(`${words[named.length]} small dependenc`);
  });

  it("gives the Node version of engines", () => {
    expect(pkg.engines.node).toMatch(/^>=/);
    expect(firstScreen).toContain(`Node ≥ ${pkg.engines.node.slice(2)}`);
  });

  it("lists every subpath export in the package's contents", () => {
    const sentence =
      /the built JavaScript and\s+declarations of the main entry and ([^.]*)subpaths/.exec(
        readmeText,
      )?.[1];
    expect(sentence).toBeDefined();
    const listed = [...(sentence ?? "").matchAll(/`(\/[\w-]+)`/g)].map((m) => m[1]);
    const exported = Object.keys(pkg.exports)
      .filter((k) => k !== "." && k !== "./package.json")
      .map((k) => k.slice(1));
    expect(listed.sort()).toEqual(exported.sort());
  });

  it("counts the codes and event types as the build does", async () => {
    const { EVENT_TYPES, VERIFY_ERROR_CODES } = await import("ag-ui-verify");
    expect(readmeText).toContain(`\`VERIFY_ERROR_CODES\` lists all ${VERIFY_ERROR_CODES.length}`);
    expect(readmeText).toContain(`discriminated union of the ${EVENT_TYPES.length}`);
    expect(readdirSync(path.join(ROOT, "dist")).length).toBeGreaterThan(0);
  });
});
