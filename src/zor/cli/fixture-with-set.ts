/** What check and explain both start from: a fixture, the rule set to judge it with, and rule-file problems. */
import { readFileSync } from 'node:fs';
import { FixtureError, parseFixture, type Fixture } from '../fixture/fixture';
import type { RuleSet } from '../rules/rule-set';
import { EXIT_ERROR, type CommandOutput } from './command-output';
import { loadCommandRules, pickSet } from './load-for-command';

/** Reads a fixture file, or returns the sentence to print when it cannot be read. */
export function readFixture(path: string): Fixture | { readonly problem: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return { problem: `${path}: cannot read the fixture: ${(error as Error).message}` };
  }
  try {
    return parseFixture(text, path);
  } catch (error) {
    if (error instanceof FixtureError) return { problem: error.message };
    throw error;
  }
}

export interface FixtureWithSet {
  readonly fixture: Fixture;
  readonly set: RuleSet;
  readonly problems: readonly string[];
}

export interface FixtureRequest {
  readonly fixture: string;
  readonly agent: string | undefined;
  readonly ruleDirs: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
}

/** The fixture and its set, or the command output that says why there are none. */
export function loadFixtureWithSet(
  request: FixtureRequest,
): FixtureWithSet | { readonly failure: CommandOutput } {
  const fixture = readFixture(request.fixture);
  if ('problem' in fixture)
    return { failure: { stdout: [], stderr: [fixture.problem], exitCode: EXIT_ERROR } };
  const rules = loadCommandRules(request.ruleDirs, request.env);
  const picked = pickSet(rules, request.agent ?? fixture.agent, request.fixture);
  if ('problem' in picked) {
    return { failure: { stdout: [], stderr: [...rules.problems, picked.problem], exitCode: EXIT_ERROR } };
  }
  return { fixture, set: picked.set, problems: rules.problems };
}
