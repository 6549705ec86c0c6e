// seed 003 §4 on macOS: the `ps` reader, driven by recorded `ps` output (runs on any platform).
import {
  agentFromEnvironmentLine,
  MacPsTable,
  parsePsRows,
  type PsRunner,
} from '../../../src/zor/ident/macos-ps-table';

const ROWS = [
  '  501   400   501   600 /bin/zsh',
  '  600   501   600   600 /Users/me/.local/bin/Claude Helper',
  '  601   600   600   600 node',
].join('\n');

const scripted: PsRunner = (args) => {
  if (args[0] === '-A') return ROWS;
  const pids = args[args.length - 1]!;
  if (args.includes('pid=,ppid=,pgid=,tpgid=,comm=')) {
    return ROWS.split('\n')
      .filter((line) => pids.split(',').includes(line.trim().split(/\s+/)[0]!))
      .join('\n');
  }
  if (args[0] === '-E')
    return '  600 claude --resume TERM=xterm ZOR_AGENT=claude\n  601 node /x/codex.js HOME=/Users/me\n';
  return '  600 claude --resume\n  601 node /x/codex.js\n';
};

describe('MacPsTable', () => {
  it('parses rows with a comm that contains spaces, keeping its basename', () => {
    expect(parsePsRows(ROWS)[1]).toEqual({
      pid: 600,
      ppid: 501,
      pgid: 600,
      tpgid: 600,
      comm: 'Claude Helper',
    });
  });

  it("reads the shell's terminal foreground group", () => {
    expect(new MacPsTable(scripted).foregroundPgid(501)).toBe(600);
  });

  it('lists the group leader first, with argv, argv0 and ZOR_AGENT', () => {
    const job = new MacPsTable(scripted).job(501, 600);
    expect(job.processes).toEqual([
      {
        pid: 600,
        ppid: 501,
        pgrp: 600,
        comm: 'Claude Helper',
        argv: ['claude', '--resume'],
        argv0: 'claude',
        envAgent: 'claude',
      },
      {
        pid: 601,
        ppid: 600,
        pgrp: 600,
        comm: 'node',
        argv: ['node', '/x/codex.js'],
        argv0: 'node',
        envAgent: undefined,
      },
    ]);
  });

  it('finds no leader for a pid that leads no group, and nothing when ps fails', () => {
    expect(new MacPsTable(scripted).leader(601)).toBeUndefined();
    const failing = new MacPsTable(() => undefined);
    expect(failing.foregroundPgid(1)).toBeUndefined();
    expect(failing.job(1, 1).processes).toEqual([]);
  });

  it('reads ZOR_AGENT only as a whole environment word', () => {
    expect(agentFromEnvironmentLine('x NOT_ZOR_AGENT=no ZOR_AGENT=yes')).toBe('yes');
    expect(agentFromEnvironmentLine('x NOT_ZOR_AGENT=no')).toBeUndefined();
  });
});
