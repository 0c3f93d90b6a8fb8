import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { VerifyError, verifyAll } from "../src/index.ts";
import { agUiSchema } from "../src/schema/index.ts";
import { CASE_HEADER, SPEC_CASES, spec } from "./support/spec-cases.ts";

const cases = SPEC_CASES;

describe("SPEC.md examples", () => {
  it("finds every example block", () => {
    const headers = spec.split("\n").filter((l) => CASE_HEADER.test(l));
    expect(cases.length).toBe(headers.length);
    expect(cases.length).toBeGreaterThanOrEqual(82);
    expect(cases.filter((c) => c.schema).length).toBeGreaterThanOrEqual(5);
    expect(cases.filter((c) => c.maxIds !== undefined).length).toBeGreaterThanOrEqual(1);
    expect(cases.filter((c) => c.draft).length).toBeGreaterThanOrEqual(2);
  });

  it.each(cases.map((c) => [`SPEC.md:${c.line} ${c.header}`, c] as const))("%s", (_name, c) => {
    const options = {
      ...(c.draft ? { protocol: "draft" as const } : {}),
      ...(c.schema ? { schema: agUiSchema } : {}),
      ...(c.maxIds === undefined ? {} : { maxIds: c.maxIds }),
    };
    if (c.expected === "accepted") {
      expect(() => verifyAll(c.events, options)).not.toThrow();
      return;
    }
    const { index, code, endOfInput, field } = c.expected;
    // The rejected event is the case's last line, or the end of input after it.
    expect(endOfInput ? c.events.length : c.events.length - 1).toBe(index);
    let error: unknown;
    try {
      verifyAll(c.events, options);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(VerifyError);
    if (!(error instanceof VerifyError)) return;
    expect({ code: error.code, index: error.index }).toEqual({ code, index });
    if (field !== undefined) expect(error.field).toBe(field);
    if (endOfInput) expect(error.event).toBeUndefined();
    else expect(error.event).toBe(c.events[index]);
  });
});

describe("the spec copy", () => {
  it("matches ../shared/SPEC.md when that exists", () => {
    let shared: string;
    try {
      shared = readFileSync(new URL("../../shared/SPEC.md", import.meta.url), "utf8");
    } catch {
      return;
    }
    expect(spec).toBe(shared);
  });
});
