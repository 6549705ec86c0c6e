import { FuxHome, until } from '../helpers/home';

let home: FuxHome;
beforeAll(async () => {
  home = new FuxHome();
  await home.startServer();
});
afterAll(() => home.close());

const json = <T>(args: string[]): T => {
  const dash = args.indexOf('--');
  const r = home.cli(
    dash < 0 ? [...args, '--json'] : [...args.slice(0, dash), '--json', ...args.slice(dash)],
  );
  if (r.code !== 0) throw new Error(`fux ${args.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
};

describe('the CLI', () => {
  test('new --json prints {"id": N, ...}; human output is the bare id', () => {
    const a = json<{ id: number; workspace: string; pid: number }>(['new', '-w', 'cli1', '--', 'cat']);
    expect(a).toMatchObject({ id: 1, workspace: 'cli1' });
    expect(a.pid).toBeGreaterThan(1);
    expect(home.cli(['split', 'v', '-w', 'cli1', '--', 'cat']).stdout).toBe('2\n');
  });

  test('send-keys takes text, escapes and key names; capture reads it back', async () => {
    const { id } = json<{ id: number }>(['new', '-w', 'keys', '--', 'sh']);
    expect(
      home.cli([
        'send-keys',
        String(id),
        '-w',
        'keys',
        'printf "%s|" hello',
        'Space',
        '\\x41\\u00e9',
        'Enter',
      ]).code,
    ).toBe(0);
    const text = await until(
      () => {
        const t = home.cli(['capture', String(id), '-w', 'keys']).stdout;
        return /^hello\|Aé\|/m.test(t) ? t : undefined;
      },
      10_000,
      'the typed line to run',
    );
    expect(text).toContain('printf "%s|" hello Aé\nhello|Aé|');
  });

  test('send-keys sends modified cursor keys as xterm does, the same bytes the attach client sends', async () => {
    const { id } = json<{ id: number }>(['new', '-w', 'xkeys', '--', 'cat', '-v']);
    expect(
      home.cli(['send-keys', String(id), '-w', 'xkeys', 'C-Up', 'PgUp', 'M-Up', 'C-F5', 'Enter']).code,
    ).toBe(0);
    const screen = await until(
      () => {
        const t = home.cli(['capture', String(id), '-w', 'xkeys']).stdout;
        return t.includes('^[[1;5A^[[5~^[[1;3A^[[15;5~') ? t : undefined;
      },
      10_000,
      'cat -v to print the keys',
    );
    expect(screen).not.toContain('C-Up');
  });

  test('send-keys refuses a key-shaped name that names no key, naming it and listing the forms', () => {
    const { id } = json<{ id: number }>(['new', '-w', 'badkeys', '--', 'cat']);
    const r = home.cli(['send-keys', String(id), '-w', 'badkeys', 'echo', 'C-Upp']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^fux send-keys: unknown key C-Upp: a key is one character or a name \(Enter\/Return, .*F1-F12\), after any of the modifiers C- \(Ctrl\), M- \(Alt\), S- \(Shift\), e\.g\. .*; --literal sends it as text\n$/,
    );
    expect(home.cli(['send-keys', String(id), '-w', 'badkeys', 'F13']).stderr).toMatch(/unknown key F13: /);
    expect(home.cli(['send-keys', String(id), '-w', 'badkeys', '--literal', 'C-Upp']).code).toBe(0);
  });

  test('send-keys C-c delivers SIGINT to the program in the pane', async () => {
    const { id } = json<{ id: number }>([
      'new',
      '-w',
      'ctrlc',
      '--',
      'sh',
      '-c',
      'trap "echo got-int" INT; echo armed; while :; do sleep 0.05; done',
    ]);
    const screen = (): string => home.cli(['capture', String(id), '-w', 'ctrlc']).stdout;
    await until(() => screen().includes('armed'), 10_000, 'the trap');
    expect(home.cli(['send-keys', String(id), '-w', 'ctrlc', 'C-c']).code).toBe(0);
    await until(() => screen().includes('got-int'), 10_000, 'the trap to run on C-c');
    expect(screen().split('\n')[1]).toMatch(/got-int$/);
  });

  test('capture --attrs carries colours and attributes as SGR; --scrollback adds history', async () => {
    const { id } = json<{ id: number }>([
      'new',
      '-w',
      'cap',
      '--',
      'sh',
      '-c',
      "seq 1 100; printf '\\033[1;31mred\\033[0m \\033[38;2;1;2;3mtrue\\033[0m\\n'; sleep 30",
    ]);
    await until(
      () => home.cli(['capture', String(id), '-w', 'cap']).stdout.includes('true'),
      10_000,
      'the coloured line',
    );
    const attrs = home.cli(['capture', String(id), '-w', 'cap', '--attrs']).stdout;
    const ESC = String.fromCharCode(27);
    expect(attrs).toMatch(new RegExp(`${ESC}\\[[0-9;]*1[;m][^\\n]*red`));
    expect(attrs).toMatch(/38;2;1;2;3/);
    const deep = home.cli(['capture', String(id), '-w', 'cap', '--scrollback', '200']).stdout;
    expect(deep.split('\n')[0]).toBe('1');
    expect(home.cli(['capture', String(id), '-w', 'cap']).stdout.split('\n')[0]).not.toBe('1');
  });

  test('focus, zoom and resize work by id and direction', () => {
    home.cli(['workspace', 'new', 'geo', '--size', '100x40']);
    const a = json<{ id: number }>(['new', '-w', 'geo', '--', 'cat']).id;
    const b = json<{ id: number }>(['split', 'v', '-w', 'geo', '--', 'cat']).id;
    expect(json<{ id: number }>(['focus', 'left', '-w', 'geo']).id).toBe(a);
    expect(json<{ id: number }>(['focus', 'left', '-w', 'geo']).id).toBe(a); // no wrap
    expect(json<{ id: number }>(['focus', String(b), '-w', 'geo']).id).toBe(b);
    expect(json<{ id: number; zoomed: boolean }>(['zoom', '-w', 'geo'])).toEqual({ id: b, zoomed: true });
    const zoomed = json<{ workspaces: Array<{ panes: Array<{ id: number; cols: number }> }> }>([
      'list',
      '-w',
      'geo',
    ]);
    expect(zoomed.workspaces[0].panes.find((p) => p.id === b)?.cols).toBe(100);
    json(['zoom', '-w', 'geo']);
    expect(json<{ changed: boolean }>(['resize', String(a), '+10', '-w', 'geo'])).toEqual({ changed: true });
    const after = json<{ workspaces: Array<{ panes: Array<{ id: number; cols: number }> }> }>([
      'list',
      '-w',
      'geo',
    ]);
    expect(after.workspaces[0].panes.map((p) => p.cols)).toEqual([59, 40]);
    expect(json<{ changed: boolean }>(['resize', String(a), '-5', '-w', 'geo'])).toEqual({ changed: true });
  });

  test('set-status sets and removes a segment', () => {
    json(['new', '-w', 'st', '--', 'cat']);
    json(['set-status', 'build', 'green', '-w', 'st']);
    const get = (): Record<string, string> =>
      json<{ workspaces: Array<{ status: Record<string, string> }> }>(['list', '-w', 'st']).workspaces[0]
        .status;
    expect(get()).toEqual({ build: 'green' });
    json(['set-status', 'build', '', '-w', 'st']);
    expect(get()).toEqual({});
  });

  test('workspace list, new and kill', () => {
    json(['workspace', 'new', 'wk', '--size', '90x30']);
    json(['new', '-w', 'wk', '--', 'cat']);
    expect(
      json<{ workspaces: Array<{ name: string; cols: number }> }>(['workspace', 'list']).workspaces,
    ).toContainEqual(expect.objectContaining({ name: 'wk', cols: 90, panes: 1 }));
    expect(json<{ panes: number }>(['workspace', 'kill', 'wk'])).toEqual({ panes: 1 });
    expect(
      json<{ workspaces: Array<{ name: string }> }>(['workspace', 'list']).workspaces.map((w) => w.name),
    ).not.toContain('wk');
  });

  test.each([
    [['kill', '99', '-w', 'cli1'], /no pane 99 in workspace cli1; `fux list` shows the panes/],
    [['kill', 'abc'], /"abc" is not a pane id/],
    [['resize', '1', 'big'], /is not a size change; write \+5 or -3/],
    [['split', 'x'], /Expected --direction=x to be one of: h, v|to be one of/],
    [['tab', 'sideways'], /is not a tab action/],
    [['workspace', 'new', 'bad name'], /is not allowed; use 1-64 letters/],
    [['new', '--env', 'NOEQUALS', '--', 'cat'], /is not KEY=VALUE/],
    [['list', '-w', 'nowhere'], /no workspace named nowhere/],
    [['send-keys', '1'], /nothing to send/],
    // The server's schema message, as the socket gives it: one line, the field, no JSON.
    [
      ['capture', '1', '-w', 'cli1', '--scrollback', '2000000'],
      /^fux capture: scrollback: must be at most 1000000\n$/,
    ],
    [['resize', '1', '-w', 'cli1', '+20000'], /^fux resize: delta: must be at most 10000\n$/],
  ])('fux %j fails on stderr with what to do', (args, message) => {
    const r = home.cli(args as string[]);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message as RegExp);
  });

  test('fux --help lists the verbs', () => {
    const r = home.cli(['--help']);
    expect(r.code).toBe(0);
    for (const verb of [
      'new',
      'split',
      'focus',
      'zoom',
      'kill',
      'resize',
      'send-keys',
      'capture',
      'tab',
      'workspace',
      'list',
      'set-status',
      'subscribe',
      'serve',
      'kill-server',
    ]) {
      expect(r.stdout).toMatch(new RegExp(`^  ${verb}\\s`, 'm'));
    }
  });
});

describe('the words before the verb', () => {
  test('global flags may come before the verb, on the fast path and through oclif', () => {
    expect(home.cli(['-w', 'before', 'new', '--', 'cat'])).toMatchObject({ code: 0, stdout: '1\n' });
    expect(home.cli(['--workspace=before', 'split', 'v', '--', 'cat'])).toMatchObject({
      code: 0,
      stdout: '2\n',
    });
    const listed = home.cli(['--json', '-w', 'before', 'list']);
    expect(listed.code).toBe(0);
    const { workspaces } = JSON.parse(listed.stdout) as {
      workspaces: Array<{ name: string; panes: unknown[] }>;
    };
    expect(workspaces.map((w) => [w.name, w.panes.length])).toEqual([['before', 2]]);
    // zoom is no fast verb: oclif parses it.
    expect(home.cli(['-w', 'before', 'zoom', '2'])).toMatchObject({ code: 0, stdout: 'pane 2 zoomed\n' });
    // A verb's name never became a workspace name.
    const names = home.cli(['workspace', 'list', '--json']).stdout;
    expect(names).not.toMatch(/"(list|zoom|split|new)"/);
  });

  test('a bare word one slip from a verb is a typo; any other bare word attaches', () => {
    for (const [typo, verb] of [
      ['lsit', 'list'],
      ['nwe', 'new'],
      ['captur', 'capture'],
    ]) {
      const r = home.cli([typo!]);
      expect(r).toMatchObject({ code: 1, stdout: '' });
      expect(r.stderr).toBe(
        `fux: unknown command "${typo}"; did you mean ${verb}? (\`fux attach ${typo}\` attaches to a workspace of that name)\n`,
      );
    }
    expect(home.cli(['-w', 'x', 'lsit']).stderr).toContain('unknown command "lsit"; did you mean list?');
    // Not a slip from any verb: the name of a workspace to attach to (which needs a terminal here).
    for (const name of ['work', 'news', 'tabs']) {
      expect(home.cli([name]).stderr).toContain('fux attach: attaching needs a terminal');
    }
  });
});
