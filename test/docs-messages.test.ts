// The error messages quoted in README.md and docs/*.md are the library's real output. Each
// quoted message follows an HTML comment that names its input:
//   <!-- message-of: {"events": [...], "schema": true?, "protocol": "draft"?} -->
// and the ```text block right after it must equal the VerifyError's message for that input.
// A command transcript in the README follows `<!-- excerpt-of: docs/cli.md -->` and must
// appear word for word in docs/cli.md, whose transcripts the command tests check against
// the command's real output (scripts/cli-doc.mjs).

import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isVerifyError, verifyAll } from "../src/index.ts";
import { agUiSchema } from "../src/schema/index.ts";

interface Quoted {
  file: string;
  line: number;
  input: { events: unknown[]; schema?: boolean; protocol?: "draft" };
  message: string;
}

const root = new URL("../", import.meta.url);
const files = [
  "README.md",
  ...readdirSync(new URL("docs/", root))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

function quotedIn(file: string): Quoted[] {
  const lines = readFileSync(new URL(file, root), "utf8").split("\n");
  const out: Quoted[] = [];
  lines.forEach((line, i) => {
    const m = /^<!-- message-of: (.*) -->$/.exec(line);
    if (m === null) return;
    if (lines[i + 1] !== "```text") throw new Error(`${file}:${i + 2}: expected a text block`);
    const end = lines.indexOf("```", i + 2);
    out.push({
      file,
      line: i + 1,
      input: JSON.parse(m[1] ?? ""),
      message: lines.slice(i + 2, end).join("\n"),
    });
  });
  return out;
}

const quoted = files.flatMap(quotedIn);

describe("messages quoted in the docs", () => {
  it("README.md quotes some", () => {
    expect(quoted.filter((q) => q.file === "README.md").length).toBeGreaterThanOrEqual(3);
  });

  it.each(quoted.map((q) => [`${q.file}:${q.line}`, q] as const))("%s", (_where, q) => {
    let error: unknown;
    try {
      verifyAll(q.input.events, {
        protocol: q.input.protocol,
        schema: q.input.schema === true ? agUiSchema : undefined,
      });
    } catch (e) {
      error = e;
    }
    expect(isVerifyError(error)).toBe(true);
    if (isVerifyError(error)) expect(error.message).toBe(q.message);
  });
});

describe("command transcripts quoted in the README", () => {
  const readme = readFileSync(new URL("README.md", root), "utf8").split("\n");
  const excerpts = readme.flatMap((line, i) => {
    const m = /^<!-- excerpt-of: (\S+) -->$/.exec(line);
    if (m === null) return [];
    const end = readme.indexOf("```", i + 2);
    return [{ line: i + 1, source: m[1] ?? "", text: readme.slice(i + 2, end).join("\n") }];
  });

  it("there is one", () => {
    expect(excerpts.length).toBeGreaterThanOrEqual(1);
  });

  it.each(excerpts.map((e) => [`README.md:${e.line}`, e] as const))("%s", (_where, e) => {
    expect(readFileSync(new URL(e.source, root), "utf8")).toContain(e.text);
  });
});
