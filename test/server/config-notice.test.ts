import * as fs from 'node:fs';
import * as path from 'node:path';
import { FuxHome, until } from '../helpers/home';

/** A bad config.toml is news to the user, not only to the server log: the next verb prints it, once. */
let home: FuxHome;
let file: string;
beforeEach(() => {
  home = new FuxHome();
  file = path.join(home.env.XDG_CONFIG_HOME!, 'fux', 'config.toml');
  fs.mkdirSync(path.dirname(file), { recursive: true });
});
afterEach(() => home.close());

test('the verb that starts the server prints the config problem on stderr; the next verb does not', () => {
  fs.writeFileSync(file, 'notify = true\nscrollback = "lots"\n');
  const first = home.cli(['list', '--json']);
  expect(first.code).toBe(0);
  expect(JSON.parse(first.stdout)).toHaveProperty('workspaces');
  expect(first.stderr).toBe(
    `fux: config: ${file}:2: scrollback: expected a number, got a string\n` +
      'fux: config: using the defaults\n',
  );
  const second = home.cli(['list']);
  expect(second.code).toBe(0);
  expect(second.stderr).toBe('');
});

test('a new problem in a running server shows once more; a fixed file shows nothing', async () => {
  await home.startServer();
  expect(home.cli(['list']).stderr).toBe('');
  fs.writeFileSync(file, 'prefix = "C-Upp"\n');
  const shown = await until(
    () => {
      const r = home.cli(['list']);
      return r.stderr.includes('prefix') ? r.stderr : undefined;
    },
    10_000,
    'the next verb to print the problem',
  );
  expect(shown).toMatch(
    new RegExp(`^fux: config: ${file}:1: prefix: not a key name: a key is one character`),
  );
  expect(shown).toMatch(/\nfux: config: the last good config stays in force\n$/);
  expect(home.cli(['list']).stderr).toBe('');
  fs.writeFileSync(file, 'notify = false\n');
  await until(
    () =>
      fs
        .readFileSync(path.join(home.env.XDG_STATE_HOME!, 'fux', 'server.log'), 'utf8')
        .includes('config: loaded'),
    10_000,
    'the good file to load',
  );
  expect(home.cli(['list']).stderr).toBe('');
});
