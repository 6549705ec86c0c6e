import * as fs from 'node:fs';
import * as path from 'node:path';
import { fixtureScreen } from '../agents/fixture-screen';

/**
 * A stand-in agent for the server's agent tests: a shell that declares itself Claude Code
 * (`ZOR_AGENT=claude`, which zor's identification honours) and, for each line it reads, redraws
 * its screen with one of the captured Claude Code fixtures, title included, in one write. The
 * detector then sees exactly what the real agent drew, on demand and without a model.
 */

const FIXTURES = path.resolve(__dirname, '..', '..', 'fixtures', 'claude');

/** The fixtures this suite draws, 80x24 captures (fux's default workspace size). */
export const SCREENS = {
  idle: 'idle-after-reply-80x24',
  working: 'working-streaming-80x24',
  blocked: 'permission-bash-80x24',
} as const;

export type ScreenName = keyof typeof SCREENS;

/** Clear the screen and history, set the title, draw the body from the top: what a redraw does. */
function renderFixture(file: string): string {
  const { title, body } = fixtureScreen(file);
  return `\x1b]2;${title}\x07\x1b[H\x1b[2J\x1b[3J${body.join('\r\n')}`;
}

/**
 * Writes every screen into `dir` (one file per name) and returns the pane's argv and env. The pane
 * draws the screen named by each line it reads; with `cycle`, it instead draws the given screens
 * in turn, forever, each for `cycleMs`.
 */
export function fakeClaude(
  dir: string,
  options: { cycle?: readonly ScreenName[]; cycleMs?: number } = {},
): { argv: string[]; env: Record<string, string> } {
  for (const [name, fixture] of Object.entries(SCREENS)) {
    fs.writeFileSync(path.join(dir, name), renderFixture(path.join(FIXTURES, `${fixture}.txt`)));
  }
  const pause = ((options.cycleMs ?? 300) / 1000).toFixed(3);
  // No echo: the screen is only ever what the fixture shows.
  const script =
    options.cycle === undefined
      ? 'stty -echo; while IFS= read -r name; do cat "$0/$name"; done'
      : `stty -echo; while :; do for name in ${options.cycle.join(' ')}; do cat "$0/$name"; sleep ${pause}; done; done`;
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('FUX_')) env[k] = v;
  return { argv: ['/bin/sh', '-c', script, dir], env: { ...env, ZOR_AGENT: 'claude' } };
}
