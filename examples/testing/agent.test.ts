// The agent's stream checked against the AG-UI protocol in its own tests. Importing
// ag-ui-verify/vitest adds `toBeValidAgUiStream` to `expect` (with its type); with many
// test files, list it in vitest.config.ts's `test.setupFiles` instead.

import "ag-ui-verify/vitest";
import type { RunAgentInput } from "@ag-ui/client";
import { AgUiStreamAssertionError, assertValidStream } from "ag-ui-verify/testing";
import { describe, expect, it } from "vitest";
import { WeatherAgent } from "./agent.ts";

const input: RunAgentInput = {
  threadId: "thread-1",
  runId: "run-1",
  messages: [{ id: "user-1", role: "user", content: "Weather in Oslo?" }],
  tools: [],
  context: [],
  state: {},
  forwardedProps: {},
};

describe("WeatherAgent", () => {
  it("streams a valid AG-UI run", async () => {
    await expect(new WeatherAgent().run(input)).toBeValidAgUiStream();
  });

  it("streams no event the official client would silently lose", async () => {
    await expect(new WeatherAgent().run(input)).toBeValidAgUiStream({ failOn: "warning" });
  });

  // What a broken stream gives: remove `.fails` to see the report in the test output.
  it.fails("fails when a tool call's arguments come after its end", async () => {
    await expect(new WeatherAgent({ lateArgs: true }).run(input)).toBeValidAgUiStream();
  });

  it("gives the report as data too, for assertions of your own", async () => {
    const error = await assertValidStream(new WeatherAgent({ lateArgs: true }).run(input)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AgUiStreamAssertionError);
    const { report } = error as AgUiStreamAssertionError;
    expect(report.findings.map((f) => [f.code, f.index])).toEqual([["TOOL_CALL_NOT_OPEN", 3]]);
  });
});
