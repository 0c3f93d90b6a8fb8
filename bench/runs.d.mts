// Types for bench/runs.mjs, so TypeScript tests can draw events from its generators.
type Event = { type: string } & Record<string, unknown>;
export function createRng(seed: number): {
  next(): number;
  int(lo: number, hi: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  word(length: number): string;
  hex(length: number): string;
};
export function agenticRun(nEvents?: number, options?: { seed?: number }): Event[];
export function chatRun(nEvents?: number, options?: { seed?: number }): Event[];
export function toolRun(nEvents?: number, options?: { seed?: number }): Event[];
export function corrupted(events: Event[]): Event[] | undefined;
