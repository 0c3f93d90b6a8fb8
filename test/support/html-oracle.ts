// What the HTML report's timeline should hold, read from the events by SPEC §22's words and
// independently of src/report/html-model.ts: per run, one lane for the parent and one per
// subagent id the run names (a tag, or SUBAGENT_STARTED's parentSubagentRunId); one bar
// each time a message, tool call, reasoning message, span or step opens while not open,
// and one per activity a run snapshots. For streams whose rejected events open and close
// nothing (the bundled captures, the generated ones below). Also: the captures' events,
// and generated captures (several runs and subagents; hostile; 100,000 events).

type Ev = Record<string, unknown>;

const OPENS: Record<string, [string, string]> = {
  TEXT_MESSAGE_START: ["text", "messageId"],
  TOOL_CALL_START: ["tool-call", "toolCallId"],
  REASONING_MESSAGE_START: ["reasoning", "messageId"],
  REASONING_START: ["span", "messageId"],
  STEP_STARTED: ["step", "stepName"],
};
const CLOSES: Record<string, [string, string]> = {
  TEXT_MESSAGE_END: ["text", "messageId"],
  TOOL_CALL_END: ["tool-call", "toolCallId"],
  REASONING_MESSAGE_END: ["reasoning", "messageId"],
  REASONING_END: ["span", "messageId"],
  STEP_FINISHED: ["step", "stepName"],
};
const RUN_LEVEL = new Set(["RUN_STARTED", "RUN_FINISHED", "RUN_ERROR", "MESSAGES_SNAPSHOT"]);

export interface Expected {
  runs: number;
  lanes: number;
  /** Bars by kind. */
  bars: Record<string, number>;
}

/** Runs, lanes and bars by kind, as §22 draws `events`. */
export function expectedTimeline(events: readonly unknown[]): Expected {
  const out: Expected = { runs: 0, lanes: 0, bars: {} };
  let inRun = false;
  let subs = new Set<string>();
  let open = new Set<string>();
  let activities = new Set<string>();
  const endRun = () => {
    if (inRun) out.lanes += 1 + subs.size;
    inRun = false;
  };
  for (const value of events) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) continue;
    const e = value as Ev;
    const type = e.type;
    if (type === "RUN_STARTED" && !inRun) {
      inRun = true;
      out.runs++;
      subs = new Set();
      open = new Set();
      activities = new Set();
      continue;
    }
    if (type === "RUN_FINISHED" || type === "RUN_ERROR") {
      if (!inRun && type === "RUN_ERROR" && out.runs === 0) {
        out.runs++;
        out.lanes++;
      }
      endRun();
      continue;
    }
    if (!inRun || typeof type !== "string") continue;
    const tag = RUN_LEVEL.has(type) ? undefined : e.subagentRunId;
    if (typeof tag === "string") subs.add(tag);
    if (type === "SUBAGENT_STARTED" && typeof e.parentSubagentRunId === "string") {
      subs.add(e.parentSubagentRunId);
    }
    const opener = OPENS[type];
    const closer = CLOSES[type];
    const owner = type.startsWith("STEP_") ? `${tag ?? ""}:${typeof tag}` : "";
    if (opener !== undefined && typeof e[opener[1]] === "string") {
      const key = `${opener[0]} ${owner} ${e[opener[1]]}`;
      if (!open.has(key)) {
        open.add(key);
        out.bars[opener[0]] = (out.bars[opener[0]] ?? 0) + 1;
      }
    } else if (closer !== undefined && typeof e[closer[1]] === "string") {
      open.delete(`${closer[0]} ${owner} ${e[closer[1]]}`);
    } else if (type === "ACTIVITY_SNAPSHOT" && typeof e.messageId === "string") {
      if (!activities.has(e.messageId)) out.bars.activity = (out.bars.activity ?? 0) + 1;
      activities.add(e.messageId);
    }
  }
  endRun();
  return out;
}

/** The events of an SSE text as SSE reads them (a last message without its blank line is lost). */
export function sseEvents(text: string): unknown[] {
  const blocks = text.replace(/\r\n?/g, "\n").split("\n\n");
  blocks.pop(); // after the last blank line: nothing, or a message SSE discards
  return blocks
    .map((block) =>
      block
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).replace(/^ /, ""))
        .join("\n"),
    )
    .filter((data) => data !== "")
    .map((data) => {
      try {
        return JSON.parse(data) as unknown;
      } catch {
        return data;
      }
    });
}

