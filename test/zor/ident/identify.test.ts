// seed 001 "Identification" and seed 003 §2: normalisation, scoring, ZOR_AGENT, symlinks.
import { identify, type PathResolver } from '../../../src/zor/ident/identify';
import { normaliseProcessName } from '../../../src/zor/ident/normalise';
import type { Job, ProcessInfo } from '../../../src/zor/ident/process-table';
import { parseRuleSet } from '../../../src/zor/rules/load';

const set = (id: string, extra = '') => parseRuleSet(`id = "${id}"\nversion = "1"\n${extra}`, `${id}.toml`);
const SETS = [set('claude', 'aliases = ["claude-code"]'), set('codex'), set('pyagent')];

function process(pid: number, comm: string, argv: string[], extra: Partial<ProcessInfo> = {}): ProcessInfo {
  return { pid, ppid: 1, pgrp: 100, comm, argv, ...extra };
}

function job(...processes: ProcessInfo[]): Job {
  return { leader: 100, processes };
}

const noLinks: PathResolver = () => undefined;

describe('normaliseProcessName', () => {
  it.each([
    [['node', '/x/bin/claude'], 'claude', 'script'],
    [['node', '-r', './hook.js', '/x/claude.js'], 'claude', 'script'],
    [['node', '--require', 'hook', '--inspect-port=0', '/x/claude.mjs'], 'claude', 'script'],
    [['node', '--loader', 'ts-node/esm', "'/x/codex.cjs'"], 'codex', 'script'],
    [['node', '--', '/x/claude'], 'claude', 'script'],
    [['python3', '-W', 'ignore', '-X', 'dev', 'pyagent.py'], 'pyagent', 'script'],
    [['python3', '-Wignore', '-u', 'pyagent.py'], 'pyagent', 'script'],
    [['bash', '-l', '/usr/local/bin/claude'], 'claude', 'script'],
    [['node'], 'node', 'runtime'],
  ])('names %j %s', (argv, name, kind) => {
    expect(normaliseProcessName({ comm: argv[0]!, argv })).toMatchObject({ name, kind });
  });

  it.each([
    [['node', '-e', 'require("claude")']],
    [['node', '--eval=1']],
    [['node', '-pe', '1']],
    [['bun', '--print', '1']],
    [['python3', '-m', 'pyagent']],
    [['python', '-c', 'import pyagent']],
    [['sh', '-c', 'claude']],
    [['bash', '-lc', 'claude']],
    [['tmux', 'new', 'claude']],
  ])('refuses %j', (argv) => {
    expect(normaliseProcessName({ comm: argv[0]!, argv })).toBeUndefined();
  });

  it("refuses the tmux server, whose comm is 'tmux: server'", () => {
    expect(normaliseProcessName({ comm: 'tmux: server', argv: ['tmux'] })).toBeUndefined();
  });

  it('uses argv0 (the process title) ahead of comm when there is one', () => {
    expect(normaliseProcessName({ comm: 'node', argv: ['claude'], argv0: 'claude' })).toMatchObject({
      name: 'claude',
      kind: 'binary',
    });
  });
});

describe('identify', () => {
  it('finds a direct binary', () => {
    expect(identify(job(process(100, 'claude', ['claude'])), SETS, noLinks)).toEqual({
      agent: 'claude',
      pid: 100,
    });
  });

  it('resolves node /x/bin/claude and node -r ./hook.js /x/claude.js to claude', () => {
    for (const argv of [
      ['node', '/x/bin/claude'],
      ['node', '-r', './hook.js', '/x/claude.js'],
    ]) {
      expect(identify(job(process(100, 'node', argv)), SETS, noLinks)).toEqual({ agent: 'claude', pid: 100 });
    }
  });

  it('returns nothing for node -e, python -m, tmux and a plain shell', () => {
    for (const [comm, ...rest] of [['node', '-e', 'x'], ['python3', '-m', 'pyagent'], ['tmux'], ['bash']]) {
      expect(identify(job(process(100, comm!, [comm!, ...rest])), SETS, noLinks)).toBeUndefined();
    }
  });

  it('prefers the group leader over a higher-scoring member', () => {
    const leader = process(100, 'codex', ['codex']);
    const wrapped = process(101, 'node', ['node', '/x/claude.js']);
    expect(identify(job(wrapped, leader), SETS, noLinks)).toEqual({ agent: 'codex', pid: 100 });
  });

  it('gives a wrapped script or changed title score 3 over a direct binary (2), earliest on ties', () => {
    const direct = process(101, 'codex', ['codex']);
    const script = process(102, 'node', ['node', '/x/claude.js']);
    const titled = process(103, 'node', ['claude'], { argv0: 'claude' });
    expect(identify(job(direct, script, titled), SETS, noLinks)).toEqual({ agent: 'claude', pid: 102 });
    expect(identify(job(direct, titled), SETS, noLinks)).toEqual({ agent: 'claude', pid: 103 });
  });

  it('ranks a direct binary (2) over a bare runtime (1)', () => {
    const sets = [...SETS, set('noderepl', 'process_names = ["node"]')];
    const bare = process(101, 'node', ['node']);
    const direct = process(102, 'codex', ['codex']);
    expect(identify(job(bare, direct), sets, noLinks)).toEqual({ agent: 'codex', pid: 102 });
    expect(identify(job(bare), sets, noLinks)).toEqual({ agent: 'noderepl', pid: 101 });
  });

  it('honours ZOR_AGENT in the environment over name matching, by id or alias', () => {
    const named = process(101, 'codex', ['codex']);
    const declared = process(102, 'mystery', ['mystery'], { envAgent: 'claude-code' });
    expect(identify(job(named, declared), SETS, noLinks)).toEqual({ agent: 'claude', pid: 102 });
  });

  it('ignores a ZOR_AGENT that names no loaded set', () => {
    expect(identify(job(process(100, 'codex', ['codex'], { envAgent: 'nope' })), SETS, noLinks)).toEqual({
      agent: 'codex',
      pid: 100,
    });
  });

  it("follows a script's symlink, relative to the process's cwd, when its own name matches nothing", () => {
    const resolver: PathResolver = (path) => (path === '/work/bin/cc' ? '/opt/claude/claude.js' : undefined);
    const linked = process(100, 'node', ['node', 'bin/cc'], { cwd: '/work' });
    expect(identify(job(linked), SETS, resolver)).toEqual({ agent: 'claude', pid: 100 });
  });

  it("follows a direct binary's executable link", () => {
    const resolver: PathResolver = (path) => (path === '/usr/bin/cx' ? '/opt/codex/codex' : undefined);
    const linked = process(100, 'cx', ['cx'], { exe: '/usr/bin/cx' });
    expect(identify(job(linked), SETS, resolver)).toEqual({ agent: 'codex', pid: 100 });
  });

  it('matches process_names, not the id, when the set lists them', () => {
    const sets = [set('gemini', 'process_names = ["gemini-cli"]')];
    expect(identify(job(process(100, 'gemini-cli', ['gemini-cli'])), sets, noLinks)).toEqual({
      agent: 'gemini',
      pid: 100,
    });
    expect(identify(job(process(100, 'gemini', ['gemini'])), sets, noLinks)).toBeUndefined();
  });
});
