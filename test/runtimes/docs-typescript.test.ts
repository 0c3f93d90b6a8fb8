// Every TypeScript block of the docs compiles as a user's strict project would compile it.
//
// The blocks are the ```ts (or ```typescript) fences of README.md, docs/*.md and any
// examples/**/README.md. Each becomes its own module, next to the package's package.json
// but in memory only (nothing is written to disk), and one compiler run checks them all
// under strict, noUncheckedIndexedAccess and exactOptionalPropertyTypes with bundler
// resolution. `ag-ui-verify` and its subpaths resolve as the package names itself, through
// package.json "exports" and their "types" conditions, so every subpath added there is
// covered with no change here; they point into dist/, so this test needs a build
// (`npm test` builds first).
//
// The names a snippet uses without defining (`response`, `agentUrl`, `render`, ...) are
// declared once, globally, in PRELUDE; a snippet that defines one shadows it. A block that
// is deliberately not standalone TypeScript (a signature excerpt, say) is fenced as
// ```ts fragment: it is still highlighted as TypeScript, and this test leaves it alone.

import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { fencedBlocks, isStandaloneTypeScript, markdownFiles } from "../support/doc-blocks.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The free names of the snippets, as a reader's surrounding code would have them. */
const PRELUDE = `
declare const agentUrl: string;
declare const headers: Record<string, string>;
declare const input: import("ag-ui-verify").RunAgentInput;
declare const agent: {
  run(input: import("ag-ui-verify").RunAgentInput): import("ag-ui-verify/testing").StreamInput;
};
declare const body: string;
declare const response: Response;
declare function render(event: unknown): void;
declare function showBrokenStream(message: string): void;
declare function append(messageId: string, delta: string): void;
declare function startTool(toolCallId: string, toolCallName: string): void;
`;

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  // A block without import or export is still its own module, not a script sharing globals.
  moduleDetection: ts.ModuleDetectionKind.Force,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
  types: ["node"],
  skipLibCheck: true,
  noEmit: true,
};

interface Block {
  /** Where it is, as `file:line` of its opening fence. */
  readonly where: string;
  /** The line of the block's first code line in its Markdown file (1-based). */
  readonly firstLine: number;
  readonly code: string;
  /** The module the compiler sees, an in-memory file in the repository's root. */
  readonly fileName: string;
}

/** The TypeScript blocks of one Markdown file; other fences are skipped whole. */
const blocksOf = (file: string): Block[] =>
  fencedBlocks(ROOT, file)
    .filter(isStandaloneTypeScript)
    .map(({ where, firstLine, code }) => ({
      where,
      firstLine,
      code,
      fileName: path.join(ROOT, "__doc_blocks__", `${where.replace(/[^\w]/g, "_")}.ts`),
    }));

const blocks = markdownFiles(ROOT).flatMap(blocksOf);
const preludeFile = path.join(ROOT, "__doc_blocks__", "prelude.d.ts");
const virtual = new Map<string, string>([
  [preludeFile, PRELUDE],
  ...blocks.map((b) => [b.fileName, b.code] as const),
]);

/** A compiler host that serves the blocks from memory and everything else from disk. */
function hostWithBlocks(): ts.CompilerHost {
  const host = ts.createCompilerHost(OPTIONS, true);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (fileName, language, ...rest) => {
    const text = virtual.get(path.resolve(fileName));
    return text === undefined
      ? getSourceFile.call(host, fileName, language, ...rest)
      : ts.createSourceFile(fileName, text, language, true);
  };
  host.fileExists = (fileName) =>
    virtual.has(path.resolve(fileName)) || fileExists.call(host, fileName);
  host.readFile = (fileName) =>
    virtual.get(path.resolve(fileName)) ?? readFile.call(host, fileName);
  return host;
}

/** One line per problem, placed at its line in the Markdown file. */
function problems(diagnostics: readonly ts.Diagnostic[], block?: Block): string[] {
  return diagnostics.map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    if (d.file === undefined || d.start === undefined) return `TS${d.code}: ${text}`;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    const place =
      block !== undefined && path.resolve(d.file.fileName) === block.fileName
        ? `${block.where.split(":")[0]}:${block.firstLine + line}:${character + 1}`
        : `${d.file.fileName}:${line + 1}:${character + 1}`;
    return `${place} TS${d.code}: ${text}`;
  });
}

let program: ts.Program;

beforeAll(() => {
  program = ts.createProgram([...virtual.keys()], OPTIONS, hostWithBlocks());
});

describe("TypeScript blocks of the docs compile under strict", () => {
  it("finds the README's blocks", () => {
    expect(blocks.filter((b) => b.where.startsWith("README.md:")).length).toBeGreaterThanOrEqual(6);
  });

  it("the options and the prelude are sound", () => {
    const prelude = program.getSourceFile(preludeFile);
    expect(
      problems([
        ...program.getOptionsDiagnostics(),
        ...program.getGlobalDiagnostics(),
        ...(prelude === undefined ? [] : program.getSemanticDiagnostics(prelude)),
      ]),
    ).toEqual([]);
  });

  it("ag-ui-verify and its subpaths resolve to the built package", () => {
    const specifiers = new Set(
      blocks.flatMap((b) =>
        [...b.code.matchAll(/from "(ag-ui-verify(?:\/[\w-]+)?)"/g)].map((m) => m[1] ?? ""),
      ),
    );
    expect(specifiers.size).toBeGreaterThanOrEqual(3);
    for (const specifier of specifiers) {
      const resolved = ts.resolveModuleName(
        specifier,
        path.join(ROOT, "__doc_blocks__", "any.ts"),
        OPTIONS,
        ts.sys,
      ).resolvedModule?.resolvedFileName;
      expect(resolved && path.relative(ROOT, resolved), specifier).toMatch(/^dist\//);
    }
  });

  it.each(blocks.map((b) => [b.where, b] as const))("%s", (_where, block) => {
    const file = program.getSourceFile(block.fileName);
    expect(file).toBeDefined();
    if (file === undefined) return;
    const found = [
      ...program.getSyntacticDiagnostics(file),
      ...program.getSemanticDiagnostics(file),
    ];
    expect(problems(found, block)).toEqual([]);
  });
});
