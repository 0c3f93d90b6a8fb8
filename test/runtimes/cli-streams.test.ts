// The command and the files that are not regular, and the ways a run ends early (SPEC
// §17.5): FIFOs, sockets and devices in walked folders, /dev/stdin and FIFOs given by name,
// Ctrl-C with its summary, no more workers than cores, HAR entries with no body and HAR
// files too large to read. A hang fails: every run has a time limit.

import { execFileSync } from "node:child_process";
import { type FileHandle, mkdir, open, readFile, rm, symlink, truncate } from "node:fs/promises";
import { createServer } from "node:net";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { unreadableLine } from "../support/ndjson.ts";
import { CLI } from "./cli-run.ts";
import { sandbox, VALID } from "./cli-sandbox.ts";

const { dir, run, write } = sandbox("ag-ui-verify-streams-");

/** Makes a FIFO below the temporary directory and returns its name. */
async function fifo(name: string): Promise<string> {
  await mkdir(dirname(join(dir(), name)), { recursive: true });
  execFileSync("mkfifo", [join(dir(), name)]);
  return name;
}

/**
 * Opens the FIFO for writing: resolves once the command opened it for reading (before that
 * an open for writing waits), or rejects after `ms`.
 */
async function writer(name: string, ms = 10_000): Promise<FileHandle> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`nobody opened ${name} in ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([open(join(dir(), name), "w"), late]);
  } finally {
    clearTimeout(timer);
  }
}

const POSIX = process.platform !== "win32";

describe.runIf(POSIX)(
  "a walk reads regular files only; an explicit path is read as a stream",
  () => {
    it("skips and lists FIFOs, sockets and devices found in a folder, and checks the rest", async () => {
      await write("special/a.sse", VALID);
      await fifo("special/pipe.sse");
      await symlink("/dev/null", join(dir(), "special/null.sse"));
      await symlink(join(dir(), "special/pipe.sse"), join(dir(), "special/to-pipe.sse"));
      const server = createServer();
      await new Promise<void>((resolve) =>
        server.listen(join(dir(), "special/socket.sse"), resolve),
      );
      try {
        const text = await run(["special"], { limitMs: 15_000 });
        expect(text.hung).toBe(false);
        expect(text.code).toBe(0);
        expect(text.stdout).toContain("✔ 1 valid");
        expect(text.stdout).toContain("4 files skipped: not regular files");
        expect(text.stdout).toContain(
          [
            "Skipped",
            "  special/null.sse: a character device, not a regular file",
            "  special/pipe.sse: a FIFO, not a regular file",
            "  special/socket.sse: a socket, not a regular file",
            "  special/to-pipe.sse: a FIFO, not a regular file",
          ].join("\n"),
        );
        const json = await run(["--json", "special"], { limitMs: 15_000 });
        const lines = json.stdout
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line));
        // The skipped files are no inputs: one line for the file read, then the summary.
        expect(lines.map((line) => line.name)).toEqual(["special/a.sse", undefined]);
        expect(lines[0]).toMatchObject({ valid: true, events: 2, findings: [] });
        expect(lines[1].summary).toMatchObject({
          inputs: 1,
          valid: 1,
          unreadable: 0,
          skippedFiles: {
            count: 4,
            examples: [
              { input: "special/null.sse", what: "a character device" },
              { input: "special/pipe.sse", what: "a FIFO" },
              { input: "special/socket.sse", what: "a socket" },
              { input: "special/to-pipe.sse", what: "a FIFO" },
            ],
          },
        });
      } finally {
        server.close();
      }
    });

    it("reads /dev/stdin and a FIFO given by name, alone or among files", async () => {
      // stdin a pipe, as a shell makes it, and a socket, as Node's spawn makes it.
      const script = `printf '%s' "$1" | "$2" "$3" /dev/stdin`;
      const args = ["-c", script, "sh", VALID, process.execPath, CLI];
      const piped = execFileSync("sh", args, { cwd: dir(), encoding: "utf8" });
      expect(piped).toContain("✔ valid  /dev/stdin (SSE)");
      const alone = await run(["/dev/stdin"], { stdin: VALID });
      expect(alone.code, alone.stderr).toBe(0);
      expect(alone.stdout).toContain("✔ valid  /dev/stdin (SSE)");
      const among = await run(["--json", "/dev/stdin", await write("among.sse", VALID)], {
        stdin: VALID,
      });
      expect(among.code, among.stderr).toBe(0);
      expect(JSON.parse(among.stdout.split("\n")[0] ?? "")).toMatchObject({
        name: "/dev/stdin",
        valid: true,
        events: 2,
        input: { format: "sse", bytes: VALID.length },
      });
      for (const args of [["named.sse"], ["--json", "named.sse", "among.sse"]]) {
        await rm(join(dir(), "named.sse"), { force: true });
        await fifo("named.sse");
        const result = run(args, { limitMs: 15_000 });
        const handle = await writer("named.sse");
        await handle.write(VALID);
        await handle.close();
        const r = await result;
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toMatch(
          args.length === 1
            ? /^✔ valid {2}named\.sse \(SSE\): 0 errors/
            : /^\{"name":"named\.sse","valid":true,/,
        );
      }
    });
  },
);

describe.runIf(POSIX)("Ctrl-C stops the work, prints what was checked, and exits 130", () => {
  it("while a stream waits: the summary, 'interrupted after N of M inputs', within a second", async () => {
    await Promise.all(Array.from({ length: 300 }, (_, i) => write(`int/${i}.sse`, VALID)));
    await fifo("int-wait.sse");
    let handle: FileHandle | undefined;
    let signalled = 0;
    const r = await run(["int-wait.sse", "int"], {
      limitMs: 30_000,
      during: (child) => {
        writer("int-wait.sse").then((h) => {
          handle = h;
          signalled = performance.now();
          child.kill("SIGINT");
        });
      },
    });
    const took = performance.now() - signalled;
    await handle?.close();
    expect(r.hung).toBe(false);
    expect(r.signal).toBe(null);
    expect(r.code).toBe(130);
    // Prompt: it does not wait for the input to end (which never comes); the bound is loose
    // because CI runs the suite beside a CPU load.
    expect(took).toBeLessThan(15_000);
    // The stream comes first, so nothing after it was handed on.
    expect(r.stdout).toContain("Checked 0 inputs");
    expect(r.stdout).toContain("interrupted after 0 of 301 inputs");
    expect(r.stderr).toBe("ag-ui-verify: interrupted after 0 of 301 inputs\n");
  });

  it("while workers check files: every input handed on is in the output and the summary", async () => {
    await Promise.all(Array.from({ length: 300 }, (_, i) => write(`int/${i}.sse`, VALID)));
    await rm(join(dir(), "int-last.sse"), { force: true });
    await fifo("int-last.sse");
    let handle: FileHandle | undefined;
    let signalled = 0;
    const r = await run(["--json", "--jobs", "2", "int", "int-last.sse"], {
      limitMs: 30_000,
      during: (child) => {
        writer("int-last.sse").then(async (h) => {
          handle = h;
          // The workers have started and handed files on; the FIFO, last, still waits.
          await new Promise((resolve) => setTimeout(resolve, 1500));
          signalled = performance.now();
          child.kill("SIGINT");
        });
      },
    });
    const took = performance.now() - signalled;
    await handle?.close();
    expect(r.hung).toBe(false);
    expect(r.code).toBe(130);
    // Prompt: it does not wait for the input to end (which never comes); the bound is loose
    // because CI runs the suite beside a CPU load.
    expect(took).toBeLessThan(15_000);
    const lines = r.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const { summary } = lines.pop();
    const n = lines.length;
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThanOrEqual(300);
    expect(lines.map((line) => line.name)).toEqual(
      [...Array(300).keys()]
        .map((i) => `int/${i}.sse`)
        .sort()
        .slice(0, n),
    );
    expect(summary).toMatchObject({ inputs: n, valid: n, interrupted: { after: n, of: 301 } });
    expect(r.stderr).toBe(`ag-ui-verify: interrupted after ${n} of 301 inputs\n`);
  });

  it.runIf(process.platform === "linux")(
    "starts no more workers than there are cores (--jobs 256)",
    async () => {
      await Promise.all(Array.from({ length: 300 }, (_, i) => write(`int/${i}.sse`, VALID)));
      await rm(join(dir(), "int-wait.sse"), { force: true });
      await fifo("int-wait.sse");
      let threads = Number.NaN;
      let handle: FileHandle | undefined;
      const r = await run(["--jobs", "256", "int-wait.sse", "int"], {
        limitMs: 30_000,
        during: (child) => {
          writer("int-wait.sse").then(async (h) => {
            handle = h;
            // Give every worker time to start, then count the command's threads.
            await new Promise((resolve) => setTimeout(resolve, 1000));
            const status = await readFile(`/proc/${child.pid}/status`, "utf8");
            threads = Number(/^Threads:\s*(\d+)/m.exec(status)?.[1]);
            child.kill("SIGINT");
          });
        },
      });
      await handle?.close();
      expect(r.code).toBe(130);
      // The main thread, a worker per core, and Node's own few (V8, libuv): far below 256.
      expect(threads).toBeGreaterThan(availableParallelism());
      expect(threads).toBeLessThan(availableParallelism() + 30);
    },
  );
});

describe("HAR files: an entry without a body is unreadable; a huge file is refused", () => {
  const entry = (url: string, content: Record<string, unknown>) => ({
    startedDateTime: "2026-03-02T09:15:30.000Z",
    request: { method: "POST", url },
    response: { status: 200, content: { mimeType: "text/event-stream", ...content } },
  });

  it("reports an entry that recorded no response body as 'no body recorded', exit 2", async () => {
    const har = {
      log: {
        entries: [
          entry("https://x.example/none", { size: 0 }),
          entry("https://x.example/dropped", { size: 1234, text: "" }),
          entry("https://x.example/ok", { size: VALID.length, text: VALID }),
          entry("https://x.example/empty", { size: 0, text: "" }),
        ],
      },
    };
    const file = await write("bodies.har", JSON.stringify(har));
    const url = (path: string) => `POST https://x.example/${path} 2026-03-02T09:15:30.000Z`;
    const name = (path: string) => `${file}: ${url(path)}`;
    const json = await run(["--json", file]);
    expect(json.code).toBe(2);
    const lines = json.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const noBody = (path: string) => unreadableLine(file, "no body recorded", url(path));
    expect(lines.slice(0, 2)).toEqual([noBody("none"), noBody("dropped")]);
    expect(lines[2]).toMatchObject({ name: file, url: url("ok"), valid: true, findings: [] });
    // A body recorded as empty is a body: the verdict is on it.
    expect(lines[3]).toMatchObject({
      name: file,
      url: url("empty"),
      valid: false,
      input: { bytes: 0 },
      findings: [{ code: "STREAM_ENDED_BEFORE_RUN_STARTED" }],
    });
    expect(lines[4].summary).toMatchObject({
      inputs: 4,
      valid: 1,
      invalid: 1,
      unreadable: 2,
      problems: [`${name("none")}: no body recorded`, `${name("dropped")}: no body recorded`],
    });
    expect(json.stderr.split("\n").slice(0, 2)).toEqual([
      `ag-ui-verify: ${name("none")}: no body recorded`,
      `ag-ui-verify: ${name("dropped")}: no body recorded`,
    ]);
    const text = await run([file]);
    expect(text.code).toBe(2);
    expect(text.stdout).toContain("  ✘ 1 invalid\n  ! 2 unreadable\n");
    expect(text.stdout).toContain(
      `Unreadable\n  ${name("none")}: no body recorded\n  ${name("dropped")}: no body recorded\n`,
    );
    // Unreadable in every format, and exit 2 whatever --fail-on says.
    const github = await run(["--reporter", "github", "--fail-on", "none", file]);
    expect(github.code).toBe(2);
    expect(github.stdout).toContain(`::error file=${file}::no body recorded [${url("none")}]\n`);
    const junit = await run(["--reporter", "junit", file]);
    expect(junit.code).toBe(2);
    expect(junit.stdout).toContain('tests="4" failures="1" errors="2"');
    expect(junit.stdout.split('<error message="no body recorded" type="unreadable">')).toHaveLength(
      3,
    );
    const sarif = await run(["--reporter", "sarif", file]);
    expect(sarif.code).toBe(2);
    const invocation = JSON.parse(sarif.stdout).runs[0].invocations[0];
    expect(invocation.executionSuccessful).toBe(false);
    expect(invocation.toolExecutionNotifications).toHaveLength(2);
  });

  it("refuses a HAR file larger than it can read, saying so, before reading it", async () => {
    const file = await write("huge.har", "");
    await truncate(join(dir(), file), 600 * 1024 ** 2); // sparse: no bytes written
    const small = await write("small.sse", VALID);
    const r = await run(["--json", file, small], { limitMs: 20_000 });
    expect(r.code).toBe(2);
    const lines = r.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ name: file, valid: false, findings: [] });
    expect(lines[0].problem).toMatch(
      /^"huge\.har" is too large: 600\.0 MiB, over the \d+\.\d MiB a HAR file may have here \(it is read whole\)/,
    );
    expect(lines[1]).toMatchObject({ name: small, valid: true });
    expect(lines[2].summary).toMatchObject({ inputs: 2, valid: 1, unreadable: 1 });
    expect(r.stderr).not.toContain("internal error");
    // Alone, it is refused the same way.
    const alone = await run([file], { limitMs: 20_000 });
    expect(alone.code).toBe(2);
    expect(alone.stdout).toContain('Unreadable\n  "huge.har" is too large: 600.0 MiB');
    expect(alone.stderr).toMatch(/^ag-ui-verify: "huge\.har" is too large: 600\.0 MiB/);
  });
});
