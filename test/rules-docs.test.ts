// docs/rules.md (SPEC §18.4) has one `### CODE` section per error code and per warning code,
// in the order of SPEC §10.2 and §18.2, each under its rule. Every section's example is run
// here: an error example must fail with its code at the index the section states, a warning
// example must be a stream the rules accept, for which the linter reports the warning there.
// A code that is both (a warning by default, an error with protocol "draft": SPEC §18.5) has
// one section, among the warnings, whose example must also fail with protocol "draft".

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  CONFORM_WARNING_CODES,
  type ConformWarning,
  conformingEvents,
} from "../src/conform/index.ts";
import {
  type DecoderOptions,
  VERIFY_ERROR_CODES,
  type VerifierOptions,
  VerifyError,
  verifiedEvents,
  verifyAll,
} from "../src/index.ts";
import {
  type LintOptions,
  type LintReport,
  lint,
  lintStream,
  WARNING_CODES,
} from "../src/lint/index.ts";
import { PROTO_MEDIA_TYPE, protobuf } from "../src/proto/index.ts";
import { agUiSchema } from "../src/schema/index.ts";
import { collect } from "./support/streams.ts";

const DOC = readFileSync(new URL("../docs/rules.md", import.meta.url), "utf8");

interface Section {
  readonly code: string;
  /** 1-based line of the heading. */
  readonly line: number;
  /** The `## ` heading the section sits under. */
  readonly group: string;
  readonly body: string;
  readonly format: "text" | "sse" | "http" | "proto";
  /** The example block's lines. */
  readonly example: readonly string[];
  readonly verb: string;
  readonly endOfInput: boolean;
  readonly index: number;
}

