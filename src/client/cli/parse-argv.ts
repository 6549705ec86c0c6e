/**
 * The command line as oclif reads it, for the forms the CLI's fast paths take (fast-path.ts,
 * zor-fast-path.ts): `--flag value`, `--flag=value`, `-c value`, boolean `--flag`, `-c` and
 * `--no-flag`, and `--` before positional words. Anything else (help, an unknown or repeated flag, a
 * value that looks like a flag or is not one of its options, a missing or extra argument, a bad
 * integer) gives undefined: oclif parses that line and says what is wrong in its usual words.
 */

export type FlagKind = 'boolean' | 'string' | 'integer';

export interface FlagSpec {
  kind: FlagKind;
  char?: string;
  multiple?: boolean;
  /** The values a string flag allows. */
  options?: readonly string[];
  /** Whether a boolean flag also takes `--no-NAME` (it then reads false). */
  allowNo?: boolean;
}

export type FlagValue = boolean | string | number | string[];

/** The command-line shape of a verb: its flags and positional arguments. */
export interface Syntax {
  flags: Record<string, FlagSpec>;
  /** Positional arguments that must be there. */
  required: number;
  /** Allowed values of the first argument, when it has a fixed set. */
  firstOptions?: readonly string[];
  /** Whether more arguments may follow (oclif's `strict = false`); else at most `required`. */
  rest: boolean;
}

export interface Parsed {
  flags: Record<string, FlagValue | undefined>;
  /** The positional arguments in order: the named ones first, then (for `rest` verbs) the rest. */
  args: string[];
}

const strs = (v: FlagValue | undefined): string[] | undefined => (Array.isArray(v) ? v : undefined);

/** `argv` read by `spec` as oclif reads it, or undefined when only oclif can (see above). */
export function parseSyntax(spec: Syntax, argv: readonly string[]): Parsed | undefined {
  const specs = spec.flags;
  const byChar = new Map(
    Object.entries(specs).flatMap(([name, s]) => (s.char ? [[s.char, name] as const] : [])),
  );
  const flags: Parsed['flags'] = {};
  const args: string[] = [];
  // oclif gives a repeatable flag every following word up to the next flag: leave that to it.
  let afterMultiple = false;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') {
      args.push(...argv.slice(i + 1));
      break;
    }
    if (!word.startsWith('-') || word === '-') {
      if (afterMultiple) return undefined;
      args.push(word);
      continue;
    }
    let name: string | undefined;
    let inline: string | undefined;
    let negated = false;
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      name = eq < 0 ? word.slice(2) : word.slice(2, eq);
      inline = eq < 0 ? undefined : word.slice(eq + 1);
      if (specs[name] === undefined && name.startsWith('no-') && specs[name.slice(3)]?.allowNo) {
        name = name.slice(3);
        negated = true;
      }
    } else if (word.length === 2) name = byChar.get(word[1]!);
    const flag = name === undefined ? undefined : specs[name];
    if (name === undefined || flag === undefined) return undefined;
    if (flags[name] !== undefined && !flag.multiple) return undefined;
    if (flag.kind === 'boolean') {
      if (inline !== undefined) return undefined;
      flags[name] = !negated;
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined || value.startsWith('-')) return undefined;
    if (flag.kind === 'integer') {
      if (!/^\d+$/.test(value)) return undefined;
      flags[name] = Number(value);
    } else if (flag.multiple) {
      flags[name] = [...(strs(flags[name]) ?? []), value];
      afterMultiple = true;
    } else if (flag.options && !flag.options.includes(value)) return undefined;
    else flags[name] = value;
  }
  if (args.length < spec.required || (!spec.rest && args.length > spec.required)) return undefined;
  if (spec.firstOptions && !spec.firstOptions.includes(args[0]!)) return undefined;
  return { flags, args };
}
