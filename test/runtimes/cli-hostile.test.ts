// The command against hostile inputs (SPEC §17.5, and its parts of §17.2 and §17.4):
// terminal escapes in every text output, values nested too deep to render, huge names and
// values, each message once, out-of-range flags, --jobs above the cores. The FIFOs,
// devices, Ctrl-C and HAR limits are in cli-streams.test.ts.

import { execFileSync } from "node:child_process";
import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { startAgentServer } from "../server/agent-server.ts";
import { CLI } from "./cli-run.ts";
import { FINISH, START, sandbox, sse, VALID } from "./cli-sandbox.ts";

const { dir, run, write } = sandbox("ag-ui-verify-hostile-");

/** util-linux `script`, which runs a command on a pseudo-terminal. */
const hasScript = (() => {
  try {
    return execFileSync("script", ["--version"], { encoding: "utf8" }).includes("util-linux");
  } catch {
    return false;
  }
})();

/** What a terminal would obey: C0 but tab and LF, DEL, C1. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: it looks for them
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/** The colours the command itself writes (SGR), taken out before looking for controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the command's own colour codes
const withoutOwnColours = (text: string) => text.replace(/\u001b\[\d+m/g, "");

/** OSC 52 (set the clipboard), erase the screen (ESC and C1 CSI), a bell, DEL, CR. */
const OSC52 = "\u001b]52;c;ZWNobyBwd25lZA==\u0007";
const ERASE = "\u001b[2J";
const CSI_ERASE = "\u009b2J";
const EVIL = `${OSC52}${ERASE}${CSI_ERASE}\u007f\r`;

describe("text from the input reaches a terminal with its control characters escaped", () => {
  const valid = [
    { type: "RUN_STARTED", threadId: `t${EVIL}`, runId: `r${EVIL}` },
    { type: `FUTURE${EVIL}`, value: EVIL },
    { type: "SUBAGENT_STARTED", subagentRunId: `s${EVIL}`, name: `agent${EVIL}` },
    { type: "SUBAGENT_FINISHED", subagentRunId: `s${EVIL}` },
    { type: "RUN_ERROR", message: `failed${EVIL}`, code: `c${EVIL}` },
  ];
  const invalid = [
    START,
    { type: `FUTURE${EVIL}`, value: EVIL, [`key${EVIL}`]: 1 },
    { type: "TEXT_MESSAGE_CONTENT", messageId: `m${EVIL}`, delta: EVIL },
  ];

  /**
   * Every output of `args` that is not JSON: the text report with no colour, --no-color and
   * forced colour, GitHub workflow commands and JUnit XML; and stderr in every mode.
   */
  async function outputs(args: readonly string[]): Promise<string[]> {
    const plain = await run(args);
    const noColor = await run([...args, "--no-color"], { env: { FORCE_COLOR: "1" } });
    const colour = await run(args, { env: { FORCE_COLOR: "1" } });
    const github = await run([...args, "--reporter", "github"]);
    const junit = await run([...args, "--reporter", "junit"]);
    const json = await run([...args, "--json"]);
    const sarif = await run([...args, "--reporter", "sarif"]);
    expect(colour.stdout).toContain("\u001b[3"); // colours are on, so the test means something
    for (const r of [plain, github, junit, json, sarif]) expect(r.stdout).not.toBe("");
    return [plain, noColor, colour, github, junit]
      .flatMap((r) => [r.stdout, r.stderr])
      .concat(json.stderr, sarif.stderr)
      .map(withoutOwnColours);
  }

  it("in one capture's report, valid or not, and on stderr", async () => {
    const good = await write(`evil${ERASE}${CSI_ERASE}.sse`, sse(valid));
    const bad = await write("evil-invalid.sse", sse(invalid));
    const data = await write("evil-data.sse", `${sse([START])}data: ${EVIL}nope\n\n`);
    for (const file of [good, bad, data]) {
      for (const text of await outputs([file])) expect(text).not.toMatch(CONTROL);
    }
    // What was escaped is still there to read.
    const shown = (await run([bad])).stdout;
    expect(shown).toContain("FUTURE\\x1b]52;c;ZWNobyBwd25lZA==\\x07\\x1b[2J\\x9b2J\\x7f\\x0d");
    expect(shown).toContain('"m\\u001b]52;c;ZWNobyBwd25lZA==\\u0007\\u001b[2J\\x9b2J\\x7f\\r"');
    expect((await run([bad, "--reporter", "github"])).stdout).toContain(
      'text message "m\\u001b]52;c;ZWNobyBwd25lZA==\\u0007\\u001b[2J\\x9b2J\\x7f\\r" is not open',
    );
  });

  it("bidirectional overrides and isolates too, in every format (Trojan Source)", async () => {
    const BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069";
    const events = [
      START,
      { type: "TEXT_MESSAGE_CONTENT", messageId: `m${BIDI}`, delta: BIDI },
      { type: `FUTURE${BIDI}` },
    ];
    const file = await write(`bidi${BIDI}.sse`, sse(events));
    const formats = ["text", "ndjson", "junit", "sarif", "github"];
    for (const reporter of formats) {
      const r = await run([file, "--reporter", reporter]);
      expect(r.stdout, reporter).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
      expect(r.stderr, reporter).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
      expect(r.stdout, reporter).toMatch(/\\u202e/i);
    }
    // Other right-to-left text is left as it is: only what reorders a line is escaped.
    const arabic = await write(
      "arabic.sse",
      sse([START, { type: "TEXT_MESSAGE_START", messageId: "مرحبا" }]),
    );
    expect((await run([arabic])).stdout).toContain("مرحبا");
  });

  it("in a corpus summary: file names, HAR URLs, and what could not be read", async () => {
    await write(`corpus/a${ERASE}.sse`, VALID);
    await write(`corpus/b${CSI_ERASE}.sse`, sse(invalid));
    const entry = (url: string, text: string) => ({
      startedDateTime: "2026-03-02T09:15:30.000Z",
      request: { method: "POST", url },
      response: { status: 200, content: { mimeType: "text/event-stream", text } },
    });
    const har = { log: { entries: [entry(`https://x.example/${EVIL}`, sse(invalid))] } };
    await write("corpus/session.har", JSON.stringify(har));
    await write("corpus/broken.har", `{"log": ${EVIL}`);
    const outs = await outputs(["corpus"]);
    for (const text of outs) expect(text).not.toMatch(CONTROL);
    expect(outs.join("")).toContain("https://x.example/\\x1b]52;c;");
  });
});

