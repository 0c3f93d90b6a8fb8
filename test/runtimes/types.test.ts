// The built declarations (dist/*.d.ts, dist/*.d.cts) in a Node-only TypeScript project:
// test/types-consumer has `lib: ["ES2022"]` and Node's types, no DOM lib, and type-checks
// the library's declarations too (skipLibCheck off). A DOM-only name in a public type
// (`HeadersInit`, `RequestInfo`, ...) fails here. Needs a build (`npm run build`).
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const TSC = fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url));

function tsc(project: string): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [TSC, "-p", project], { cwd: REPO }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
      done({ code, output: stdout + stderr });
    });
  });
}

it("the package's types check in a Node project without the DOM lib (ESM and CommonJS)", async () => {
  expect(await tsc("test/types-consumer")).toEqual({ code: 0, output: "" });
});

it("ag-ui-verify/jest types the matcher for @types/jest's global expect too", async () => {
  expect(await tsc("test/types-consumer/jest-global")).toEqual({ code: 0, output: "" });
});
