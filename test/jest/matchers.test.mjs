// agUiMatchers from ag-ui-verify/testing (the built package, by its own name) in Jest's
// expect: pass, fail with the report, `.not`, and an input that errors failing both ways.

import { describe, expect, it } from "@jest/globals";
import { agUiMatchers } from "ag-ui-verify/testing";
import { BROKEN, RS, VALID } from "../support/events.mjs";

expect.extend(agUiMatchers);

const sse = (events) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("");

/** An Observable-like source that emits `events`, then errors with `error` if given. */
const observable = (events, error) => ({
  subscribe(observer) {
    queueMicrotask(() => {
      for (const e of events) observer.next(e);
      if (error === undefined) observer.complete();
      else observer.error(error);
    });
    return { unsubscribe() {} };
  },
});

/** The message Jest gives a failed assertion (fails the test when the assertion passes). */
async function failure(assertion) {
  try {
    await assertion;
  } catch (error) {
    return error.message;
  }
  throw new Error("expected the assertion to fail");
}

describe("toBeValidAgUiStream in Jest", () => {
  it("passes a valid stream: events, SSE text, a Response, an Observable", async () => {
    await expect(VALID).toBeValidAgUiStream();
    await expect(sse(VALID)).toBeValidAgUiStream();
    await expect(new Response(sse(VALID))).toBeValidAgUiStream();
    await expect(observable(VALID)).toBeValidAgUiStream();
  });

  it("fails a broken stream with the text report, and passes it under .not", async () => {
    await expect(BROKEN).not.toBeValidAgUiStream();
    const message = await failure(expect(sse(BROKEN)).toBeValidAgUiStream());
    const lines = message.split("\n");
    expect(lines[0]).toBe("expected the stream to be a valid AG-UI stream (no error)");
    expect(lines[1]).toBe("✘ invalid  the stream (SSE): 1 error, 0 warnings");
    expect(message).toContain("line 3  TEXT_MESSAGE_CONTENT at index 1");
    expect(message).toContain("[TEXT_MESSAGE_NOT_OPEN, rule 3]");
  });

  it("fails a valid stream under .not", async () => {
    const message = await failure(expect(VALID).not.toBeValidAgUiStream());
    expect(message.split("\n")[0]).toBe(
      "expected the stream not to be a valid AG-UI stream (no error), but it is",
    );
  });

  it("fails an input that errors, with or without .not", async () => {
    const boom = new Error("upstream closed");
    const plain = await failure(expect(observable(VALID, boom)).toBeValidAgUiStream());
    expect(plain.split("\n")[0]).toBe(
      "expected the stream to be read to its end, but it errored: Error: upstream closed",
    );
    const not = await failure(expect(observable([RS], boom)).not.toBeValidAgUiStream());
    expect(not).toContain("it errored: Error: upstream closed");
  });

  it("passes the options on (failOn, severity)", async () => {
    await expect(BROKEN).toBeValidAgUiStream({ severity: { TEXT_MESSAGE_NOT_OPEN: "warning" } });
    await expect(BROKEN).not.toBeValidAgUiStream({
      severity: { TEXT_MESSAGE_NOT_OPEN: "warning" },
      failOn: "warning",
    });
  });
});
