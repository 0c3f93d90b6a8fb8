/**
 * The inputs the command's paths name, in a fixed order: files as given, directories
 * walked recursively (entries sorted by name) for the chosen extensions, `-` for stdin.
 * A walk keeps regular files (and symbolic links, which are followed when opened, for
 * regular files only); FIFOs, sockets and devices found there are skipped, since reading
 * one could wait forever. A path given explicitly that is none of these is read as a
 * stream, whatever it is (a FIFO, /dev/stdin).
 * @module
 */

import { type Dirent, readdirSync, type Stats, statSync } from "node:fs";
import { join } from "node:path";
import { ioMessage } from "./problems.ts";

/**
 * An input to check: a file or HAR file (read by a worker), stdin or another stream (read
 * by the main thread, as it can wait); or a path that gave none: a `problem` (which says
 * why), or a special file a walk `skipped` (`problem` says what it is).
 */
export interface Item {
  readonly path: string;
  readonly kind: "file" | "har" | "stdin" | "stream" | "skipped" | "problem";
  readonly problem?: string;
}

/** Whether a worker reads `item`: a file, or a HAR file. */
export const forWorker = (item: Item): boolean => item.kind === "file" || item.kind === "har";

/** What a file that is not regular is: `a FIFO`, `a socket`, …. */
export function special(file: Dirent | Stats): string {
  if (file.isFIFO()) return "a FIFO";
  if (file.isSocket()) return "a socket";
  if (file.isCharacterDevice()) return "a character device";
  if (file.isBlockDevice()) return "a block device";
  if (file.isDirectory()) return "a directory";
  return "not a regular file";
}

export const DEFAULT_EXTENSIONS: readonly string[] = ["sse", "jsonl", "ndjson", "har", "pb", "bin"];

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
      else if (!wanted(entry.name)) continue;
      else if (entry.isFile() || entry.isSymbolicLink()) items.push({ path, kind: kindOf(path) });
      else items.push({ path, kind: "skipped", problem: special(entry) });
    }
  };
  for (const path of paths) {
    if (path === "-") {
      items.push({ path, kind: "stdin" });
      continue;
    }
    let stats: Stats;
    try {
      stats = statSync(path);
    } catch (error) {
      problem(path, ioMessage(error, JSON.stringify(path)));
      continue;
    }
    if (!stats.isDirectory()) {
      items.push({ path, kind: stats.isFile() ? kindOf(path) : "stream" });
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
