/**
 * B6 idle cost (DESIGN.md §9): the server's CPU over 30 s while it hosts 40 idle panes: 39 shells
 * at their prompt and one identified agent idle at its prompt (the real Claude Code offline
 * against the fake model server when it is installed, else a stand-in that draws the captured
 * idle screen and declares itself claude). tmux hosts the same 40 panes in the same run. CPU is
 * utime + stime of the server process alone, from /proc, over the window; the panes are set up
 * and left to settle first (SETTLE_MS says why), and the settle's CPU is reported beside it.
 * Target ≤ 1 % of a core.
 *
 * Standalone: `node -r ./scripts/capture-register.js bench/b6-idle.ts [--quick]`; or as `idleCost`
 * from bench/run.ts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { prepareClaude, type ClaudeRun } from '../test/agents/claude';
import { findInstalledAgent } from '../test/agents/installed';
import { FakeModelServer } from '../test/fake-model/server';
import { fakeAgent } from './b7-screens';
import { cpuMs, ticksPerSecond } from './lib/cpu-time';
import { FuxEventStream } from './lib/fux-events';
import { FuxServer } from './lib/fux-server';
import type { Benchmark, BenchOptions, Section } from './lib/report';
import { formatRatio } from './lib/stats';
import { TmuxServer } from './lib/tmux-server';
import { sleep, until } from './lib/wait';

const PANES = 40;
const COLS = 120;
const ROWS = 40;
const WORKSPACE = 'b6';
const TARGET_PERCENT = 1;
/**
 * Before the window: well past the server's quiet window (8 s after a pane's last output), and long
 * enough for V8 to finish the garbage collection that setting up 40 terminals leaves behind
 * (measured: a fux server with 40 shells spends ~4 % of a core in its first 10 s, one burst of
 * ~1.5 % between 20 and 30 s, then 0.00 % per 10 s for as long as it was watched).
 */
const SETTLE_MS = 30_000;
const QUICK_SETTLE_MS = 20_000;

/** Percent of one core the process used over `ms`. */
async function cpuPercent(pid: number, ms: number): Promise<number> {
  const before = cpuMs(pid);
  await sleep(ms);
  return ((cpuMs(pid) - before) / ms) * 100;
}

/** The idle agent: how to run it (argv, env, cwd) and what it is, for the report. */
interface IdleAgent {
  readonly argv: string[];
  readonly env: Record<string, string>;
  readonly cwd: string;
  readonly label: string;
  close(): Promise<void>;
}

async function idleAgent(home: string): Promise<IdleAgent> {
  const claude = findInstalledAgent('claude');
  if ('missing' in claude) {
    const dir = fs.mkdtempSync(path.join(home, 'screens-'));
    const stand = fakeAgent(dir, { idle: 'idle-after-reply' });
    // The stand-in draws its idle screen once, then waits like an agent at its prompt.
    return {
      argv: ['/bin/sh', '-c', `cat "${dir}/idle"; exec cat > /dev/null`],
      env: stand.env,
      cwd: home,
      label: `a stand-in drawing fixtures/claude/idle-after-reply.txt (${claude.missing})`,
      close: async () => undefined,
    };
  }
  const model = await FakeModelServer.start();
  let run: ClaudeRun | undefined;
  try {
    run = await prepareClaude({ bin: claude.bin, origin: model.origin, cols: COLS, rows: ROWS });
  } catch (err) {
    await model.close();
    throw err;
  }
  const prepared = run;
  return {
    argv: [claude.bin],
    env: prepared.launch.env,
    cwd: prepared.sandbox.workdir,
    label: `Claude Code ${claude.version}, offline against the fake model server`,
    close: async () => {
      await model.close();
      await prepared.sandbox.remove();
    },
  };
}

interface Reading {
  settlePercent: number;
  percent: number;
  /** fux only: how the agent pane was listed at the end of the window. */
  agentListed?: string;
  /** fux only: output nudges from the agent's pane during the window (does it redraw at rest?). */
  agentNudges?: number;
}

