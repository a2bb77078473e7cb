/**
 * "Did you mean …?" for names the operator types that pdesk knows a list of (profile names, profile keys), as
 * commander suggests commands and options: the closest candidate by edit distance (adjacent transpositions count
 * as one edit, as in commander), if it is close enough to be a slip rather than another word.
 */

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent transpositions. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  return d[a.length]![b.length]!;
}

/**
 * The candidate `word` was most likely meant to be, or undefined: case is ignored, and at most about a third of the
 * longer word may differ (`praktice` → `practice`, `sandbx` → `sandbox`; `prod` is not `sandbox`).
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  let best: { name: string; d: number } | undefined;
  for (const name of candidates) {
    if (name === word) continue;
    const d = distance(w, name.toLowerCase());
    const allowed = Math.max(1, Math.floor(Math.max(w.length, name.length) / 3));
    if (d <= allowed && d < w.length && (!best || d < best.d)) best = { name, d };
  }
  return best?.name;
}

/** `: did you mean "x"?` for the end of a sentence (without its full stop), or '' when nothing is close. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const c = closest(word, candidates);
  return c === undefined ? '' : `: did you mean "${c}"?`;
}
