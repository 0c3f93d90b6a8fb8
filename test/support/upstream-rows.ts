/**
 * The rows of SPEC §13 ("Where upstream differs") as data: each row's sequences as event
 * arrays, with this library's verdict and the verdict observed from the real
 * `@ag-ui/client` 1.0.0 (its `verifyEvents` fed the events directly, and for rows 1 and 15
 * also a whole `HttpAgent` run over the same events served as SSE).
 *
 * test/upstream-table.test.ts replays every case against both and fails when either verdict
 * moves; scripts/upstream-table.mjs writes docs/upstream.md with {@link renderUpstreamDoc}.
 * This module has no runtime imports, so the script can load it with nothing but esbuild.
 */
import type { VerifyErrorCode } from "../../src/index.ts";

/** This library's verdict (`verifyAll`): accepted, or the VerifyError it throws. */
export type OurVerdict =
  | "accepted"
  | { readonly code: VerifyErrorCode; readonly index: number; readonly field?: string };

/** `verifyEvents`' verdict: it completes, or errors at the event of that index. */
export type ClientVerdict =
  | "accepted"
  | {
      readonly index: number;
      /** A substring of `String(error)` ("AGUIError: …", "TypeError: …"). */
      readonly error: string;
    };

/** A whole `HttpAgent.runAgent` over the events served as SSE. */
export type AgentVerdict =
  | {
      /** The event types its subscriber saw. */
      readonly completed: readonly string[];
      /** A substring of one of the warnings it wrote to the console. */
      readonly warning?: string;
    }
  | { readonly failed: string /* a substring of the rejection's message */ };

export interface UpstreamCase {
  readonly label: string;
  readonly events: readonly unknown[];
  readonly ours: OurVerdict;
  readonly client: ClientVerdict;
  readonly httpAgent?: AgentVerdict;
}

export interface UpstreamRow {
  readonly n: number;
  /** The sequences, in the shorthand of SPEC §13 (Markdown). */
  readonly sequence: string;
  /** What decides this library's verdict (Markdown, appended to the verdicts). */
  readonly why: string;
  /** What the client does and why (Markdown, appended to its verdicts). */
  readonly upstream: string;
  readonly cases: readonly UpstreamCase[];
}

// ---------------------------------------------------------------------------------------
// Events

type Ev = { type: string } & Record<string, unknown>;

const RS: Ev = { type: "RUN_STARTED", threadId: "t1", runId: "r1" };
const RF: Ev = { type: "RUN_FINISHED", threadId: "t1", runId: "r1" };
const RE: Ev = { type: "RUN_ERROR", message: "the agent failed" };
const FUTURE: Ev = { type: "SOME_FUTURE_EVENT" };
const THINKING: Ev = { type: "THINKING_START" };
const DROPPED = "Dropping unrecognised event 'SOME_FUTURE_EVENT'";

const rf = (extra: Record<string, unknown>): Ev => ({ ...RF, ...extra });
const tagged = (event: Ev, subagentRunId: unknown): Ev => ({ ...event, subagentRunId });

const subStarted = (extra: Record<string, unknown> = { name: "helper" }): Ev => ({
  type: "SUBAGENT_STARTED",
  subagentRunId: "s1",
  ...extra,
});
const finishedWith = (outcome: unknown): readonly unknown[] => [
  RS,
  subStarted(),
  { type: "SUBAGENT_FINISHED", subagentRunId: "s1", outcome },
  RF,
];

// Verdict shorthands.
const accepted = "accepted" as const;
const at = (code: VerifyErrorCode, index: number, field?: string): OurVerdict =>
  field === undefined ? { code, index } : { code, index, field };
const rejectedAt = (index: number, error: string): ClientVerdict => ({ index, error });

const NULL_OPTIONAL = "The field is optional — omit it entirely.";
const AFTER_FINISHED = "The run has already finished with 'RUN_FINISHED'";
const AFTER_ERROR = "The run has already errored with 'RUN_ERROR'";

// ---------------------------------------------------------------------------------------
// The rows

