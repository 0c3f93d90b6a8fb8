// ag-ui-verify/jest (the built package, by its own name) registers toBeValidAgUiStream with
// Jest's expect on import: no expect.extend of the test's own.

import { describe, expect, it } from "@jest/globals";
import "ag-ui-verify/jest";
import { BROKEN, VALID } from "../support/events.mjs";

describe("ag-ui-verify/jest", () => {
  it("registers the matcher on import", async () => {
    await expect(VALID).toBeValidAgUiStream();
    await expect(BROKEN).not.toBeValidAgUiStream();
  });

  it("fails a broken stream with the text report", async () => {
    let message = "";
    try {
      await expect(BROKEN).toBeValidAgUiStream();
    } catch (error) {
      message = error.message;
    }
    expect(message).toContain("✘");
  });
});
