// The text a generator writes, as biome formats it (imports organised), so that the
// generated file passes `npm run lint` and a staleness test compares like with like.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");

/** `text` formatted as biome formats the file at `file`. */
export function biomeFormat(text, file) {
  const biome = path.join(root, "node_modules", ".bin", "biome");
  const r = spawnSync(biome, ["check", "--write", "--stdin-file-path", file], {
    input: text,
    encoding: "utf8",
    cwd: root,
  });
  if (r.status !== 0) throw new Error(`biome check failed: ${r.stderr}`);
  return r.stdout;
}