describe("what cannot be shown is shown shortened: never an internal error", () => {
  const DEPTH = 10_000;
  const deep = `${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}`;
  const deepObject = `${'{"a":'.repeat(DEPTH)}1${"}".repeat(DEPTH)}`;
  const REPORTERS = [
    [],
    ["--strict"],
    ["--json"],
    ...["junit", "sarif", "github"].map((r) => ["--reporter", r]),
  ];

  it("a capture nested 10,000 deep, as the offending event and as the events before it", async () => {
    const offending = await write("deep.sse", `data: ${deep}\n\n`);
    const before = await write(
      "deep-before.sse",
      `${sse([START])}data: {"type":"CUSTOM","name":"x","value":${deep}}\n\n${sse([START])}`,
    );
    const object = await write(
      "deep-object.jsonl",
      `${JSON.stringify(START)}\n${'{"type":"TEXT_MESSAGE_START","a":'.repeat(DEPTH)}1${"}".repeat(DEPTH)}\n`,
    );
    const objectBefore = await write(
      "deep-object-before.jsonl",
      `${JSON.stringify(START)}\n{"type":"CUSTOM","name":"y","value":${deepObject}}\n{"type":"TEXT_MESSAGE_END","messageId":"m"}\n`,
    );
    for (const file of [offending, before, object, objectBefore]) {
      for (const flags of REPORTERS) {
        const r = await run([file, ...flags]);
        expect(r.stderr, file).not.toContain("internal error");
        expect(r.code, `${file} ${flags.join(" ")}: ${r.stderr}`).toBe(1);
        expect(r.stdout, `${file} ${flags.join(" ")}`).not.toBe("");
      }
      // And among other inputs, read by the workers.
      const corpus = await run(["--json", "--jobs", "2", file, file]);
      expect(corpus.stderr).not.toContain("internal error");
      expect(corpus.code).toBe(1);
    }
    const shown = (await run([offending])).stdout;
    expect(shown).toContain("[EVENT_NOT_OBJECT, rule 0]");
    // The events before an error are shown on one short line each, the deep value cut.
    for (const [file, preview] of [
      [before, /\n {8}#1 +CUSTOM \{"name":"x","value":\[\[\[+…\]+\}\n/],
      [objectBefore, /\n {8}#1 +CUSTOM \{"name":"y","value":\{"a":\{"a":[^\n]*…\n/],
    ] as const) {
      const text = (await run([file])).stdout;
      expect(text).toMatch(preview);
      expect(Math.max(...text.split("\n").map((line) => line.length)), file).toBeLessThan(300);
    }
    // Valid, the same values give the usual verdict, in every mode.
    const valid = await write(
      "deep-valid.sse",
      `${sse([START])}data: {"type":"CUSTOM","name":"x","value":${deep}}\n\n${sse([FINISH])}`,
    );
    for (const args of [[valid], [valid, "--strict"], ["--json", valid, valid]]) {
      const r = await run(args);
      expect(r.stderr).not.toContain("internal error");
      expect(r.code, r.stderr).toBe(0);
    }
  });
});

describe("each message once, and every message bounded", () => {
  it("prints the verifier's message once, on stdout; stderr names the code", async () => {
    const events = [START, { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "x" }];
    const file = await write("once.sse", sse(events));
    const message = 'TEXT_MESSAGE_CONTENT at index 1: text message "m1" is not open';
    const line = `ag-ui-verify: invalid stream (${file}, line 3): TEXT_MESSAGE_NOT_OPEN (rule 3) at index 1\n`;
    const text = await run([file]);
    expect(text.code).toBe(1);
    expect(`${text.stdout}${text.stderr}`.split(message)).toHaveLength(2);
    expect(text.stdout).toContain(message);
    expect(text.stderr).toBe(line);
    const json = await run([file, "--json"]);
    expect(json.code).toBe(1);
    // In JSON, the quotes in the message are escaped.
    expect(`${json.stdout}${json.stderr}`.split(JSON.stringify(message).slice(1, -1))).toHaveLength(
      2,
    );
    expect(JSON.parse(json.stdout.split("\n")[0] ?? "").findings[0].message).toContain(message);
    expect(json.stderr).toBe(line);
    const github = await run([file, "--reporter", "github"]);
    expect(`${github.stdout}${github.stderr}`.split(message)).toHaveLength(2);
    expect(github.stderr).toBe(line);
  });

  it("cuts huge types, ids, values and tables to a bounded width and length", async () => {
    const huge = "x".repeat(200_000);
    const list = Array.from({ length: 5000 }, (_, i) => i);
    const keys = Object.fromEntries(list.map((k) => [`k${k}`, k]));
    const noise = Array.from({ length: 300 }, (_, i) => ({ type: `FUTURE_${i}` }));
    const hugeEvents = [
      { type: `FUTURE_${huge}`, [huge]: huge, list },
      { type: "CUSTOM", name: huge, value: keys },
      { type: `FUTURE_${huge}`, keys },
    ];
    const start = { type: "RUN_STARTED", threadId: huge, runId: huge };
    const valid = await write("huge-valid.sse", sse([start, ...noise, ...hugeEvents, FINISH]));
    const invalid = await write(
      "huge-invalid.sse",
      sse([
        start,
        ...noise,
        ...hugeEvents,
        { type: "TEXT_MESSAGE_END", messageId: huge, [huge]: huge, list, keys },
      ]),
    );
    for (const file of [valid, invalid]) {
      const r = await run([file]);
      expect(r.stderr).not.toContain("internal error");
      const lines = `${r.stdout}${r.stderr}`.split("\n");
      expect(Math.max(...lines.map((line) => line.length)), file).toBeLessThan(1200);
      // Each of the 301 unknown types is a warning of its own (UNKNOWN_EVENT_DROPPED: what a
      // 1.1 client drops), so the text lists the first 200 findings, as with --strict below.
      expect(r.stdout.length, file).toBeLessThan(80_000);
      expect(r.stdout.match(/\n {2}[✘!] /g)?.length, file).toBeLessThanOrEqual(200);
      // An id or a type in a message is cut after 100 characters. (The valid file's findings
      // about the huge ones come after the 200 the text lists: its JSON report's messages.)
      const shown =
        file === invalid
          ? r.stdout
          : JSON.parse((await run([file, "--json"])).stdout.split("\n")[0] ?? "")
              .findings.map((f: { message: string }) => f.message)
              .join("\n");
      expect(shown).toContain(`"${"x".repeat(100)}"…`);
      if (file === valid) expect(shown).toContain(`"FUTURE_${"x".repeat(93)}"…`);
      expect(shown).not.toContain("x".repeat(101));
    }
    // With --strict, each of the 301 unknown types is a finding of its own (the two events of
    // the huge one are one), and the run and thread ids that differ are two warnings
    // (RUN_ID_MISMATCH, THREAD_ID_MISMATCH): the text lists the first 200 and counts the
    // rest; every format keeps each message short.
    const strict = await run([valid, "--strict"]);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain("✘ invalid  huge-valid.sse (SSE): 301 errors, 2 warnings");
    expect(strict.stdout).toContain("\n  … and 103 more findings\n");
    expect(strict.stdout.match(/\n {2}[✘!] /g)).toHaveLength(200);
    expect(Math.max(...strict.stdout.split("\n").map((l) => l.length))).toBeLessThan(1200);
    expect(strict.stdout.length).toBeLessThan(80_000);
    const json = await run([valid, "--strict", "--json"]);
    const [report] = json.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(report.findings).toHaveLength(303);
    for (const f of report.findings) expect(f.message.length).toBeLessThan(1200);
    for (const reporter of ["github", "junit"]) {
      const r = await run([valid, "--strict", "--reporter", reporter]);
      expect(r.code).toBe(1);
      const widest = Math.max(...r.stdout.split("\n").map((l) => l.length));
      expect(widest, reporter).toBeLessThan(1500);
      expect(r.stdout).not.toContain("x".repeat(2001));
    }
  });

  it("keeps a huge RUN_ERROR message and code, and a huge id, short in every format", async () => {
    const huge = "e".repeat(1_000_000);
    const valid = await write(
      "huge-error.sse",
      sse([START, { type: "RUN_ERROR", message: huge, code: huge }]),
    );
    const invalid = await write(
      "huge-id.sse",
      sse([
        START,
        { type: "TEXT_MESSAGE_CONTENT", messageId: huge, delta: huge },
        { type: "RUN_ERROR", message: huge, code: huge },
      ]),
    );
    for (const [file, code] of [
      [valid, 0],
      [invalid, 1],
    ] as const) {
      for (const args of [
        [file],
        ["--json", file],
        ["--json", file, file],
        [file, file],
        ...["junit", "sarif", "github"].map((r) => ["--reporter", r, file]),
      ]) {
        const r = await run(args);
        expect(r.code, args.join(" ")).toBe(code);
        expect(r.stdout.length, args.join(" ")).toBeLessThan(12_000);
        expect(r.stderr.length, args.join(" ")).toBeLessThan(2_000);
      }
    }
    const [report] = (await run(["--json", invalid])).stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(report.findings).toHaveLength(1);
    expect(report.findings[0].message).toBe(
      `TEXT_MESSAGE_CONTENT at index 1: text message "${"e".repeat(100)}"… is not open; expected its start first. [TEXT_MESSAGE_NOT_OPEN, rule 3]`,
    );
  });
});

describe("numeric flags are range-checked; --jobs is lowered to the cores there are", () => {
  it.each([
    [
      ["--max-buffer-size", "3000000000"],
      "--max-buffer-size must be a positive whole number up to 536870912 (512 MiB), not 3000000000",
    ],
    [
      ["--max-buffer-size", "536870913"],
      "--max-buffer-size must be a positive whole number up to 536870912 (512 MiB), not 536870913",
    ],
    [
      ["--max-buffer-size", "0"],
      "--max-buffer-size must be a positive whole number up to 536870912 (512 MiB), not 0",
    ],
    [["--max-ids", "0"], "--max-ids must be a positive whole number or Infinity, not 0"],
    [["--max-ids=-1"], "--max-ids must be a positive whole number or Infinity, not -1"],
    [["--max-ids", "1.5"], "--max-ids must be a positive whole number or Infinity, not 1.5"],
    [["--max-ids", "lots"], "--max-ids must be a positive whole number or Infinity, not lots"],
    [["--jobs", "0"], "--jobs must be a positive whole number, not 0"],
    [["--jobs", "2.5"], "--jobs must be a positive whole number, not 2.5"],
  ])("%j is a usage error", async (flags, message) => {
    const file = await write("range.sse", VALID);
    for (const args of [
      [...flags, file],
      [...flags, file, file],
    ]) {
      const r = await run(args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(`ag-ui-verify: ${message} (see --help)\n`);
    }
  });

  it("accepts the limits themselves", async () => {
    const file = await write("range.sse", VALID);
    for (const flags of [
      ["--max-buffer-size", "536870912"],
      ["--max-buffer-size", "1"],
      ["--max-ids", "1"],
      ["--jobs", "1"],
    ]) {
      const r = await run([...flags, "--json", file]);
      expect(r.code, flags.join(" ")).not.toBe(2);
      expect(r.stderr).not.toContain("must be");
    }
  });

  it("--max-ids is the verifier's maxIds, in one capture, in every job and with --url", async () => {
    const events = [
      START,
      { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" },
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "f" },
      { type: "TEXT_MESSAGE_START", messageId: "m2", role: "assistant" },
    ];
    const file = await write("ids.jsonl", events.map((e) => `${JSON.stringify(e)}\n`).join(""));
    /** The codes and indices of each input's findings, from NDJSON output. */
    const findings = (stdout: string) =>
      stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line))
        .filter((line) => line.summary === undefined)
        .map((input) =>
          input.findings.map((f: { code: string; index: number }) => [f.code, f.index]),
        );
    // The end of input is left to complain about, every time: the run is still open.
    const limitedFindings = [
      ["ID_LIMIT_EXCEEDED", 3],
      ["STREAM_ENDED_BEFORE_RUN_CLOSED", 4],
    ];
    const limited = await run(["--json", "--max-ids", "2", file]);
    expect(limited.code).toBe(1);
    expect(findings(limited.stdout)).toEqual([limitedFindings]);
    const corpus = await run(["--json", "--max-ids", "2", "--jobs", "2", file, file, file]);
    expect(corpus.code).toBe(1);
    expect(findings(corpus.stdout)).toEqual(Array(3).fill(limitedFindings));
    for (const flags of [["--max-ids", "3"], ["--max-ids", "Infinity"], []]) {
      const r = await run(["--json", ...flags, file]);
      expect(findings(r.stdout), flags.join(" ")).toEqual([
        [["STREAM_ENDED_BEFORE_RUN_CLOSED", 4]],
      ]);
    }
    const server = await startAgentServer();
    try {
      const url = await run(["--json", "--max-ids", "1", "--url", `${server.url}/run/valid`]);
      expect(url.code).toBe(1);
      const [live] = findings(url.stdout);
      // The second id (m1, at index 2) is over the limit; so is each new id after it.
      expect(live[0]).toEqual(["ID_LIMIT_EXCEEDED", 2]);
      expect(
        live.filter(([code]: [string]) => code === "ID_LIMIT_EXCEEDED").length,
      ).toBeGreaterThan(1);
      expect((await run(["--json", "--url", `${server.url}/run/valid`])).code).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("--jobs above the available parallelism is lowered to it; piped, the output is the same", async () => {
    const files = await Promise.all([1, 2, 3].map((i) => write(`jobs/${i}.sse`, VALID)));
    const many = await run(["--json", "--jobs", "256", ...files]);
    expect(many.code).toBe(0);
    expect(many.stderr).toBe("");
    const one = await run(["--json", "--jobs", "1", ...files]);
    const steady = (text: string) => text.replace(/"durationMs":[\d.]+/g, "");
    expect(steady(many.stdout)).toBe(steady(one.stdout));
  });

  it.runIf(hasScript)("on a terminal, with a one-line note", async () => {
    const cores = availableParallelism();
    const files = await Promise.all([1, 2, 3].map((i) => write(`jobs/${i}.sse`, VALID)));
    const onTty = (jobs: number) =>
      execFileSync(
        "script",
        [
          "-qec",
          [process.execPath, CLI, "--no-color", "--jobs", String(jobs), ...files].join(" "),
          "/dev/null",
        ],
        { cwd: dir(), encoding: "utf8" },
      );
    const note = `ag-ui-verify: --jobs 256 is more than the ${cores} available cores; checking ${cores} at once\r\n`;
    expect(onTty(256).startsWith(note)).toBe(true);
    expect(onTty(256).split(note)).toHaveLength(2);
    expect(onTty(cores)).not.toContain("available cores");
  });
});
