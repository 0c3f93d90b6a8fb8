// The fenced code blocks of the docs' Markdown, shared by the tests that compile them
// (test/runtimes/docs-typescript) and run them (test/runtimes/readme-run).

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** One fenced block of a Markdown file. */
export interface FencedBlock {
  /** The file, relative to the repository root. */
  readonly file: string;
  /** Where it is, as `file:line` of its opening fence. */
  readonly where: string;
  /** The line of the block's first code line (1-based). */
  readonly firstLine: number;
  /** The fence's language (`ts`, `sh`, …; `""` when none) and the rest of its info string. */
  readonly lang: string;
  readonly info: string;
  /** The nearest `#`-heading above the block (`""` before the first). */
  readonly heading: string;
  readonly code: string;
}

/** README.md, docs/*.md and every examples/**\/README.md, relative to `root`. */
export function markdownFiles(root: string): string[] {
  const inDocs = readdirSync(path.join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`);
  const inExamples = readdirSync(path.join(root, "examples"), { recursive: true })
    .map(String)
    .filter((f) => path.basename(f) === "README.md")
    .map((f) => `examples/${f.split(path.sep).join("/")}`);
  return ["README.md", ...inDocs.sort(), ...inExamples.sort()];
}

/** Every fenced block of `file` (relative to `root`), in order. */
export function fencedBlocks(root: string, file: string): FencedBlock[] {
  const lines = readFileSync(path.join(root, file), "utf8").split("\n");
  const blocks: FencedBlock[] = [];
  let heading = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const title = /^#{1,6}\s+(.*)$/.exec(line);
    if (title !== null) heading = (title[1] ?? "").trim();
    const open = /^\s*(`{3,}|~{3,})\s*([^\s`]*)(.*)$/.exec(line);
    if (open === null) continue;
    const [, fence = "```", lang = "", info = ""] = open;
    let end = i + 1;
    while (end < lines.length && !(lines[end] ?? "").trim().startsWith(fence)) end++;
    blocks.push({
      file,
      where: `${file}:${i + 1}`,
      firstLine: i + 2,
      lang,
      info: info.trim(),
      heading,
      code: lines.slice(i + 1, end).join("\n"),
    });
    i = end;
  }
  return blocks;
}

/** Is it a TypeScript block meant to stand alone (not fenced as `ts fragment`)? */
export const isStandaloneTypeScript = (b: FencedBlock): boolean =>
  (b.lang === "ts" || b.lang === "typescript") && b.info !== "fragment";
