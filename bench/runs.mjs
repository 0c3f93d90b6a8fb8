/**
 * Deterministic generators of realistic AG-UI runs, for benchmarks.
 *
 * Every generator returns ONE complete, valid run (RUN_STARTED … RUN_FINISHED) as an array
 * of plain event objects carrying the usual protocol fields (threadId, runId, messageId,
 * role, delta, toolCallName, parentMessageId, content, timestamp, …), exactly what
 * `JSON.parse` of each SSE `data:` line of a real stream would give. The output depends only
 * on `nEvents` and `seed` (a seeded PRNG; no Math.random, no clock), so two calls with the
 * same arguments produce deep-equal arrays.
 *
 * Each run is valid under spec/SPEC.md and is also accepted by `verifyEvents` from
 * `@ag-ui/client` 1.0.0 and by the `@ag-ui/core` event schemas. Notably, to stay inside the
 * intersection of the two verifiers: nothing precedes RUN_STARTED (upstream rejects a leading
 * RAW/CUSTOM), REASONING_START/REASONING_END always pair up (upstream tracks them as open
 * spans), every SUBAGENT_STARTED carries a `name`, and every TOOL_CALL_RESULT follows its
 * TOOL_CALL_END.
 *
 * Generators (each returns at least `nEvents` events; the run is closed cleanly, so it may
 * overshoot by one turn's tail):
 * - {@link agenticRun}: the full mix (reasoning, steps, narrated and parallel tool calls,
 *   state deltas, activities, nested and concurrent subagents).
 * - {@link chatRun}: plain token-by-token assistant text.
 * - {@link toolRun}: tool-call heavy (parallel calls streaming JSON args, then results).
 */

/**
 * mulberry32: a tiny, fast, seeded 32-bit PRNG.
 * @param {number} seed
 */
export function createRng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  /** integer in [lo, hi] */
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (arr) => arr[Math.floor(next() * arr.length)];
  const chance = (p) => next() < p;
  const ALNUM = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const word = (len) => {
    let s = "";
    for (let i = 0; i < len; i++) s += ALNUM[Math.floor(next() * 62)];
    return s;
  };
  const hex = (len) => {
    let s = "";
    for (let i = 0; i < len; i++) s += "0123456789abcdef"[Math.floor(next() * 16)];
    return s;
  };
  return { next, int, pick, chance, word, hex };
}

// Tokens as an LLM would stream them: mostly English sub-words, with accented Latin, CJK,
// Cyrillic, Arabic, Hebrew, Devanagari, Korean, symbols and emoji (incl. astral-plane and
// multi-code-point sequences) so deltas exercise multi-byte UTF-8.
const TOKENS = [
  " the",
  " a",
  " to",
  " of",
  " and",
  " in",
  " is",
  " that",
  " for",
  " it",
  " with",
  " as",
  " on",
  " this",
  " be",
  " are",
  " we",
  " can",
  " will",
  " by",
  " from",
  " at",
  " or",
  " an",
  " verify",
  " stream",
  " event",
  " agent",
  " tool",
  " call",
  " result",
  " message",
  " run",
  " data",
  " query",
  " file",
  " step",
  " state",
  " plan",
  " check",
  " order",
  " id",
  " owner",
  "ing",
  "ed",
  "s",
  "ly",
  "er",
  "tion",
  ".",
  ",",
  ":",
  ";",
  "!",
  "?",
  "\n",
  "\n\n",
  " (",
  ")",
  " `",
  "`",
  " **",
  "**",
  " -",
  " 1",
  "2",
  "0",
  " 42",
  "%",
  " café",
  " naïve",
  " Straße",
  " Größe",
  " déjà",
  " vu",
  " façade",
  " 東京",
  "の",
  " データ",
  "を",
  "確認",
  "します",
  " 数据",
  "验证",
  " данные",
  " проверка",
  " مرحبا",
  " שלום",
  " नमस्ते",
  " 한국어",
  " Ω",
  " λ",
  " π",
  " ≥",
  " ≤",
  " →",
  " —",
  "…",
  " ✅",
  " 🚀",
  " 👍🏽",
  " 🧪",
  " 👩‍💻",
  " 🇯🇵",
  " 𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
];
const PHRASES = [
  "Let me look into that.",
  "I'll check a few sources in parallel.",
  "Running the query now —",
  "Delegating this part to a specialist.",
  "Reading the file first…",
  "Vérifions les données ✅",
  "データを確認します。",
];
const TOOL_NAMES = ["search_web", "read_file", "run_sql", "get_weather", "fetch_url", "write_file"];
const SUBAGENT_NAMES = ["researcher", "coder", "reviewer", "planner", "summarizer"];
const CITIES = ["Zürich", "São Paulo", "東京", "Kraków", "Reykjavík", "Москва", "القاهرة"];

