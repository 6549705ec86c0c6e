/**
 * How bin/fux reads the words before the verb (startup.ts): the global flags every verb takes may
 * come first (`fux -w agents new -- codex`, as tmux's `-L` does), and a bare word one slip away
 * from a verb (`fux lsit`) is a typo, not the name of a workspace to create.
 */

/** The global flags (FuxCommand.baseFlags) that take a value, by every spelling. */
const VALUED = new Set(['-w', '--workspace', '--socket']);
const BOOLEAN = new Set(['--json']);

/** The global flags at the start of `argv`, and the words after them (the verb first, if any). */
export function splitGlobalFlags(argv: readonly string[]): { flags: string[]; rest: string[] } {
  let i = 0;
  while (i < argv.length) {
    const word = argv[i]!;
    if (BOOLEAN.has(word)) i += 1;
    else if (VALUED.has(word) && i + 1 < argv.length) i += 2;
    else if (/^--(workspace|socket)=/.test(word) || /^-w[^-]/.test(word)) i += 1;
    else break;
  }
  return { flags: argv.slice(0, i), rest: argv.slice(i) };
}

/**
 * `argv` with the global flags that precede the verb moved after it, so the verb's own parser
 * (the fast path's or oclif's) reads them; unchanged when no verb follows them.
 */
export function verbFirst(argv: readonly string[], isVerb: (word: string) => boolean): string[] {
  const { flags, rest } = splitGlobalFlags(argv);
  const [verb, ...after] = rest;
  if (flags.length === 0 || verb === undefined || !isVerb(verb)) return [...argv];
  return [verb, ...flags, ...after];
}

/**
 * Restricted Damerau-Levenshtein distance: insertions, deletions, substitutions and swaps of two
 * neighbours, each costing one.
 */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      }
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The verb a bare word was probably meant to be: one slip from it. A swap of two neighbours counts
 * for every verb (`lsit`, `nwe`); any other slip only for verbs of four letters or more, so a
 * workspace named `news` or `tabs` is still a workspace.
 */
export function meantVerb(word: string, verbs: Iterable<string>): string | undefined {
  for (const verb of verbs) {
    if (word === verb || distance(word, verb) !== 1) continue;
    const swapped = word.length === verb.length && [...word].sort().join('') === [...verb].sort().join('');
    if (swapped || verb.length >= 4) return verb;
  }
  return undefined;
}