/** Each event stream of a HAR file's text, in order. */
export function harStreams(text: string): string[] {
  const har = JSON.parse(text) as {
    log: {
      entries: { response: { content: { mimeType?: string; text?: string; encoding?: string } } }[];
    };
  };
  return har.log.entries
    .map((entry) => entry.response.content)
    .filter((c) => (c.mimeType ?? "").startsWith("text/event-stream") && c.text !== undefined)
    .map((c) =>
      c.encoding === "base64"
        ? Buffer.from(c.text ?? "", "base64").toString("utf8")
        : (c.text ?? ""),
    );
}

export const sse = (events: readonly unknown[]): string =>
  events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("");

/**
 * Three runs: a tree of subagents (s1 under the parent, s2 under s1, "" under s2), steps,
 * text, tool calls with results, reasoning, activities and state in each; the second run
 * breaks rules (content for a message never opened, a subagent's message left open when
 * the run errors); the third is cut off with a tool call open. Then findings of every kind
 * of place: in a lane, at end of input.
 */
export function multiAgentCapture(): Ev[] {
  const out: Ev[] = [];
  for (let r = 0; r < 3; r++) {
    const tag = (id: string, e: Ev): Ev => ({ ...e, subagentRunId: id });
    out.push({ type: "RUN_STARTED", threadId: "t", runId: `run-${r}` });
    out.push({ type: "STEP_STARTED", stepName: "plan" });
    out.push({ type: "STATE_SNAPSHOT", snapshot: { r } });
    out.push({ type: "SUBAGENT_STARTED", subagentRunId: "s1", name: "researcher" });
    out.push({ type: "SUBAGENT_STARTED", subagentRunId: "s2", parentSubagentRunId: "s1" });
    out.push({ type: "SUBAGENT_STARTED", subagentRunId: "", parentSubagentRunId: "s2" });
    for (const id of ["s1", "s2", ""]) {
      const m = `m-${r}-${id}`;
      out.push(tag(id, { type: "TEXT_MESSAGE_START", messageId: m, role: "assistant" }));
      out.push(tag(id, { type: "TEXT_MESSAGE_CONTENT", messageId: m, delta: "working" }));
      out.push(
        tag(id, {
          type: "TOOL_CALL_START",
          toolCallId: `c-${m}`,
          toolCallName: "f",
          parentMessageId: m,
        }),
      );
      out.push(tag(id, { type: "TOOL_CALL_ARGS", toolCallId: `c-${m}`, delta: "{}" }));
      out.push(tag(id, { type: "TOOL_CALL_END", toolCallId: `c-${m}` }));
      out.push({
        type: "TOOL_CALL_RESULT",
        toolCallId: `c-${m}`,
        messageId: `t-${m}`,
        content: "ok",
      });
      if (!(r === 1 && id === "s2")) out.push(tag(id, { type: "TEXT_MESSAGE_END", messageId: m }));
    }
    out.push({ type: "REASONING_START", messageId: `rs-${r}` });
    out.push({ type: "REASONING_MESSAGE_START", messageId: `rs-${r}`, role: "reasoning" });
    out.push({ type: "REASONING_MESSAGE_CONTENT", messageId: `rs-${r}`, delta: "hmm" });
    out.push({ type: "REASONING_MESSAGE_END", messageId: `rs-${r}` });
    out.push({ type: "REASONING_END", messageId: `rs-${r}` });
    out.push(
      tag("s1", {
        type: "ACTIVITY_SNAPSHOT",
        messageId: `a-${r}`,
        activityType: "plan",
        content: { n: 0 },
      }),
    );
    out.push(
      tag("s1", { type: "ACTIVITY_DELTA", messageId: `a-${r}`, activityType: "plan", patch: [] }),
    );
    out.push({ type: "STATE_DELTA", delta: [] });
    out.push({ type: "CUSTOM", name: "note", value: r });
    if (r === 1) {
      out.push({ type: "TEXT_MESSAGE_CONTENT", messageId: "never-opened", delta: "x" });
      out.push({ type: "RUN_ERROR", message: "boom" });
      continue;
    }
    for (const id of ["", "s2", "s1"]) out.push({ type: "SUBAGENT_FINISHED", subagentRunId: id });
    out.push({ type: "STEP_FINISHED", stepName: "plan" });
    if (r === 2) {
      out.push({ type: "TOOL_CALL_START", toolCallId: "left-open", toolCallName: "g" });
      break;
    }
    out.push({ type: "RUN_FINISHED", threadId: "t", runId: `run-${r}` });
  }
  return out;
}

