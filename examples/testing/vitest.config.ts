import { defineConfig } from "vitest/config";

// The example's own Vitest project. With many test files, register the matcher once here
// instead of importing it in each: `setupFiles: ["ag-ui-verify/vitest"]` (the import in a
// test file is still what gives TypeScript the matcher's type).
export default defineConfig({ test: { include: ["*.test.ts"] } });
