/**
 * The bundled captures in examples/captures/: recorded-looking AG-UI streams, built from the
 * library's own event factories and encoded with its own SseEncoderStream, so that they are
 * exactly what a producer using ag-ui-verify would send. Everything is fixed (ids, timestamps,
 * text): running the script twice gives the same bytes, and test/runtimes/captures.test.ts
 * checks that the committed files equal what `buildCaptures()` returns.
 *
 * Run with `npm run captures` (builds first). Imported, it only exports `buildCaptures`.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as ev from "../dist/index.js";

/** 2026-03-02T09:15:00.000Z, the start of every capture's clock. */
const T0 = 1772442900000;

/**
 * An event recorder with a fixed clock: `add(event, ms)` stamps the event `ms` milliseconds
 * after the previous one (25 ms by default, about a token's pace) and appends it.
 */
function recorder(start = T0) {
  let now = start;
  const events = [];
  return {
    events,
    add(event, ms = 25) {
      now += ms;
      event.timestamp = now;
      events.push(event);
      return event;
    },
  };
}

/** `events` as SSE bytes from the library's encoder, decoded to a string. */
async function encodeSse(events) {
  const source = new ReadableStream({
    start(controller) {
      for (const event of events) controller.enqueue(event);
      controller.close();
    },
  });
  const chunks = [];
  const reader = source.pipeThrough(new ev.SseEncoderStream()).getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(bytes);
}

/** `events` as JSON Lines: one event per line. */
function encodeJsonl(events) {
  return events.map((event) => `${JSON.stringify(event)}\n`).join("");
}

/** Streams `text` (given as its tokens) into message `messageId`, one event per token. */
function streamText(rec, messageId, tokens, extra) {
  for (const token of tokens) rec.add(ev.textMessageContent(messageId, token, extra), 30);
}

// ---------------------------------------------------------------------------------------------
// chat: a user question answered token by token, with multi-byte text
// ---------------------------------------------------------------------------------------------

const CHAT_ANSWER = [
  "In",
  " Japanese",
  " you",
  " say",
  " **",
  "あり",
  "がとう",
  "**",
  " (",
  "arigatō",
  "),",
  " or",
  " more",
  " politely",
  " **",
  "ありがとう",
  "ござい",
  "ます",
  "**",
  ".",
  " In",
  " Korean",
  " it",
  " is",
  " **",
  "감사",
  "합니다",
  "**",
  " (",
  "gamsahamnida",
  "),",
  " and",
  " among",
  " friends",
  " **",
  "고마워",
  "**",
  ".",
  " 🙏",
];

function chatEvents() {
  const rec = recorder();
  const run = { threadId: "thread-7f3a9c", runId: "run-0001" };
  rec.add(
    ev.runStarted({
      ...run,
      input: {
        ...run,
        messages: [
          {
            id: "msg-user-1",
            role: "user",
            content: "How do I say “thank you” in Japanese and in Korean?",
          },
        ],
        tools: [],
        context: [],
        state: {},
        forwardedProps: {},
      },
    }),
    0,
  );
  rec.add(ev.textMessageStart("msg-asst-1", { role: "assistant" }), 410);
  streamText(rec, "msg-asst-1", CHAT_ANSWER);
  rec.add(ev.textMessageEnd("msg-asst-1"));
  rec.add(
    ev.runFinished({
      ...run,
      usage: [{ provider: "openai", model: "gpt-4o-mini", inputTokens: 24, outputTokens: 41 }],
    }),
    15,
  );
  return rec.events;
}

// ---------------------------------------------------------------------------------------------
// parallel tool calls narrated by a message
// ---------------------------------------------------------------------------------------------