const EPOCH = 1_750_000_000_000;

class RunBuilder {
  /** @param {number} seed */
  constructor(seed) {
    this.rng = createRng(seed);
    this.events = [];
    this.clock = EPOCH;
    this.seq = 0;
    const r = this.rng;
    this.threadId = `thread_${r.word(20)}`;
    this.runId = `${r.hex(8)}-${r.hex(4)}-4${r.hex(3)}-a${r.hex(3)}-${r.hex(12)}`;
  }

  /** A fresh unique id: prefix + monotonic counter + random tail. */
  id(prefix) {
    this.seq++;
    return `${prefix}_${this.seq.toString(36).padStart(5, "0")}${this.rng.word(14)}`;
  }

  /** Append events in order, stamping a monotonic timestamp (ms) on each. */
  emit(list) {
    for (const e of list) {
      this.clock += this.rng.int(0, 25);
      e.timestamp = this.clock;
      this.events.push(e);
    }
  }

  tokens(n) {
    const out = [];
    for (let i = 0; i < n; i++) {
      // Mostly one token per delta; sometimes a provider batches two or three.
      let d = this.rng.pick(TOKENS);
      if (this.rng.chance(0.15)) d += this.rng.pick(TOKENS);
      if (this.rng.chance(0.05)) d += this.rng.pick(TOKENS);
      out.push(d);
    }
    return out;
  }

  /** Split a string into 1–12 code-point chunks (never splits a surrogate pair). */
  chunks(str, min = 2, max = 12) {
    const cps = Array.from(str);
    const out = [];
    for (let i = 0; i < cps.length; ) {
      const n = this.rng.int(min, max);
      out.push(cps.slice(i, i + n).join(""));
      i += n;
    }
    return out;
  }

  sentence(nTokens) {
    return this.tokens(nTokens).join("").trim() || "ok";
  }

  toolArgs(name) {
    const r = this.rng;
    switch (name) {
      case "search_web":
        return {
          query: this.sentence(r.int(3, 12)),
          maxResults: r.int(3, 20),
          lang: r.pick(["en", "ja", "de", "fr"]),
        };
      case "read_file":
        return {
          path: `/repo/src/${r.word(8)}/${r.word(6)}.ts`,
          startLine: r.int(1, 400),
          endLine: r.int(401, 900),
        };
      case "run_sql":
        return {
          sql: `SELECT id, name, created_at FROM ${r.word(6)} WHERE owner = '${r.word(8)}' AND note LIKE '%${r.pick(CITIES)}%' ORDER BY created_at DESC LIMIT ${r.int(10, 500)}`,
          timeoutMs: r.int(1000, 30000),
        };
      case "get_weather":
        return { city: r.pick(CITIES), unit: r.pick(["celsius", "fahrenheit"]), days: r.int(1, 7) };
      case "fetch_url":
        return {
          url: `https://example.com/${r.word(10)}?q=${encodeURIComponent(r.pick(CITIES))}`,
          headers: { accept: "text/html" },
        };
      case "write_file":
        return {
          path: `/tmp/${r.word(10)}.md`,
          content: this.sentence(r.int(10, 60)),
          overwrite: r.chance(0.5),
        };
      default:
        return {
          task: this.sentence(r.int(8, 30)),
          context: { priority: r.pick(["low", "high"]), budgetTokens: r.int(500, 8000) },
        };
    }
  }

  toolResultContent() {
    const r = this.rng;
    const items = [];
    const n = r.int(1, 6);
    for (let i = 0; i < n; i++) {
      items.push({
        id: r.word(8),
        title: this.sentence(r.int(3, 10)),
        score: Math.round(r.next() * 1000) / 1000,
      });
    }
    return JSON.stringify({ ok: true, elapsedMs: r.int(5, 4000), items });
  }
}

/** Attach the subagent tag (only when there is one), as a producer would. */
function tagged(event, tag) {
  if (tag !== undefined) event.subagentRunId = tag;
  return event;
}

