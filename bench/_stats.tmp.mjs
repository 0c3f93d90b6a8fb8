import { agenticRun } from "./runs.mjs";
const ev = agenticRun(200_000);
let nested = 0, maxActive = 0, active = new Set(), untaggedStartInSub = 0, tagged = 0, maxDepthTools=0;
const parentOf = new Map();
for (const e of ev) {
  if (e.subagentRunId !== undefined && !e.type.startsWith("SUBAGENT")) tagged++;
  if (e.type === "SUBAGENT_STARTED") { active.add(e.subagentRunId); if (e.parentSubagentRunId) nested++; maxActive = Math.max(maxActive, active.size); }
  if (e.type === "SUBAGENT_FINISHED") active.delete(e.subagentRunId);
  if (e.type === "TOOL_CALL_START" && e.subagentRunId === undefined && active.size) untaggedStartInSub++;
}
console.log({ nested, maxActive, untaggedStartInSub, tagged });
console.log(ev.slice(0, 4).map((e) => JSON.stringify(e).slice(0, 400)).join("\n"));
const i = ev.findIndex((e) => e.type === "SUBAGENT_STARTED" && e.parentSubagentRunId);
console.log(ev.slice(i - 2, i + 4).map((e) => JSON.stringify(e)).join("\n"));
