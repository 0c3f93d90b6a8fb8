// A Cloudflare Worker that proxies an AG-UI agent and never forwards a broken stream.
// The agent's origin comes from the `UPSTREAM` binding (wrangler.toml:
// `[vars] UPSTREAM = "https://agent.internal"`); the request's path, query, method,
// headers and body are forwarded as they are.
//
// The agent's own bytes go through (heartbeat comments, `id:` lines and all), released as
// soon as they are verified, with its status and headers (CORS, cookies, request ids).
// By default a violation ends the run downstream with a RUN_ERROR event, which an AG-UI
// client shows as a clean error; `?onViolation=error` breaks the connection instead.
import { verifyResponse } from "ag-ui-verify";

interface Env {
  UPSTREAM: string;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const onViolation = url.searchParams.get("onViolation") === "error" ? "error" : "run-error";

    const upstream = await fetch(
      new Request(new URL(url.pathname + url.search, env.UPSTREAM), request),
    );
    if (!upstream.ok) return upstream; // an HTTP error goes back unchanged
    return verifyResponse(upstream, { onViolation });
  },
};
