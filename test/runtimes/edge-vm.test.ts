// The runtime cases in a bare EdgeVM (@edge-runtime/vm), on the BUILT package: esbuild bundles
// dist/index.js, dist/schema.js (`ag-ui-verify/schema`) and the cases into one IIFE script, the VM evaluates it, and each vitest test
// runs one case inside the VM, through the VM's own fetch, against the local agent server.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { EdgeVM } from "@edge-runtime/vm";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AgentServer, startAgentServer } from "../server/agent-server.ts";
import { caseNames } from "./engine.ts";

const here = fileURLToPath(new URL(".", import.meta.url));
const dist = fileURLToPath(new URL("../../dist/index.js", import.meta.url));
const distSchema = fileURLToPath(new URL("../../dist/schema.js", import.meta.url));

// Runs inside the VM. `__setup` builds the cases against the server; `__run(i)` runs case i
// and resolves to a JSON string (plain data crosses the VM's realm boundary cleanly).
const entry = `
import * as main from "../../dist/index.js";
import { agUiSchema } from "../../dist/schema.js";
import { conformingEvents } from "../../dist/conform/index.js";
import { protobuf } from "../../dist/proto/index.js";
import { runtimeCases } from "../runtime/cases.ts";

let cases = [];
globalThis.__setup = (base) => {
  cases = runtimeCases({ ...main, agUiSchema, conformingEvents, protobuf }, base);
  return JSON.stringify(cases.map((c) => c.name));
};
globalThis.__run = async (i) => {
  try {
    await cases[i].run();
    return JSON.stringify({ ok: true });
  } catch (error) {
    const message = error instanceof Error ? error.stack ?? \`\${error.name}: \${error.message}\` : String(error);
    return JSON.stringify({ ok: false, error: message });
  }
};
`;

let server: AgentServer;
let vm: EdgeVM;

beforeAll(async () => {
  for (const file of [dist, distSchema]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
  }
  const bundle = await build({
    stdin: { contents: entry, resolveDir: here, sourcefile: "edge-vm-entry.js", loader: "js" },
    bundle: true,
    write: false,
    format: "iife",
    platform: "neutral",
    // "neutral" sets no main fields or conditions; eventsource-parser resolves through its
    // "exports" "import" condition, and these cover a package without "exports".
    mainFields: ["module", "main"],
    conditions: ["import", "default"],
    target: "es2022",
    logLevel: "silent",
    metafile: true,
  });
  const code = bundle.outputFiles[0]?.text;
  if (code === undefined) throw new Error("esbuild produced no output");
  // The library comes from dist; cases.ts only imports types from src.
  const inputs = Object.keys(bundle.metafile.inputs);
  expect(inputs.filter((path) => path.startsWith("src/"))).toEqual([]);
  expect(inputs).toContain("dist/index.js");
  expect(inputs).toContain("dist/schema.js");
  server = await startAgentServer();
  vm = new EdgeVM();
  vm.evaluate(code);
  const names = JSON.parse(vm.evaluate(`__setup(${JSON.stringify(server.url)})`));
  expect(names).toEqual(caseNames);
});

afterAll(async () => {
  await server?.close();
});

describe("bare EdgeVM (dist bundle)", () => {
  it("has no Node globals, and its own fetch", () => {
    // Asked of the VM directly: inside the bundle, esbuild rewrites `typeof require` and
    // `module` for its CommonJS interop.
    const names = ["process", "require", "module", "Buffer", "EdgeRuntime", "fetch"];
    const types = vm.evaluate(
      `JSON.stringify({ ${names.map((name) => `${name}: typeof ${name}`).join(", ")} })`,
    );
    expect(JSON.parse(types)).toEqual({
      process: "undefined",
      require: "undefined",
      module: "undefined",
      Buffer: "undefined",
      EdgeRuntime: "string",
      fetch: "function",
    });
    expect(vm.evaluate("fetch") === globalThis.fetch).toBe(false);
  });

  it.each(caseNames.map((name, index) => [name, index] as const))("%s", async (_name, index) => {
    const result = JSON.parse(await vm.evaluate(`__run(${index})`));
    expect(result.error ?? "", "the case failed inside the EdgeVM").toBe("");
    expect(result.ok).toBe(true);
  });
});
