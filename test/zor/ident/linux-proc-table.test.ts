// seed 003 §4: the /proc reader against real spawned processes, and its parsing against a fake root.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pty from 'node-pty';
import { AgentProbe } from '../../../src/zor/ident/agent-probe';
import { identify } from '../../../src/zor/ident/identify';
import { LinuxProcTable, parseStat } from '../../../src/zor/ident/linux-proc-table';
import { parseRuleSet } from '../../../src/zor/rules/load';
import { until } from '../../helpers/wait-for';

const onLinux = process.platform === 'linux' ? describe : describe.skip;
const table = new LinuxProcTable();
const started: ChildProcess[] = [];
const terminals: pty.IPty[] = [];
let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'zor-proc-'));
});

afterEach(() => {
  for (const child of started.splice(0)) {
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
  for (const terminal of terminals.splice(0)) terminal.kill('SIGKILL');
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** Spawns in a new session, so the child leads its own process group. */
function start(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcess {
  const child = spawn(command, args, { detached: true, stdio: 'ignore', env });
  started.push(child);
  return child;
}

describe('parseStat', () => {
  it('reads fields after the last parenthesis, so a comm with spaces and ")" parses', () => {
    expect(parseStat('123 (a) b) c) S 1 456 456 34816 789 4194304 0')).toEqual({
      comm: 'a) b) c',
      ppid: 1,
      pgrp: 456,
      tpgid: 789,
    });
  });

  it('rejects a truncated line', () => {
    expect(parseStat('123 (x) S 1')).toBeUndefined();
  });
});

describe('LinuxProcTable over a fake /proc with children files', () => {
  it('walks task children breadth-first from the child and the leader, keeping the group', () => {
    const root = join(scratch, 'fakeproc');
    const write = (
      pid: number,
      comm: string,
      ppid: number,
      pgrp: number,
      argv: string[],
      children: number[] = [],
    ) => {
      mkdirSync(join(root, String(pid), 'task', String(pid)), { recursive: true });
      writeFileSync(
        join(root, String(pid), 'stat'),
        `${pid} (${comm}) S ${ppid} ${pgrp} 10 34816 ${pgrp} 0 0`,
      );
      writeFileSync(join(root, String(pid), 'cmdline'), argv.join('\0') + '\0');
      writeFileSync(
        join(root, String(pid), 'task', String(pid), 'children'),
        children.map((c) => `${c} `).join(''),
      );
    };
    write(10, 'bash', 1, 10, ['-bash'], [20, 30]);
    write(20, 'node', 10, 20, ['node', '/x/claude.js'], [21]);
    write(21, 'git', 20, 20, ['git', 'status']);
    write(30, 'sleep', 10, 30, ['sleep', '9']);
    const fake = new LinuxProcTable(root);
    const job = fake.job(10, 20);
    expect(job.processes.map((p) => [p.pid, p.comm, p.argv])).toEqual([
      [20, 'node', ['node', '/x/claude.js']],
      [21, 'git', ['git', 'status']],
    ]);
    expect(fake.leader(20)?.pid).toBe(20);
    expect(fake.leader(21)).toBeUndefined();
    expect(fake.foregroundPgid(10)).toBe(10);
  });

  it('lists the leader it is given as it is, and reads the others', () => {
    const root = join(scratch, 'fakeproc2');
    const write = (pid: number, comm: string, pgrp: number, children: number[] = []) => {
      mkdirSync(join(root, String(pid), 'task', String(pid)), { recursive: true });
      writeFileSync(join(root, String(pid), 'stat'), `${pid} (${comm}) S 1 ${pgrp} 10 34816 ${pgrp} 0 0`);
      writeFileSync(join(root, String(pid), 'cmdline'), `${comm}\0`);
      writeFileSync(
        join(root, String(pid), 'task', String(pid), 'children'),
        children.map((c) => `${c} `).join(''),
      );
    };
    write(20, 'sh', 20, [21]);
    write(21, 'claude', 20);
    const fake = new LinuxProcTable(root);
    const leader = fake.leader(20)!;
    const job = fake.job(20, 20, leader);
    expect(job.processes[0]).toBe(leader);
    expect(job.processes.map((p) => p.comm)).toEqual(['sh', 'claude']);
    // A leader of another group is not taken for this one's.
    expect(fake.job(20, 20, { ...leader, pid: 99 }).processes[0]).not.toBe(leader);
  });
});

onLinux('LinuxProcTable over the real /proc', () => {
  it("lists a spawned sleep as its group's leader with its comm and argv", async () => {
    const child = start('sleep', ['30']);
    const leader = await until(() => table.leader(child.pid!), 10_000, 'the sleep process');
    expect(leader).toMatchObject({ pid: child.pid, pgrp: child.pid, comm: 'sleep', argv: ['sleep', '30'] });
  });

  it("lists both processes of a `sh -c 'sleep 30; true'` job", async () => {
    const child = start('sh', ['-c', 'sleep 30; true']);
    const job = await until(
      () => {
        const listed = table.job(child.pid!, child.pid!);
        // The forked child is still called sh until it has exec'd sleep; wait for the exec.
        return listed.processes.length === 2 && listed.processes.some((p) => p.comm === 'sleep') && listed;
      },
      10_000,
      'sh and its sleep',
    );
    expect(job.processes.map((p) => p.comm).sort()).toEqual(['sh', 'sleep']);
    expect(job.processes.every((p) => p.pgrp === child.pid)).toBe(true);
  });

  it('reads ZOR_AGENT from a spawned process environment', async () => {
    const child = start('sleep', ['30'], { ...process.env, ZOR_AGENT: 'claude' });
    const leader = await until(() => table.leader(child.pid!), 10_000, 'the sleep process');
    expect(leader.envAgent).toBe('claude');
  });

  it('identifies a node script reached through a symlink', async () => {
    const script = join(scratch, 'claude.js');
    writeFileSync(script, 'setTimeout(() => {}, 30000);\n');
    symlinkSync(script, join(scratch, 'cc'));
    const child = start(process.execPath, [join(scratch, 'cc')]);
    const sets = [parseRuleSet('id = "claude"\nversion = "1"\n', 'claude.toml')];
    const found = await until(
      () => identify(table.job(child.pid!, child.pid!), sets),
      10_000,
      'node running the linked script',
    );
    expect(found).toEqual({ agent: 'claude', pid: child.pid });
  });

  it("reads a pty's foreground group, and the probe finds the job a job-control shell puts there", async () => {
    // `sh -m` runs `sleep` in a process group of its own and makes it the terminal's foreground.
    const shell = pty.spawn('/bin/sh', ['-mc', 'sleep 30; true'], { cols: 80, rows: 24 });
    terminals.push(shell);
    const sets = [parseRuleSet('id = "sleeper"\nversion = "1"\nprocess_names = ["sleep"]\n', 's.toml')];
    const sleepGroup = await until(
      () => {
        const pgid = table.foregroundPgid(shell.pid);
        return pgid !== undefined && pgid !== shell.pid && table.leader(pgid)?.comm === 'sleep' && pgid;
      },
      10_000,
      'sleep in the foreground',
    );
    const probe = new AgentProbe({ table, sets, child: shell.pid, now: 0 });
    expect(probe.tick(0, { screenChanged: false, holdPending: false })).toEqual([
      { kind: 'found', agent: 'sleeper', pid: sleepGroup },
    ]);
  });
});