export const UPSTREAM_ROWS: readonly UpstreamRow[] = [
  {
    n: 1,
    sequence: "`SOME_FUTURE_EVENT`, RS, RF",
    why: "an unknown type is not a first event (§9.2)",
    upstream: "`HttpAgent`'s enforcement stage drops the unknown event before verification",
    cases: [
      {
        label: "an unknown type first",
        events: [FUTURE, RS, RF],
        ours: accepted,
        client: rejectedAt(0, "First event must be 'RUN_STARTED'"),
        httpAgent: { completed: ["RUN_STARTED", "RUN_FINISHED"], warning: DROPPED },
      },
    ],
  },
  {
    n: 2,
    sequence:
      'RS, RF with `"outcome":{"type":"interrupt","interrupts":[]}` or `{"type":"interrupt"}`',
    why: "rule 8",
    upstream: "only its separate schema parse would reject it",
    cases: [
      {
        label: "empty `interrupts`",
        events: [RS, rf({ outcome: { type: "interrupt", interrupts: [] } })],
        ours: at("INTERRUPT_OUTCOME_EMPTY", 1),
        client: accepted,
      },
      {
        label: "no `interrupts`",
        events: [RS, rf({ outcome: { type: "interrupt" } })],
        ours: at("INTERRUPT_OUTCOME_EMPTY", 1),
        client: accepted,
      },
    ],
  },
  {
    n: 3,
    sequence: "RS, `TEXT_MESSAGE_START m`, then input ends; or empty input",
    why: "end of input (§9.7)",
    upstream:
      "it does not check how input ends (the draft fixture `truncated-stream-fails-the-run` asks for a failure)",
    cases: [
      {
        label: "a run cut off",
        events: [RS, { type: "TEXT_MESSAGE_START", messageId: "m", role: "assistant" }],
        ours: at("STREAM_ENDED_BEFORE_RUN_CLOSED", 2),
        client: accepted,
      },
      {
        label: "no events",
        events: [],
        ours: at("STREAM_ENDED_BEFORE_RUN_STARTED", 0),
        client: accepted,
      },
    ],
  },
  {
    n: 4,
    sequence:
      '`SUBAGENT_STARTED s1` without `name`; `SUBAGENT_ERROR s1` without `message` or with `"code":null`; `SUBAGENT_FINISHED s1` with `"outcome"` of `null`, `""`, `false`, `0`, `"paused"`, `{"type":"bogus"}`, `{"type":null}`, `{"type":"suspended","interruptIds":null}` or `"interruptIds":[null]`',
    why: "fields this verifier does not read (§3.2); §14 and §20 reject the malformed ones",
    upstream: "it checks these fields itself",
    cases: [
      {
        label: "`SUBAGENT_STARTED` without `name`",
        events: [RS, subStarted({}), { type: "SUBAGENT_FINISHED", subagentRunId: "s1" }, RF],
        ours: accepted,
        client: rejectedAt(1, "Cannot send 'SUBAGENT_STARTED' without a 'name'."),
      },
      {
        label: "`SUBAGENT_ERROR` without `message`",
        events: [RS, subStarted(), { type: "SUBAGENT_ERROR", subagentRunId: "s1" }, RF],
        ours: accepted,
        client: rejectedAt(2, "Cannot send 'SUBAGENT_ERROR' without a 'message'."),
      },
      {
        label: '`SUBAGENT_ERROR` with `"code":null`',
        events: [
          RS,
          subStarted(),
          { type: "SUBAGENT_ERROR", subagentRunId: "s1", message: "failed", code: null },
          RF,
        ],
        ours: accepted,
        client: rejectedAt(2, `Cannot send 'SUBAGENT_ERROR' with 'code: null'. ${NULL_OPTIONAL}`),
      },
      {
        label: '`"outcome":null`',
        events: finishedWith(null),
        ours: accepted,
        client: rejectedAt(2, "Cannot send 'SUBAGENT_FINISHED' with 'outcome: null'."),
      },
      ...(
        [
          ['`""`', "", "undefined"],
          ["`false`", false, "undefined"],
          ["`0`", 0, "undefined"],
          ['`"paused"`', "paused", "undefined"],
          ['`{"type":"bogus"}`', { type: "bogus" }, "bogus"],
          ['`{"type":null}`', { type: null }, "null"],
        ] as const
      ).map(
        ([label, outcome, type]): UpstreamCase => ({
          label: `\`"outcome"\`: ${label}`,
          events: finishedWith(outcome),
          ours: accepted,
          client: rejectedAt(2, `Cannot send 'SUBAGENT_FINISHED' with outcome type '${type}'.`),
        }),
      ),
      {
        label: '`"interruptIds":null`',
        events: finishedWith({ type: "suspended", interruptIds: null }),
        ours: accepted,
        client: rejectedAt(2, "with 'outcome.interruptIds: null'."),
      },
      {
        label: '`"interruptIds":[null]`',
        events: finishedWith({ type: "suspended", interruptIds: [null] }),
        ours: accepted,
        client: rejectedAt(2, "with a non-string entry in 'outcome.interruptIds'."),
      },
    ],
  },
  {
    n: 5,
    sequence:
      '`TOOL_CALL_START` with `"parentMessageId":null`; RF with `"outcome":null`; RS with `"input":null`; `ACTIVITY_SNAPSHOT` with `"replace":null`; `"interrupts":[null]`',
    why: "an explicit `null` is not an absent field (§4.3)",
    upstream: "it does not read these fields",
    cases: [
      {
        label: '`"parentMessageId":null`',
        events: [
          RS,
          { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "f", parentMessageId: null },
          { type: "TOOL_CALL_END", toolCallId: "c1" },
          RF,
        ],
        ours: at("FIELD_NULL", 1, "parentMessageId"),
        client: accepted,
      },
      {
        label: '`"outcome":null`',
        events: [RS, rf({ outcome: null })],
        ours: at("FIELD_NULL", 1, "outcome"),
        client: accepted,
      },
      {
        label: '`"input":null`',
        events: [{ ...RS, input: null }, RF],
        ours: at("FIELD_NULL", 0, "input"),
        client: accepted,
      },
      {
        label: '`"replace":null`',
        events: [
          RS,
          {
            type: "ACTIVITY_SNAPSHOT",
            messageId: "a1",
            activityType: "search",
            content: {},
            replace: null,
          },
          RF,
        ],
        ours: at("FIELD_NULL", 1, "replace"),
        client: accepted,
      },
      {
        label: '`"interrupts":[null]`',
        events: [RS, rf({ outcome: { type: "interrupt", interrupts: [null] } })],
        ours: at("FIELD_NULL", 1, "outcome.interrupts[0]"),
        client: accepted,
      },
    ],
  },
  {
    n: 6,
    sequence:
      '`TEXT_MESSAGE_START`, `_CONTENT`, `_END` without `messageId`; `STEP_STARTED`/`STEP_FINISHED` without `stepName`; `"toolCallId":42`; `"subagentRunId":5`; `MESSAGES_SNAPSHOT` with `"messages":"nope"`, or a message without `id` or without `role`; an input-echo message without `id`; `"outcome":{}` or `"outcome":"success"`; `"interrupts":"x"`; `"replace":"false"`; `REASONING_ENCRYPTED_VALUE` without `subtype`',
    why: "rule 0: a field the verifier reads is missing or of the wrong type",
    upstream: "it does not check these shapes",
    cases: [
      {
        label: "text message without `messageId`",
        events: [
          RS,
          { type: "TEXT_MESSAGE_START", role: "assistant" },
          { type: "TEXT_MESSAGE_CONTENT", delta: "hi" },
          { type: "TEXT_MESSAGE_END" },
          RF,
        ],
        ours: at("FIELD_MISSING", 1, "messageId"),
        client: accepted,
      },
      {
        label: "steps without `stepName`",
        events: [RS, { type: "STEP_STARTED" }, { type: "STEP_FINISHED" }, RF],
        ours: at("FIELD_MISSING", 1, "stepName"),
        client: accepted,
      },
      {
        label: '`"toolCallId":42`',
        events: [
          RS,
          { type: "TOOL_CALL_START", toolCallId: 42, toolCallName: "f" },
          { type: "TOOL_CALL_END", toolCallId: 42 },
          RF,
        ],
        ours: at("FIELD_WRONG_TYPE", 1, "toolCallId"),
        client: accepted,
      },
      {
        label: '`"subagentRunId":5`',
        events: [
          RS,
          tagged({ type: "TEXT_MESSAGE_START", messageId: "m", role: "assistant" }, 5),
          { type: "TEXT_MESSAGE_END", messageId: "m" },
          RF,
        ],
        ours: at("FIELD_WRONG_TYPE", 1, "subagentRunId"),
        client: accepted,
      },
      {
        label: '`"messages":"nope"`',
        events: [RS, { type: "MESSAGES_SNAPSHOT", messages: "nope" }, RF],
        ours: at("FIELD_WRONG_TYPE", 1, "messages"),
        client: accepted,
      },
      {
        label: "a snapshot message without `id`",
        events: [
          RS,
          { type: "MESSAGES_SNAPSHOT", messages: [{ role: "user", content: "hi" }] },
          RF,
        ],
        ours: at("FIELD_MISSING", 1, "messages[0].id"),
        client: accepted,
      },
      {
        label: "a snapshot message without `role`",
        events: [RS, { type: "MESSAGES_SNAPSHOT", messages: [{ id: "u1", content: "hi" }] }, RF],
        ours: at("FIELD_MISSING", 1, "messages[0].role"),
        client: accepted,
      },
      {
        label: "an input-echo message without `id`",
        events: [{ ...RS, input: { messages: [{ role: "user", content: "hi" }] } }, RF],
        ours: at("FIELD_MISSING", 0, "input.messages[0].id"),
        client: accepted,
      },
      {
        label: '`"outcome":{}`',
        events: [RS, rf({ outcome: {} })],
        ours: at("FIELD_MISSING", 1, "outcome.type"),
        client: accepted,
      },
      {
        label: '`"outcome":"success"`',
        events: [RS, rf({ outcome: "success" })],
        ours: at("FIELD_WRONG_TYPE", 1, "outcome"),
        client: accepted,
      },
      {
        label: '`"interrupts":"x"`',
        events: [RS, rf({ outcome: { type: "interrupt", interrupts: "x" } })],
        ours: at("FIELD_WRONG_TYPE", 1, "outcome.interrupts"),
        client: accepted,
      },
      {
        label: '`"replace":"false"`',
        events: [
          RS,
          {
            type: "ACTIVITY_SNAPSHOT",
            messageId: "a1",
            activityType: "search",
            content: {},
            replace: "false",
          },
          RF,
        ],
        ours: at("FIELD_WRONG_TYPE", 1, "replace"),
        client: accepted,
      },
      {
        label: "`REASONING_ENCRYPTED_VALUE` without `subtype`",
        events: [
          RS,
          { type: "REASONING_ENCRYPTED_VALUE", entityId: "x", encryptedValue: "opaque" },
          RF,
        ],
        ours: at("FIELD_MISSING", 1, "subtype"),
        client: accepted,
      },
    ],
  },
  {
    n: 7,
    sequence: 'RS, `null`; RS, `[1,2]`; RS, `{"kind":"x"}`',
    why: "rule 0: every value gets a verdict (§4)",
    upstream: "it reads `type` off whatever it is given",
    cases: [
      {
        label: "`null`",
        events: [RS, null],
        ours: at("EVENT_NOT_OBJECT", 1),
        client: rejectedAt(1, "TypeError: Cannot read properties of null"),
      },
      {
        label: "`[1,2]`",
        events: [RS, [1, 2]],
        ours: at("EVENT_NOT_OBJECT", 1),
        client: accepted,
      },
      {
        label: '`{"kind":"x"}`',
        events: [RS, { kind: "x" }],
        ours: at("EVENT_TYPE_INVALID", 1),
        client: accepted,
      },
    ],
  },
  {
    n: 8,
    sequence:
      'RS, `REASONING_START x (s1)`, `REASONING_END x (s1)`, `REASONING_ENCRYPTED_VALUE` `{"subtype":"future","entityId":"x","subagentRunId":"s2"}`, RF',
    why: "an unknown subtype names no registry (§8.6)",
    upstream: "it reads an unknown subtype as a reasoning message, whose owner is s1",
    cases: [
      {
        label: "an unknown subtype under another tag",
        events: [
          RS,
          tagged({ type: "REASONING_START", messageId: "x" }, "s1"),
          tagged({ type: "REASONING_END", messageId: "x" }, "s1"),
          {
            type: "REASONING_ENCRYPTED_VALUE",
            subtype: "future",
            entityId: "x",
            encryptedValue: "opaque",
            subagentRunId: "s2",
          },
          RF,
        ],
        ours: accepted,
        client: rejectedAt(3, "does not match the reasoning message 'x' opener's subagent 's1'"),
      },
    ],
  },
  {
    n: 9,
    sequence: 'RS, `{"type":"SOME_FUTURE_EVENT","subagentRunId":null}`, RF',
    why: "only `type` of an unknown event is read (§9.2)",
    upstream: "it checks the tag of every event",
    cases: [
      {
        label: "a null tag on an unknown type",
        events: [RS, tagged(FUTURE, null), RF],
        ours: accepted,
        client: rejectedAt(1, `Cannot send 'SOME_FUTURE_EVENT' with 'subagentRunId: null'.`),
      },
    ],
  },
  {
    n: 10,
    sequence:
      'RS, `MESSAGES_SNAPSHOT` `[{"id":"u1","role":"user","subagentRunId":"s1","toolCalls":[{"id":"c1"}]}]`, `TOOL_CALL_START c1 (s2)`, `TOOL_CALL_END c1`, RF',
    why: "`toolCalls` are read only on assistant messages (§8.5)",
    upstream: "it seeds owners from `toolCalls` on any message",
    cases: [
      {
        label: "tool calls on a user message",
        events: [
          RS,
          {
            type: "MESSAGES_SNAPSHOT",
            messages: [
              {
                id: "u1",
                role: "user",
                content: "hi",
                subagentRunId: "s1",
                toolCalls: [{ id: "c1" }],
              },
            ],
          },
          tagged({ type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "f" }, "s2"),
          { type: "TOOL_CALL_END", toolCallId: "c1" },
          RF,
        ],
        ours: accepted,
        client: rejectedAt(2, "does not match the tool call 'c1' opener's subagent 's1'"),
      },
    ],
  },
  {
    n: 11,
    sequence:
      'RS, RF with `"outcome":{"type":"interrupt","interrupts":[{"id":"i1","reason":"approval","subagentRunId":null}]}`',
    why: "nothing inside an interrupt is read (§3.4)",
    upstream: "it checks an interrupt's tag",
    cases: [
      {
        label: "a null tag inside an interrupt",
        events: [
          RS,
          rf({
            outcome: {
              type: "interrupt",
              interrupts: [{ id: "i1", reason: "approval", subagentRunId: null }],
            },
          }),
        ],
        ours: accepted,
        client: rejectedAt(1, "with an interrupt (id 'i1') carrying 'subagentRunId: null'."),
      },
    ],
  },
  {
    n: 12,
    sequence:
      'RS with `"subagentRunId":null` (or RF, RE, `MESSAGES_SNAPSHOT` with one); a string tag there',
    why: "the tag of run-level events is not read (§3.1)",
    upstream: "it rejects a null tag anywhere, and accepts a string one",
    cases: [
      {
        label: "on `RUN_STARTED`",
        events: [tagged(RS, null), RF],
        ours: accepted,
        client: rejectedAt(0, `Cannot send 'RUN_STARTED' with 'subagentRunId: null'.`),
      },
      {
        label: "on `RUN_FINISHED`",
        events: [RS, tagged(RF, null)],
        ours: accepted,
        client: rejectedAt(1, `Cannot send 'RUN_FINISHED' with 'subagentRunId: null'.`),
      },
      {
        label: "on `RUN_ERROR`",
        events: [RS, tagged(RE, null)],
        ours: accepted,
        client: rejectedAt(1, `Cannot send 'RUN_ERROR' with 'subagentRunId: null'.`),
      },
      {
        label: "on `MESSAGES_SNAPSHOT`",
        events: [RS, tagged({ type: "MESSAGES_SNAPSHOT", messages: [] }, null), RF],
        ours: accepted,
        client: rejectedAt(1, `Cannot send 'MESSAGES_SNAPSHOT' with 'subagentRunId: null'.`),
      },
      {
        label: "a string tag on `RUN_STARTED`",
        events: [tagged(RS, "s1"), RF],
        ours: accepted,
        client: accepted,
      },
    ],
  },
  {
    n: 13,
    sequence:
      "RS, `REASONING_START r (s1)`, `REASONING_MESSAGE_START r (s2)`, `REASONING_MESSAGE_END r`, `REASONING_END r`, RF",
    why: "spans and messages are separate namespaces (§8.1)",
    upstream: "one namespace for both",
    cases: [
      {
        label: "a span and a message, one id, two owners",
        events: [
          RS,
          tagged({ type: "REASONING_START", messageId: "r" }, "s1"),
          tagged({ type: "REASONING_MESSAGE_START", messageId: "r", role: "reasoning" }, "s2"),
          { type: "REASONING_MESSAGE_END", messageId: "r" },
          { type: "REASONING_END", messageId: "r" },
          RF,
        ],
        ours: accepted,
        client: rejectedAt(2, "does not match the reasoning message 'r' opener's subagent 's1'"),
      },
    ],
  },
  {
    n: 14,
    sequence:
      "RS, `REASONING_START r (s1)`, `REASONING_MESSAGE_START r`, `REASONING_MESSAGE_CONTENT r (s1)`",
    why: "the parent opened the message; 1.1: a continuation whose tag disagrees with its opener is rejected",
    upstream: "one namespace: the untagged start joins the entity s1 opened, so the tag agrees",
    cases: [
      {
        label: "a message opened by the parent, continued by s1",
        events: [
          RS,
          tagged({ type: "REASONING_START", messageId: "r" }, "s1"),
          { type: "REASONING_MESSAGE_START", messageId: "r", role: "reasoning" },
          tagged({ type: "REASONING_MESSAGE_CONTENT", messageId: "r", delta: "hm" }, "s1"),
        ],
        ours: at("OWNER_MISMATCH", 3),
        client: accepted,
      },
    ],
  },
  {
    n: 15,
    sequence:
      "RS, RF, `SOME_FUTURE_EVENT` (or a `THINKING_*` type, after RF or RE or between runs)",
    why: "an unknown type is not an event after a close (§9.2, §9.5)",
    upstream:
      "`HttpAgent`'s enforcement drops an unknown type, but its compatibility boundary first translates a `THINKING_*` event into a reasoning event, which verification then rejects",
    cases: [
      {
        label: "`SOME_FUTURE_EVENT` after RF",
        events: [RS, RF, FUTURE],
        ours: accepted,
        client: rejectedAt(2, AFTER_FINISHED),
        httpAgent: { completed: ["RUN_STARTED", "RUN_FINISHED"], warning: DROPPED },
      },
      {
        label: "`SOME_FUTURE_EVENT` after RE",
        events: [RS, RE, FUTURE],
        ours: accepted,
        client: rejectedAt(2, AFTER_ERROR),
        httpAgent: { completed: ["RUN_STARTED", "RUN_ERROR"], warning: DROPPED },
      },
      {
        label: "`SOME_FUTURE_EVENT` between runs",
        events: [RS, RF, FUTURE, RS, RF],
        ours: accepted,
        client: rejectedAt(2, AFTER_FINISHED),
        httpAgent: {
          completed: ["RUN_STARTED", "RUN_FINISHED", "RUN_STARTED", "RUN_FINISHED"],
          warning: DROPPED,
        },
      },
      {
        label: "`THINKING_START` after RF",
        events: [RS, RF, THINKING],
        ours: accepted,
        client: rejectedAt(2, `Cannot send event type 'THINKING_START': ${AFTER_FINISHED}`),
        httpAgent: { failed: `Cannot send event type 'REASONING_START': ${AFTER_FINISHED}` },
      },
      {
        label: "`THINKING_TEXT_MESSAGE_CONTENT` after RF",
        events: [RS, RF, { type: "THINKING_TEXT_MESSAGE_CONTENT", delta: "hm" }],
        ours: accepted,
        client: rejectedAt(2, AFTER_FINISHED),
        httpAgent: {
          failed: `Cannot send event type 'REASONING_MESSAGE_CONTENT': ${AFTER_FINISHED}`,
        },
      },
      {
        label: "`THINKING_START` after RE",
        events: [RS, RE, THINKING],
        ours: accepted,
        client: rejectedAt(2, AFTER_ERROR),
        httpAgent: { failed: `Cannot send event type 'REASONING_START': ${AFTER_ERROR}` },
      },
      {
        label: "`THINKING_START` between runs",
        events: [RS, RF, THINKING, RS, RF],
        ours: accepted,
        client: rejectedAt(2, AFTER_FINISHED),
        httpAgent: { failed: `Cannot send event type 'REASONING_START': ${AFTER_FINISHED}` },
      },
    ],
  },
];

