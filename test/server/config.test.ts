import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ConfigError, DEFAULT_CONFIG, loadConfig, parseConfig } from '../../src/server/config';
import { ConfigStore } from '../../src/server/config-store';
import { tomlKeyLine } from '../../src/server/toml-key-line';

const FILE = '/home/u/.config/fux/config.toml';

/** The config an empty file gives. */
const DEFAULTS = {
  notify: true,
  hooks: [],
  prefix: 'C-a',
  bindings: {},
  scrollback: 10_000,
  notify_delay: 0,
  event_history: 4096,
  worktree_root: '../{repo}.worktrees',
  restore: 'crash',
  restore_history: 2000,
  restore_skip: [],
};

function problems(text: string): readonly string[] {
  try {
    parseConfig(text, FILE);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('the config was accepted');
}

describe('config.toml', () => {
  test('every key has a default, so an empty file is the defaults', () => {
    expect(parseConfig('', FILE)).toEqual({ ...DEFAULTS });
    expect(DEFAULT_CONFIG).toEqual({ ...DEFAULTS });
  });

  test('notify_delay and event_history are read as written, and checked', () => {
    expect(parseConfig('notify_delay = 2.5\nevent_history = 100\n', FILE)).toMatchObject({
      notify_delay: 2.5,
      event_history: 100,
    });
    expect(() => parseConfig('notify_delay = -1\n', FILE)).toThrow(/notify_delay/);
    expect(() => parseConfig('event_history = 0\n', FILE)).toThrow(/event_history/);
  });

  test('notify and hooks are read as written', () => {
    expect(parseConfig('notify = false\nhooks = ["fux-slack", "sleep 1"]\n', FILE)).toEqual({
      ...DEFAULTS,
      notify: false,
      hooks: ['fux-slack', 'sleep 1'],
    });
  });

  test('worktree_root and worktree_setup are read as written; a setup that is not a string is an error at its line', () => {
    expect(parseConfig('worktree_root = "~/wt/{repo}"\nworktree_setup = "npm ci"\n', FILE)).toMatchObject({
      worktree_root: '~/wt/{repo}',
      worktree_setup: 'npm ci',
    });
    expect(problems('notify = true\nworktree_setup = ["npm", "ci"]\n')).toEqual([
      `${FILE}:2: worktree_setup: expected a string, got a list`,
    ]);
  });

  test('an unknown key is an error naming the file, its line and the key', () => {
    expect(problems('notify = true\n\nnotfy = false\n')).toEqual([
      `${FILE}:3: notfy: unknown key (docs/config.md lists the keys)`,
    ]);
  });

  test('a value of the wrong type names the line and the key', () => {
    const [problem] = problems('hooks = []\nnotify = "yes"\n');
    expect(problem).toBe(`${FILE}:2: notify: expected a boolean, got a string`);
  });

  test('a bad element of a list names the key with its index', () => {
    const [problem] = problems('hooks = [\n  "ok",\n  "",\n]\n');
    expect(problem).toMatch(new RegExp(`^${FILE}:1: hooks\\[1\\]: `));
  });

  test('a TOML syntax error names the line and column', () => {
    const [problem] = problems('notify = true\nhooks = [\n');
    expect(problem).toMatch(new RegExp(`^${FILE}:\\d+:\\d+: `));
  });

  test('a missing file is the defaults', () => {
    expect(loadConfig(path.join(os.tmpdir(), 'fux-no-such-dir', 'config.toml'))).toBe(DEFAULT_CONFIG);
  });
});

describe('a config file that is not UTF-8', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fux-config-utf8-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** The problems of a file made of `parts` (strings as UTF-8, numbers as single bytes). */
  function fileProblems(...parts: (string | number)[]): readonly string[] {
    const file = path.join(dir, 'config.toml');
    fs.writeFileSync(
      file,
      Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from([p])))),
    );
    try {
      loadConfig(file);
    } catch (error) {
      if (error instanceof ConfigError) return error.problems.map((problem) => problem.replace(file, 'FILE'));
      throw error;
    }
    throw new Error('the config was accepted');
  }

  test('is refused at the line of the bad bytes, with the key they belong to', () => {
    expect(fileProblems('notify = true\nhooks = ["caf', 0xe9, '"]\n')).toEqual([
      'FILE:2: hooks: not valid UTF-8; save the file as UTF-8',
    ]);
  });

  test('in a table, or on a line that goes on with a value, the key is the one being defined', () => {
    expect(fileProblems('[bindings]\n"C-x" = "caf', 0xe9, '"\n')).toEqual([
      'FILE:2: bindings.C-x: not valid UTF-8; save the file as UTF-8',
    ]);
    expect(fileProblems('hooks = [\n  "ok",\n  "caf', 0xff, '",\n]\n')).toEqual([
      'FILE:3: hooks: not valid UTF-8; save the file as UTF-8',
    ]);
  });

  test('in a comment, the line alone is named', () => {
    expect(fileProblems('notify = true\n# caf', 0xe9, '\n')).toEqual([
      'FILE:2: not valid UTF-8; save the file as UTF-8',
    ]);
  });
});

