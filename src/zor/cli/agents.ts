/** `zor agents`: the loaded rule sets, their versions and rule counts, and where each came from. */
import { EXIT_ERROR, type CommandOutput } from './command-output';
import { loadCommandRules } from './load-for-command';

export interface AgentsOptions {
  readonly ruleDirs: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
}

function table(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd(),
  );
}

export function runAgents(options: AgentsOptions): CommandOutput {
  const rules = loadCommandRules(options.ruleDirs, options.env);
  const rows = rules.loaded.sets.map(({ set, origin, replaced }) => [
    set.id,
    set.version,
    set.agentVersion ?? '-',
    String(set.rules.length),
    origin,
    set.source + (replaced.length > 0 ? ` (replaces ${replaced.join(', ')})` : ''),
  ]);
  const stdout =
    rows.length === 0
      ? ['no rule sets loaded; put TOML rule files in rules/, ~/.config/zor/rules/ or pass --rules DIR']
      : table([['AGENT', 'VERSION', 'CAPTURED FROM', 'RULES', 'ORIGIN', 'FILE'], ...rows]);
  return { stdout, stderr: rules.problems, exitCode: rules.problems.length > 0 ? EXIT_ERROR : 0 };
}