// ---------------------------------------------------------------------------------------
// docs/upstream.md

/** One line of the doc's header: what writes it and what keeps it true. */
export const GENERATED_NOTE =
  "<!-- Generated by scripts/upstream-table.mjs from test/support/upstream-rows.ts; test/upstream-table.test.ts checks it. Do not edit by hand. -->";

export function ourText(v: OurVerdict, withField = true): string {
  if (v === "accepted") return "accepted";
  const field = withField && v.field !== undefined ? ` (field \`${v.field}\`)` : "";
  return `\`${v.code}\` at ${v.index}${field}`;
}

export function clientText(v: ClientVerdict, withError = true): string {
  if (v === "accepted") return "accepted";
  return withError ? `rejected at ${v.index} ("${v.error}")` : `rejected at ${v.index}`;
}

export function agentText(v: AgentVerdict): string {
  if ("failed" in v) return `the run fails ("${v.failed}")`;
  const warned = v.warning === undefined ? "" : ` and warning "${v.warning}"`;
  return `the run completes, delivering ${v.completed.join(", ")}${warned}`;
}

/** A table cell: one verdict, or each verdict with the cases that give it (the commonest last). */
function summary(cases: readonly UpstreamCase[], text: (c: UpstreamCase) => string): string {
  const groups = new Map<string, string[]>();
  for (const c of cases) groups.set(text(c), [...(groups.get(text(c)) ?? []), c.label]);
  if (groups.size === 1) return [...groups.keys()][0] ?? "";
  const sorted = [...groups].sort((a, b) => a[1].length - b[1].length);
  const last = sorted.pop();
  const parts = sorted.map(([verdict, labels]) => `${labels.join(", ")}: ${verdict}`);
  return [...parts, `otherwise ${last?.[0] ?? ""}`].join("; ");
}

