/** `zor check FIXTURE`: evaluate one captured screen and compare with its header. */
import { readFileSync } from 'node:fs';
import { judgeFixture } from '../fixture/check-fixture';
import { FixtureError, parseFixture, type Fixture } from '../fixture/fixture';
import { EXIT_ERROR, EXIT_MISMATCH, type CommandOutput } from './command-output';
import { loadCommandRules, pickSet } from './load-for-command';

export interface CheckOptions {
  readonly fixture: string;
  readonly agent: string | undefined;
  readonly ruleDirs: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
}

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

export function runCheck(options: CheckOptions): CommandOutput {
  const fixture = readFixture(options.fixture);
  if ('problem' in fixture) return { stdout: [], stderr: [fixture.problem], exitCode: EXIT_ERROR };
  const rules = loadCommandRules(options.ruleDirs, options.env);
  const picked = pickSet(rules, options.agent ?? fixture.agent, options.fixture);
  if ('problem' in picked)
    return { stdout: [], stderr: [...rules.problems, picked.problem], exitCode: EXIT_ERROR };
  const judgement = judgeFixture(fixture, picked.set);
  const stderr = [
    ...rules.problems,
    ...judgement.mismatches.map((mismatch) => `${options.fixture}: ${mismatch}`),
  ];
  const exitCode =
    judgement.mismatches.length > 0 ? EXIT_MISMATCH : rules.problems.length > 0 ? EXIT_ERROR : 0;
  return { stdout: [`${judgement.verdict.state} ${judgement.matched}`], stderr, exitCode };
}
