// What `npm publish` would ship, read from `npm pack --dry-run --json`: everything a user's
// import, require, type-check or `npx ag-ui-verify` reaches, and nothing else (no sources,
// tests or source maps). The entries come from package.json itself ("exports", "main",
// "module", "types", "bin"), so a new subpath is covered as soon as it is exported.
//
// The pack runs with --ignore-scripts: its prepack would rebuild dist/ while other tests
// read it. So this checks the build `npm test` made first.

import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("../..", import.meta.url));

interface Manifest {
  name: string;
  main?: string;
  module?: string;
  types?: string;
  bin?: string | Record<string, string>;
  exports: Record<string, unknown>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const manifest: Manifest = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8"));

/** Every file path a value of "exports" names, at any depth of conditions. */
function targets(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value === null || typeof value !== "object") return [];
  return Object.values(value).flatMap(targets);
}

/** A package.json path as npm lists it: no leading "./". */
const listed = (p: string): string => path.posix.normalize(p).replace(/^\.\//, "");

let packed: Set<string>;

beforeAll(async () => {
  const json = await new Promise<string>((done, fail) => {
    execFile(
      "npm",
      ["pack", "--dry-run", "--json", "--ignore-scripts"],
      { cwd: REPO, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout) => (error === null ? done(stdout) : fail(error)),
    );
  });
  const [result] = JSON.parse(json) as { files: { path: string }[] }[];
  packed = new Set(result?.files.map((f) => f.path));
});

/**
 * The specifiers a built file imports, re-exports or requires: `import … from "x"` and
 * `export … from "x"` statements (at a line's start, so not the examples in JSDoc),
 * `import "x"`, `import("x")` and `require("x")`.
 */
function specifiersOf(file: string): string[] {
  const text = readFileSync(path.join(REPO, file), "utf8");
  const patterns = [
    /^(?:import|export)\b[^;]*?\bfrom\s*(["'])([^"']+)\1/gm,
    /^import\s*(["'])([^"']+)\1/gm,
    /\b(?:import|require)\((["'])([^"']+)\1\)/g,
  ];
  return patterns.flatMap((re) => [...text.matchAll(re)].map((m) => m[2] ?? ""));
}

describe("the packed package", () => {
  it("holds every file package.json points at", () => {
    const entries = [
      ...Object.entries(manifest.exports).flatMap(([key, value]) =>
        key === "./package.json" ? [] : targets(value),
      ),
      ...[manifest.main, manifest.module, manifest.types].flatMap((p) => p ?? []),
      ...(typeof manifest.bin === "string" ? [manifest.bin] : Object.values(manifest.bin ?? {})),
    ].map(listed);
    expect(entries).toContain("dist/cli.js");
    expect(entries.filter((p) => !packed.has(p))).toEqual([]);
  });

  it("holds the package's README, LICENSE and CHANGELOG", () => {
    const docs = ["package.json", "README.md", "LICENSE", "CHANGELOG.md"];
    expect(docs.filter((file) => !packed.has(file))).toEqual([]);
  });

  it("holds no sources, tests or source maps", () => {
    const stray = [...packed].filter(
      (p) => p.startsWith("src/") || p.startsWith("test/") || p.endsWith(".map"),
    );
    expect(stray).toEqual([]);
  });

  it("holds every module a packed module imports", () => {
    const missing: string[] = [];
    for (const file of packed) {
      const declaration = /\.d\.[cm]?ts$/.test(file);
      if (!declaration && !/\.[cm]?js$/.test(file)) continue;
      for (const specifier of specifiersOf(file)) {
        if (!specifier.startsWith(".")) continue;
        let target = path.posix.join(path.posix.dirname(file), specifier);
        // A declaration names its sibling by the JavaScript file it describes.
        if (declaration) target = target.replace(/\.([cm]?)js$/, ".d.$1ts");
        if (!packed.has(target)) missing.push(`${file} → ${specifier}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("imports at run time only its dependencies and Node's built-in modules", () => {
    const allowed = new Set([
      manifest.name,
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
      ...builtinModules,
    ]);
    const packageOf = (s: string) => s.split("/", s.startsWith("@") ? 2 : 1).join("/");
    const foreign = [...packed]
      .filter((p) => /\.[cm]?js$/.test(p))
      .flatMap((file) =>
        specifiersOf(file)
          .filter((s) => !s.startsWith(".") && !s.startsWith("node:"))
          .filter((s) => !allowed.has(packageOf(s)))
          .map((s) => `${file} → ${s}`),
      );
    expect(foreign).toEqual([]);
  });

  it("uses every runtime dependency it installs", () => {
    const imported = new Set(
      [...packed].filter((p) => /\.[cm]?js$/.test(p)).flatMap((file) => specifiersOf(file)),
    );
    const unused = Object.keys(manifest.dependencies ?? {}).filter(
      (name) => ![...imported].some((s) => s === name || s.startsWith(`${name}/`)),
    );
    expect(unused).toEqual([]);
  });
});
