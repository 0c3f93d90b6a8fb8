// assertValidStream under node:test (SPEC §19: "works with any test runner"), from the
// built package by its own name (`npm test` builds first): `node --test test/node/`.
// Node's own streams are inputs too: a file's read stream is an async iterable of bytes.

import assert from "node:assert/strict";
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { Readable } from "node:stream";
import { describe, it } from "node:test";
import { AgUiStreamAssertionError, assertValidStream } from "ag-ui-verify/testing";
import { RS, WARNED } from "../support/events.mjs";

const capture = (name) => new URL(`../../examples/captures/${name}`, import.meta.url);

describe("assertValidStream under node:test", () => {
  it("resolves with the report of a valid capture, read as a Node stream", async () => {
    const report = await assertValidStream(createReadStream(capture("chat.sse")));
    assert.equal(report.valid, true);
    assert.equal(report.events, 43);
    assert.equal(report.input?.format, "sse");
  });

  it("rejects an invalid capture with the report, the finding placed by line", async () => {
    const bytes = await readFile(capture("owner-mismatch.sse"));
    await assert.rejects(assertValidStream(bytes), (error) => {
      assert.ok(error instanceof AgUiStreamAssertionError);
      assert.equal(error.name, "AgUiStreamAssertionError");
      assert.deepEqual(
        error.report.findings.map((f) => [f.code, f.index, f.line]),
        [["OWNER_MISMATCH", 7, 15]],
      );
      const [first, header] = error.message.split("\n");
      assert.equal(first, "expected the stream to be a valid AG-UI stream (no error)");
      assert.equal(header, "✘ invalid  the stream (SSE): 1 error, 0 warnings");
      return true;
    });
  });

  it("takes events, and fails on a warning with failOn", async () => {
    const events = WARNED;
    assert.equal((await assertValidStream(events)).warnings, 1);
    await assert.rejects(
      assertValidStream(events, { failOn: "warning" }),
      AgUiStreamAssertionError,
    );
  });

  it("rejects a Node stream that breaks, with its error as cause", async () => {
    const boom = new Error("socket hang up");
    const body = new Readable({
      read() {
        this.push(`data: ${JSON.stringify(RS)}\n\n`);
        this.destroy(boom);
      },
    });
    await assert.rejects(assertValidStream(body), (error) => {
      assert.ok(error instanceof AgUiStreamAssertionError);
      assert.equal(error.cause, boom);
      assert.match(error.message.split("\n")[0], /it errored: Error: socket hang up$/);
      return true;
    });
  });
});
