/** Rule loading as the check, explain and agents commands do it: problems are reported, not fatal. */
import { findSet, type RuleSet } from '../rules/rule-set';
import { loadRules, type LoadedRules } from '../rules/sources';

export interface CommandRules {
  readonly loaded: LoadedRules;
  readonly sets: readonly RuleSet[];
  /** One stderr line per problem in a rule file. */
  readonly problems: readonly string[];
}

export function loadCommandRules(
  ruleDirs: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): CommandRules {
  const loaded = loadRules(ruleDirs, env);
  return {
    loaded,
    sets: loaded.sets.map((entry) => entry.set),
    problems: loaded.errors.flatMap((error) => error.message.split('\n')),
  };
}

/** The set a command should use, or the sentence to print when there is none. */
export function pickSet(
  rules: CommandRules,
  agent: string | undefined,
  source: string,
): { readonly set: RuleSet } | { readonly problem: string } {
  if (agent === undefined) {
    return { problem: `${source}: no agent; add a "# agent: ID" header line or pass --agent ID` };
  }
  const set = findSet(rules.sets, agent);
  if (set === undefined) {
    const known = rules.sets.map((candidate) => candidate.id).join(', ') || 'none';
    return {
      problem: `no rule set "${agent}" (loaded: ${known}); \`zor agents\` lists them, --rules DIR adds more`,
    };
  }
  return { set };
}
