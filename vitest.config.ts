import { defineConfig } from "vitest/config";

// One suite, several runtimes. The shared tests in test/*.test.ts run under Node and under
// the edge-runtime environment (the globals of Vercel's EdgeVM). test/runtimes/*.test.ts
// start a local agent server and run the runtime cases in real engines: a bare EdgeVM,
// Deno, Bun, workerd and headless Chromium.
export default defineConfig({
  test: {
    // Vitest's 5 s default assumes an idle machine; CI runs the suite beside a busy loop per
    // core (.ci/run), where a test that takes 1 s alone can take 8. A hung test still fails,
    // at 30 s; the runtime tests, which start engines and servers, get 60 s.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      { extends: true, test: { name: "node", environment: "node", include: ["test/*.test.ts"] } },
      {
        extends: true,
        test: { name: "edge", environment: "edge-runtime", include: ["test/*.test.ts"] },
      },
      {
        extends: true,
        test: {
          name: "runtimes",
          environment: "node",
          include: ["test/runtimes/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
