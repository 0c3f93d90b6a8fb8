// Runs the built command (dist/cli.js; `npx tsup` or `npm test` builds it) as a user runs it.

import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const CLI = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the command (`cli`, default {@link CLI}) in `cwd`; `env` is added to an environment
 * without colour settings.
 */
export function runCli(
  args: readonly string[],
  options: { cwd: string; stdin?: string | Uint8Array; env?: Record<string, string>; cli?: string },
): Promise<CliRun> {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  if (options.env?.NO_COLOR === undefined) delete env.NO_COLOR;
  if (options.env?.FORCE_COLOR === undefined) delete env.FORCE_COLOR;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [options.cli ?? CLI, ...args], { cwd: options.cwd, env });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      stdout += text;
    });
    child.stderr.setEncoding("utf8").on("data", (text: string) => {
      stderr += text;
    });
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? "");
  });
}
