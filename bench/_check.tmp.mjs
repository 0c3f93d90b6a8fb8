import { verifyEvents } from "@ag-ui/client";
import { EventSchema } from "@ag-ui/core/schemas";
import { from } from "rxjs";
import { agenticRun, chatRun, toolRun } from "./runs.mjs";
for (const [name, gen] of [["agentic", agenticRun], ["chat", chatRun], ["tool", toolRun]]) {
  let t = performance.now();
  const ev = gen(200_000);
  const genMs = performance.now() - t;
  const counts = {};
  for (const e of ev) counts[e.type] = (counts[e.type] ?? 0) + 1;
  let n = 0, err, done = false;
  t = performance.now();
  verifyEvents()(from(ev)).subscribe({ next: () => n++, error: (e) => (err = e), complete: () => (done = true) });
  const upMs = performance.now() - t;
  let bad = 0;
  for (let i = 0; i < ev.length; i++) { const r = EventSchema.safeParse(ev[i]); if (!r.success) { if (bad++ < 3) console.log(i, JSON.stringify(ev[i]).slice(0,300), r.error.issues); } }
  const a = JSON.stringify(ev), b2 = JSON.stringify(gen(200_000));
  console.log(name, ev.length, "gen", genMs.toFixed(0), "ms; upstream", n, done, err?.message, upMs.toFixed(0), "ms; schema bad", bad, "deterministic", a === b2, "MB", (a.length/1e6).toFixed(1));
  console.log(counts);
}
