/** `zor check FIXTURE`: evaluate one captured screen and compare with its header. */
import { judgeFixture } from '../fixture/check-fixture';
import { EXIT_ERROR, EXIT_MISMATCH, type CommandOutput } from './command-output';
import { loadFixtureWithSet, type FixtureRequest } from './fixture-with-set';

export type CheckOptions = FixtureRequest;

export function runCheck(options: CheckOptions): CommandOutput {
  const loaded = loadFixtureWithSet(options);
  if ('failure' in loaded) return loaded.failure;
  const { fixture, set, problems } = loaded;
  const judgement = judgeFixture(fixture, set);
  const stderr = [...problems, ...judgement.mismatches.map((mismatch) => `${options.fixture}: ${mismatch}`)];
  const exitCode = judgement.mismatches.length > 0 ? EXIT_MISMATCH : problems.length > 0 ? EXIT_ERROR : 0;
  return { stdout: [`${judgement.verdict.state} ${judgement.matched}`], stderr, exitCode };
}
