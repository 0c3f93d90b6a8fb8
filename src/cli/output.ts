/**
 * Where the report goes (stdout, or `--output FILE`) and in which format (`--reporter`):
 * each input as it is linted, then the end of the report. The formats are library
 * functions of plain data (src/report/); this file only writes what they return.
 * @module
 */

import { appendFileSync, closeSync, openSync, writeSync } from "node:fs";
import process from "node:process";
import type { LintedInput, ToolInfo } from "../report/formats-shared.ts";
import { jsonText } from "../report/formats-shared.ts";
import { github, StepSummary } from "../report/github.ts";
import { type HtmlInput, type HtmlProblem, renderHtml } from "../report/html.ts";
import { junit } from "../report/junit.ts";
import { lintText } from "../report/lint-text.ts";
import { inputObject } from "../report/ndjson.ts";
import { style as styleOf } from "../report/render.ts";
import { sarif } from "../report/sarif.ts";
import type { Summary } from "../report/summary.ts";
import type { Reporter } from "./args.ts";
import { ioMessage, UsageError } from "./problems.ts";

/** Text to stdout or to a file, in batches: one write per line costs more than a capture. */
export class Output {
  readonly #fd: number | undefined;
  readonly #path: string | undefined;
  #pending = "";

  /** Opens `path` (truncating it) when given; throws a {@link UsageError} when it cannot. */
  constructor(path: string | undefined) {
    this.#path = path;
    if (path === undefined) return;
    try {
      this.#fd = openSync(path, "w");
    } catch (error) {
      throw new UsageError(ioMessage(error, `--output ${JSON.stringify(path)}`, "write"));
    }
  }

  /** Whether the report goes to a terminal (colours, by default). */
  get terminal(): boolean {
    return this.#fd === undefined && process.stdout.isTTY === true;
  }

  write(text: string): void {
    this.#pending += text;
    if (this.#pending.length > 65536) this.flush();
  }

  flush(): void {
    const text = this.#pending;
    this.#pending = "";
    if (text === "") return;
    if (this.#fd === undefined) {
      process.stdout.write(text);
      return;
    }
    try {
      writeSync(this.#fd, text);
    } catch (error) {
      throw new UsageError(ioMessage(error, `--output ${JSON.stringify(this.#path)}`, "write"));
    }
  }

  close(): void {
    this.flush();
    if (this.#fd !== undefined) closeSync(this.#fd);
  }
}

/**
 * One report being written: `input` for each linted input, in order, then `end` (which
 * throws a {@link UsageError} when the step summary cannot be appended).
 */
export interface ReportWriter {
  input(input: LintedInput): void;
  end(summary: Summary, durationMs: number): void;
}

/** What a report is written with, besides its format. */
export interface WriterOptions {
  readonly tool: ToolInfo;
  /** Where the text report says the rule pages are (`<page>#<code>`). */
  readonly rulesPage: string;
  /** One input, whose text report is the full one (several inputs get the summary). */
  readonly single: boolean;
  /** ANSI colours in the text. */
  readonly color: boolean;
  /** The working directory: SARIF names the inputs below it relative to it. */
  readonly cwd: string;
  /** `$GITHUB_STEP_SUMMARY`: the file `--reporter github` appends its Markdown table to. */
  readonly stepSummary?: string | undefined;
  /**
   * `--rules-url`, when given: the HTML report links to it, else to the hosted rule pages
   * (the packaged page's `file:` URL would not open where the report is read, e.g. from a
   * CI artifact).
   */
  readonly rulesUrl?: string | undefined;
}

/** An input as the HTML report takes it. */
function htmlInput(input: LintedInput): HtmlInput | HtmlProblem {
  const url = input.url === undefined ? {} : { url: input.url };
  if (input.report === undefined) {
    return { name: input.name, problem: input.problem ?? "not read", ...url };
  }
  return { name: input.name, report: input.report, events: input.events ?? [], ...url };
}

/** Appends the step summary's Markdown to `path`; a {@link UsageError} when it cannot. */
function appendStepSummary(path: string, summary: StepSummary): void {
  try {
    // After a blank line: what an earlier command of the step wrote may not end its line.
    appendFileSync(path, `\n${summary.markdown()}`);
  } catch (error) {
    throw new UsageError(
      ioMessage(error, `$GITHUB_STEP_SUMMARY ${JSON.stringify(path)}`, "append to"),
    );
  }
}

/** The writer of `reporter`. */
export function reportWriter(
  reporter: Reporter,
  out: Output,
  { tool, rulesPage, single, color, cwd, stepSummary, rulesUrl }: WriterOptions,
): ReportWriter {
  const all: LintedInput[] = [];
  switch (reporter) {
    case "ndjson":
      return {
        input: (input) => out.write(`${jsonText(inputObject(input))}\n`),
        end: (summary, ms) => out.write(`${jsonText(summary.json(ms))}\n`),
      };
    case "github": {
      const table = stepSummary === undefined ? undefined : new StepSummary();
      return {
        input: (input) => {
          out.write(github([input]));
          table?.add(input);
        },
        end: (summary, ms) => {
          out.write(summary.text(styleOf(false), ms, rulesPage));
          if (stepSummary !== undefined && table !== undefined) {
            appendStepSummary(stepSummary, table);
          }
        },
      };
    }
    case "html":
      return {
        input: (input) => all.push(input),
        end: () => out.write(renderHtml(all.map(htmlInput), { rulesUrl, version: tool.version })),
      };
    case "junit":
    case "sarif":
      return {
        input: (input) => all.push(input),
        end: () =>
          out.write(
            reporter === "junit" ? junit(all, tool) : sarif(all, tool, { workingDirectory: cwd }),
          ),
      };
    default:
      return {
        input: (input) => {
          if (single && input.report !== undefined) {
            out.write(lintText({ ...input, report: input.report }, styleOf(color), rulesPage));
          }
        },
        end: (summary, ms) => {
          if (!single) out.write(summary.text(styleOf(color), ms, rulesPage));
        },
      };
  }
}
