// The runtime cases (test/runtime/cases.ts) under Bun, through Bun's own fetch, against the
// local agent server that test/runtimes/bun.test.ts starts and passes in AGENT_URL.
import { expect, test } from "bun:test";
import { conformingEvents } from "../../src/conform/index.ts";
import * as main from "../../src/index.ts";
import { protobuf } from "../../src/proto/index.ts";
import { agUiSchema } from "../../src/schema/index.ts";
import { runtimeCases } from "../runtime/cases.ts";

const base = process.env.AGENT_URL;
if (base === undefined) {
  throw new Error("AGENT_URL is not set: run this through test/runtimes/bun.test.ts");
}

test("engine is Bun", () => {
  expect(typeof Bun.version).toBe("string");
});

for (const { name, run } of runtimeCases({ ...main, agUiSchema, conformingEvents, protobuf }, base))
  test(name, run);
