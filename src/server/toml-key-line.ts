/**
 * Where a key is defined in a TOML file, for error messages: smol-toml reports the position of a
 * syntax error, but a schema error arrives as a key path on the parsed value. This reads the file
 * line by line, tracking `[table]` and `[[array]]` headers and dotted keys, and returns the line
 * that assigns the path (array indices are ignored: a value's line is its key's line), or the key
 * a line belongs to (for a problem known only by its line: bytes that are not UTF-8).
 */

/** A bare or quoted key segment, then optional `.segment`s. */
const KEY = String.raw`(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')`;
const DOTTED_KEY = String.raw`${KEY}(?:\s*\.\s*${KEY})*`;
const ASSIGNMENT = new RegExp(String.raw`^\s*(${DOTTED_KEY})\s*=`);
const HEADER = new RegExp(String.raw`^\s*\[\[?\s*(${DOTTED_KEY})\s*\]\]?`);

function segments(dotted: string): string[] {
  const found = dotted.match(new RegExp(KEY, 'g')) ?? [];
  return found.map((segment) =>
    segment.startsWith('"') || segment.startsWith("'") ? segment.slice(1, -1) : segment,
  );
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => path[i] === segment);
}

/** The 1-based line defining `path` (or the nearest enclosing key or table), if the file shows one. */
export function tomlKeyLine(text: string, path: readonly (string | number)[]): number | undefined {
  const keyPath = path.filter((part): part is string => typeof part === 'string');
  if (keyPath.length === 0) return undefined;
  let table: string[] = [];
  let best: { line: number; depth: number } | undefined;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const header = HEADER.exec(line);
    let defined: string[] | undefined;
    if (header) {
      table = segments(header[1]!);
      defined = table;
    } else {
      const assignment = ASSIGNMENT.exec(line);
      if (assignment) defined = [...table, ...segments(assignment[1]!)];
    }
    if (defined === undefined) continue;
    // The exact key wins; otherwise the deepest enclosing one (a table header for a key inside it).
    if (startsWith(keyPath, defined) && (best === undefined || defined.length > best.depth)) {
      best = { line: i + 1, depth: defined.length };
      if (defined.length === keyPath.length) return best.line;
    }
  }
  return best?.line;
}

const COMMENT = /^\s*#/;

/**
 * The key whose definition `line` (1-based) is part of: the key it assigns or the table it opens,
 * else the key assigned last before it (the line continues that value); undefined for a comment
 * line, or a line before any key.
 */
export function tomlKeyAt(text: string, line: number): string[] | undefined {
  let table: string[] = [];
  let current: string[] | undefined;
  const lines = text.split('\n');
  for (let i = 0; i < line && i < lines.length; i++) {
    const here = lines[i]!;
    if (i === line - 1 && COMMENT.test(here)) return undefined;
    const header = HEADER.exec(here);
    if (header) {
      table = segments(header[1]!);
      current = table;
      continue;
    }
    const assignment = ASSIGNMENT.exec(here);
    if (assignment) current = [...table, ...segments(assignment[1]!)];
  }
  return current;
}
