import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { BASE_FLAGS, FAST_PATH, parseFast } from '../../src/client/cli/fast-path';
import { FAST_VERBS, ZOR_VERBS } from '../../src/client/cli/fast-verbs';
import { parseZor, ZOR_SYNTAX } from '../../src/client/cli/zor-fast-path';
import { FuxHome, fuxBin, root } from '../helpers/home';

/**
 * The fast path (src/client/cli/fast-path.ts) runs the hot verbs without oclif. It must read a
 * command line exactly as oclif does or leave it to oclif: its tables are checked against the
 * manifest oclif builds from the commands, and both paths run the same lines against one server.
 */

interface ManifestFlag {
  type: 'boolean' | 'option';
  char?: string;
  multiple?: boolean;
  options?: string[];
  allowNo?: boolean;
}
interface ManifestCommand {
  strict?: boolean;
  flags: Record<string, ManifestFlag>;
  args: Record<string, { required?: boolean; options?: string[] }>;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const manifest = require(path.join(root, 'oclif.manifest.json')) as {
  commands: Record<string, ManifestCommand>;
};

describe('the fast path reads a command line as oclif does', () => {
  test.each([...FAST_VERBS])(
    '%s: same flags, chars, kinds, arguments and strictness as its command',
    (verb) => {
      const command = manifest.commands[verb]!;
      const spec = FAST_PATH[verb];
      const flags = { ...BASE_FLAGS, ...spec.flags };
      expect(Object.keys(flags).sort()).toEqual(Object.keys(command.flags).sort());
      for (const [name, f] of Object.entries(command.flags)) {
        expect([name, flags[name]!.kind === 'boolean' ? 'boolean' : 'option']).toEqual([name, f.type]);
        expect([name, flags[name]!.char]).toEqual([name, f.char]);
        expect([name, flags[name]!.multiple ?? false]).toEqual([name, f.multiple ?? false]);
      }
      const args = Object.values(command.args);
      expect(spec.required).toBe(args.filter((a) => a.required).length);
      expect(spec.rest).toBe(command.strict === false);
      expect(spec.firstOptions).toEqual(args[0]?.options);
    },
  );

  test("zor: the wrapper's flags and zor's verbs are the zor command's", () => {
    const command = manifest.commands['zor']!;
    expect(Object.keys(ZOR_SYNTAX.flags).sort()).toEqual(Object.keys(command.flags).sort());
    for (const [name, f] of Object.entries(command.flags)) {
      const mine = ZOR_SYNTAX.flags[name]!;
      expect([name, mine.kind === 'boolean' ? 'boolean' : 'option']).toEqual([name, f.type]);
      expect([name, mine.multiple ?? false, mine.options, mine.allowNo ?? false]).toEqual([
        name,
        f.multiple ?? false,
        f.options,
        f.type === 'boolean' ? (f.allowNo ?? false) : false,
      ]);
    }
    const verbs = Object.keys(manifest.commands).filter((id) => id.startsWith('zor:'));
    expect(verbs.map((id) => id.slice(4)).sort()).toEqual([...ZOR_VERBS].sort());
  });

  test('zor: reads options up to the command, defaults as the command does, leaves the rest to oclif', () => {
    expect(parseZor(['--no-osc', '--title', 'never', '--rules', 'a', '--', 'claude', '--debug'])).toEqual({
      command: ['claude', '--debug'],
      events: undefined,
      title: 'never',
      osc: false,
      ruleDirs: ['a'],
      agent: undefined,
      debug: false,
    });
    expect(parseZor(['codex'])).toMatchObject({
      command: ['codex'],
      title: 'prefix',
      osc: true,
      debug: false,
    });
    for (const argv of [['--help'], ['--title', 'bogus', 'x'], ['--bogus', 'x'], ['--osc=yes', 'x']]) {
      expect([argv, parseZor(argv)]).toEqual([argv, undefined]);
    }
  });

  test('takes the plain forms', () => {
    expect(parseFast('list', ['--json', '-w', 'main'])).toEqual({
      verb: 'list',
      flags: { json: true, workspace: 'main' },
      args: [],
    });
    expect(parseFast('capture', ['3', '-S', '200', '--attrs'])).toEqual({
      verb: 'capture',
      flags: { scrollback: 200, attrs: true },
      args: ['3'],
    });
    expect(parseFast('split', ['v', '--cwd=/tmp', '--', 'ls', '-l', '--json'])).toEqual({
      verb: 'split',
      flags: { cwd: '/tmp' },
      args: ['v', 'ls', '-l', '--json'],
    });
    expect(parseFast('send-keys', ['2', 'echo hi', 'Enter', '-l'])?.args).toEqual(['2', 'echo hi', 'Enter']);
    expect(parseFast('new', ['--env', 'A=1', '--env', 'B=2', '--', 'cat'])?.flags.env).toEqual([
      'A=1',
      'B=2',
    ]);
  });

  test.each([
    ['list', ['--help']],
    ['list', ['-h']],
    ['list', ['--bogus']],
    ['list', ['extra']],
    ['list', ['--json=true']],
    ['list', ['-w', 'a', '-w', 'b']],
    ['list', ['-w']],
    ['list', ['-w', '--json']],
    ['capture', []],
    ['capture', ['3', '-S200']],
    ['capture', ['3', '-S', '-1']],
    ['capture', ['3', '-S', 'many']],
    ['capture', ['3', '-eS', '5']],
    ['split', ['x']],
    ['split', []],
    ['new', ['--env', 'A=1', 'cat']],
    ['send-keys', ['2', '-x']],
  ] as const)('leaves %s %j to oclif', (verb, argv) => {
    expect(parseFast(verb, argv)).toBeUndefined();
  });
});

describe('fast path and oclif side by side', () => {
  let home: FuxHome;
  let pane: number;
  beforeAll(async () => {
    home = new FuxHome();
    await home.startServer();
    const client = await home.client();
    ({ id: pane } = await client.new.mutate({ argv: ['sh', '-c', 'echo ready; exec cat'], cwd: home.dir }));
  });
  afterAll(() => home.close());

  /** Run `argv` through oclif alone (what bin/fux did before the fast path). */
  const viaOclif = (argv: string[]) => {
    const r = spawnSync(
      process.execPath,
      [
        '-e',
        `require(${JSON.stringify(path.join(root, 'dist', 'client', 'startup'))}).runOclif('fux', process.argv.slice(1))`,
        ...argv,
      ],
      { env: home.env, cwd: home.dir, encoding: 'utf8', timeout: 30_000 },
    );
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  test('bin/fux list does not load oclif', () => {
    const r = spawnSync(
      process.execPath,
      [
        '-e',
        `process.argv.splice(1, 0, ${JSON.stringify(fuxBin)}); require(${JSON.stringify(fuxBin)}); process.on('exit', () => { if (Object.keys(require.cache).some((k) => k.includes('oclif'))) process.exitCode = 3; });`,
        'list',
        '--json',
      ],
      { env: home.env, encoding: 'utf8', timeout: 30_000 },
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).workspaces[0].panes[0].id).toBe(pane);
  });

  test.each([
    [['list']],
    [['list', '--json']],
    [['list', '-w', 'main', '--json']],
    [['list', '-w', 'nowhere']],
    [['capture', 'PANE']],
    [['capture', 'PANE', '--scrollback', '5', '--json']],
    [['capture', '99']],
    [['capture', 'abc']],
    [['send-keys', 'PANE', '--json', '--', 'x']],
    [['send-keys', 'PANE']],
    [['new', '--env', 'NOEQUALS', '--', 'cat']],
    [['split', 'v', '--target', '99', '--', 'cat']],
  ])('fux %j answers the same both ways', (line) => {
    const argv = line.map((w) => (w === 'PANE' ? String(pane) : w));
    const fast = home.cli(argv);
    expect(fast).toEqual(viaOclif(argv));
  });

  test('zor -- COMMAND runs the command and exits as it did; a bad option fails as through oclif', () => {
    const zor = (args: string[]) =>
      spawnSync(process.execPath, [path.join(root, 'bin', 'zor'), ...args], {
        env: { ...home.env, ZOR_PID: '' },
        encoding: 'utf8',
        timeout: 30_000,
      });
    const ran = zor(['--no-osc', '--title', 'never', '--', 'sh', '-c', 'echo under-zor; exit 3']);
    expect(ran.stdout).toContain('under-zor');
    expect(ran.status).toBe(3);
    const bad = ['--events', path.join(home.dir, 'no-such-fifo'), '--', 'true'];
    const fast = zor(bad);
    const slow = viaOclif(['zor', ...bad]);
    expect(fast.status).toBe(2);
    expect(slow.code).toBe(2);
    expect(fast.stderr).toContain('no such socket or fifo');
    // oclif wraps a long message, each line after a ›.
    const flat = (text: string) => text.replace(/[\s›]+/g, ' ');
    expect(flat(fast.stderr)).toBe(flat(slow.stderr));
  });

  test('new and split open the same panes both ways', async () => {
    const fast = home.cli(['new', '--cwd', '/tmp', '--', 'sleep', '100']);
    const slow = viaOclif(['new', '--cwd', '/tmp', '--', 'sleep', '100']);
    const fastSplit = home.cli(['split', 'h', '--env', 'A=1', '--', 'sleep', '200']);
    const slowSplit = viaOclif(['split', 'h', '--env', 'A=1', '--', 'sleep', '200']);
    for (const r of [fast, slow, fastSplit, slowSplit]) expect(r).toMatchObject({ code: 0, stderr: '' });
    const { workspaces } = await (await home.client()).list.query({});
    const byId = new Map(workspaces[0]!.panes.map((p) => [p.id, p]));
    const [a, b, c, d] = [fast, slow, fastSplit, slowSplit].map((r) => byId.get(Number(r.stdout))!);
    expect([a!.command, a!.cwd]).toEqual([['sleep', '100'], '/tmp']);
    expect([b!.command, b!.cwd]).toEqual([a!.command, a!.cwd]);
    expect([c!.command, d!.command]).toEqual([
      ['sleep', '200'],
      ['sleep', '200'],
    ]);
  });
});
