/**
 * `zor [opts] [--] cmd…` without the CLI framework. Through oclif, half of `zor -- true`'s start
 * was oclif itself (docs/benchmarks.md, Z2), paid again by every wrapped command. This handles
 * the common forms of the wrapper and declines everything else (a subcommand, help, an option it
 * does not know or a bad value, `--agent` and `--events`, whose errors oclif reports, a command
 * not on PATH, zor inside zor), which then goes through oclif as before: so no error message or
 * help text lives here. bin/zor calls `startWrapper` before loading oclif.
 */
import { TITLE_MODES, type TitleMode } from '../emit/title-rewriter';
import { resolveCommand } from '../wrapper/command-path';
import { exitLikeChild } from '../wrapper/exit';
import { enclosingZor } from '../wrapper/nested';
import { defaultCommand, runWrapper, type WrapperOptions } from '../wrapper/run-wrapper';
import { splitWrapperArgv } from './split-argv';

/** The zor topic's other commands (src/commands/zor/*.ts): their names are not commands to wrap. */
export const ZOR_SUBCOMMANDS: readonly string[] = ['agents', 'check', 'explain'];

/** The wrapper options handled here, and whether each takes a value (src/commands/zor/index.ts). */
export const FAST_FLAGS: Readonly<Record<string, boolean>> = {
  title: true,
  rules: true,
  osc: false,
  debug: false,
};

function isTitleMode(value: string): value is TitleMode {
  return (TITLE_MODES as readonly string[]).includes(value);
}

/** The wrapper options `argv` asks for, or undefined when it is not a form handled here. */
export function fastWrapperOptions(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): WrapperOptions | undefined {
  if (argv[0] !== undefined && ZOR_SUBCOMMANDS.includes(argv[0])) return undefined;
  const { options, command } = splitWrapperArgv(argv, (name) => FAST_FLAGS[name] === true);
  let title: TitleMode | undefined;
  let osc = true;
  let debug = false;
  const ruleDirs: string[] = [];
  for (let index = 0; index < options.length; index++) {
    const option = options[index]!;
    const equals = option.indexOf('=');
    const name = option.slice(2, equals < 0 ? undefined : equals);
    if (!option.startsWith('--') || !(name in FAST_FLAGS || name === 'no-osc')) return undefined;
    if (FAST_FLAGS[name] !== true) {
      if (equals >= 0) return undefined;
      if (name === 'debug') debug = true;
      else osc = name === 'osc';
      continue;
    }
    const value = equals < 0 ? options[++index] : option.slice(equals + 1);
    if (value === undefined) return undefined;
    if (name === 'rules') ruleDirs.push(value);
    else if (isTitleMode(value) && title === undefined) title = value;
    else return undefined;
  }
  const [file] = command.length > 0 ? command : defaultCommand(env);
  if (resolveCommand(file!, env.PATH) === undefined || enclosingZor(env) !== undefined) return undefined;
  return { command, events: undefined, title: title ?? 'prefix', osc, ruleDirs, agent: undefined, debug };
}

/**
 * Runs the wrapper and exits as its child did, when `argv` is a form handled here; false (having
 * done nothing) when it is not, for the caller to hand it to oclif.
 */
export function startWrapper(argv: readonly string[]): boolean {
  const options = fastWrapperOptions(argv, process.env);
  if (options === undefined) return false;
  void runWrapper(options).then(exitLikeChild);
  return true;
}
