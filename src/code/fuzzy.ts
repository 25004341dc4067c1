// Fuzzy symbol matching: the query's characters in order within the name (a subsequence), scored higher for
// exact and prefix matches, word starts (camelCase, snake_case) and consecutive runs. -1 when it does not match.

function isWordStart(name: string, i: number): boolean {
  if (i === 0) return true;
  const prev = name[i - 1]!;
  const char = name[i]!;
  return prev === '_' || prev === '$' || (/[a-z0-9]/.test(prev) && /[A-Z]/.test(char));
}

export function fuzzyScore(query: string, name: string): number {
  if (query === '') return 0;
  const q = query.toLowerCase();
  const n = name.toLowerCase();
  if (n === q) return name === query ? 1000 : 900;
  if (n.startsWith(q)) return 700 - (name.length - query.length);
  let score = n.includes(q) ? 400 : 0;
  let at = 0;
  let run = 0;
  for (const char of q) {
    const found = n.indexOf(char, at);
    if (found < 0) return -1;
    if (isWordStart(name, found)) score += 30;
    run = found === at ? run + 1 : 0;
    score += run * 10 - (found - at);
    at = found + 1;
  }
  return Math.max(1, score - (name.length - query.length));
}
