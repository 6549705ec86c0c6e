/**
 * On SIGUSR1 the wrapper writes what its rules see as a fixture file (docs/rules.md "Fixtures"),
 * with the current verdict as `expect` and `matched`, so a rule author captures a screen in the
 * state it is in and corrects the header if the verdict was wrong.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatFixture, NO_RULE_MATCHED } from '../fixture/fixture';
import type { Verdict } from '../rules/evaluate';
import type { ScreenView } from '../screen/screen-view';

export function fixtureDumpPrefix(pid: number): string {
  return `zor-${pid}-`;
}

export interface DumpInput {
  readonly screen: ScreenView;
  readonly agent: string | undefined;
  readonly agentVersion: string | undefined;
  readonly verdict: Verdict | undefined;
}

/** Writes the fixture atomically (a reader never sees half a file) and returns its path. */
export function dumpFixture(input: DumpInput, sequence: number, directory = tmpdir()): string {
  const { screen, verdict } = input;
  const size = screen.size();
  const text = formatFixture(
    {
      agent: input.agent,
      agentVersion: input.agentVersion,
      title: screen.title(),
      progress: screen.progress(),
      expect: verdict?.state ?? 'idle',
      matched: verdict === undefined ? undefined : (verdict.rule ?? NO_RULE_MATCHED),
      lines: screen.lines(),
      styles: screen.styles(),
    },
    new Map([['size', `${size.cols}x${size.rows}`]]),
  );
  const path = join(directory, `${fixtureDumpPrefix(process.pid)}${sequence}.txt`);
  writeFileSync(`${path}.partial`, text);
  renameSync(`${path}.partial`, path);
  return path;
}
