/**
 * Rule regexes are JavaScript patterns compiled with the `u` (Unicode) and `m` (multi-line) flags,
 * so `^` and `$` anchor at line edges in a multi-line region the way rule authors expect. Node 20
 * has no inline modifiers, so a leading `(?i)`, `(?s)` or `(?is)`, as written in Rust or PCRE,
 * is read here and turned into flags for the whole pattern.
 */
const BASE_FLAGS = 'mu';
const LEADING_FLAGS = /^\(\?([ism]+)\)/;

export function compilePattern(source: string): RegExp | { readonly problem: string } {
  let body = source;
  let flags = BASE_FLAGS;
  const leading = LEADING_FLAGS.exec(source);
  if (leading) {
    body = source.slice(leading[0].length);
    for (const flag of leading[1]!) if (!flags.includes(flag)) flags += flag;
  }
  try {
    return new RegExp(body, flags);
  } catch (error) {
    return { problem: `regex ${JSON.stringify(source)} does not compile: ${(error as Error).message}` };
  }
}
