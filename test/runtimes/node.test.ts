// The runtime cases under Node, through Node's own global fetch, against the BUILT package
// (dist/index.js, and dist/schema.js for `ag-ui-verify/schema`; `npm test` builds first).

import { afterAll, beforeAll, describe, it } from "vitest";
import { type RuntimeLib, runtimeCases } from "../runtime/cases.ts";
import { type AgentServer, startAgentServer } from "../server/agent-server.ts";

// Computed specifiers, so that type-checking does not need a build.
const DIST = new URL("../../dist/index.js", import.meta.url).href;
const DIST_SCHEMA = new URL("../../dist/schema.js", import.meta.url).href;
const DIST_CONFORM = new URL("../../dist/conform/index.js", import.meta.url).href;
const DIST_PROTO = new URL("../../dist/proto/index.js", import.meta.url).href;

let server: AgentServer;
let lib: RuntimeLib;

beforeAll(async () => {
  server = await startAgentServer();
  const [main, schema, conform, proto] = await Promise.all([
    import(/* @vite-ignore */ DIST),
    import(/* @vite-ignore */ DIST_SCHEMA),
    import(/* @vite-ignore */ DIST_CONFORM),
    import(/* @vite-ignore */ DIST_PROTO),
  ]);
  lib = {
    ...main,
    agUiSchema: schema.agUiSchema,
    conformingEvents: conform.conformingEvents,
    protobuf: proto.protobuf,
  } as RuntimeLib;
});

afterAll(async () => {
  await server?.close();
});

describe("Node: the runtime cases against dist/index.js and dist/schema.js", () => {
  // Only the names are read here; the cases run with the real library and URL below.
  for (const { name } of runtimeCases({} as RuntimeLib, "")) {
    it(name, async () => {
      const found = runtimeCases(lib, server.url).find((c) => c.name === name);
      if (found === undefined) throw new Error(`no case ${name}`);
      await found.run();
    });
  }
});