function parallelToolEvents() {
  const rec = recorder();
  const run = { threadId: "thread-weather", runId: "run-0042" };
  const cities = [
    { id: "call-oslo", city: "Oslo", result: { city: "Oslo", tempC: 4.5, conditions: "snø" } },
    {
      id: "call-tokyo",
      city: "Tokyo",
      result: { city: "Tokyo", tempC: 14, conditions: "晴れ (clear)" },
    },
    {
      id: "call-sao-paulo",
      city: "São Paulo",
      result: { city: "São Paulo", tempC: 27, conditions: "chuva leve (light rain)" },
    },
  ];
  rec.add(
    ev.runStarted({
      ...run,
      input: {
        ...run,
        messages: [
          {
            id: "msg-user-1",
            role: "user",
            content: "Is it warmer in Oslo, Tokyo or São Paulo right now?",
          },
        ],
        tools: [
          {
            name: "get_weather",
            description: "Current weather for a city",
            parameters: {
              type: "object",
              properties: { city: { type: "string" }, units: { enum: ["metric", "imperial"] } },
              required: ["city"],
            },
          },
        ],
        context: [],
      },
    }),
    0,
  );
  rec.add(ev.textMessageStart("msg-asst-1"), 380);
  streamText(rec, "msg-asst-1", ["Let me", " check", " all three", " cities", " at once."]);
  for (const { id } of cities) {
    rec.add(ev.toolCallStart(id, "get_weather", { parentMessageId: "msg-asst-1" }), 20);
  }
  // The model streams the three argument objects side by side.
  const pieces = (city) => ['{"city":"', city, '","units":"metric"}'];
  for (let i = 0; i < 3; i++) {
    for (const { id, city } of cities) rec.add(ev.toolCallArgs(id, pieces(city)[i] ?? ""), 15);
  }
  for (const { id } of cities) rec.add(ev.toolCallEnd(id), 5);
  rec.add(ev.textMessageEnd("msg-asst-1"), 5);
  // The tools answer in their own time: Tokyo first.
  const [oslo, tokyo, saoPaulo] = cities;
  let n = 0;
  for (const { id, result } of [tokyo, saoPaulo, oslo]) {
    n += 1;
    rec.add(ev.toolCallResult(id, `msg-tool-${n}`, JSON.stringify(result), { role: "tool" }), 240);
  }
  rec.add(ev.textMessageStart("msg-asst-2"), 520);
  streamText(rec, "msg-asst-2", [
    "São Paulo",
    " is",
    " the",
    " warmest",
    " at",
    " 27 °C",
    ",",
    " then",
    " Tokyo",
    " at",
    " 14 °C",
    ";",
    " Oslo",
    " is",
    " coldest",
    " at",
    " 4.5 °C",
    " with",
    " snow",
    " ❄️",
    ".",
  ]);
  rec.add(ev.textMessageEnd("msg-asst-2"));
  rec.add(ev.runFinished(run), 15);
  return rec.events;
}

// ---------------------------------------------------------------------------------------------
// agentic: steps, reasoning, state, an activity and nested subagents
// ---------------------------------------------------------------------------------------------

