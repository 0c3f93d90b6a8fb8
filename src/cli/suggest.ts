/**
 * "Did you mean …?": the known name closest to a misspelt one (a flag, a reporter, a code),
 * only when it is close.
 * @module
 */

/**
 * The edit distance of `a` and `b`: insertions, deletions, substitutions and swaps of two
 * neighbours (`--strcit`), one each.
 */
export function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => d[i]?.[j] ?? 0;
  for (let i = 1; i <= a.length; i++) {
    const row = d[i] ?? [];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(at(i, j), at(i - 2, j - 2) + 1);
      }
    }
  }
  return at(a.length, b.length);
}

/** A name compared without its leading dashes, in lower case. */
const bare = (name: string): string => name.replace(/^-+/, "").toLowerCase();

/**
 * The candidate closest to `name`, when close: one edit away (two for a name of six
 * characters or more), or the only candidate that `name` (three characters or more)
 * begins. Undefined when none is.
 */
export function closest(name: string, candidates: readonly string[]): string | undefined {
  const typed = bare(name);
  if (typed === "" || typed.length > 100) return undefined;
  const most = typed.length >= 6 ? 2 : 1;
  let best: string | undefined;
  let bestDistance = most + 1;
  for (const candidate of candidates) {
    const known = bare(candidate);
    if (Math.abs(known.length - typed.length) > most) continue;
    const d = distance(typed, known);
    if (d < bestDistance && d < typed.length) {
      best = candidate;
      bestDistance = d;
    }
  }
  if (best !== undefined) return best;
  const starts = candidates.filter((c) => typed.length >= 3 && bare(c).startsWith(typed));
  return starts.length === 1 ? starts[0] : undefined;
}
