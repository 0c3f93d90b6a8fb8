// The example blocks of spec/SPEC.md as cases, for every test that runs them.
import { readFileSync } from "node:fs";

/**
 * Every example block of SPEC.md, parsed from the spec itself so the two cannot drift.
 * Example blocks are the ```text blocks, and the plain ``` blocks whose first line is a case
 * header. A case starts with a `#` header: `# Accepted`, `# Rejected (index N, CODE)`,
 * `# Rejected (index N, end of input, CODE) field P`, optionally `with protocol draft`
 * (after `Rejected` or `Accepted`: the case runs with `{ protocol: "draft" }`, SPEC §9.14) or
 * `— with agUiSchema` (the case runs with `{ schema: agUiSchema }`).
 */
export interface SpecCase {
  header: string;
  line: number;
  events: unknown[];
  /** `with protocol draft`: the case runs with `{ protocol: "draft" }`. */
  draft: boolean;
  schema: boolean;
  /** `— with maxIds N`: the case runs with `{ maxIds: N }` (SPEC §17.1). */
  maxIds: number | undefined;
  expected: "accepted" | { index: number; code: string; endOfInput: boolean; field?: string };
}

export const CASE_HEADER = /^# (Accepted|Rejected)/;

const specUrl = new URL("../../spec/SPEC.md", import.meta.url);
/** The text of spec/SPEC.md. */
export const spec = readFileSync(specUrl, "utf8");

export function parseCases(text: string): SpecCase[] {
  const cases: SpecCase[] = [];
  const lines = text.split("\n");
  // Outside any fence; inside an example block; inside a plain block not yet known to be
  // one (decided by its first line); inside any other block.
  let state: "outside" | "example" | "plain" | "other" = "outside";
  let current: SpecCase | undefined;
  lines.forEach((raw, i) => {
    const line = raw.trimEnd();
    if (line.startsWith("```")) {
      if (state !== "outside") state = "outside";
      else if (line === "```text") state = "example";
      else state = line === "```" ? "plain" : "other";
      current = undefined;
      return;
    }
    if (line === "") return;
    if (state === "plain") state = CASE_HEADER.test(line) ? "example" : "other";
    if (state !== "example") return;
    if (line.startsWith("#")) {
      const header = line.split(" — ")[0] ?? line;
      const draft = /^# (Accepted|Rejected) with protocol draft\b/.test(header);
      const schema = /\bwith agUiSchema\b/.test(line);
      const maxIdsMatch = /\bwith maxIds (\d+)\b/.exec(line);
      const maxIds = maxIdsMatch === null ? undefined : Number(maxIdsMatch[1]);
      let expected: SpecCase["expected"];
      if (header.startsWith("# Accepted")) {
        expected = "accepted";
      } else {
        const m =
          /^# Rejected(?: with protocol draft)? \(index (\d+), (end of input, )?([A-Z_]+)\)(?: field (\S+))?/.exec(
            header,
          );
        if (m === null) throw new Error(`unparsed example header at SPEC.md:${i + 1}: ${line}`);
        expected = { index: Number(m[1]), code: m[3] ?? "", endOfInput: m[2] !== undefined };
        if (m[4] !== undefined) expected.field = m[4];
      }
      current = { header: line, line: i + 1, events: [], draft, schema, maxIds, expected };
      cases.push(current);
      return;
    }
    if (current === undefined) throw new Error(`event line outside a case at SPEC.md:${i + 1}`);
    current.events.push(JSON.parse(line));
  });
  return cases;
}

/** Every case of spec/SPEC.md, in order. */
export const SPEC_CASES: readonly SpecCase[] = parseCases(spec);