/** Randomly interleave several lanes, preserving the order inside each lane. */
function interleave(rng, lanes) {
  const idx = lanes.map(() => 0);
  const live = lanes.map((_, i) => i).filter((i) => lanes[i].length > 0);
  const out = [];
  while (live.length > 0) {
    const k = Math.floor(rng.next() * live.length);
    const li = live[k];
    out.push(lanes[li][idx[li]++]);
    if (idx[li] === lanes[li].length) live.splice(k, 1);
  }
  return out;
}

function textStart(messageId, tag, role = "assistant") {
  return tagged({ type: "TEXT_MESSAGE_START", messageId, role }, tag);
}
function textContents(b, messageId, tag, nTokens) {
  // Subagents sometimes omit the tag on continuations (valid: an absent tag never disagrees).
  return b
    .tokens(nTokens)
    .map((delta) =>
      tagged(
        { type: "TEXT_MESSAGE_CONTENT", messageId, delta },
        tag !== undefined && b.rng.chance(0.1) ? undefined : tag,
      ),
    );
}
function textEnd(messageId, tag) {
  return tagged({ type: "TEXT_MESSAGE_END", messageId }, tag);
}
function textMessage(b, messageId, tag, nTokens) {
  return [
    textStart(messageId, tag),
    ...textContents(b, messageId, tag, nTokens),
    textEnd(messageId, tag),
  ];
}

/** TOOL_CALL_START, streamed TOOL_CALL_ARGS (JSON text in small chunks), TOOL_CALL_END. */
function toolCallLane(
  b,
  { toolCallId, toolCallName, args, parentMessageId, tag, tagStart = true },
) {
  const start = { type: "TOOL_CALL_START", toolCallId, toolCallName };
  if (parentMessageId !== undefined) start.parentMessageId = parentMessageId;
  const lane = [tagged(start, tagStart ? tag : undefined)];
  for (const delta of b.chunks(JSON.stringify(args))) {
    lane.push(tagged({ type: "TOOL_CALL_ARGS", toolCallId, delta }, tag));
  }
  lane.push(tagged({ type: "TOOL_CALL_END", toolCallId }, tag));
  return lane;
}
function toolResult(b, toolCallId, tag) {
  return tagged(
    {
      type: "TOOL_CALL_RESULT",
      messageId: b.id("msg_tool"),
      toolCallId,
      content: b.toolResultContent(),
      role: "tool",
    },
    tag,
  );
}

function stateDelta(b, tag) {
  const r = b.rng;
  return tagged(
    {
      type: "STATE_DELTA",
      delta: [
        { op: "replace", path: "/progress/completed", value: r.int(0, 1000) },
        {
          op: "add",
          path: "/log/-",
          value: `${r.pick(TOOL_NAMES)} → ${r.pick(["ok", "retry", "cached"])}`,
        },
      ],
    },
    tag,
  );
}

function runStarted(b, userText) {
  return {
    type: "RUN_STARTED",
    threadId: b.threadId,
    runId: b.runId,
    input: {
      threadId: b.threadId,
      runId: b.runId,
      state: { progress: { completed: 0 }, log: [] },
      messages: [
        {
          id: "msg_system_0",
          role: "system",
          content: "You are a helpful agent. Réponds en français si besoin.",
        },
        { id: "msg_user_0", role: "user", content: userText },
      ],
      tools: TOOL_NAMES.map((name) => ({
        name,
        description: `The ${name.replace("_", " ")} tool.`,
        parameters: { type: "object", properties: {}, additionalProperties: true },
      })),
      context: [{ description: "locale", value: "ja-JP" }],
      forwardedProps: {},
    },
  };
}

function runFinished(b) {
  return {
    type: "RUN_FINISHED",
    threadId: b.threadId,
    runId: b.runId,
    result: { summary: "done ✅", events: b.events.length + 1 },
    outcome: { type: "success" },
  };
}

/** REASONING_START, a streamed reasoning message, sometimes an encrypted value, REASONING_END. */
function reasoningBlock(b, tag) {
  const r = b.rng;
  const messageId = b.id("rsn");
  const lane = [
    tagged({ type: "REASONING_START", messageId }, tag),
    tagged({ type: "REASONING_MESSAGE_START", messageId, role: "reasoning" }, tag),
  ];
  for (const delta of b.tokens(r.int(30, 150))) {
    lane.push(tagged({ type: "REASONING_MESSAGE_CONTENT", messageId, delta }, tag));
  }
  lane.push(tagged({ type: "REASONING_MESSAGE_END", messageId }, tag));
  if (r.chance(0.5)) {
    lane.push(
      tagged(
        {
          type: "REASONING_ENCRYPTED_VALUE",
          subtype: "message",
          entityId: messageId,
          encryptedValue: `gAAAA${r.word(120)}==`,
        },
        tag,
      ),
    );
  }
  lane.push(tagged({ type: "REASONING_END", messageId }, tag));
  return lane;
}

