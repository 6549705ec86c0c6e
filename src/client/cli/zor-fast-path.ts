import { TITLE_MODES, type TitleMode } from '../../zor/emit/title-rewriter';
import { runZor, type ZorRun } from '../../zor/cli/run-zor';
import type { LoadDetection } from '../../zor/wrapper/run-wrapper';
import { splitWrapperArgv } from '../../zor/cli/split-argv';
import { parseSyntax, type Syntax } from './parse-argv';

/**
 * bin/zor's fast path: `zor [options] [--] command…` read and run without oclif, from a bundle with
 * a V8 code cache (startup.ts), since zor starts in front of every agent it wraps. Help, the other
 * zor verbs and any option line only oclif can read go to the oclif command (src/commands/zor),
 * which runs the same runZor. test/cli/fast-path.test.ts checks this table against its flags.
 */
export const ZOR_SYNTAX: Syntax = {
  flags: {
    events: { kind: 'string' },
    title: { kind: 'string', options: TITLE_MODES },
    osc: { kind: 'boolean', allowNo: true },
    rules: { kind: 'string', multiple: true },
    agent: { kind: 'string' },
    debug: { kind: 'boolean' },
  },
  required: 0,
  rest: false,
};

/** The run `argv` asks for, or undefined when oclif should read it. */
export function parseZor(argv: readonly string[]): ZorRun | undefined {
  const takesValue = (name: string): boolean => ZOR_SYNTAX.flags[name]?.kind === 'string';
  const { options, command } = splitWrapperArgv(argv, takesValue);
  const parsed = parseSyntax(ZOR_SYNTAX, options);
  if (!parsed) return undefined;
  const { events, title, osc, rules, agent, debug } = parsed.flags;
  return {
    command,
    events: typeof events === 'string' ? events : undefined,
    title: typeof title === 'string' ? (title as TitleMode) : 'prefix',
    osc: osc !== false,
    ruleDirs: Array.isArray(rules) ? rules : [],
    agent: typeof agent === 'string' ? agent : undefined,
    debug: debug === true,
  };
}

/**
 * Run it; a failure before the command starts is printed as oclif prints the command's. Detection
 * is not in this bundle: `loadDetection` loads its own once it is needed (startup.ts).
 */
export async function runZorFast(run: ZorRun, loadDetection: LoadDetection): Promise<void> {
  const failure = await runZor(run, loadDetection);
  process.stderr.write(` ›   Error: ${failure.message}\n`);
  process.exitCode = failure.exit;
}
