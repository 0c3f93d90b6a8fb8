import path from "node:path";
import type { Plugin } from "esbuild";
import { defineConfig } from "tsup";

/**
 * Keeps every library module its own output file: a relative import stays an import, of the
 * built sibling (`./verifier.ts` → `./verifier.js`, or `.cjs`). With `"sideEffects": false`
 * a user's bundler then drops whole modules the user does not import (the proxy, the chunk
 * stage, the client…), which it cannot do inside one bundled file: a class that extends
 * `TransformStream` counts as a side effect there.
 */
const modules: Plugin = {
  name: "one-file-per-module",
  setup(build) {
    const ext = build.initialOptions.format === "cjs" ? ".cjs" : ".js";
    build.onResolve({ filter: /^\.\.?\/.*\.ts$/ }, (args) =>
      args.kind === "entry-point" || within(VERIFY, args.importer, args.path)
        ? undefined
        : { path: args.path.replace(/\.ts$/, ext), external: true },
    );
  },
};

/**
 * The rules (src/verify/) are one module at run time, `dist/verify/verifier.js`: the
 * per-event path calls from file to file there, and calls inside one module stay cheap (a
 * CommonJS build reaches another module's export through a getter: twice the time per event).
 */
const VERIFY = path.resolve("src/verify");

/** True when `importer` and the module `specifier` names from it both lie inside `dir`. */
function within(dir: string, importer: string, specifier: string): boolean {
  const inside = (file: string) => !path.relative(dir, file).startsWith("..");
  return inside(importer) && inside(path.resolve(path.dirname(importer), specifier));
}

export default defineConfig([
  {
    // The library. Its schema subpath is separate below, so the main entry carries none of it.
    // The test helpers (src/testing/) print the text report: its modules of src/report/ (the
    // others are the command's, bundled into it). `vitest`, which src/testing/vitest.ts
    // alone imports, is a peer dependency and so stays an import.
    entry: [
      "src/*.ts",
      "src/{_util,events,sse,streams,http,conform,proto,lint,testing}/**/*.ts",
      "src/report/{formats-shared,input-reader,lint-text,render,safe,html,html-*}.ts",
      "src/verify/verifier.ts",
    ],
    // The subpaths' declarations come from their own builds below… except those of
    // ag-ui-verify/conform, /proto, /lint, /testing, /vitest and /jest, whose modules share the library's (one
    // VerifyError, one Verifier, one LintReport).
    dts: {
      entry: {
        index: "src/index.ts",
        conform: "src/conform/index.ts",
        proto: "src/proto/index.ts",
        lint: "src/lint/index.ts",
        testing: "src/testing/index.ts",
        vitest: "src/testing/vitest.ts",
        jest: "src/testing/jest.ts",
      },
    },
    format: ["esm", "cjs"],
    sourcemap: true,
    esbuildPlugins: [modules],
    // `npm run build` empties dist/ first: the three builds run at once, and a clean
    // inside one of them raced with the others' output.
    clean: false,
    target: "es2022",
    platform: "neutral",
  },
  {
    // `ag-ui-verify/schema`: one file, as everyone who imports it uses all of it.
    entry: { schema: "src/schema/index.ts" },
    format: ["esm", "cjs"],
    dts: true,
    sourcemap: true,
    clean: false,
    target: "es2022",
    platform: "neutral",
  },
  {
    // The `ag-ui-verify` command: one ESM file with its shebang (tsup marks it executable).
    entry: { cli: "src/cli/main.ts" },
    format: ["esm"],
    dts: false,
    sourcemap: false,
    clean: false,
    target: "node20",
    platform: "node",
  },
]);
