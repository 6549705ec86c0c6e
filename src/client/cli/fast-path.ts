import { connect, type FuxClient } from '../index';
import { configProblem } from '../config-problem';
import { printResult, type VerbResult } from './output';
import type { FastVerbName } from './fast-verbs';
import { parseSyntax, type FlagSpec, type FlagValue, type Parsed, type Syntax } from './parse-argv';
import * as verbs from './verbs';

/**
 * The CLI's fast path: the verbs scripts call most, parsed and run without oclif. Loading oclif and
 * letting it read its configuration cost more than the verb itself (docs/benchmarks.md, B4); this
 * module and what it imports are bundled with a V8 code cache instead (startup.ts).
 *
 * It takes only the plain forms (parse-argv.ts); anything else is left to oclif, which parses the
 * same line and says what is wrong in its usual words. The flag tables mirror the commands' flags;
 * test/cli/fast-path.test.ts checks them against oclif.manifest.json and runs both paths side by side.
 */

export interface Invocation extends Parsed {
  verb: FastVerbName;
}

interface FastVerb extends Syntax {
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
  worktree: { kind: 'string' },
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
        worktree: str(call.flags.worktree),
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
        worktree: str(call.flags.worktree),
        command: call.args.slice(1),
      }),
  },
};

/** The command line as the fast path reads it, or undefined when oclif should have it. */
export function parseFast(verb: FastVerbName, argv: readonly string[]): Invocation | undefined {
  const parsed = parseSyntax(
    { ...FAST_PATH[verb], flags: { ...BASE_FLAGS, ...FAST_PATH[verb].flags } },
    argv,
  );
  return parsed && { verb, ...parsed };
}

/** Run a parsed verb: connect (starting a server if none runs), call, print; errors as FuxCommand. */
export async function runFast(call: Invocation): Promise<void> {
  let connection: Awaited<ReturnType<typeof connect>> | undefined;
  // A bad config.toml is shown by whichever verb runs next, as FuxCommand does (config-problem.ts).
  let configNotice: Promise<void> | undefined;
  try {
    connection = await connect({ socket: str(call.flags.socket) });
    configNotice = configProblem(connection.client).then((lines) => {
      for (const line of lines) process.stderr.write(`fux: config: ${line}\n`);
    });
    printResult(call.flags.json === true, await FAST_PATH[call.verb].run(connection.client, call));
  } catch (err) {
    const message = err instanceof Error ? err.message || String(err) : String(err);
    process.stderr.write(`fux ${call.verb}: ${message}\n`);
    process.exitCode = 1;
  } finally {
    await configNotice;
    connection?.close();
  }
}
