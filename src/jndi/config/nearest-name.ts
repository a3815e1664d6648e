/**
 * The allowed name a misspelt one most likely meant: the nearest by edit distance, when it is close
 * enough to be a slip of the keyboard (a few letters, fewer for a short name) rather than another word.
 */
export function nearestName(name: string, candidates: readonly string[]): string | null {
  const tolerance = Math.min(3, Math.max(1, Math.floor(name.length / 4)));
  let best: string | null = null;
  let bestDistance = tolerance + 1;
  for (const candidate of candidates) {
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance: the insertions, deletions and substitutions that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
