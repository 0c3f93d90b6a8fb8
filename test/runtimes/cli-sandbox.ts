// The built command run with a time limit in a temporary directory, for the tests of what
// it does with hostile and broken inputs (cli-hostile.test.ts, cli-streams.test.ts).

import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { CLI } from "./cli-run.ts";

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Whether the time limit ran out (the child was then killed). */
  hung: boolean;
}

export interface RunOptions {
  stdin?: string;
  env?: Record<string, string>;
  /** Kill the command after this long (default 20 s). */
  limitMs?: number;
  /** Runs once the child started. */
  during?: (child: ChildProcess) => void;
}

/**
 * A temporary directory for the calling test file (made before its tests, removed after),
 * with `run` (the command, in it, without colour settings unless `env` sets them) and
 * `write` (a file below it; returns its name).
 */
export function sandbox(prefix: string) {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    if (dir !== "") await rm(dir, { recursive: true, force: true });
  });
  return {
    dir: () => dir,
    run: (args: readonly string[], options: RunOptions = {}) => run(dir, args, options),
    async write(name: string, content: string | Uint8Array): Promise<string> {
      await mkdir(dirname(join(dir, name)), { recursive: true });
      await writeFile(join(dir, name), content);
      return name;
    },
  };
}

function run(cwd: string, args: readonly string[], options: RunOptions): Promise<Run> {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  if (options.env?.NO_COLOR === undefined) delete env.NO_COLOR;
  if (options.env?.FORCE_COLOR === undefined) delete env.FORCE_COLOR;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env });
    let stdout = "";
    let stderr = "";
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      child.kill("SIGKILL");
    }, options.limitMs ?? 20_000);
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      stdout += text;
    });
    child.stderr.setEncoding("utf8").on("data", (text: string) => {
      stderr += text;
    });
    child.on("error", fail);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout, stderr, hung });
    });
    child.stdin.on("error", () => {});
    child.stdin.end(options.stdin ?? "");
    options.during?.(child);
  });
}

export const sse = (events: readonly unknown[]) =>
  events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join("");

export const START = { type: "RUN_STARTED", threadId: "t1", runId: "r1" };
export const FINISH = { type: "RUN_FINISHED", threadId: "t1", runId: "r1" };
export const VALID = sse([START, FINISH]);
