// `zor [opts] -- cmd` without oclif (src/zor/cli/fast-start.ts): the forms it takes must mean what
// they mean to the oclif command, and everything else must be left to oclif untouched.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Zor from '../../../src/commands/zor/index';
import { FAST_FLAGS, fastWrapperOptions, ZOR_SUBCOMMANDS } from '../../../src/zor/cli/fast-start';
import { REPO } from '../support/paths';
import { killRunning, runInPty } from '../support/zor-pty';

afterEach(killRunning);

const env = { PATH: process.env.PATH, SHELL: '/bin/sh' };
const distEntry = join(REPO, 'dist', 'zor', 'cli', 'fast-start.js');

describe('which forms the fast start takes', () => {
  test('the options it parses are the oclif command’s, with the same arity', () => {
    const flags: Record<string, { type: string }> = Zor.flags;
    for (const [name, takesValue] of Object.entries(FAST_FLAGS)) {
      expect(flags[name]).toBeDefined();
      expect(flags[name]!.type === 'option').toBe(takesValue);
    }
    // The rest are declined, so oclif reports their errors.
    expect(Object.keys(flags).filter((name) => !(name in FAST_FLAGS))).toEqual(['events', 'agent']);
  });

  test('the subcommands it leaves alone are the zor topic’s commands', () => {
    const files = readdirSync(join(REPO, 'src', 'commands', 'zor'))
      .filter((name) => name !== 'index.ts')
      .map((name) => name.replace(/\.ts$/, ''));
    expect([...ZOR_SUBCOMMANDS].sort()).toEqual(files.sort());
  });

  test('reads the wrapper’s options as the oclif command does', () => {
    expect(
      fastWrapperOptions(
        ['--title=replace', '--no-osc', '--rules', '/r1', '--rules=/r2', '--debug', 'sh', '-x'],
        env,
      ),
    ).toEqual({
      command: ['sh', '-x'],
      events: undefined,
      title: 'replace',
      osc: false,
      ruleDirs: ['/r1', '/r2'],
      agent: undefined,
      debug: true,
    });
    expect(fastWrapperOptions([], env)?.command).toEqual([]);
    expect(fastWrapperOptions(['--', 'true', '--debug'], env)).toMatchObject({
      command: ['true', '--debug'],
      debug: false,
    });
  });

  test.each([
    [['check', 'file.txt']],
    [['agents']],
    [['--help']],
    [['-h']],
    [['--version']],
    [['--agent', 'claude', '--', 'true']],
    [['--events', '-', '--', 'true']],
    [['--title', 'bogus', '--', 'true']],
    [['--title', 'never', '--title', 'prefix', '--', 'true']],
    [['--debug=yes', '--', 'true']],
    [['--rules']],
    [['--', 'no-such-command-zor-test']],
  ])('declines %j, for oclif to handle', (argv) => {
    expect(fastWrapperOptions(argv, env)).toBeUndefined();
  });

  test('declines inside another zor, which runs the command directly', () => {
    expect(fastWrapperOptions(['--', 'true'], { ...env, ZOR_PID: String(process.ppid) })).toBeUndefined();
  });
});

describe('the fast start, run', () => {
  // The built entry, as bin/zor would call it.
  const script = `require(${JSON.stringify(distEntry)}).startWrapper(process.argv.slice(1)) || process.exit(99)`;
  const fast = (argv: readonly string[]) => [process.execPath, '-e', script, '--', ...argv];

  beforeAll(() => {
    if (!existsSync(distEntry)) throw new Error(`${distEntry} is missing: run \`npm run build\` first`);
  });

  test('passes output through and exits as the child did', async () => {
    // The child's own pty turns its \n into \r\n; zor adds and removes nothing.
    const run = await runInPty(fast(['--', 'sh', '-c', 'printf "a\\nb\\033[1mc"; exit 3']), {
      bare: true,
    });
    expect((await run.exited).exitCode).toBe(3);
    expect(run.output().toString('latin1')).toBe('a\r\nb\x1b[1mc');
  });

  test('hands a form it does not take back to the caller', async () => {
    const run = await runInPty(fast(['--agent', 'claude', '--', 'true']), { bare: true });
    expect((await run.exited).exitCode).toBe(99);
  });
});