/**
 * One agent turn (parent when `tag` is undefined, else the subagent `tag`): reason, call tools
 * (one narrated call, then parallel calls, maybe a delegation to subagents), then answer.
 */
function agentTurn(b, tag, depth) {
  const r = b.rng;
  const out = [];
  const step = (stepName, body) => {
    out.push(tagged({ type: "STEP_STARTED", stepName }, tag));
    out.push(...body);
    out.push(tagged({ type: "STEP_FINISHED", stepName }, tag));
  };

  step("reasoning", reasoningBlock(b, tag));

  const tools = [];
  // (a) A tool call streaming inside the message that narrates it (parentMessageId).
  {
    const messageId = b.id("msg");
    const toolCallId = b.id("call");
    const toolCallName = r.pick(TOOL_NAMES);
    const text = textContents(b, messageId, tag, r.int(12, 50));
    const cut = r.int(2, 6);
    // Inside a subagent the START is sometimes untagged: it inherits the message's owner.
    const call = toolCallLane(b, {
      toolCallId,
      toolCallName,
      args: b.toolArgs(toolCallName),
      parentMessageId: messageId,
      tag,
      tagStart: !r.chance(0.3),
    });
    tools.push(
      textStart(messageId, tag),
      ...text.slice(0, cut),
      ...interleave(r, [text.slice(cut), call]),
      textEnd(messageId, tag),
    );
    tools.push(stateDelta(b, tag), toolResult(b, toolCallId, tag));
  }
  // (b) Parallel tool calls, all children of one short assistant message.
  {
    const messageId = b.id("msg");
    const intro = [textStart(messageId, tag)];
    for (const delta of b.chunks(r.pick(PHRASES), 1, 4)) {
      intro.push(tagged({ type: "TEXT_MESSAGE_CONTENT", messageId, delta }, tag));
    }
    intro.push(textEnd(messageId, tag));
    tools.push(...intro);
    const n = r.int(2, 4);
    const ids = [];
    const lanes = [];
    for (let i = 0; i < n; i++) {
      const toolCallId = b.id("call");
      const toolCallName = r.pick(TOOL_NAMES);
      ids.push(toolCallId);
      lanes.push(
        toolCallLane(b, {
          toolCallId,
          toolCallName,
          args: b.toolArgs(toolCallName),
          parentMessageId: messageId,
          tag,
        }),
      );
    }
    tools.push(...interleave(r, lanes), stateDelta(b, tag));
    // Results come back in completion order, not call order.
    while (ids.length > 0)
      tools.push(toolResult(b, ids.splice(r.int(0, ids.length - 1), 1)[0], tag));

    // (c) Delegation: a tool call that spawns one or two concurrent subagents, which may
    // themselves delegate once more (nested, parentSubagentRunId).
    if (depth < 2 && r.chance(depth === 0 ? 0.6 : 0.5)) {
      const toolCallId = b.id("call");
      tools.push(
        ...toolCallLane(b, {
          toolCallId,
          toolCallName: "delegate_task",
          args: b.toolArgs("delegate_task"),
          parentMessageId: messageId,
          tag,
        }),
      );
      const siblings = depth === 0 && r.chance(0.5) ? 2 : 1;
      const subLanes = [];
      for (let i = 0; i < siblings; i++) {
        const sub = b.id("subrun");
        const started = {
          type: "SUBAGENT_STARTED",
          subagentRunId: sub,
          name: r.pick(SUBAGENT_NAMES),
          description: "Handles a delegated sub-task.",
        };
        if (tag !== undefined) started.parentSubagentRunId = tag;
        started.parentToolCallId = toolCallId;
        started.parentMessageId = messageId;
        subLanes.push([
          started,
          ...agentTurn(b, sub, depth + 1),
          {
            type: "SUBAGENT_FINISHED",
            subagentRunId: sub,
            result: { summary: b.sentence(r.int(4, 12)) },
            outcome: { type: "success" },
          },
        ]);
      }
      tools.push(...interleave(r, subLanes), toolResult(b, toolCallId, tag));
    }
  }
  step("tools", tools);

  if (depth === 0 && r.chance(0.5)) {
    // An activity card the parent keeps patching (snapshot, then deltas).
    const messageId = b.id("act");
    out.push({
      type: "ACTIVITY_SNAPSHOT",
      messageId,
      activityType: "PLAN",
      content: { steps: ["search", "summarize"], done: 0 },
    });
    for (let i = 1; i <= 2; i++) {
      out.push({
        type: "ACTIVITY_DELTA",
        messageId,
        activityType: "PLAN",
        patch: [{ op: "replace", path: "/done", value: i }],
      });
    }
  }

  step(
    "respond",
    textMessage(b, b.id("msg"), tag, r.int(depth === 0 ? 80 : 20, depth === 0 ? 400 : 120)),
  );
  return out;
}

