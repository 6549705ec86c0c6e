/**
 * A stand-in agent for B6 and B7: a shell that declares itself Claude Code (`ZOR_AGENT=claude`,
 * which zor's identification honours) and, for each line it reads, redraws its screen with a
 * captured Claude Code fixture in one write: the body first, then the title (OSC 2) last, so the
 * server's `pane.title` event marks the moment the screen is fully drawn.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fixtureScreen } from '../test/agents/fixture-screen';
import { repoRoot } from './lib/repo';

export interface FakeAgent {
  readonly argv: string[];
  readonly env: Record<string, string>;
  /** The title each screen ends with, by name. */
  readonly titles: Readonly<Record<string, string>>;
}

/** Clear screen and history, draw the body from the top, then set the title. */
function render(fixture: string): { screen: string; title: string } {
  const { title, body } = fixtureScreen(fixture);
  return { screen: `\x1b[H\x1b[2J\x1b[3J${body.join('\r\n')}\x1b]2;${title}\x07`, title };
}

/** Writes the screens (name → fixture under fixtures/claude/) into `dir`; the pane draws one per line it reads. */
export function fakeAgent(dir: string, screens: Readonly<Record<string, string>>): FakeAgent {
  const titles: Record<string, string> = {};
  for (const [name, fixture] of Object.entries(screens)) {
    const { screen, title } = render(path.join(repoRoot, 'fixtures', 'claude', `${fixture}.txt`));
    fs.writeFileSync(path.join(dir, name), screen);
    titles[name] = title;
  }
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('FUX_')) env[k] = v;
  return {
    argv: ['/bin/sh', '-c', 'stty -echo; while IFS= read -r name; do cat "$0/$name"; done', dir],
    env: { ...env, ZOR_AGENT: 'claude' },
    titles,
  };
}
