import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { root } from '../helpers/home';

/**
 * What a newcomer reads first: both binaries' help and versions. zor is a tool of its own and its
 * help speaks of `zor`; every list of verbs carries their summaries, also after a usage error.
 */
jest.setTimeout(120_000);

// eslint-disable-next-line @typescript-eslint/no-require-imports
const manifest = require(path.join(root, 'oclif.manifest.json')) as {
  commands: Record<string, { summary?: string; hidden?: boolean }>;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { version } = require(path.join(root, 'package.json')) as { version: string };

function run(bin: 'fux' | 'zor', args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [path.join(root, 'bin', bin), ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, FUX_SOCKET: path.join(root, 'no-such-dir', 'fux.sock'), OCLIF_COLUMNS: '300' },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The lines of a help section (`COMMANDS`, `USAGE`, …), without their indent. */
function section(text: string, name: string): string[] {
  const m = new RegExp(`^${name}\\n((?:  .*\\n|\\n)*)`, 'm').exec(text);
  return (m?.[1] ?? '')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => l.trim());
}

/** Every line of every COMMANDS and TOPICS section in `text` names an entry and its summary. */
function expectSummaries(text: string): void {
  for (const name of ['COMMANDS', 'TOPICS']) {
    for (const line of section(text, name)) expect(line).toMatch(/^\S+(?: \S+)*\s{2,}\S/);
  }
}

describe('fux help', () => {
  test('fux --help lists every verb with its summary', () => {
    const { code, out } = run('fux', ['--help']);
    expect(code).toBe(0);
    const listed = new Map(section(out, 'COMMANDS').map((l) => [l.split(/\s{2,}/)[0], l.split(/\s{2,}/)[1]]));
    for (const [id, c] of Object.entries(manifest.commands)) {
      if (c.hidden || id.includes(':')) continue;
      expect([id, listed.get(id)]).toEqual([id, c.summary]);
    }
    expectSummaries(out);
  });

  test('a topic is listed once, and described as itself, not as one of its commands (issue 31.11)', () => {
    const { out } = run('fux', ['--help']);
    const topics = section(out, 'TOPICS').map((l) => l.split(/\s{2,}/));
    const commands = section(out, 'COMMANDS').map((l) => l.split(/\s{2,}/)[0]);
    // zor runs a command itself: it is a verb, listed with the verbs only.
    expect(commands).toContain('zor');
    expect(topics.map(([name]) => name)).toEqual(['worktree']);
    const [, worktree] = topics[0]!;
    for (const id of ['worktree:diff', 'worktree:list', 'worktree:remove'])
      expect(worktree).not.toBe(manifest.commands[id]?.summary);
    expect(worktree).toMatch(/worktrees/);
    expect(run('fux', ['worktree', '--help']).out.split('\n')[0]).toBe(worktree);
  });

  test('fux help and fux help VERB are --help', () => {
    expect(run('fux', ['help'])).toEqual(run('fux', ['--help']));
    expect(run('fux', ['help', 'split'])).toEqual(run('fux', ['split', '--help']));
    expect(run('fux', ['help', 'zor', 'check']).out).toMatch(/^USAGE\n {2}\$ fux zor check FIXTURE/m);
  });

  test('help after a usage error shows the usage, and any verb list keeps its summaries', () => {
    for (const [bin, args] of [
      ['fux', ['list', '--bogus']],
      ['fux', ['zor', '--bogus']],
      ['fux', ['--bogus']],
      ['zor', ['--bogus']],
      ['zor', ['check']],
      ['zor', ['agents', '--bogus']],
    ] as const) {
      const { code, out, err } = run(bin, [...args]);
      expect([bin, args, code]).toEqual([bin, args, 2]);
      expect(out).toBe('');
      expect(section(err, 'USAGE').length).toBeGreaterThan(0);
      expectSummaries(err);
    }
  });
});

describe('zor help speaks of zor', () => {
  test('zor --version prints zor and the version', () => {
    const { code, out } = run('zor', ['--version']);
    expect(code).toBe(0);
    expect(out).toBe(`zor/${version} ${process.platform}-${process.arch} node-${process.version}\n`);
  });

  test.each([
    [[], '$ zor [OPTIONS] [--] COMMAND [ARGS…]'],
    [['check'], '$ zor check FIXTURE'],
    [['agents'], '$ zor agents'],
    [['explain'], '$ zor explain'],
  ])('zor %j --help', (args, usage) => {
    const { code, out } = run('zor', [...args, '--help']);
    expect(code).toBe(0);
    expect(section(out, 'USAGE')[0]).toMatch(new RegExp(`^${usage.replace(/[$[\]…]/g, '\\$&')}`));
    expect(out).not.toMatch(/\bfux\b|zor zor/);
    for (const example of section(out, 'EXAMPLES')) expect(example).not.toMatch(/^\$ (?!zor )/);
    expectSummaries(out);
  });

  test('zor --help lists its verbs with their summaries', () => {
    const lines = section(run('zor', ['--help']).out, 'COMMANDS');
    expect(lines.map((l) => l.split(/\s{2,}/)[0])).toEqual(['zor agents', 'zor check', 'zor explain']);
  });

  test('fux zor --help still reads as fux zor', () => {
    expect(section(run('fux', ['zor', 'check', '--help']).out, 'USAGE')[0]).toMatch(
      /^\$ fux zor check FIXTURE/,
    );
  });
});
