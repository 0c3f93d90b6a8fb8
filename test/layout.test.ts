// The shape of src/ (README "Development"): one folder per layer, imports pointing one way
// only (from the command down to the vocabulary), no import circle, no hand-written file
// over 600 lines, and nothing outside src/cli/ touching `process`, the file system or Deno.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const SRC = new URL("../src/", import.meta.url);
const GENERATED = new Set([
  "schema/generated.ts",
  "conform/generated.ts",
  "proto/wire.generated.ts",
]);
const MAX_LINES = 600;

/**
 * Layers from the bottom up; a module may import from its own layer or a lower one. The
 * schema's Standard Schema types sit below the rules, which accept any such schema.
 */
const LAYERS: readonly (readonly [string, (file: string) => boolean])[] = [
  ["vocabulary", (f) => f === "errors.ts" || f.startsWith("events/") || f.startsWith("_util/")],
  ["schema", (f) => f.startsWith("schema/")],
  ["sse", (f) => f.startsWith("sse/")],
  ["verify", (f) => f.startsWith("verify/")],
  ["streams", (f) => f.startsWith("streams/")],
  ["http", (f) => f.startsWith("http/")],
  ["conform", (f) => f.startsWith("conform/")],
  ["proto", (f) => f.startsWith("proto/")],
  // lint/index.ts is an entry point: it re-exports the HTML report (SPEC §22) from report/.
  ["lint", (f) => f.startsWith("lint/") && f !== "lint/index.ts"],
  ["report", (f) => f.startsWith("report/")],
  ["testing", (f) => f.startsWith("testing/")],
  ["entry", (f) => f === "index.ts" || f === "lint/index.ts"],
  ["cli", (f) => f.startsWith("cli/")],
];

function layerOf(file: string): number {
  const i = LAYERS.findIndex(([, test]) => test(file));
  if (i === -1) throw new Error(`src/${file} is in no layer: put it in one of the folders`);
  return i;
}

function sources(dir = ""): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(new URL(dir, SRC), { withFileTypes: true })) {
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory()) out.push(...sources(`${path}/`));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out.sort();
}

/** The relative modules a file imports or re-exports, as paths under src/ (comments skipped). */
function importsOf(file: string, text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const found: string[] = [];
  for (const m of code.matchAll(/\b(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)) {
    const url = new URL(m[1] ?? "", new URL(file, SRC));
    found.push(url.pathname.slice(SRC.pathname.length));
  }
  return found;
}

const files = sources();
const texts = new Map(files.map((f) => [f, readFileSync(new URL(f, SRC), "utf8")]));
const graph = new Map(files.map((f) => [f, importsOf(f, texts.get(f) ?? "")]));

describe("the layout of src/", () => {
  it("finds the modules and their imports", () => {
    expect(files.length).toBeGreaterThan(30);
    expect(graph.get("index.ts")).toContain("verify/verifier.ts");
  });

  it("puts the entry and the vocabulary alone at the root", () => {
    const root = files.filter((f) => !f.includes("/"));
    expect(root).toEqual(["errors.ts", "index.ts"]);
  });

  it.each(files)("src/%s imports only its own layer or lower ones", (file) => {
    const own = layerOf(file);
    const upward = (graph.get(file) ?? []).filter((target) => layerOf(target) > own);
    expect(upward).toEqual([]);
  });

  it("reaches into src/verify/ only through verifier.ts, the one module the build makes of it", () => {
    const inside = (f: string) => f.startsWith("verify/");
    const through = [...graph].flatMap(([f, targets]) =>
      inside(f)
        ? []
        : targets.filter((t) => inside(t) && t !== "verify/verifier.ts").map((t) => `${f} -> ${t}`),
    );
    expect(through).toEqual([]);
  });

  it("imports only modules that exist", () => {
    const missing = [...graph].flatMap(([f, targets]) =>
      targets.filter((t) => !texts.has(t)).map((t) => `${f} -> ${t}`),
    );
    expect(missing).toEqual([]);
  });

  it("has no import circle", () => {
    const circles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const walk = (file: string, path: string[]) => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "open") {
        circles.push([...path.slice(path.indexOf(file)), file].join(" -> "));
        return;
      }
      state.set(file, "open");
      for (const target of graph.get(file) ?? []) walk(target, [...path, file]);
      state.set(file, "done");
    };
    for (const file of files) walk(file, []);
    expect(circles).toEqual([]);
  });

  it(`has no hand-written file over ${MAX_LINES} lines`, () => {
    const long = files
      .filter((f) => !GENERATED.has(f))
      .map((f) => [f, (texts.get(f) ?? "").split("\n").length - 1] as const)
      .filter(([, lines]) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });

  it("keeps process, the file system and Deno inside src/cli/", () => {
    const touching = files
      .filter((f) => !f.startsWith("cli/"))
      .filter((f) => {
        const code = (texts.get(f) ?? "").replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
        return /from\s+"node:|\bprocess\.|\bDeno\.|\brequire\(/.test(code);
      });
    expect(touching).toEqual([]);
  });
});

describe("deno.json", () => {
  const deno = JSON.parse(readFileSync(new URL("../deno.json", import.meta.url), "utf8")) as {
    exports: Record<string, string>;
    imports: Record<string, string>;
    tasks: { check: string };
  };

  // `deno doc --lint` judges an entry's public types only against what the entries linted
  // with it export: every export is linted together (npm run check:deno, in CI).
  it("lints the docs of every export it publishes", () => {
    const lint = /deno doc -q --lint ([^&]+)&&/.exec(deno.tasks.check)?.[1]?.trim().split(/\s+/);
    expect(lint?.map((f) => `./${f}`).sort()).toEqual(Object.values(deno.exports).sort());
  });

  // Deno from JSR has no node_modules: a package src/ imports that the map does not name
  // fails to load there (issue 27 row 5: fast-json-patch, for /lint and /testing).
  it("maps every package the published modules import", () => {
    const published = files.filter(
      (f) => !f.startsWith("cli/") && f !== "testing/vitest.ts" && f !== "testing/jest.ts",
    );
    const packages = new Set<string>();
    for (const f of published) {
      const code = (texts.get(f) ?? "")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/^\s*\/\/.*$/gm, "");
      for (const m of code.matchAll(/\bfrom\s+"([^".][^"]*)"/g)) {
        const name = m[1] ?? "";
        if (!name.startsWith("node:")) packages.add(name);
      }
    }
    expect([...packages].filter((p) => deno.imports[p] === undefined)).toEqual([]);
    expect(packages).toContain("fast-json-patch");
  });
});
