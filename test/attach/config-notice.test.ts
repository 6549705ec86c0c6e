/**
 * A bad config.toml shown to an attached client: a notice over the status line, once, as the CLI
 * prints it on stderr for other verbs. tmux is the user's terminal (see outer-tmux.test.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FuxHome, fuxBin } from '../helpers/home';
import { OuterTmux } from '../helpers/outer-tmux';

let home: FuxHome;
let outer: OuterTmux;
beforeEach(() => {
  home = new FuxHome();
  outer = new OuterTmux(home.dir, { ...home.env, PS1: '$ ' });
});
afterEach(async () => {
  outer.kill();
  await home.close();
});

test('attaching to a server whose config.toml is bad shows the problem as a notice', async () => {
  const file = path.join(home.env.XDG_CONFIG_HOME!, 'fux', 'config.toml');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, 'notify = "yes"\n');
  await home.startServer();
  const t = outer.open('notice', 200, 24, `${process.execPath} ${fuxBin} notice`);
  const lines = await outer.waitFor(
    t,
    (l) => l.some((x) => x.includes('config: ')),
    'the config notice on the screen',
  );
  expect(lines.find((x) => x.includes('config: '))).toContain(
    `config: ${file}:1: notify: expected a boolean, got a string; using the defaults`,
  );
  // Told once: a verb after the attach has nothing more to say.
  expect(home.cli(['list']).stderr).toBe('');
});
