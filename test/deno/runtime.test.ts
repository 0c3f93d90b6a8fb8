// The runtime cases (test/runtime/cases.ts) under Deno, through Deno's own fetch, against the
// local agent server that test/runtimes/deno.test.ts starts and passes in AGENT_URL.

import { conformingEvents } from "../../src/conform/index.ts";
import * as main from "../../src/index.ts";
import { protobuf } from "../../src/proto/index.ts";
import { agUiSchema } from "../../src/schema/index.ts";
import { runtimeCases } from "../runtime/cases.ts";

const base = Deno.env.get("AGENT_URL");
if (base === undefined) {
  throw new Error("AGENT_URL is not set: run this through test/runtimes/deno.test.ts");
}

Deno.test("engine is Deno", () => {
  if (typeof Deno.version.deno !== "string") throw new Error("not running in Deno");
});

for (const { name, run } of runtimeCases({ ...main, agUiSchema, conformingEvents, protobuf }, base))
  Deno.test(name, run);
