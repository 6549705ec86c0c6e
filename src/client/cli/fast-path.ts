import { connect, type FuxClient } from '../index';
import { printResult, type VerbResult } from './output';
import type { FastVerbName } from './fast-verbs';
import * as verbs from './verbs';

/**
 * The CLI's fast path: the verbs scripts call most, parsed and run without oclif. Loading oclif and
 * letting it read its configuration cost more than the verb itself (docs/benchmarks.md, B4); this
 * module and what it imports are bundled with a V8 code cache instead (startup.ts).
 *
 * It takes only the plain forms: `--flag value`, `--flag=value`, `-c value`, boolean `--flag` and
 * `-c`, `--` before a command. Anything else (help, an unknown or repeated flag, a value that looks
 * like a flag, a missing or extra argument, a bad integer) is left to oclif, which parses the same
 * line and says what is wrong in its usual words. The flag tables mirror the commands' oclif flags;
 * test/cli/fast-path.test.ts checks them against oclif.manifest.json and runs both paths side by side.
 */

type FlagKind = 'boolean' | 'string' | 'integer';

interface FlagSpec {
  kind: FlagKind;
  char?: string;
  multiple?: boolean;
}

type FlagValue = boolean | string | number | string[];

export interface Invocation {
  verb: FastVerbName;
  flags: Record<string, FlagValue | undefined>;
  /** The positional arguments in order: the named ones first, then (for `rest` verbs) the rest. */
  args: string[];
}

interface FastVerb {
  flags: Record<string, FlagSpec>;
  /** Positional arguments that must be there. */
  required: number;
  /** Allowed values of the first argument, when it has a fixed set. */
  firstOptions?: readonly string[];
  /** Whether more arguments may follow (oclif's `strict = false`); else at most `required`. */
  rest: boolean;
  run(client: FuxClient, call: Invocation): Promise<VerbResult>;
}

/** The flags every verb has (FuxCommand.baseFlags). */
export const BASE_FLAGS: Record<string, FlagSpec> = {
  socket: { kind: 'string' },
  workspace: { kind: 'string', char: 'w' },
  json: { kind: 'boolean' },
};

const LAUNCH_FLAGS: Record<string, FlagSpec> = {
  cwd: { kind: 'string' },
  env: { kind: 'string', multiple: true },
};

const str = (v: FlagValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: FlagValue | undefined): number | undefined => (typeof v === 'number' ? v : undefined);
const strs = (v: FlagValue | undefined): string[] | undefined => (Array.isArray(v) ? v : undefined);

/** `-w`, else $FUX_WORKSPACE: the workspace a verb addresses (FuxCommand.workspace). */
const workspaceOf = (call: Invocation): string | undefined =>
  str(call.flags.workspace) ?? (process.env.FUX_WORKSPACE || undefined);

export const FAST_PATH: Record<FastVerbName, FastVerb> = {
  list: {
    flags: {},
    required: 0,
    rest: false,
    run: (client, call) => verbs.list(client, { workspace: str(call.flags.workspace) }),
  },
  capture: {
    flags: { attrs: { kind: 'boolean', char: 'e' }, scrollback: { kind: 'integer', char: 'S' } },
    required: 1,
    rest: false,
    run: (client, call) =>
      verbs.capture(client, {
        workspace: workspaceOf(call),
        id: call.args[0]!,
        attrs: call.flags.attrs === true,
        scrollback: num(call.flags.scrollback),
      }),
  },
  'send-keys': {
    flags: { literal: { kind: 'boolean', char: 'l' } },
    required: 1,
    rest: true,
    run: (client, call) =>
      verbs.sendKeys(client, {
        workspace: workspaceOf(call),
        id: call.args[0]!,
        keys: call.args.slice(1),
        literal: call.flags.literal === true,
      }),
  },
  new: {
    flags: LAUNCH_FLAGS,
    required: 0,
    rest: true,
    run: (client, call) =>
      verbs.newPane(client, {
        workspace: workspaceOf(call),
        cwd: str(call.flags.cwd),
        env: strs(call.flags.env),
        command: call.args,
      }),
  },
  split: {
    flags: { ...LAUNCH_FLAGS, target: { kind: 'integer', char: 't' } },
    required: 1,
    firstOptions: ['h', 'v'],
    rest: true,
    run: (client, call) =>
      verbs.split(client, {
        workspace: workspaceOf(call),
        direction: call.args[0] as 'h' | 'v',
        target: num(call.flags.target),
        cwd: str(call.flags.cwd),
        env: strs(call.flags.env),
        command: call.args.slice(1),
      }),
  },
};

/** The command line as the fast path reads it, or undefined when oclif should have it. */
export function parseFast(verb: FastVerbName, argv: readonly string[]): Invocation | undefined {
  const spec = FAST_PATH[verb];
  const specs: Record<string, FlagSpec> = { ...BASE_FLAGS, ...spec.flags };
  const byChar = new Map(
    Object.entries(specs).flatMap(([name, s]) => (s.char ? [[s.char, name] as const] : [])),
  );
  const flags: Invocation['flags'] = {};
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
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      name = eq < 0 ? word.slice(2) : word.slice(2, eq);
      inline = eq < 0 ? undefined : word.slice(eq + 1);
    } else if (word.length === 2) name = byChar.get(word[1]!);
    const flag = name === undefined ? undefined : specs[name];
    if (name === undefined || flag === undefined) return undefined;
    if (flags[name] !== undefined && !flag.multiple) return undefined;
    if (flag.kind === 'boolean') {
      if (inline !== undefined) return undefined;
      flags[name] = true;
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
    } else flags[name] = value;
  }
  if (args.length < spec.required || (!spec.rest && args.length > spec.required)) return undefined;
  if (spec.firstOptions && !spec.firstOptions.includes(args[0]!)) return undefined;
  return { verb, flags, args };
}

/** Run a parsed verb: connect (starting a server if none runs), call, print; errors as FuxCommand. */
export async function runFast(call: Invocation): Promise<void> {
  let connection: Awaited<ReturnType<typeof connect>> | undefined;
  try {
    connection = await connect({ socket: str(call.flags.socket) });
    printResult(call.flags.json === true, await FAST_PATH[call.verb].run(connection.client, call));
  } catch (err) {
    const message = err instanceof Error ? err.message || String(err) : String(err);
    process.stderr.write(`fux ${call.verb}: ${message}\n`);
    process.exitCode = 1;
  } finally {
    connection?.close();
  }
}