/** What a hostile producer might put in ids and types. */
export const HOSTILE_IDS = [
  "</script><script>window.__pwned=1;alert(1)</script>",
  '<img src=x onerror="window.__pwned=2;alert(2)">',
  "javascript:window.__pwned=3",
  "\u202egnp.exe\u202c safe \u2066x\u2069",
];

/** A capture whose ids, types and payloads are hostile, with a 1 MB string. */
export function hostileCapture(): Ev[] {
  const out: Ev[] = [{ type: "RUN_STARTED", threadId: HOSTILE_IDS[0], runId: HOSTILE_IDS[1] }];
  for (const id of HOSTILE_IDS) {
    out.push({ type: "SUBAGENT_STARTED", subagentRunId: id, name: id });
    out.push({ type: "TEXT_MESSAGE_START", messageId: id, subagentRunId: id });
    out.push({ type: "TEXT_MESSAGE_CONTENT", messageId: id, delta: id, subagentRunId: id });
    out.push({ type: "TEXT_MESSAGE_END", messageId: id, subagentRunId: id });
    out.push({ type: "STEP_STARTED", stepName: id });
    out.push({ type: "STEP_FINISHED", stepName: id });
    out.push({ type: id, href: id, src: id });
    out.push({ type: "SUBAGENT_FINISHED", subagentRunId: id });
  }
  out.push({ type: "CUSTOM", name: "big", value: "A<".repeat(512 * 1024) });
  out.push({ type: "TEXT_MESSAGE_CONTENT", messageId: HOSTILE_IDS[1], delta: "late" });
  out.push({ type: "RUN_FINISHED", threadId: HOSTILE_IDS[0], runId: HOSTILE_IDS[2] });
  return out;
}

/**
 * `n` events: runs of about 1,000 events, each with two subagents (one nested in the
 * other) streaming text, a step and state deltas; one message of run 50 never closed, and
 * the last run cut off.
 */
export function longCapture(n: number): string {
  const parts: string[] = [];
  let i = 0;
  const put = (e: Ev) => {
    parts.push(`data: ${JSON.stringify(e)}\n\n`);
    i++;
  };
  for (let r = 0; i < n; r++) {
    const start = i;
    put({ type: "RUN_STARTED", threadId: "t", runId: `r${r}` });
    put({ type: "SUBAGENT_STARTED", subagentRunId: "a" });
    put({ type: "SUBAGENT_STARTED", subagentRunId: "b", parentSubagentRunId: "a" });
    put({ type: "STEP_STARTED", stepName: "work" });
    let k = 0;
    while (i - start < 990 && i < n - 6) {
      const id = `${r}-${k++}`;
      put({ type: "TEXT_MESSAGE_START", messageId: id, subagentRunId: k % 2 ? "a" : "b" });
      for (let d = 0; d < 5; d++)
        put({ type: "TEXT_MESSAGE_CONTENT", messageId: id, delta: `token ${d} ` });
      if (!(r === 50 && k === 1)) put({ type: "TEXT_MESSAGE_END", messageId: id });
      put({ type: "STATE_DELTA", delta: [{ op: "add", path: `/k${k}`, value: k }] });
    }
    put({ type: "STEP_FINISHED", stepName: "work" });
    put({ type: "SUBAGENT_FINISHED", subagentRunId: "b" });
    put({ type: "SUBAGENT_FINISHED", subagentRunId: "a" });
    put({ type: "RUN_FINISHED", threadId: "t", runId: `r${r}` });
  }
  // Exactly n: the last run is cut off.
  return parts.slice(0, n).join("");
}