function sectionsOf(doc: string): Section[] {
  const lines = doc.split("\n");
  const out: Section[] = [];
  let group = "";
  lines.forEach((line, i) => {
    if (line.startsWith("## ")) group = line.slice(3);
    if (!line.startsWith("### ")) return;
    const next = lines.findIndex((l, j) => j > i && (l.startsWith("## ") || l.startsWith("### ")));
    const body = lines.slice(i + 1, next === -1 ? undefined : next);
    const where = `docs/rules.md:${i + 1}`;
    const fences = body.flatMap((l, j) => (/^```(text|sse|http|proto)$/.test(l) ? [j] : []));
    if (fences.length !== 1)
      throw new Error(`${where}: expected one text, sse, http or proto block`);
    const start = fences[0] ?? 0;
    const end = body.indexOf("```", start + 1);
    if (end === -1) throw new Error(`${where}: unterminated example block`);
    const said = body.flatMap((l) => {
      const m = /^(Reported|Warning) at (the end of input, )?index (\d+)\.$/.exec(l);
      return m === null ? [] : [m];
    });
    const m = said[0];
    if (said.length !== 1 || m === undefined) {
      throw new Error(`${where}: expected one "Reported at index N." or "Warning at index N."`);
    }
    out.push({
      code: line.slice(4),
      line: i + 1,
      group,
      body: body.join("\n"),
      format: (body[start] ?? "").slice(3) as Section["format"],
      example: body.slice(start + 1, end),
      verb: m[1] ?? "",
      endOfInput: m[2] !== undefined,
      index: Number(m[3]),
    });
  });
  return out;
}

const sections = sectionsOf(DOC);
const errorCodes: readonly string[] = VERIFY_ERROR_CODES;
const warningCodes: readonly string[] = WARNING_CODES;
/** Codes that are warnings by default and errors with protocol "draft" (SPEC §18.5). */
const bothCodes = errorCodes.filter((c) => warningCodes.includes(c));
const errorSections = sections.filter(
  (s) => errorCodes.includes(s.code) && !bothCodes.includes(s.code),
);
const warningSections = sections.filter((s) => warningCodes.includes(s.code));
/** The 1.1 pipeline's warnings that are not the linter's: their own group, last. */
const conformOnly: readonly string[] = CONFORM_WARNING_CODES.filter(
  (c) => !warningCodes.includes(c),
);
const conformSections = sections.filter((s) => conformOnly.includes(s.code));
const bothSections = sections.filter((s) => bothCodes.includes(s.code));

/** The codes only the 1.1 pipeline gives: their examples are read by conformingEvents. */
const CONFORM: ReadonlySet<string> = new Set([
  "CHUNK_ID_MISSING",
  "CHUNK_NAME_MISSING",
  "CHUNK_CONFLICT",
  "CHUNK_AMBIGUOUS",
]);

/** The options an example needs, and the words its section must say them in. */
const OPTIONS: {
  readonly [code: string]: {
    readonly options: VerifierOptions & DecoderOptions;
    readonly says: string;
  };
} = {
  SSE_BUFFER_OVERFLOW: { options: { maxBufferSize: 64 }, says: "`maxBufferSize: 64`" },
  ID_LIMIT_EXCEEDED: { options: { maxIds: 2 }, says: "`maxIds: 2`" },
  SCHEMA_MISMATCH: { options: { schema: agUiSchema }, says: "`--strict`" },
  INTERRUPT_ID_DUPLICATE: { options: { protocol: "draft" }, says: '`protocol: "draft"`' },
  THREAD_ID_MISMATCH: { options: { protocol: "draft" }, says: '`protocol: "draft"`' },
  RUN_ID_MISMATCH: { options: { protocol: "draft" }, says: '`protocol: "draft"`' },
};

/** The linter options a warning example needs (a warning off by default), and their words. */
const LINT_OPTIONS: {
  readonly [code: string]: { readonly options: LintOptions; readonly says: string };
} = {
  PROTOCOL_VERSION_MISSING: {
    options: { severity: { PROTOCOL_VERSION_MISSING: "warning" } },
    says: "`--severity PROTOCOL_VERSION_MISSING=warning`",
  },
  ...withRequest(
    "FRONTEND_TOOL_ANSWERED",
    '{"threadId":"t1","runId":"r1","tools":[{"name":"confirm","description":"Ask the user","parameters":{}}]}',
  ),
  ...withRequest("REQUESTED_RUN_ID_MISMATCH", '{"threadId":"t1","runId":"r2"}'),
  ...withRequest(
    "STATE_DELTA_WRONG_BASELINE",
    '{"threadId":"t1","runId":"r1","state":{"count":1}}',
  ),
};

/** A request check's example: the request it is linted with, as its section shows it. */
function withRequest(code: string, request: string) {
  return {
    [code]: {
      options: { request: JSON.parse(request) },
      says: `The example's request: \`${request}\``,
    },
  };
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, "")
    .replace(/ /g, "-");
}

function events(s: Section): unknown[] {
  return s.example.map((l) => JSON.parse(l));
}

/** The examples written with CRLF line ends (the section says so; markdown cannot show it). */
const CRLF: ReadonlySet<string> = new Set(["SSE_LINE_ENDINGS_NOT_LF"]);

/** The raw SSE of an sse block: its lines, each ended by LF (CRLF where the section says). */
function sseText(s: Section): string {
  const end = CRLF.has(s.code) ? "\r\n" : "\n";
  return s.example.map((l) => `${l}${end}`).join("");
}

function thrownBy(run: () => void): unknown {
  try {
    run();
  } catch (e) {
    return e;
  }
  return undefined;
}

/** What the linter reports for a section's example. */
async function lintExample(s: Section): Promise<LintReport> {
  const options = LINT_OPTIONS[s.code]?.options;
  return s.format === "text" ? lint(events(s), options) : lintStream(sseText(s), options);
}

describe("docs/rules.md", () => {
  it("has one ### section per error code and warning code, in the SPEC's order", () => {
    const errorsOnly = errorCodes.filter((c) => !bothCodes.includes(c));
    expect(sections.map((s) => s.code)).toEqual([...errorsOnly, ...warningCodes, ...conformOnly]);
    const headings = DOC.split("\n").filter((l) => l.startsWith("### "));
    expect(headings.length).toBe(errorsOnly.length + warningCodes.length + conformOnly.length);
  });

  it("links each code from the contents, and every link points at a heading", () => {
    const anchors = new Set(
      DOC.split("\n")
        .filter((l) => /^#{1,6} /.test(l))
        .map((l) => anchorOf(l.replace(/^#+ /, ""))),
    );
    for (const s of sections) {
      expect(anchorOf(s.code)).toBe(s.code.toLowerCase());
      expect(DOC).toContain(`[${s.code}](#${s.code.toLowerCase()})`);
    }
    for (const m of DOC.matchAll(/\]\(#([^)]*)\)/g)) expect(anchors).toContain(m[1]);
  });

  it("states errors as Reported and warnings as Warning, warnings under ## Warnings", () => {
    for (const s of errorSections) expect(s.verb, s.code).toBe("Reported");
    for (const s of warningSections) {
      expect(s.verb, s.code).toBe("Warning");
      expect(s.endOfInput, s.code).toBe(false);
      expect(s.group, s.code).toBe("Warnings");
    }
  });

  it("says which option each example needs", () => {
    for (const [code, { says }] of [...Object.entries(OPTIONS), ...Object.entries(LINT_OPTIONS)]) {
      expect(sections.find((s) => s.code === code)?.body, code).toContain(says);
    }
    expect(sections.find((s) => s.code === "SCHEMA_MISMATCH")?.body).toContain("`schema`");
    expect(sections.find((s) => s.code === "FIELD_MISSING")?.body).toContain("`message_id`");
  });
});

describe("docs/rules.md error examples", () => {
  const text = errorSections.filter((s) => s.format === "text");
  const sse = errorSections.filter((s) => s.format === "sse");

  it.each(
    text
      .filter((s) => !CONFORM.has(s.code))
      .map((s) => [`${s.code} (docs/rules.md:${s.line})`, s] as const),
  )("%s", (_name, s) => {
    const input = events(s);
    // The example stops at what it shows: the rejected event is its last line.
    expect(s.index).toBe(s.endOfInput ? input.length : input.length - 1);
    const error = thrownBy(() => verifyAll(input, OPTIONS[s.code]?.options));
    expect(error).toBeInstanceOf(VerifyError);
    if (!(error instanceof VerifyError)) return;
    expect({ code: error.code, index: error.index }).toEqual({ code: s.code, index: s.index });
    expect(error.event).toBe(s.endOfInput ? undefined : input[s.index]);
    expect(s.group).toMatch(new RegExp(`^Rule ${error.rule}: `));
  });

  it.each(
    text
      .filter((s) => CONFORM.has(s.code))
      .map((s) => [`${s.code} (docs/rules.md:${s.line})`, s] as const),
  )("%s, through conformingEvents", async (_name, s) => {
    const input = events(s);
    expect(s.index).toBe(input.length - 1);
    const body = new Response(input.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("")).body;
    const got = await collect(conformingEvents(body));
    expect(got.error).toBeInstanceOf(VerifyError);
    if (!(got.error instanceof VerifyError)) return;
    expect({ code: got.error.code, index: got.error.index }).toEqual({
      code: s.code,
      index: s.index,
    });
    expect(got.error.event).toEqual(input[s.index]);
    expect(s.group).toMatch(new RegExp(`^Rule ${got.error.rule}: `));
  });

  it.each(sse.map((s) => [`${s.code} (docs/rules.md:${s.line})`, s] as const))(
    "%s, through verifiedEvents",
    async (_name, s) => {
      expect(s.endOfInput).toBe(false);
      const body = new Response(sseText(s)).body;
      const got = await collect(verifiedEvents(body, OPTIONS[s.code]?.options));
      expect(got.errored).toBe(true);
      expect(got.error).toBeInstanceOf(VerifyError);
      if (!(got.error instanceof VerifyError)) return;
      expect({ code: got.error.code, index: got.error.index }).toEqual({
        code: s.code,
        index: s.index,
      });
      expect(got.values.length).toBe(s.index);
      expect(s.group).toMatch(new RegExp(`^Rule ${got.error.rule}: `));
    },
  );
});

/** An http block's response: status line, headers, a blank line, the body. */
function responseOf(s: Section): Response {
  const blank = s.example.indexOf("");
  const [status = "", ...headers] = s.example.slice(0, blank === -1 ? undefined : blank);
  const body = blank === -1 ? "" : s.example.slice(blank + 1).join("\n");
  const init = { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(status)?.[1]), headers: new Headers() };
  for (const h of headers)
    init.headers.set(h.slice(0, h.indexOf(":")), h.slice(h.indexOf(":") + 1));
  return new Response(body, init);
}

describe("docs/rules.md response examples", () => {
  const http = errorSections.filter((s) => s.format === "http");

  it("has one: RESPONSE_NOT_EVENTS", () => {
    expect(http.map((s) => s.code)).toEqual(["RESPONSE_NOT_EVENTS"]);
  });

  it.each(http.map((s) => [`${s.code} (docs/rules.md:${s.line})`, s] as const))(
    "%s, through verifiedEvents and conformingEvents",
    async (_name, s) => {
      for (const read of [verifiedEvents, conformingEvents]) {
        const got = await collect(read(responseOf(s)));
        expect(got.error).toBeInstanceOf(VerifyError);
        if (!(got.error instanceof VerifyError)) return;
        expect({ code: got.error.code, index: got.error.index }).toEqual({
          code: s.code,
          index: s.index,
        });
        expect(got.values).toEqual([]);
        expect(s.group).toMatch(new RegExp(`^Rule ${got.error.rule}: `));
      }
    },
  );
});

/** A proto block's body: each line's hex bytes, in order. */
function protoBytesOf(s: Section): Uint8Array<ArrayBuffer> {
  const hex = s.example.flatMap((l) =>
    l
      .trim()
      .split(/\s+/)
      .filter((b) => b !== ""),
  );
  return Uint8Array.from(hex.map((b) => Number.parseInt(b, 16)));
}

describe("docs/rules.md protobuf examples", () => {
  const proto = errorSections.filter((s) => s.format === "proto");

  it("has one per protobuf code", () => {
    expect(proto.map((s) => s.code)).toEqual([
      "PROTO_DECODE_FAILED",
      "PROTO_TRUNCATED",
      "PROTO_FRAME_TOO_LARGE",
    ]);
  });

  it.each(proto.map((s) => [`${s.code} (docs/rules.md:${s.line})`, s] as const))(
    "%s, through verifiedEvents with { protobuf }",
    async (_name, s) => {
      const response = new Response(protoBytesOf(s), {
        headers: { "content-type": PROTO_MEDIA_TYPE },
      });
      const got = await collect(verifiedEvents(response, { protobuf }));
      expect(got.error).toBeInstanceOf(VerifyError);
      if (!(got.error instanceof VerifyError)) return;
      expect({ code: got.error.code, index: got.error.index }).toEqual({
        code: s.code,
        index: s.index,
      });
      expect(got.values).toHaveLength(s.index);
      expect(s.group).toMatch(new RegExp(`^Rule ${got.error.rule}: `));
    },
  );
});

describe("docs/rules.md warnings that are errors with protocol draft", () => {
  it.each(bothSections.map((s) => [`${s.code} (docs/rules.md:${s.line})`, s] as const))(
    "%s fails with protocol draft at the stated index",
    (_name, s) => {
      const input = events(s);
      const error = thrownBy(() => verifyAll(input, { protocol: "draft" }));
      expect(error).toBeInstanceOf(VerifyError);
      if (!(error instanceof VerifyError)) return;
      expect({ code: error.code, index: error.index }).toEqual({ code: s.code, index: s.index });
      expect(error.event).toBe(input[s.index]);
    },
  );
});

describe("docs/rules.md warning examples", () => {
  it.each(warningSections.map((s) => [`${s.code} (docs/rules.md:${s.line})`, s] as const))(
    "%s is a stream the rules accept",
    async (_name, s) => {
      if (s.format === "text") {
        expect(() => verifyAll(events(s))).not.toThrow();
        expect(lint(events(s))).toMatchObject({ valid: true, errors: 0 });
        return;
      }
      const got = await collect(verifiedEvents(new Response(sseText(s)).body));
      expect(got.error).toBeUndefined();
    },
  );

  it.each(warningSections.map((s) => [`${s.code} (docs/rules.md:${s.line})`, s] as const))(
    "%s is reported by the linter at the stated index",
    async (_name, s) => {
      const report = await lintExample(s);
      const found = report.findings
        .filter((f) => f.severity === "warning")
        .map((f) => ({ code: f.code, index: f.index }));
      expect(found).toContainEqual({ code: s.code, index: s.index });
    },
  );
});

describe("docs/rules.md warnings of the 1.1 pipeline", () => {
  it.each(conformSections.map((s) => [`${s.code} (docs/rules.md:${s.line})`, s] as const))(
    "%s is reported by conformingEvents at the stated index, and the stream goes on",
    async (_name, s) => {
      expect(s.group).toBe("Warnings of the 1.1 pipeline (ag-ui-verify/conform)");
      expect(s.verb).toBe("Warning");
      const warnings: ConformWarning[] = [];
      const body = new Response(
        events(s)
          .map((e) => `data: ${JSON.stringify(e)}\n\n`)
          .join(""),
      ).body;
      const got = await collect(conformingEvents(body, { onWarning: (w) => warnings.push(w) }));
      expect(got.error).toBeUndefined();
      expect(warnings.map((w) => ({ code: w.code, index: w.index }))).toContainEqual({
        code: s.code,
        index: s.index,
      });
    },
  );
});
