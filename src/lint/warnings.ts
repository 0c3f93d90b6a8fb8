/**
 * The warnings of SPEC §18.2: what `@ag-ui/client` 1.0.0 would silently lose in a stream the
 * rules accept. Only events the verifier accepted reach these checks.
 * @module
 */

import type { LintOptions, WarningCode } from "./types.ts";

/** One warning: its code, the middle of its message, and what it merges by. */
export interface Warning {
  readonly code: WarningCode;
  /** What happened and what the client does, ending with "." (the linter adds the rest). */
  readonly text: string;
  readonly eventType: string | undefined;
  readonly field?: string | undefined;
  /** The entity it is about (kind and quoted id), for merging. */
  readonly subject?: string | undefined;
}

/**
 * Watches the accepted events of one stream as the official client would consume them.
 * @internal
 */
export class ClientWatch {
  constructor(_options: LintOptions) {}

  /** An event the rules accepted, at `index`: the warnings it gives, if any. */
  event(_event: unknown, _index: number): readonly Warning[] | undefined {
    return undefined;
  }
}
