// Issue 27 row 13 (c): the GitHub Actions step summary of `--reporter github`, a pure
// function of the linted inputs (the command appends it to $GITHUB_STEP_SUMMARY): a heading
// with the verdict, a Markdown table per input (name, verdict, errors, warnings), bounded,
// with every Markdown and HTML special character of a name escaped.
import { describe, expect, it } from "vitest";
import { lint } from "../src/lint/index.ts";
import { type LintedInput, printable } from "../src/report/formats-shared.ts";
import { markdownText, StepSummary } from "../src/report/github.ts";

const RUN = { type: "RUN_STARTED", threadId: "t", runId: "r" };
const END = { type: "RUN_FINISHED", threadId: "t", runId: "r" };
const VALID = lint([RUN, END]);
const INVALID = lint([
  RUN,
  { type: "TEXT_MESSAGE_END", messageId: "m" },
  { type: "STEP_FINISHED", stepName: "s" },
  END,
]);
const WARNED = lint([RUN, { ...END, runId: "other" }]);

function summaryOf(inputs: readonly LintedInput[], maxRows?: number): string {
  const summary = new StepSummary(maxRows);
  for (const input of inputs) summary.add(input);
  return summary.markdown();
}

/** The cells of a table row (split at `|` not preceded by a backslash). */
const cells = (row: string) =>
  row
    .slice(2, -2)
    .split(/(?<!\\) \| /)
    .map((c) => c.trim());

/** What Markdown shows for an escaped cell: backslash escapes and the four entities undone. */
const rendered = (cell: string) =>
  cell
    .replace(/\\([!-/:-@[-`{-~])/g, "$1")
    .replace(
      /&(amp|lt|gt|quot);/g,
      (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"' })[e] ?? "",
    );

describe("the step summary", () => {
  it("is a heading, a table of the inputs in order, and the totals", () => {
    expect(
      summaryOf([
        { name: "captures/a.sse", report: VALID },
        { name: "captures/b.sse", report: INVALID },
        { name: "captures/c.sse", report: WARNED },
        { name: "gone.sse", problem: "cannot read" },
        { name: "s.har", url: "https://a.test/run", report: VALID },
      ]),
    ).toBe(
      [
        "### ag-ui-verify: 2 of 5 inputs invalid or unreadable",
        "",
        "| Input | Verdict | Errors | Warnings |",
        "| :-- | :-- | --: | --: |",
        "| captures\\/a\\.sse | ✔ valid | 0 | 0 |",
        "| captures\\/b\\.sse | ✘ invalid | 2 | 0 |",
        "| captures\\/c\\.sse | ✔ valid | 0 | 1 |",
        "| gone\\.sse | ! unreadable | – | – |",
        "| s\\.har\\: https\\:\\/\\/a\\.test\\/run | ✔ valid | 0 | 0 |",
        "",
        "5 inputs: 3 valid (1 with warnings), 1 invalid, 1 unreadable; 2 errors, 1 warning.",
        "",
      ].join("\n"),
    );
  });

  it("says when every input is valid, and when there is none", () => {
    expect(summaryOf([{ name: "a.sse", report: VALID }]).split("\n")[0]).toBe(
      "### ag-ui-verify: the input is valid",
    );
    const two = [
      { name: "a.sse", report: VALID },
      { name: "b.sse", report: WARNED },
    ];
    expect(summaryOf(two).split("\n")[0]).toBe("### ag-ui-verify: all 2 inputs are valid");
    expect(summaryOf([])).toBe(
      "### ag-ui-verify: no input\n\n0 inputs: 0 valid, 0 invalid, 0 unreadable; 0 errors, 0 warnings.\n",
    );
  });

  it("is bounded: at most maxRows inputs, the failed ones first, the rest counted", () => {
    const inputs: LintedInput[] = [];
    for (let i = 0; i < 5_000; i++) {
      const report = i % 1000 === 7 ? INVALID : i % 1000 === 8 ? WARNED : VALID;
      inputs.push({ name: `runs/${i}.sse`, report });
    }
    inputs.push({ name: "runs/gone.sse", problem: "cannot read" });
    const text = summaryOf(inputs, 12);
    const rows = text.split("\n").filter((l) => l.startsWith("| runs"));
    expect(rows).toHaveLength(12);
    // The 5 invalid and 1 unreadable, the 5 with warnings, then the first clean one: in input order.
    expect(rows.map((r) => rendered(cells(r)[0] ?? ""))).toEqual([
      "runs/0.sse",
      "runs/7.sse",
      "runs/8.sse",
      "runs/1007.sse",
      "runs/1008.sse",
      "runs/2007.sse",
      "runs/2008.sse",
      "runs/3007.sse",
      "runs/3008.sse",
      "runs/4007.sse",
      "runs/4008.sse",
      "runs/gone.sse",
    ]);
    expect(text).toContain("4,989 more inputs not listed: 4,989 valid.\n");
    expect(text).toContain("5,001 inputs: 4,995 valid (5 with warnings), 5 invalid, 1 unreadable;");
    // The default bound keeps a big corpus's summary small.
    const all = summaryOf(inputs);
    expect(all.split("\n").filter((l) => l.startsWith("| runs"))).toHaveLength(100);
    expect(all.length).toBeLessThan(10_000);
  });

  it("escapes every Markdown and HTML special character of a name, and clips a long one", () => {
    const names = [
      "a|b.sse",
      "*bold* _it_ `code` ~~s~~.sse",
      "[link](https://evil.test).sse",
      "![img](x.png)",
      "<script>alert(1)</script>&amp;.sse",
      ":smile: @someone #12 $x^2$ \\n.sse",
      "line\nbreak\r\u001b[31m\u202e.sse",
      `${"x".repeat(400)}.sse`,
    ];
    const text = summaryOf(names.map((name) => ({ name, report: VALID })));
    const rows = text.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| Input"));
    expect(rows.slice(1)).toHaveLength(names.length);
    for (const [i, row] of rows.slice(1).entries()) {
      const all = cells(row);
      expect(all, row).toHaveLength(4);
      const cell = all[0] ?? "";
      // No special character is left raw: each is escaped or an entity.
      expect(cell.replace(/\\[!-/:-@[-`{-~]|&(amp|lt|gt|quot);/g, "")).not.toMatch(
        /[!-/:-@[-`{-~]/,
      );
      const name = names[i] ?? "";
      expect(rendered(cell)).toBe(
        printable(name.length > 300 ? rendered(markdownText(name)) : name),
      );
    }
    // biome-ignore lint/suspicious/noControlCharactersInRegex: it looks for them
    expect(rows.join("\n")).not.toMatch(/[\r\u001b\u202e]/);
    expect(markdownText("x".repeat(400))).toBe(`${"x".repeat(300)}… \\(400 characters\\)`);
  });
});