function agenticEvents() {
  const rec = recorder();
  const run = { threadId: "thread-kyoto", runId: "run-0107" };
  const research = { subagentRunId: "sub-research" };
  const web = { subagentRunId: "sub-web" };
  const fx = { subagentRunId: "sub-fx" };
  rec.add(
    ev.runStarted({
      ...run,
      input: {
        ...run,
        messages: [
          {
            id: "msg-user-1",
            role: "user",
            content: "Plan three days in Kyoto in April, budget ¥150,000.",
          },
        ],
        tools: [],
        context: [],
        state: {},
      },
    }),
    0,
  );
  rec.add(
    ev.stateSnapshot({ phase: "planning", destination: "京都", days: 3, budgetJpy: 150000 }),
    40,
  );

  rec.add(ev.stepStarted("plan"), 10);
  rec.add(ev.reasoningStart("rsn-1"), 60);
  rec.add(ev.reasoningMessageStart("rsn-1"));
  for (const delta of [
    "April is cherry-blossom season,",
    " so sights will be crowded;",
    " research first, then price it in yen.",
  ]) {
    rec.add(ev.reasoningMessageContent("rsn-1", delta), 45);
  }
  rec.add(ev.reasoningMessageEnd("rsn-1"));
  rec.add(
    ev.reasoningEncryptedValue("message", "rsn-1", "gAAAAABp3Qx9c2lnbmVkLXJlYXNvbmluZy1ibG9iLTAx"),
  );
  rec.add(ev.reasoningEnd("rsn-1"), 5);
  rec.add(
    ev.activitySnapshot("act-plan", "PLAN", {
      steps: [
        { title: "Research sights", status: "pending" },
        { title: "Price the trip", status: "pending" },
        { title: "Write the itinerary", status: "pending" },
      ],
    }),
  );
  rec.add(ev.stepFinished("plan"), 5);

  rec.add(ev.stepStarted("research"), 10);
  rec.add(
    ev.activityDelta("act-plan", "PLAN", [
      { op: "replace", path: "/steps/0/status", value: "in_progress" },
    ]),
  );
  rec.add(ev.textMessageStart("msg-asst-1"));
  streamText(rec, "msg-asst-1", ["Handing", " research", " to", " the", " researcher."]);
  rec.add(ev.toolCallStart("call-delegate", "delegate", { parentMessageId: "msg-asst-1" }), 20);
  rec.add(ev.toolCallArgs("call-delegate", '{"agent":"researcher",'), 20);
  rec.add(ev.toolCallArgs("call-delegate", '"task":"Kyoto in April, 3 days"}'), 20);
  rec.add(ev.toolCallEnd("call-delegate"), 5);
  rec.add(ev.textMessageEnd("msg-asst-1"), 5);

  // The researcher, spawned by the delegate call, runs two subagents of its own.
  rec.add(
    ev.subagentStarted("sub-research", "researcher", {
      parentToolCallId: "call-delegate",
      parentMessageId: "msg-asst-1",
    }),
    30,
  );
  rec.add(ev.stepStarted("search", research), 15);
  rec.add(ev.subagentStarted("sub-web", "web_search", { parentSubagentRunId: "sub-research" }));
  rec.add(ev.toolCallStart("call-web-1", "search", web), 40);
  rec.add(ev.toolCallArgs("call-web-1", '{"q":"京都 4月 見どころ"}', web));
  rec.add(ev.toolCallEnd("call-web-1", web), 5);
  rec.add(
    ev.toolCallResult(
      "call-web-1",
      "msg-tool-web-1",
      "Fushimi Inari; Kiyomizu-dera; Philosopher's Path (桜 in early April); Arashiyama.",
      { role: "tool", ...web },
    ),
    620,
  );
  rec.add(ev.subagentFinished("sub-web", { result: { hits: 4 } }), 10);
  rec.add(ev.subagentStarted("sub-fx", "currency", { parentSubagentRunId: "sub-research" }), 10);
  rec.add(ev.toolCallStart("call-fx-1", "convert", fx), 30);
  rec.add(ev.toolCallArgs("call-fx-1", '{"amount":150000,"from":"JPY","to":"EUR"}', fx));
  rec.add(ev.toolCallEnd("call-fx-1", fx), 5);
  rec.add(ev.toolCallResult("call-fx-1", "msg-tool-fx-1", '{"EUR":921.4}', fx), 180);
  rec.add(ev.subagentFinished("sub-fx", { result: { EUR: 921.4 } }), 10);
  rec.add(ev.textMessageStart("msg-research-1", research), 40);
  streamText(
    rec,
    "msg-research-1",
    ["Top sights:", " Fushimi Inari,", " Kiyomizu-dera,", " Arashiyama.", " ¥150,000 ≈ €921."],
    research,
  );
  rec.add(ev.textMessageEnd("msg-research-1", research));
  rec.add(ev.stepFinished("search", research), 5);
  rec.add(ev.subagentFinished("sub-research", { result: { sights: 3 } }), 10);
  rec.add(
    ev.toolCallResult("call-delegate", "msg-tool-delegate", "Research done: 3 sights, €921.", {
      role: "tool",
    }),
    10,
  );
  rec.add(
    ev.stateDelta([
      { op: "replace", path: "/phase", value: "writing" },
      { op: "add", path: "/sights", value: ["伏見稲荷大社", "清水寺", "嵐山"] },
    ]),
  );
  rec.add(
    ev.activityDelta("act-plan", "PLAN", [
      { op: "replace", path: "/steps/0/status", value: "done" },
      { op: "replace", path: "/steps/1/status", value: "done" },
      { op: "replace", path: "/steps/2/status", value: "in_progress" },
    ]),
  );
  rec.add(ev.stepFinished("research"), 5);

  rec.add(ev.stepStarted("write"), 10);
  rec.add(ev.textMessageStart("msg-asst-2"), 200);
  streamText(rec, "msg-asst-2", [
    "Day 1:",
    " Fushimi Inari at dawn.",
    " Day 2:",
    " Kiyomizu-dera and Gion.",
    " Day 3:",
    " Arashiyama 🌸.",
    " About ¥140,000 in all.",
  ]);
  rec.add(ev.textMessageEnd("msg-asst-2"));
  rec.add(ev.stateDelta([{ op: "replace", path: "/phase", value: "done" }]), 10);
  rec.add(
    ev.activityDelta("act-plan", "PLAN", [
      { op: "replace", path: "/steps/2/status", value: "done" },
    ]),
  );
  rec.add(ev.stepFinished("write"), 5);
  rec.add(ev.runFinished({ ...run, result: { days: 3, totalJpy: 140000 } }), 10);
  return rec.events;
}

