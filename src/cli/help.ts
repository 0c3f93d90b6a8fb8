/**
 * The command's help: `--help`, one screen (usage, the options most runs use, where the
 * rest is), and `--help-all`, everything: every option, the exit status, the rules in words
 * and the warning codes. Both name where the rule pages are, which the caller finds.
 * @module
 */

import { OFF_BY_DEFAULT, WARNING_CODES } from "../lint/types.ts";
import { RULES_IN_WORDS, SCHEMA_IN_WORDS, wrap } from "../report/render.ts";

/** The short help (at most 24 lines): `page` is where the rule pages are. */
export function help(page: string): string {
  return `ag-ui-verify: lint AG-UI agent event streams: every break of the protocol's
rules, and what the official client would silently lose

Usage:
  ag-ui-verify [options] <capture>...  files, folders, HAR files; - for stdin
  ag-ui-verify [options] --url <url>   POST to an agent, lint its events live

Most used options:
  --strict                 also check every event against the AG-UI event schema
  --reporter <name>        text (default), ndjson, junit, sarif, github or html
  --output <file>          write the report to this file instead of stdout
  --fail-on <level>        exit 1 on an error (default), a warning, or none
  --severity <CODE=level>  report CODE as error, warning or off; repeat for more
  --input <file>           with --url: the RunAgentInput (JSON) to POST
  --header 'Name: value'   with --url: a request header; repeat for more
  -v, --version            the version

Examples:
  ag-ui-verify captures/
  ag-ui-verify --reporter github --fail-on warning runs/

Exit status: 0 valid, 1 a finding at --fail-on, 2 a usage or I/O problem.
Each code's page: ${page}#<code in lower case>
Every option, the rules in words and the warning codes: ag-ui-verify --help-all
`;
}

