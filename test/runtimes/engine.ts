// Shared plumbing for the real-engine harnesses in this folder: the case names, a child
// process runner, and parsers for Deno's and Bun's test output.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type RuntimeLib, runtimeCases } from "../runtime/cases.ts";

/** The repository root, the working directory of every spawned engine. */
export const root = fileURLToPath(new URL("../../", import.meta.url));

/** The names of the runtime cases, in order (nothing is run or fetched). */
export const caseNames: readonly string[] = runtimeCases({} as RuntimeLib, "").map((c) => c.name);

// biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes
const ANSI = /\u001b\[[0-9;]*m/g;

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** stdout and stderr, interleaved as they arrived. */
  output: string;
  ms: number;
}

/** Runs a command in the repository root; kills it (SIGKILL) after `timeoutMs`. */
export function run(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
  timeoutMs = 45_000,
): Promise<RunResult> {
  const start = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => {
      output += s;
    });
    child.stderr.setEncoding("utf8").on("data", (s: string) => {
      output += s;
    });
    const timer = setTimeout(() => {
      output += `\n[killed after ${timeoutMs} ms]\n`;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      // NO_COLOR does not reach every line (Deno's "error:"), so strip what is left.
      resolve({ code, signal, output: output.replace(ANSI, ""), ms: Date.now() - start });
    });
  });
}

/** Test name → "ok" | "FAILED" | "ignored", from Deno's default (pretty) reporter. */
export function denoStatuses(output: string): Map<string, string> {
  const statuses = new Map<string, string>();
  for (const line of output.split(/\r?\n/)) {
    const match = /^(.*) \.\.\. (ok|FAILED|ignored)(?: \(|$)/.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined) statuses.set(match[1], match[2]);
  }
  return statuses;
}

/** Deno's summary line, e.g. `ok | 5 passed | 0 failed (40ms)`. */
export function denoSummary(output: string): { passed: number; failed: number } | undefined {
  const match = /^(?:ok|FAILED) \| (\d+) passed.*?\| (\d+) failed/m.exec(output);
  return match ? { passed: Number(match[1]), failed: Number(match[2]) } : undefined;
}

/** Test name → "pass" | "fail" | "skip" | "todo", from Bun's reporter (no TTY). */
export function bunStatuses(output: string): Map<string, string> {
  const statuses = new Map<string, string>();
  for (const line of output.split(/\r?\n/)) {
    const match = /^\((pass|fail|skip|todo)\) (.*?)(?: \[[\d.]+m?s\])?$/.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined) statuses.set(match[2], match[1]);
  }
  return statuses;
}

/** Bun's summary lines, ` 5 pass` and ` 0 fail`. */
export function bunSummary(output: string): { passed: number; failed: number } | undefined {
  const text = output;
  const pass = /^\s*(\d+) pass$/m.exec(text);
  const fail = /^\s*(\d+) fail$/m.exec(text);
  return pass && fail ? { passed: Number(pass[1]), failed: Number(fail[1]) } : undefined;
}