// ---------------------------------------------------------------------------------------------
// crlf: a short valid run, framed with CRLF line ends
// ---------------------------------------------------------------------------------------------

function crlfEvents() {
  const rec = recorder();
  const run = { threadId: "thread-calc", runId: "run-0003" };
  rec.add(ev.runStarted(run), 0);
  rec.add(ev.stepStarted("answer"), 20);
  rec.add(ev.textMessageStart("msg-asst-1"), 300);
  streamText(rec, "msg-asst-1", ["15 %", " of", " 240", " is", " **36**", " (0.15 × 240)."]);
  rec.add(ev.textMessageEnd("msg-asst-1"));
  rec.add(ev.stepFinished("answer"), 5);
  rec.add(ev.runFinished({ ...run, result: 36 }), 10);
  return rec.events;
}

// ---------------------------------------------------------------------------------------------
// Invalid captures
// ---------------------------------------------------------------------------------------------

/** Two subagents stream side by side; one continuation carries the wrong subagent's tag. */
function ownerMismatchEvents() {
  const rec = recorder();
  const run = { threadId: "thread-trip", runId: "run-0311" };
  const flights = { subagentRunId: "sub-flights" };
  const hotels = { subagentRunId: "sub-hotels" };
  rec.add(ev.runStarted(run), 0);
  rec.add(ev.subagentStarted("sub-flights", "flights"), 30);
  rec.add(ev.subagentStarted("sub-hotels", "hotels"), 5);
  rec.add(ev.textMessageStart("msg-flights-1", flights), 200);
  rec.add(ev.textMessageStart("msg-hotels-1", hotels), 10);
  rec.add(ev.textMessageContent("msg-flights-1", "Cheapest: OSL→KIX", flights));
  rec.add(ev.textMessageContent("msg-hotels-1", "Ryokan near Gion,", hotels));
  // The violation: the flights agent's message, tagged with the hotels agent.
  rec.add(ev.textMessageContent("msg-flights-1", " on 4 April, €612.", hotels));
  rec.add(ev.textMessageContent("msg-hotels-1", " ¥18,000 a night.", hotels));
  rec.add(ev.textMessageEnd("msg-flights-1", flights));
  rec.add(ev.textMessageEnd("msg-hotels-1", hotels));
  rec.add(ev.subagentFinished("sub-flights"), 10);
  rec.add(ev.subagentFinished("sub-hotels"), 10);
  rec.add(ev.runFinished(run), 10);
  return rec.events;
}

/** A run that finishes, then flushes its final state one event too late. */
function afterCloseEvents() {
  const rec = recorder();
  const run = { threadId: "thread-todo", runId: "run-0520" };
  rec.add(ev.runStarted(run), 0);
  rec.add(ev.stateSnapshot({ todos: ["buy milk"] }), 20);
  rec.add(ev.toolCallStart("call-add-1", "add_todo"), 300);
  rec.add(ev.toolCallArgs("call-add-1", '{"title":"book ryokan"}'));
  rec.add(ev.toolCallEnd("call-add-1"), 5);
  rec.add(ev.toolCallResult("call-add-1", "msg-tool-1", '{"ok":true}', { role: "tool" }), 90);
  rec.add(ev.textMessageStart("msg-asst-1"), 150);
  streamText(rec, "msg-asst-1", ["Added", " “book ryokan”", " to", " your", " list."]);
  rec.add(ev.textMessageEnd("msg-asst-1"));
  rec.add(ev.runFinished(run), 10);
  // The violation: state persisted after the run closed.
  rec.add(ev.stateSnapshot({ todos: ["buy milk", "book ryokan"] }), 35);
  return rec.events;
}

/**
 * A tool call announced without its name (an adapter that sends the name only later): the
 * order is right, so the rules accept it, but the AG-UI event schema (`--strict`) does not.
 */
