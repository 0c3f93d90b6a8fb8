/**
 * One empty instance of each class the per-event path is compiled for, kept for the life
 * of the program.
 *
 * V8 gives an instance's fields a hidden class of their own, and keeps it only while some
 * instance holds it. Between two streams no verifier is alive, so a full garbage collection
 * frees those hidden classes and throws away the optimized code built on them: the next
 * stream ran at a quarter to a third of its speed until V8 compiled it again
 * (`bench/verify.bench.mjs`, the "right after a full GC" table). An instance kept here
 * holds its hidden class, and every later instance reuses it.
 * @module
 */

/** A Set, not an array: a bundler that drops writes to an array nobody reads keeps these. */
const kept = new Set<object>();

/** Keeps `instance`, one empty instance of its class, alive for the life of the program. */
export function keepShape(instance: object): void {
  kept.add(instance);
}
