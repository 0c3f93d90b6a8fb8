// `npm run check:examples`: installs examples/testing from scratch, as a user who copies the
// folder would, and runs its type-check and its suite (issue 27, row 6). The package comes
// from `npm pack` of this build, everything else from the registry at the versions the
// example's package.json gives; `npm ls rxjs` must then show one rxjs, since a second one
// next to @ag-ui/client's makes two Observable types that tsc refuses (TS2416). Needs a build
// and the registry; .ci/run calls it after the tests.

import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const work = mkdtempSync(path.join(tmpdir(), "ag-ui-verify-examples-"));
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

function run(command, args, cwd) {
  console.log(`$ ${[command, ...args].join(" ")}   (in ${path.relative(work, cwd) || "."})`);
  return execFileSync(command, args, { cwd, stdio: ["ignore", "pipe", "inherit"] }).toString();
}

try {
  const packed = JSON.parse(
    run(npm, ["pack", "--json", "--ignore-scripts", "--pack-destination", work], ROOT),
  );
  const tarball = path.join(work, packed[0].filename);
  const example = path.join(work, "testing");
  cpSync(path.join(ROOT, "examples/testing"), example, {
    recursive: true,
    filter: (source) => path.basename(source) !== "node_modules",
  });
  const manifest = JSON.parse(readFileSync(path.join(example, "package.json"), "utf8"));
  manifest.devDependencies["ag-ui-verify"] = `file:${tarball}`;
  writeFileSync(path.join(example, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);

  run(npm, ["install", "--no-audit", "--no-fund", "--loglevel=error"], example);
  const tree = JSON.parse(run(npm, ["ls", "rxjs", "--all", "--json"], example));
  const versions = new Set();
  const walk = (deps = {}) => {
    for (const [name, node] of Object.entries(deps)) {
      if (name === "rxjs") versions.add(node.version);
      walk(node.dependencies);
    }
  };
  walk(tree.dependencies);
  if (versions.size !== 1) throw new Error(`expected one rxjs, found ${[...versions].join(", ")}`);
  process.stdout.write(run(npm, ["run", "typecheck"], example));
  process.stdout.write(run(npm, ["test"], example));
  console.log("examples/testing: installs, type-checks and passes from scratch");
} finally {
  rmSync(work, { recursive: true, force: true });
}
