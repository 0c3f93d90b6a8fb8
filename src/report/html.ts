/**
 * The HTML report (SPEC §22): one self-contained page for one input or a corpus, with a
 * timeline per run, every finding pinned at its event, and a filterable event table. A
 * pure function of the linted inputs and their events: plain data in, a string out.
 *
 * Safe with hostile input: the page's markup is fixed; everything from an input (names,
 * ids, types, messages, the events) travels as JSON inside a `<script type="application/json">`
 * with every `<` written `\u003c`, and the page's own script puts it on screen as text.
 * A Content-Security-Policy allows that one script and one stylesheet by hash, and nothing
 * else: no request of any kind.
 * @module
 */

import type { LintReport } from "../lint/types.ts";
import { cspHash } from "./html-hash.ts";
import { eventJson, pageJson } from "./html-json.ts";
import { inputModel } from "./html-model.ts";
import { PAGE_SCRIPT } from "./html-script.ts";
import { PAGE_STYLE } from "./html-style.ts";
import { elided, type InputModel, shownText } from "./html-types.ts";

/** One linted input and its events, as {@link renderHtml} draws it. */
export interface HtmlInput {
  /** The input's name: its path, as the command gives it. */
  readonly name: string;
  /** What linting it gave. */
  readonly report: LintReport;
  /**
   * Its events, index for index: event `i` of the report is `events[i]`. Beyond 20,000
   * events only the first and the last 10,000 are shown; in between, only the events that
   * open or close a run, a message, a call, a span, a step, an activity or a subagent are
   * read (to draw what crosses the elided part), so a caller may leave the others out
   * (`undefined`), as the command does.
   */
  readonly events: readonly unknown[];
  /** A HAR entry's URL, for an input read from a HAR file. */
  readonly url?: string | undefined;
}

/** An input that could not be read: the page lists it with the reason. */
export interface HtmlProblem {
  readonly name: string;
  /** Why it could not be read. */
  readonly problem: string;
  readonly url?: string | undefined;
}

/** How {@link renderHtml} writes the page. */
export interface HtmlOptions {
  /**
   * Where the rule pages are (an http, https or file URL of `docs/rules.md`): each finding
   * links to this URL, `#`, and its code in lower case. Default: the project's page on
   * GitHub. Any other kind of URL gives no links.
   */
  readonly rulesUrl?: string | undefined;
  /** The version of the tool the page names. */
  readonly version?: string | undefined;
}

/** The rule pages the report links to unless told otherwise. */
export const DEFAULT_RULES_URL =
  "https://github.com/ag-ui-verify/ag-ui-verify/blob/main/docs/rules.md";

/** `url` when it is an absolute http, https or file URL without credentials; undefined otherwise. */
function safeUrl(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (!["http:", "https:", "file:"].includes(parsed.protocol)) return undefined;
    if (parsed.username !== "" || parsed.password !== "") return undefined;
    parsed.hash = "";
    return parsed.href;
  } catch {
    return undefined;
  }
}

/** The JSON text of one input's data: its model, and its shown events' JSON. */
function inputData(input: HtmlInput | HtmlProblem): string {
  if ("problem" in input && !("report" in input)) {
    return JSON.stringify({
      name: shownText(input.name),
      url: input.url === undefined ? null : shownText(input.url),
      problem: shownText(input.problem, 2_000),
      valid: false,
      errors: 0,
      warnings: 0,
      omitted: 0,
      events: 0,
      format: null,
      bytes: null,
      gap: null,
      types: [],
      sec: [],
      lane: [],
      ent: [],
      ty: [],
      runs: [],
      lanes: [],
      bars: [],
      findings: [],
      elidedBars: 0,
      ev: [],
    });
  }
  const { name, url, report, events } = input as HtmlInput;
  const model: InputModel = inputModel(name, url, report, events);
  const gap = elided(events.length);
  const parts: string[] = [];
  for (let i = 0; i < events.length; i++) {
    if (gap !== undefined && i === gap[0]) i = gap[1];
    parts.push(eventJson(events[i]));
  }
  const meta = JSON.stringify(model);
  return `${meta.slice(0, -1)},"ev":[${parts.join(",")}]}`;
}

/**
 * One self-contained HTML page for the linted inputs (SPEC §22): for each input its
 * verdict, its findings by code, a timeline per run (a lane per agent, a bar per message,
 * tool call, reasoning message, span, step and activity, ticks for the other events, each
 * finding pinned at its event) and a filterable, keyboard-navigable event table; for
 * several inputs, a sortable summary table first. The page makes no request, runs no
 * script but its own, and works from `file://`. No I/O: write the string where you like.
 *
 * @example
 * ```ts
 * import { lint, renderHtml } from "ag-ui-verify/lint";
 * const events = [
 *   { type: "RUN_STARTED", threadId: "t1", runId: "r1" },
 *   { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "hi" },
 *   { type: "RUN_FINISHED", threadId: "t1", runId: "r1" },
 * ];
 * const html = renderHtml([{ name: "run.jsonl", report: lint(events), events }]);
 * console.log(html.startsWith("<!doctype html>")); // true
 * ```
 */
export function renderHtml(
  inputs: readonly (HtmlInput | HtmlProblem)[],
  options: HtmlOptions = {},
): string {
  const rules = safeUrl(options.rulesUrl ?? DEFAULT_RULES_URL);
  const version = options.version === undefined ? "" : shownText(options.version, 100);
  const head = JSON.stringify({
    tool: `ag-ui-verify${version === "" ? "" : ` ${version}`}`,
    rules: rules ?? null,
  });
  const data = `${head.slice(0, -1)},"inputs":[${inputs.map(inputData).join(",")}]}`;
  const csp = [
    "default-src 'none'",
    `script-src ${cspHash(PAGE_SCRIPT)}`,
    `style-src ${cspHash(PAGE_STYLE)}`,
    "img-src 'none'",
    "font-src 'none'",
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    "<title>ag-ui-verify report</title>",
    `<style>${PAGE_STYLE}</style>`,
    "</head>",
    "<body>",
    "<noscript><p>This report draws its timelines with JavaScript: allow scripts for this file to see them.</p></noscript>",
    '<main id="app"></main>',
    '<aside id="detail" aria-live="polite"></aside>',
    `<script type="application/json" id="ag-ui-verify-data">${pageJson(data)}</script>`,
    `<script>${PAGE_SCRIPT}</script>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
