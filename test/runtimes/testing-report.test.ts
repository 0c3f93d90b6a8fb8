// SPEC §19: a test helper's failure message is the command's text report of the same
// input, with one line before it. For each capture in examples/captures/, the message of
// assertValidStream (and of the matcher) against what `ag-ui-verify FILE --reporter text
// --no-color` prints (dist/cli.js, run here) and lintText of the command's InputReader over
// the file's bytes: equal line for line after the first line of each (the expectation; the
// header, which names the input).

import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { InputReader } from "../../src/report/input-reader.ts";
import { lintText } from "../../src/report/lint-text.ts";
import {
  AgUiStreamAssertionError,
  agUiMatchers,
  assertValidStream,
} from "../../src/testing/index.ts";
import { runCli } from "./cli-run.ts";

const DIR = new URL("../../examples/captures/", import.meta.url);
const captures = readdirSync(DIR).filter((f) => f.endsWith(".sse") || f.endsWith(".jsonl"));

/** The command's report, from the library: an InputReader over the bytes, as one chunk. */
function commandText(name: string, bytes: Uint8Array): string {
  const reader = new InputReader();
  reader.push(bytes);
  const { report, array } = reader.finish();
  return lintText({ name: `examples/captures/${name}`, report, array });
}

const REPO = fileURLToPath(new URL("../..", import.meta.url));

describe("the failure message is the command's text report", () => {
  it("finds the captures, valid and invalid", () => {
    expect(captures).toEqual(expect.arrayContaining(["chat.sse", "chat.jsonl", "truncated.sse"]));
    expect(captures.length).toBeGreaterThanOrEqual(10);
  });

  it.each(captures)("examples/captures/%s", async (name) => {
    const bytes = new Uint8Array(readFileSync(new URL(name, DIR)));
    const command = commandText(name, bytes).split("\n");
    // The command itself prints exactly that on stdout.
    const run = await runCli([`examples/captures/${name}`, "--reporter", "text", "--no-color"], {
      cwd: REPO,
    });
    expect(run.stdout.split("\n")).toEqual(command);
    const result = await agUiMatchers.toBeValidAgUiStream(bytes);
    const message = result.message().split("\n");
    expect(message[0]).toBe("expected the stream to be a valid AG-UI stream (no error)");
    expect(message[1]).toBe(command[0]?.replace(`examples/captures/${name}`, "the stream"));
    expect(message.slice(2)).toEqual(command.slice(1));
    expect(command.length).toBeGreaterThan(2);

    const valid = command[0]?.startsWith("✔ valid") === true;
    expect(result.pass).toBe(valid);
    const outcome = await assertValidStream(bytes).then(
      (report) => report,
      (error: unknown) => error,
    );
    if (valid) expect(outcome).toMatchObject({ valid: true });
    else {
      expect(outcome).toBeInstanceOf(AgUiStreamAssertionError);
      expect((outcome as AgUiStreamAssertionError).message).toBe(message.join("\n"));
    }
  });
});