describe('finding the line of a key in TOML', () => {
  test('keys inside tables and dotted keys are found where they are written', () => {
    const text = 'a = 1\n[bind]\nx = "split"\n[zor]\nrules.dir = "d"\n';
    expect(tomlKeyLine(text, ['a'])).toBe(1);
    expect(tomlKeyLine(text, ['bind', 'x'])).toBe(3);
    expect(tomlKeyLine(text, ['zor', 'rules', 'dir'])).toBe(5);
  });

  test('a key that is not written falls back to its table header', () => {
    expect(tomlKeyLine('[bind]\nx = 1\n', ['bind', 'y'])).toBe(1);
    expect(tomlKeyLine('x = 1\n', ['y'])).toBeUndefined();
  });
});

describe('the config in force', () => {
  let dir: string;
  const logged: string[] = [];
  const log = {
    info: (m: string) => void logged.push(`info ${m}`),
    warn: (m: string) => void logged.push(`warn ${m}`),
    error: (m: string) => void logged.push(`error ${m}`),
  };
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fux-config-'));
    logged.length = 0;
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('a bad file at start is logged and the defaults are used', () => {
    const file = path.join(dir, 'config.toml');
    fs.writeFileSync(file, 'notify = 3\n');
    const store = new ConfigStore(file, log);
    expect(store.current).toEqual(DEFAULT_CONFIG);
    expect(logged.join('\n')).toMatch(new RegExp(`error config: ${file}:1: notify: [^]*using the defaults`));
  });

  test('a reload with a bad file keeps the last good config; a good one replaces it and is announced', () => {
    const file = path.join(dir, 'config.toml');
    fs.writeFileSync(file, 'notify = false\n');
    const store = new ConfigStore(file, log);
    const seen: unknown[] = [];
    store.onChange((config) => seen.push(config));
    expect(store.current.notify).toBe(false);

    fs.writeFileSync(file, 'notify = true\nprefx = "C-b"\n');
    expect(store.reload()).toBe(false);
    expect(store.current.notify).toBe(false);
    expect(logged.at(-1)).toMatch(/prefx: unknown key[^]*the last good config stays in force/);

    fs.writeFileSync(file, 'hooks = ["true"]\n');
    expect(store.reload()).toBe(true);
    expect(store.current).toEqual({ ...DEFAULTS, hooks: ['true'] });
    expect(seen).toEqual([{ ...DEFAULTS, hooks: ['true'] }]);
  });

  test('watching the directory reloads the file when it is written', async () => {
    const file = path.join(dir, 'fux', 'config.toml');
    const store = new ConfigStore(file, log);
    store.watch();
    try {
      const changed = new Promise((resolve) => store.onChange(resolve));
      fs.writeFileSync(file, 'notify = false\n');
      await expect(changed).resolves.toEqual({ ...DEFAULTS, notify: false });
    } finally {
      store.close();
    }
  });
});
