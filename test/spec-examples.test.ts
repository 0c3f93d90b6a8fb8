import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { VerifyError, verifyAll } from "../src/index.ts";

/**
 * Every example block of SPEC.md, parsed from the spec itself so the two cannot drift.
 * A case starts with a `#` header: `# Accepted`, `# Rejected (index N, CODE)`,
 * `# Rejected (index N, end of input, CODE) field P`, optionally `with allowSequentialRuns`.
 */
interface SpecCase {
  header: string;
  line: number;
  events: unknown[];
  sequential: boolean;
  expected: "accepted" | { index: number; code: string; endOfInput: boolean; field?: string };
}

const specUrl = new URL("../spec/SPEC.md", import.meta.url);
const spec = readFileSync(specUrl, "utf8");

function parseCases(text: string): SpecCase[] {
  const cases: SpecCase[] = [];
  const lines = text.split("\n");
  let inBlock = false;
  let current: SpecCase | undefined;
  lines.forEach((raw, i) => {
    const line = raw.trimEnd();
    if (line.startsWith("```")) {
      inBlock = !inBlock && line === "```text";
      current = undefined;
      return;
    }
    if (!inBlock || line === "") return;
    if (line.startsWith("#")) {
      const header = line.split(" — ")[0] ?? line;
      const sequential = header.includes("with allowSequentialRuns");
      let expected: SpecCase["expected"];
      if (header.startsWith("# Accepted")) {
        expected = "accepted";
      } else {
        const m =
          /^# Rejected(?: with allowSequentialRuns)? \(index (\d+), (end of input, )?([A-Z_]+)\)(?: field (\S+))?/.exec(
            header,
          );
        if (m === null) throw new Error(`unparsed example header at SPEC.md:${i + 1}: ${line}`);
        expected = { index: Number(m[1]), code: m[3] ?? "", endOfInput: m[2] !== undefined };
        if (m[4] !== undefined) expected.field = m[4];
      }
      current = { header: line, line: i + 1, events: [], sequential, expected };
      cases.push(current);
      return;
    }
    if (current === undefined) throw new Error(`event line outside a case at SPEC.md:${i + 1}`);
    current.events.push(JSON.parse(line));
  });
  return cases;
}

const cases = parseCases(spec);

describe("SPEC.md examples", () => {
  it("finds every example block", () => {
    const headers = spec.split("\n").filter((l) => /^# (Accepted|Rejected)/.test(l));
    expect(cases.length).toBe(headers.length);
    expect(cases.length).toBeGreaterThanOrEqual(77);
  });

  it.each(cases.map((c) => [`SPEC.md:${c.line} ${c.header}`, c] as const))("%s", (_name, c) => {
    const options = { allowSequentialRuns: c.sequential };
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