async function fuxReading(
  settleMs: number,
  windowMs: number,
): Promise<{ reading: Reading; agentLabel: string }> {
  const server = await FuxServer.start();
  const agent = await idleAgent(server.home);
  try {
    const conn = await server.connect();
    const events = await FuxEventStream.open(conn, ['agent.state'], WORKSPACE);
    await conn.client.workspace.new.mutate({ name: WORKSPACE, cols: COLS, rows: ROWS });
    const idle = events.next(
      (e) => e.type === 'agent.state' && e.agent === 'claude' && e.state === 'idle',
      60_000,
      'the agent to be idle',
    );
    const { id } = await conn.client.tab.new.mutate({
      workspace: WORKSPACE,
      argv: agent.argv,
      env: agent.env,
      cwd: agent.cwd,
    });
    for (let i = 1; i < PANES; i++) {
      await conn.client.tab.new.mutate({ workspace: WORKSPACE, argv: ['sh'], cwd: server.home });
    }
    await idle;
    events.close();
    const settlePercent = await cpuPercent(server.pid, settleMs);
    let agentNudges = 0;
    const nudges = conn.client.subscribe.subscribe(
      { events: ['pane.output'], workspace: WORKSPACE },
      {
        onData: (e) => {
          if (e.type === 'pane.output' && e.id === id) agentNudges++;
        },
      },
    );
    const percent = await cpuPercent(server.pid, windowMs);
    nudges.unsubscribe();
    const { workspaces } = await conn.client.list.query({ workspace: WORKSPACE });
    const listed = workspaces[0]?.panes.find((p) => p.id === id);
    conn.close();
    return {
      reading: {
        settlePercent,
        percent,
        agentListed: listed ? `${listed.agent ?? 'no agent'} ${listed.state}` : 'gone',
        agentNudges,
      },
      agentLabel: agent.label,
    };
  } finally {
    await server.stop();
    await agent.close();
  }
}

async function tmuxReading(settleMs: number, windowMs: number): Promise<Reading> {
  const tmux = await TmuxServer.start({ historyLimit: 2000, cols: COLS, rows: ROWS });
  const home = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'fux-b6-tmux-'));
  const agent = await idleAgent(home);
  try {
    const env = Object.entries(agent.env).map(([k, v]) => `${k}=${v}`);
    await tmux.tmux([
      'new-session',
      '-d',
      '-s',
      WORKSPACE,
      '-x',
      String(COLS),
      '-y',
      String(ROWS),
      '-c',
      agent.cwd,
      'env',
      ...env,
      ...agent.argv,
    ]);
    for (let i = 1; i < PANES; i++) await tmux.newWindow(WORKSPACE, ['sh']);
    await until(
      async () =>
        (await tmux.tmux(['list-windows', '-t', WORKSPACE])).trim().split('\n').length === PANES
          ? true
          : undefined,
      'every tmux window to open',
      30_000,
      100,
    );
    const settlePercent = await cpuPercent(tmux.pid, settleMs);
    return { settlePercent, percent: await cpuPercent(tmux.pid, windowMs) };
  } finally {
    await tmux.stop();
    await agent.close();
    fs.rmSync(home, { recursive: true, force: true });
  }
}

async function run(options: BenchOptions): Promise<Section> {
  const windowMs = options.quick ? 10_000 : 30_000;
  const settleMs = options.quick ? QUICK_SETTLE_MS : SETTLE_MS;
  const seconds = windowMs / 1000;
  options.log(`B6 fux: ${PANES} panes, settle ${settleMs / 1000} s, measure ${seconds} s`);
  const { reading: fux, agentLabel } = await fuxReading(settleMs, windowMs);
  options.log(`B6 fux: ${fux.percent.toFixed(2)} % of a core; tmux next`);
  const tmux = await tmuxReading(settleMs, windowMs);
  options.log(`B6 tmux: ${tmux.percent.toFixed(2)} % of a core`);
  const pct = (x: number): string => `${x.toFixed(2)} %`;
  return {
    id: 'B6',
    title: 'idle cost',
    method: [
      `${PANES} panes of ${COLS}×${ROWS}, a tab (tmux: a window) each: ${PANES - 1} \`sh\` at their prompt and one idle agent: ${agentLabel}`,
      `fux: the agent is identified and published idle first; then ${settleMs / 1000} s to settle, then CPU (utime + stime of the server process, /proc, in ticks of 1/${ticksPerSecond()} s, so 0.00 % is less than one tick) over ${seconds} s; tmux: the same panes, the same settle and window`,
    ],
    tables: [
      {
        head: ['measure', 'fux', 'tmux', 'fux/tmux', 'target'],
        rows: [
          [
            `server CPU over ${seconds} s, % of a core`,
            pct(fux.percent),
            pct(tmux.percent),
            tmux.percent > 0 ? formatRatio(fux.percent / tmux.percent) : '—',
            `≤ ${TARGET_PERCENT} %`,
          ],
          [
            `server CPU over the ${settleMs / 1000} s settle before it`,
            pct(fux.settlePercent),
            pct(tmux.settlePercent),
            '',
            '',
          ],
          ['the agent pane in `list` at the end', fux.agentListed ?? '', '', '', ''],
          [
            '`pane.output` nudges from the agent pane during the window',
            String(fux.agentNudges ?? 0),
            '',
            '',
            '',
          ],
        ],
      },
    ],
    verdicts: [
      {
        target: `≤ ${TARGET_PERCENT} % of a core`,
        measured: pct(fux.percent),
        met: fux.percent <= TARGET_PERCENT,
      },
    ],
  };
}

export const idleCost: Benchmark = { id: 'B6', title: 'idle cost', run };