/**
 * The full agentic mix: per turn, a reasoning block, a tool call narrated by its parent
 * message, 2–4 parallel tool calls streaming JSON args, state deltas, an optional activity,
 * often a delegation to one or two concurrent subagents (events tagged with
 * `subagentRunId`, sometimes nested one level deeper via `parentSubagentRunId`), and a long
 * token-by-token answer; all inside STEP_STARTED/STEP_FINISHED pairs (subagents reuse the
 * parent's step names under their own tag).
 * @param {number} [nEvents=200000] minimum number of events
 * @param {{seed?: number}} [options]
 * @returns {Array<Record<string, unknown>>}
 */
export function agenticRun(nEvents = 200_000, { seed = 0xa61 } = {}) {
  const b = new RunBuilder(seed);
  b.emit([runStarted(b, "Plan a trip to 東京 and check the weather ☀️ for next week.")]);
  b.emit([{ type: "STATE_SNAPSHOT", snapshot: { progress: { completed: 0 }, log: [] } }]);
  while (b.events.length < nEvents - 1) b.emit(agentTurn(b, undefined, 0));
  b.emit([runFinished(b)]);
  return b.events;
}

/**
 * Plain chat: consecutive assistant text messages (40–400 deltas each) streamed token by
 * token, nothing else.
 * @param {number} [nEvents=200000] minimum number of events
 * @param {{seed?: number}} [options]
 * @returns {Array<Record<string, unknown>>}
 */
export function chatRun(nEvents = 200_000, { seed = 0xc4a7 } = {}) {
  const b = new RunBuilder(seed);
  b.emit([runStarted(b, "Explain the AG-UI protocol, s'il vous plaît 🙏")]);
  while (b.events.length < nEvents - 1)
    b.emit(textMessage(b, b.id("msg"), undefined, b.rng.int(40, 400)));
  b.emit([runFinished(b)]);
  return b.events;
}

/**
 * Tool-call heavy: per turn, a short assistant message followed by 1–4 parallel tool calls
 * (its children via parentMessageId) streaming JSON args in small chunks, interleaved, then
 * their TOOL_CALL_RESULTs in completion order.
 * @param {number} [nEvents=200000] minimum number of events
 * @param {{seed?: number}} [options]
 * @returns {Array<Record<string, unknown>>}
 */
export function toolRun(nEvents = 200_000, { seed = 0x7001 } = {}) {
  const b = new RunBuilder(seed);
  const r = b.rng;
  b.emit([runStarted(b, "Audit every table and file for データ quality issues.")]);
  while (b.events.length < nEvents - 1) {
    const messageId = b.id("msg");
    const turn = textMessage(b, messageId, undefined, r.int(3, 15));
    const lanes = [];
    const ids = [];
    for (let i = r.int(1, 4); i > 0; i--) {
      const toolCallId = b.id("call");
      const toolCallName = r.pick(TOOL_NAMES);
      ids.push(toolCallId);
      lanes.push(
        toolCallLane(b, {
          toolCallId,
          toolCallName,
          args: b.toolArgs(toolCallName),
          parentMessageId: messageId,
        }),
      );
    }
    turn.push(...interleave(r, lanes));
    while (ids.length > 0)
      turn.push(toolResult(b, ids.splice(r.int(0, ids.length - 1), 1)[0], undefined));
    b.emit(turn);
  }
  b.emit([runFinished(b)]);
  return b.events;
}

/** A copy of a run that every verifier must reject: a content event for a message that already ended. */
export function corrupted(events) {
  let i = events.length - 1;
  while (i >= 0 && events[i].type !== "TEXT_MESSAGE_END") i--;
  if (i < 0) return undefined;
  const bad = events.slice();
  bad.splice(i + 1, 0, {
    type: "TEXT_MESSAGE_CONTENT",
    messageId: events[i].messageId,
    delta: "late",
  });
  return bad;
}
