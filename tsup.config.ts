import { defineConfig } from "tsup";

export default defineConfig([
  {
    // The schema subpath is its own entry, so the main bundle carries none of it.
    entry: { index: "src/index.ts", schema: "src/schema/index.ts" },
    format: ["esm", "cjs"],
    dts: true,
    sourcemap: true,
    // The second build below writes dist/cli.js; both run at once, so this one spares it.
    clean: ["!cli.js"],
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
