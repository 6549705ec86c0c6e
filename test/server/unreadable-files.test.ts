// The files a server reads from the config and state dirs (issue 32): only regular files are read
// (a FIFO would hold the whole server until something wrote to it), up to a limit, and config text
// only as UTF-8. Anything else is refused, naming the file and what it is, and the server answers.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FuxHome, until } from '../helpers/home';
import { journalPaths } from '../../src/server/journal/journal-file';
import { hookRecordFile } from '../../src/server/hook-record';
import { allowListFile, identityFile } from '../../src/server/remote/settings';

let home: FuxHome;
beforeEach(() => (home = new FuxHome()));
afterEach(() => home.close());

const configDir = (): string => path.join(home.env.XDG_CONFIG_HOME!, 'fux');
const configFile = (): string => path.join(configDir(), 'config.toml');
const stateDir = (): string => path.join(home.env.XDG_STATE_HOME!, 'fux');
const serverLog = (): string => fs.readFileSync(path.join(stateDir(), 'server.log'), 'utf8');

function mkfifo(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  expect(spawnSync('mkfifo', [file]).status).toBe(0);
}

/** Puts `make`'s file in place of `file` in one rename, so a watching server sees one change. */
function replace(file: string, make: (aside: string) => void): void {
  const aside = `${file}.aside`;
  make(aside);
  fs.renameSync(aside, file);
}

/** The next verbs' stderr until one shows `text` (a running server reloads its config when it settles). */
function stderrShowing(text: string): Promise<string> {
  return until(
    () => {
      const r = home.cli(['list']);
      expect(r.code).toBe(0);
      return r.stderr.includes(text) ? r.stderr : undefined;
    },
    30_000,
    `a verb to print "${text}"`,
  );
}

describe('config.toml', () => {
  beforeEach(() => {
    fs.mkdirSync(configDir(), { recursive: true });
    fs.writeFileSync(configFile(), 'notify = false\n');
  });

  test('a FIFO put in its place is refused at the reload; the server answers and keeps the last good config', async () => {
    await home.startServer();
    expect(home.cli(['list']).stderr).toBe('');
    replace(configFile(), mkfifo);
    expect(await stderrShowing('FIFO')).toBe(
      `fux: config: ${configFile()}: a FIFO (named pipe), not a regular file; the config is read from a regular file of at most 1048576 bytes\n` +
        'fux: config: the last good config stays in force\n',
    );
  });

  test('a server that finds a FIFO there at start starts, and says so on the first verb', () => {
    fs.rmSync(configFile());
    mkfifo(configFile());
    const r = home.cli(['list']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(`^fux: config: ${configFile()}: a FIFO \\(named pipe\\), not a regular file`),
    );
    expect(r.stderr).toMatch(/fux: config: using the defaults\n$/);
  });

  test('bytes that are not UTF-8 in a string are refused with the file, line and key; the last good config stays', async () => {
    await home.startServer();
    replace(configFile(), (aside) =>
      fs.writeFileSync(
        aside,
        Buffer.concat([
          Buffer.from('notify = true\ndefault_command = "caf'),
          Buffer.from([0xe9, 0x22, 0x0a]),
        ]),
      ),
    );
    expect(await stderrShowing('UTF-8')).toBe(
      `fux: config: ${configFile()}:2: default_command: not valid UTF-8; save the file as UTF-8\n` +
        'fux: config: the last good config stays in force\n',
    );
  });

  test('a file over the size limit is refused without being read', async () => {
    await home.startServer();
    replace(configFile(), (aside) => fs.writeFileSync(aside, `${'#'.repeat(2 * 1024 * 1024)}\n`));
    expect(await stderrShowing('limit')).toMatch(
      new RegExp(`^fux: config: ${configFile()}: 2097153 bytes, over the 1048576-byte limit for this file`),
    );
  });
});

test('a FIFO among the rule files holds nothing up: the server starts and answers, and the log names the file', async () => {
  const fifo = path.join(home.env.XDG_CONFIG_HOME!, 'zor', 'rules', 'mine.toml');
  mkfifo(fifo);
  await home.startServer();
  expect(home.cli(['list']).code).toBe(0);
  expect(serverLog()).toContain(
    `rules: ${fifo}: cannot read the file: a FIFO (named pipe), not a regular file`,
  );
});

test('a FIFO in place of the journal is set aside at start, and the first verb says so', () => {
  const { file } = journalPaths(stateDir(), home.socket, home.env);
  mkfifo(file);
  const r = home.cli(['list']);
  expect(r.code).toBe(0);
  expect(r.stderr).toMatch(
    new RegExp(
      `^fux: config: restore: ${file}: a FIFO \\(named pipe\\), not a regular file; moved it to ${file}\\.corrupt-`,
    ),
  );
  expect(fs.existsSync(file)).toBe(false);
});

test('a FIFO in place of the hook record holds nothing up: the server starts and answers', async () => {
  mkfifo(hookRecordFile(stateDir(), home.socket));
  await home.startServer();
  const r = home.cli(['list', '--json']);
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout)).toEqual({ workspaces: [] });
});

test('a FIFO in place of the allow-list is refused with what it is, by a server that goes on answering', async () => {
  const file = allowListFile(configDir());
  mkfifo(file);
  await home.startServer();
  const r = home.cli(['allow', '--list']);
  expect(r.code).toBe(1);
  expect(r.stderr).toBe(
    `fux allow: ${file}: a FIFO (named pipe), not a regular file; the allow-list is a regular file of endpoint ids, one a line (\`fux allow\` writes it)\n`,
  );
  expect(home.cli(['list']).code).toBe(0);
});

test('a FIFO in place of the key file is refused with what to do, by `fux id` and by the server', async () => {
  const file = identityFile(configDir());
  mkfifo(file);
  const expected = `${file}: a FIFO (named pipe), not a regular file; move it away and a new identity is created`;
  const local = home.cli(['id']);
  expect(local.code).toBe(1);
  expect(local.stderr).toBe(`fux id: ${expected}\n`);
  await home.startServer();
  const ticket = home.cli(['id', '--ticket']);
  expect(ticket.code).toBe(1);
  expect(ticket.stderr).toBe(`fux id: ${expected}\n`);
  expect(home.cli(['list']).code).toBe(0);
});
