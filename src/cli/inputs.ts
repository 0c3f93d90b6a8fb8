/**
 * The inputs the command's paths name, in a fixed order: files as given, directories
 * walked recursively (entries sorted by name) for the chosen extensions, `-` for stdin.
 * @module
 */

import { type Dirent, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ioMessage } from "./problems.ts";

/** An input to check, or a path that gave none (`problem` says why). */
export interface Item {
  readonly path: string;
  readonly kind: "file" | "har" | "stdin" | "problem";
  readonly problem?: string;
}

export const DEFAULT_EXTENSIONS: readonly string[] = ["sse", "jsonl", "ndjson", "har"];

const kindOf = (path: string): "file" | "har" =>
  path.toLowerCase().endsWith(".har") ? "har" : "file";
const byName = (a: Dirent, b: Dirent): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The items of `paths`; directories keep files whose names end in `.<extension>`. */
export function expand(paths: readonly string[], extensions: readonly string[]): Item[] {
  const items: Item[] = [];
  const problem = (path: string, text: string) =>
    items.push({ path, kind: "problem", problem: text });
  const wanted = (name: string) => extensions.some((ext) => name.toLowerCase().endsWith(`.${ext}`));
  const walk = (dir: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort(byName);
    } catch (error) {
      problem(dir, ioMessage(error, JSON.stringify(dir)));
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (wanted(entry.name)) items.push({ path, kind: kindOf(path) });
    }
  };
  for (const path of paths) {
    if (path === "-") {
      items.push({ path, kind: "stdin" });
      continue;
    }
    let directory: boolean;
    try {
      directory = statSync(path).isDirectory();
    } catch (error) {
      problem(path, ioMessage(error, JSON.stringify(path)));
      continue;
    }
    if (!directory) {
      items.push({ path, kind: kindOf(path) });
      continue;
    }
    const before = items.length;
    walk(path);
    if (items.length === before) {
      const names = extensions.map((ext) => `*.${ext}`).join(", ");
      problem(path, `no input in ${JSON.stringify(path)}: it holds no ${names} files`);
    }
  }
  return items;
}
