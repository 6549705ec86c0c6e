/**
 * Where rule sets come from, in order: the package's bundled `rules/`, then
 * `$XDG_CONFIG_HOME/zor/rules/` (default `~/.config/zor/rules/`), then each `--rules DIR`. Files in
 * a directory load in name order. A later set with the same id replaces an earlier one entirely,
 * so a user can override a bundled set without editing the package.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadRuleFile } from './load';
import { ruleDirectories, type RuleDirectory, type RuleOrigin } from './rule-dirs';
import { RuleFileError } from './rule-file-error';
import type { RuleSet } from './rule-set';

export {
  bundledRulesDir,
  ruleDirectories,
  userRulesDir,
  type RuleDirectory,
  type RuleOrigin,
} from './rule-dirs';

export interface LoadedRuleSet {
  readonly set: RuleSet;
  readonly origin: RuleOrigin;
  /** Earlier sets with the same id that this one replaced, as `origin:file`. */
  readonly replaced: readonly string[];
}

export interface LoadedRules {
  readonly sets: readonly LoadedRuleSet[];
  /** Files that could not be used; the other files still load. */
  readonly errors: readonly RuleFileError[];
}

function ruleFiles(directory: RuleDirectory, errors: RuleFileError[]): string[] {
  try {
    if (!statSync(directory.dir).isDirectory()) {
      errors.push(
        new RuleFileError(directory.dir, ['not a directory; --rules takes a directory of .toml files']),
      );
      return [];
    }
    return readdirSync(directory.dir)
      .filter((name) => name.endsWith('.toml'))
      .sort()
      .map((name) => join(directory.dir, name));
  } catch (error) {
    // The bundled and user directories are optional; a directory named with --rules must exist.
    if (directory.origin === 'flag') {
      errors.push(
        new RuleFileError(directory.dir, [`cannot read the --rules directory: ${(error as Error).message}`]),
      );
    }
    return [];
  }
}

export function loadRuleDirectories(directories: readonly RuleDirectory[]): LoadedRules {
  const byId = new Map<string, LoadedRuleSet>();
  const errors: RuleFileError[] = [];
  for (const directory of directories) {
    for (const file of ruleFiles(directory, errors)) {
      let set: RuleSet;
      try {
        set = loadRuleFile(file);
      } catch (error) {
        if (error instanceof RuleFileError) {
          errors.push(error);
          continue;
        }
        throw error;
      }
      const earlier = byId.get(set.id);
      const replaced = earlier ? [...earlier.replaced, `${earlier.origin}:${earlier.set.source}`] : [];
      byId.delete(set.id);
      byId.set(set.id, { set, origin: directory.origin, replaced });
    }
  }
  return { sets: [...byId.values()], errors };
}

/** Loads the standard search path plus `--rules` directories. */
export function loadRules(
  flagDirs: readonly string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): LoadedRules {
  return loadRuleDirectories(ruleDirectories(flagDirs, env));
}