const cell = (text: string) => text.replaceAll("|", "\\|");

function renderRow(row: UpstreamRow): string {
  const ours = summary(row.cases, (c) => ourText(c.ours, false));
  let client = summary(row.cases, (c) => clientText(c.client, false));
  const agent = row.cases.filter((c) => c.httpAgent !== undefined);
  if (agent.length > 0) {
    client += `; through \`HttpAgent\`: ${summary(agent, (c) =>
      c.httpAgent === undefined ? "" : "failed" in c.httpAgent ? "fails" : "completes",
    )}`;
  }
  return `| ${row.n} | ${cell(row.sequence)} | ${cell(`${ours} — ${row.why}`)} | ${cell(`${client} — ${row.upstream}`)} |`;
}

function renderCase(c: UpstreamCase): string {
  const lines = [
    `- ${c.label}:`,
    `  this library ${ourText(c.ours)}; \`verifyEvents\` ${clientText(c.client)}${
      c.httpAgent === undefined ? "" : `; \`HttpAgent\`: ${agentText(c.httpAgent)}`
    }.`,
    "",
    "  ```json",
    ...c.events.map((e) => `  ${JSON.stringify(e)}`),
    "  ```",
  ];
  return lines.join("\n");
}

/** The whole of docs/upstream.md. */
export function renderUpstreamDoc(rows: readonly UpstreamRow[] = UPSTREAM_ROWS): string {
  const out = [
    GENERATED_NOTE,
    "",
    "# Where @ag-ui/client 1.0.0 differs",
    "",
    "The rows of SPEC §13, observed. Each sequence below was run through this library's",
    "`verifyAll` and through the real `verifyEvents` of `@ag-ui/client` 1.0.0, fed the events",
    "directly (no schema parse, no chunk transform); where a row says so, also through a whole",
    "`HttpAgent` run (its compatibility boundary, enforcement, chunk expansion and verification)",
    "over the same events served as SSE. An index is the 0-based position of the event",
    "rejected. The test fails when either verdict changes, so this page cannot drift.",
    "",
    "Shorthand: RS, RF, RE are `RUN_STARTED`, `RUN_FINISHED`, `RUN_ERROR`; `TYPE x` names an",
    'event by its id; `(s1)` adds `"subagentRunId":"s1"`.',
    "",
    "| # | Sequence | ag-ui-verify (SPEC v4, = 1.1 where 1.1 speaks) | @ag-ui/client 1.0.0 `verifyEvents` |",
    "|---|---|---|---|",
    ...rows.map(renderRow),
    "",
    "## Every case",
    "",
  ];
  for (const row of rows) {
    out.push(`### Row ${row.n}`, "", ...row.cases.map(renderCase).join("\n\n").split("\n"), "");
  }
  return out.join("\n");
}
