/**
 * The directories rule sets load from (sources.ts says in what order and how they override each
 * other). Apart from the loader, so that finding them costs no schema library: the wrapper asks
 * whether there are any rule files besides the bundled ones before it decides when to load them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export type RuleOrigin = 'bundled' | 'user' | 'flag';

export interface RuleDirectory {
  readonly dir: string;
  readonly origin: RuleOrigin;
}

/** The package root: the nearest directory above this module whose package.json is fux's. */
function packageRoot(): string | undefined {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'fux') return dir;
      } catch {
        // An unreadable package.json on the way up is not ours; keep looking.
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

export function bundledRulesDir(): string | undefined {
  const root = packageRoot();
  return root === undefined ? undefined : join(root, 'rules');
}

export function userRulesDir(env: NodeJS.ProcessEnv = process.env): string {
  const config =
    env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== ''
      ? env.XDG_CONFIG_HOME
      : join(homedir(), '.config');
  return join(config, 'zor', 'rules');
}

/** The standard search path plus the `--rules` directories, in load order. */
export function ruleDirectories(
  flagDirs: readonly string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): RuleDirectory[] {
  const bundled = bundledRulesDir();
  return [
    ...(bundled === undefined ? [] : [{ dir: bundled, origin: 'bundled' as const }]),
    { dir: userRulesDir(env), origin: 'user' },
    ...flagDirs.map((dir) => ({ dir, origin: 'flag' as const })),
  ];
}