/** The full help: `page` is where the rule pages are. */
export function helpAll(page: string): string {
  return `ag-ui-verify: lint AG-UI agent event streams: every break of the protocol's rules,
and what the official client would silently lose

Usage:
  ag-ui-verify [options] <capture>...  lint recorded streams: files, directories of them
                                       (walked recursively), HAR files, or - for stdin
  ag-ui-verify [options] --url <url> [--input <run-input.json>] [--header 'Name: value']...
                                       run an agent (POST) and lint its events as they arrive

A capture is a response body as recorded: SSE ("data: {...}" lines, each message ended by
a blank line), JSON Lines (one event per line) or AG-UI's protobuf frames, detected from
the first byte ("{" or "[" means JSON Lines, a 0 byte protobuf; --format overrides). For
protobuf, "line" in the reports counts frames. A HAR file (the network export of a
browser's DevTools) gives one input per event-stream response in it (text/event-stream or
application/vnd.ag-ui.event+proto), named by method, URL and
start time; an entry with no body recorded is unreadable (exit 2), and a HAR file over
256 MiB (less on a small memory limit) is refused, as it is read whole. A file holding one
JSON array of events is read as that list.

Every finding is reported: errors (a rule broken; the stream is invalid) and warnings (the
rules accept it, but @ag-ui/client 1.0.0 would lose or reject something). One capture gets
every finding, errors first, the first with the events before it; several get a summary:
the codes found, with the rule in words and the first few inputs with line numbers. Each
code has a page in ${page} (${page}#<code in lower case>).

A directory walk reads regular files only: FIFOs, sockets and devices found there are
skipped, and listed. A path given by name is read as a stream, whatever it is (/dev/stdin,
a FIFO). Ctrl-C stops a run of several inputs: the summary of those checked so far, then
exit status 130.

Examples:
  ag-ui-verify examples/captures/chat.sse
  ag-ui-verify captures/ session.har          # every *.sse, *.jsonl, *.ndjson, *.har below
  curl -sN -H 'content-type: application/json' -d @input.json https://agent.example/run | ag-ui-verify -
  ag-ui-verify --url https://agent.example/run --input input.json --header 'Authorization: Bearer TOKEN'
  ag-ui-verify --reporter sarif --output ag-ui.sarif runs/
  ag-ui-verify --reporter github --fail-on warning runs/   # annotations in a GitHub Actions job

Input:
  <capture>...               files, directories or HAR files to check; - reads stdin
  --ext <list>               in directories, check files with these extensions (comma-separated;
                             default sse,jsonl,ndjson,har,pb,bin)
  --format sse|jsonl|proto   read captures as SSE, JSON Lines or protobuf frames, without
                             detecting
  --url <url>                POST a RunAgentInput to this agent endpoint and check the answer
  --input <file>             the RunAgentInput (JSON) to POST; - reads stdin
                             (default: no messages, a new threadId and runId)
  --header 'Name: value'     an extra request header; repeat for more
  --timeout <seconds>        with --url: give up after this long without a byte (default 60)

Checking:
  --strict                   also check every event against the AG-UI event schema (that of
                             @ag-ui/core 1.0.0, as the official client applies it): known
                             types, required fields, every field's JSON type and allowed
                             values. By default only the rules below are checked, with the
                             fields they read; so role "robot", threadId 1 or a misspelt
                             type pass by default and fail with --strict (SCHEMA_MISMATCH,
                             naming the field and what the schema expected)
  --protocol 1.1|draft       the protocol text that decides (default 1.1, AG-UI 1.1); draft
                             adds what the protocol's draft asks of consumers: RUN_STARTED
                             and RUN_FINISHED carry the same runId, one threadId per stream,
                             no interrupt id twice (RUN_ID_MISMATCH, THREAD_ID_MISMATCH,
                             INTERRUPT_ID_DUPLICATE)
  --allow-sequential-runs    deprecated, and ignored: several runs in one stream are always
                             accepted (AG-UI 1.1)
  --max-buffer-size <n>      the longest message (SSE) or line (JSON Lines) to accept, in
                             characters: 1 to 536870912 (512 MiB; default 10485760, 10 MiB)
  --max-ids <n>              the most ids (messages, tool calls, reasoning blocks, activities,
                             subagents, open steps) one run may hold at once: 1 or more, or
                             Infinity for no limit (default 100000); a run over it breaks
                             rule 0 (ID_LIMIT_EXCEEDED)
  --severity <CODE=level>    report CODE as error, warning or off (e.g. RUN_ID_MISMATCH=off,
                             CLIENT_REJECTS=error); repeat for more. What is checked does not
                             change, only how its findings count
  -j, --jobs <n>             check this many inputs at once (default and most: the number of
                             cores; more is lowered to it, with a note on a terminal); the
                             output is the same for every number

Output:
  --reporter <name>          text (default), ndjson (one JSON object per input, then one
                             {"summary": {...}} line), junit (JUnit XML: a test case per
                             input), sarif (SARIF 2.1.0, for code scanning), github (GitHub
                             Actions workflow commands: an annotation per finding, and a
                             table of the inputs appended to $GITHUB_STEP_SUMMARY when set),
                             html (one self-contained page: a timeline per run with every
                             finding pinned at its event, and the events; use --output)
  --json                     the same as --reporter ndjson
  --output <file>            write the report to this file instead of stdout
  --fail-on <level>          exit 1 when a finding of this severity or worse exists: error
                             (default), warning, or none (exit 1 never)
  --rules-url <url>          where the rule pages are (an absolute URL, such as a hosted
                             copy of docs/rules.md): each finding links to it, and SARIF
                             rules get it as helpUri (default: the page in the package)
  --no-color                 no colours (also NO_COLOR=1; FORCE_COLOR=1 forces colours)
  -h, --help                 the short help: usage and the most used options
  --help-all                 this help
  -v, --version              show the version

Exit status:
  0    no finding at or above --fail-on (by default: every stream is valid)
  1    a finding at or above --fail-on: a stream breaks a rule (undecodable data and a stream
       cut off mid-run count too), or with --fail-on warning a warning
  2    a usage or I/O problem: a bad flag, a file that cannot be read (the others are still
       checked), an unreachable URL, an HTTP error, a timeout
  130  interrupted (Ctrl-C): the summary says after how many of the inputs

The rules (0-13):
${RULES_IN_WORDS.map((rule, i) => wrap(`${String(i).padStart(4)}. `, rule)).join("\n")}

${wrap("", SCHEMA_IN_WORDS)}

${wrap("", `Warnings (what @ag-ui/client 1.0.0 would lose in a stream the rules accept, and the producer duties of AG-UI 1.1 that consumers do not enforce; ${[...OFF_BY_DEFAULT].join(", ")} only with --severity CODE=warning): ${WARNING_CODES.join(", ")}.`)}
`;
}
