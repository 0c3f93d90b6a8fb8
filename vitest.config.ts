import { defineConfig } from "vitest/config";

// One suite, several runtimes: the shared tests in test/*.test.ts run under Node and under
// the edge-runtime environment (the globals of Vercel's EdgeVM).
export default defineConfig({
  test: {
    projects: [
      { extends: true, test: { name: "node", environment: "node", include: ["test/*.test.ts"] } },
      {
        extends: true,
        test: { name: "edge", environment: "edge-runtime", include: ["test/*.test.ts"] },
      },
    ],
  },
});
