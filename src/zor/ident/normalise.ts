/**
 * Process-name normalisation: what program a process "is" for matching against `process_names`.
 * A generic runtime or shell (`node /x/bin/claude`, `python3 agent.py`) is named after the script it
 * runs; flags and their values are skipped; an eval flag (`node -e`, `python -c`, `sh -c`) means the
 * program is inline text with no name, so identification gives up on that process.
 */
import { basename } from 'node:path';

type Runtime = 'node' | 'python' | 'shell';

const RUNTIMES: ReadonlyMap<string, Runtime> = new Map([
  ['node', 'node'],
  ['bun', 'node'],
  ['python', 'python'],
  ['python3', 'python'],
  ['sh', 'shell'],
  ['bash', 'shell'],
  ['zsh', 'shell'],
  ['fish', 'shell'],
]);

/** Flags meaning "run this text", per runtime family: there is no script to name. */
const EVAL_FLAGS: Record<Runtime, { readonly long: readonly string[]; readonly short: string }> = {
  node: { long: ['--eval', '--print'], short: 'ep' },
  python: { long: [], short: 'cm' },
  shell: { long: [], short: 'c' },
};

/** Flags whose value is the next argument (unless written `--flag=value`). */
const VALUE_FLAGS_LONG = ['--require', '--loader', '--import', '--experimental-loader', '--inspect-port'];
const VALUE_FLAGS_SHORT = 'rWXoSL';

const SCRIPT_SUFFIXES = ['.js', '.mjs', '.cjs', '.py'];

export type NameKind = 'script' | 'binary' | 'runtime';

export interface NormalisedName {
  readonly name: string;
  readonly kind: NameKind;
  /** The path the name came from, for the symlink fallback; relative to the process's cwd. */
  readonly path: string | undefined;
}

export function isRuntime(name: string): boolean {
  return RUNTIMES.has(name);
}

/** tmux (client or server, whose comm reads `tmux: server`) hosts agents but never is one. */
export function isNeverAnAgent(name: string): boolean {
  return name === 'tmux' || name.startsWith('tmux:');
}

export function stripScriptSuffix(name: string): string {
  const suffix = SCRIPT_SUFFIXES.find(
    (candidate) => name.endsWith(candidate) && name.length > candidate.length,
  );
  return suffix === undefined ? name : name.slice(0, -suffix.length);
}

function unquote(text: string): string {
  const first = text[0];
  if (text.length >= 2 && (first === '"' || first === "'") && text[text.length - 1] === first) {
    return text.slice(1, -1);
  }
  return text;
}

type ScriptScan = { readonly script: string } | 'eval' | 'none';

/** Finds the script a runtime runs in `args` (its argv without argv[0]). */
function scanForScript(args: readonly string[], runtime: Runtime): ScriptScan {
  const evalFlags = EVAL_FLAGS[runtime];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '--') {
      // The end of the runtime's own options: what follows is the script.
      const next = args[index + 1];
      return next === undefined ? 'none' : { script: next };
    }
    if (arg.startsWith('--')) {
      const name = arg.split('=', 1)[0]!;
      if (evalFlags.long.includes(name)) return 'eval';
      if (VALUE_FLAGS_LONG.includes(name) && !arg.includes('=')) index++;
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      const letter = arg[1]!;
      if (VALUE_FLAGS_SHORT.includes(letter)) {
        // `-r hook.js` takes the next argument; `-Wignore` carries its value attached.
        if (arg.length === 2) index++;
        continue;
      }
      // A cluster such as `-pe` or `-lc` runs inline text if any of its letters is an eval flag.
      if ([...arg.slice(1)].some((flag) => evalFlags.short.includes(flag))) return 'eval';
      continue;
    }
    if (arg === '-') return 'none';
    return { script: arg };
  }
  return 'none';
}

/**
 * The name a process is matched by, or `undefined` when it cannot be an agent (tmux, or a runtime
 * running inline code).
 */
export function normaliseProcessName(process: {
  readonly comm: string;
  readonly argv: readonly string[];
  readonly argv0?: string | undefined;
}): NormalisedName | undefined {
  const effective = basename(process.argv0 ?? process.comm);
  if (isNeverAnAgent(effective)) return undefined;
  const runtime = RUNTIMES.get(effective);
  if (runtime === undefined) {
    return { name: effective, kind: 'binary', path: process.argv[0] };
  }
  const scan = scanForScript(process.argv.slice(1), runtime);
  if (scan === 'eval') return undefined;
  if (scan === 'none') return { name: effective, kind: 'runtime', path: undefined };
  const script = unquote(scan.script);
  return { name: stripScriptSuffix(basename(script)), kind: 'script', path: script };
}
