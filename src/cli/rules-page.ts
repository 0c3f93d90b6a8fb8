/**
 * Where the rule pages are, for the reports: `docs/rules.md` ships in the package next to
 * `dist/`, so the command finds it from its own file (dist/cli.js), wherever the package is
 * installed. The text report names it so that it opens from a terminal: relative to the
 * working directory when it lies inside it (`node_modules/ag-ui-verify/docs/rules.md`), a
 * `file:` URL otherwise (an `npx` cache); SARIF and JUnit get a URL. `--rules-url` names
 * another page (a hosted copy) for all of them.
 * @module
 */

import { existsSync } from "node:fs";
import { isAbsolute, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { RULES_PAGE } from "../report/lint-text.ts";
import { UsageError } from "./problems.ts";

/** Where the rule pages are: as the text report names them, and as a URL. */
export interface RulesPage {
  /** What the text report and the help print before `#<code>`. */
  readonly text: string;
  /** An absolute URL (SARIF's `helpUri`, JUnit's `rules` property); none when not found. */
  readonly url: string | undefined;
}

/** The packaged page, `<package>/docs/rules.md`, when it is there. */
function packaged(): string | undefined {
  try {
    const file = fileURLToPath(new URL("../docs/rules.md", import.meta.url));
    return existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

/** `file` relative to `dir` when it lies inside it; undefined otherwise. */
export function inside(file: string, dir: string): string | undefined {
  const path = relative(dir, file);
  return path === "" || isAbsolute(path) || path.split(sep)[0] === ".." ? undefined : path;
}

/**
 * The rule pages for a run in `cwd`: `url` (from `--rules-url`) when given, else the
 * packaged page; without either (the sources run directly), the library's default,
 * {@link RULES_PAGE}, and no URL.
 */
export function rulesPage(url: string | undefined, cwd: string): RulesPage {
  if (url !== undefined) return { text: url, url };
  const file = packaged();
  if (file === undefined) return { text: RULES_PAGE, url: undefined };
  const href = pathToFileURL(file).href;
  return { text: inside(file, cwd) ?? href, url: href };
}

/** `--rules-url`: an absolute http, https or file URL, without a fragment (the code's anchor is added). */
export function rulesUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(
      `--rules-url ${JSON.stringify(text)} is not an absolute URL; give one such as https://example.com/docs/rules.md`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:" && url.protocol !== "file:") {
    throw new UsageError(`--rules-url must be an http, https or file URL, not ${url.protocol}`);
  }
  if (text.includes("#")) {
    throw new UsageError("--rules-url takes the page without a #fragment: each code's is added");
  }
  return url.href;
}