function schemaMismatchEvents() {
  const rec = recorder();
  const run = { threadId: "thread-weather", runId: "run-0042" };
  rec.add(ev.runStarted(run), 0);
  rec.add(ev.textMessageStart("msg-asst-1"), 200);
  streamText(rec, "msg-asst-1", ["Checking", " the", " weather", " in", " Oslo…"]);
  rec.add(ev.textMessageEnd("msg-asst-1"));
  const start = ev.toolCallStart("call-wx-1", "get_weather", { parentMessageId: "msg-asst-1" });
  delete start.toolCallName;
  rec.add(start, 40);
  rec.add(ev.toolCallArgs("call-wx-1", '{"city":"Oslo"}'));
  rec.add(ev.toolCallEnd("call-wx-1"), 5);
  rec.add(ev.toolCallResult("call-wx-1", "msg-tool-1", '{"tempC":4}', { role: "tool" }), 300);
  rec.add(ev.runFinished(run), 10);
  return rec.events;
}

/**
 * What the rules accept but the official client (@ag-ui/client 1.0.0) would silently lose:
 * a tool call whose arguments stop mid-JSON (the tool gets {}), a state delta for a path
 * the state does not have (the UI's state goes stale), and a RUN_FINISHED naming another
 * run. Valid (exit 0), with three warnings (exit 1 with --fail-on warning).
 */
function clientLosesEvents() {
  const rec = recorder();
  const run = { threadId: "thread-trips", runId: "run-0731" };
  rec.add(ev.runStarted(run), 0);
  rec.add(ev.stateSnapshot({ trip: { city: "Kyoto", nights: 3 } }), 20);
  rec.add(ev.textMessageStart("msg-asst-1"), 200);
  streamText(rec, "msg-asst-1", ["Booking", " your", " ryokan…"]);
  rec.add(ev.textMessageEnd("msg-asst-1"));
  rec.add(ev.toolCallStart("call-book-1", "book_hotel", { parentMessageId: "msg-asst-1" }), 40);
  rec.add(ev.toolCallArgs("call-book-1", '{"city":"Kyoto",'));
  rec.add(ev.toolCallArgs("call-book-1", '"nights":3'));
  rec.add(ev.toolCallEnd("call-book-1"), 5);
  rec.add(ev.toolCallResult("call-book-1", "msg-tool-1", '{"booked":true}', { role: "tool" }), 300);
  rec.add(ev.stateDelta([{ op: "replace", path: "/trip/hotel/name", value: "Gion ryokan" }]), 20);
  rec.add(ev.runFinished({ threadId: run.threadId, runId: "run-0732" }), 10);
  return rec.events;
}

/**
 * A producer that writes its fields in snake_case: every text message event lacks
 * `messageId` (it carries `message_id`). One finding per event type, merged over the
 * deltas, each naming the near miss.
 */
function snakeCaseEvents() {
  const rec = recorder();
  const run = { threadId: "thread-snake", runId: "run-0077" };
  const snake = (event) => {
    const { messageId, ...rest } = event;
    return { ...rest, message_id: messageId };
  };
  rec.add(ev.runStarted(run), 0);
  rec.add(snake(ev.textMessageStart("msg-asst-1")), 200);
  for (const token of ["Hello", " from", " a", " snake_case", " producer."]) {
    rec.add(snake(ev.textMessageContent("msg-asst-1", token)), 30);
  }
  rec.add(snake(ev.textMessageEnd("msg-asst-1")));
  rec.add(ev.runFinished(run), 10);
  return rec.events;
}

/** The number of chat events that truncated.sse keeps whole. */
const TRUNCATED_KEEP = 18;

/** A short answer followed by the OpenAI-style `data: [DONE]` sentinel, which is not JSON. */
function notJsonEvents() {
  const rec = recorder();
  const run = { threadId: "thread-openai-compat", runId: "run-0900" };
  rec.add(ev.runStarted(run), 0);
  rec.add(ev.textMessageStart("msg-asst-1"), 250);
  streamText(rec, "msg-asst-1", ["Paris", " is", " the", " capital", " of", " France."]);
  rec.add(ev.textMessageEnd("msg-asst-1"));
  rec.add(ev.runFinished(run), 10);
  return rec.events;
}

/**
 * A browser's network export (HAR 1.2, as Chrome's DevTools writes it) of a chat page: a
 * JSON request, the agent's answer as SSE (`chat.sse`, body as text), a second run whose
 * body the browser stored in base64 (`owner-mismatch.sse`), and the page's icon.
 */
function sessionHar(chatSse, ownerMismatchSse) {
  const page = "https://chat.example/";
  const entry = (second, method, url, mimeType, content, extra = {}) => ({
    startedDateTime: new Date(T0 + second * 1000).toISOString(),
    time: 120,
    request: {
      method,
      url,
      httpVersion: "http/2.0",
      headers: [
        { name: "accept", value: mimeType === "text/event-stream" ? mimeType : "*/*" },
        { name: "referer", value: page },
      ],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: method === "POST" ? 2 : 0,
      ...(method === "POST" ? { postData: { mimeType: "application/json", text: "{}" } } : {}),
    },
    response: {
      status: 200,
      statusText: "",
      httpVersion: "http/2.0",
      headers: [{ name: "content-type", value: mimeType }],
      cookies: [],
      content: {
        size: Buffer.byteLength(content.text, content.encoding ?? "utf8"),
        mimeType,
        ...content,
      },
      redirectURL: "",
      headersSize: -1,
      bodySize: -1,
      _transferSize: 512,
    },
    cache: {},
    timings: { blocked: 1, dns: -1, ssl: -1, connect: -1, send: 0, wait: 90, receive: 29 },
    _resourceType: extra.resourceType ?? "fetch",
  });
  const run = "https://chat.example/api/agent/run";
  const entries = [
    entry(0, "GET", "https://chat.example/api/threads", "application/json", {
      text: JSON.stringify([{ id: "thread-7f3a9c", title: "Thank you in Japanese" }]),
    }),
    entry(1, "POST", run, "text/event-stream", { text: chatSse }),
    entry(30, "POST", run, "text/event-stream", {
      text: Buffer.from(ownerMismatchSse).toString("base64"),
      encoding: "base64",
    }),
    entry(
      31,
      "GET",
      "https://chat.example/favicon.ico",
      "image/x-icon",
      { text: Buffer.from([0, 0, 1, 0, 1, 0, 16, 16]).toString("base64"), encoding: "base64" },
      { resourceType: "other" },
    ),
  ];
  const log = {
    version: "1.2",
    creator: { name: "WebInspector", version: "537.36" },
    pages: [
      { startedDateTime: entries[0].startedDateTime, id: "page_1", title: page, pageTimings: {} },
    ],
    entries,
  };
  return `${JSON.stringify({ log }, null, 2)}\n`;
}

/**
 * Every capture, by file name, as the exact text of the file. Deterministic: the same
 * strings on every call.
 *
 * @returns {Promise<Record<string, string>>}
 */
export async function buildCaptures() {
  const chat = chatEvents();
  const chatSse = await encodeSse(chat);
  const ownerMismatchSse = await encodeSse(ownerMismatchEvents());

  // truncated: the chat, cut off in the middle of the SSE message after TRUNCATED_KEEP events.
  const kept = await encodeSse(chat.slice(0, TRUNCATED_KEEP));
  const next = await encodeSse([chat[TRUNCATED_KEEP]]);
  const cut = next.slice(0, next.indexOf('"delta":') + '"delta":"'.length);

  return {
    "chat.sse": chatSse,
    "chat.jsonl": encodeJsonl(chat),
    "parallel-tools.sse": await encodeSse(parallelToolEvents()),
    "agentic.sse": await encodeSse(agenticEvents()),
    "crlf.sse": (await encodeSse(crlfEvents())).replaceAll("\n", "\r\n"),
    "truncated.sse": kept + cut,
    "owner-mismatch.sse": ownerMismatchSse,
    "after-close.sse": await encodeSse(afterCloseEvents()),
    "not-json.sse": `${await encodeSse(notJsonEvents())}data: [DONE]\n\n`,
    "schema-mismatch.sse": await encodeSse(schemaMismatchEvents()),
    "client-loses.sse": await encodeSse(clientLosesEvents()),
    "snake-case.sse": await encodeSse(snakeCaseEvents()),
    "session.har": sessionHar(chatSse, ownerMismatchSse),
  };
}

/** Writes every capture into examples/captures/. */
async function main() {
  const dir = fileURLToPath(new URL("../examples/captures/", import.meta.url));
  await mkdir(dir, { recursive: true });
  const captures = await buildCaptures();
  for (const [name, text] of Object.entries(captures)) {
    await writeFile(path.join(dir, name), text);
    console.log(`${name.padEnd(20)} ${String(Buffer.byteLength(text)).padStart(6)} bytes`);
  }
}

if (
  process.argv[1] !== undefined &&
  path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)
) {
  await main();
}
