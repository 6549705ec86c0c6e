/**
 * RESTORE (issue 12): a server with 40 panes, each with 2000 lines of history (the default
 * `restore_history`), is killed with SIGKILL; the next server restores them. Measured: the time
 * from starting the next server until the last pane runs again (its shell's prompt shows after
 * the restore marker), and what keeping the journal costs: one snapshot of the 40 panes (history
 * rendered, JSON built), timed in this process on the server's own code, and the journal's size.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FuxClient } from '../src/client';
import { AgentDetection } from '../src/server/agent/agent-detection';
import { EventBus } from '../src/server/events';
import { AgentSessions, historyText, snapshot } from '../src/server/journal/snapshot';
import { defaultSettings, Workspaces } from '../src/server/workspaces';
import type { PaneEntry } from '../src/server/workspace';
import { FuxServer } from './lib/fux-server';
import type { Benchmark, BenchOptions, Section } from './lib/report';
import { formatMs, median } from './lib/stats';
import { until } from './lib/wait';
import { cpuMs } from './lib/cpu-time';

const WORKSPACES = 4;
const HISTORY = 2000;
const PROMPT = 'ready> ';
const GOAL_MS = 2000;

/** Each pane's history: numbered lines, then a marker the journal is watched for. */
const FILL = `seq ${HISTORY} | sed "s/^/history line /"; echo "filled-$FUX_WORKSPACE-$FUX_PANE"`;

async function openPanes(
  fux: FuxClient,
  env: Record<string, string>,
  panes: number,
  cwd: string,
): Promise<void> {
  const perWorkspace = panes / WORKSPACES;
  for (let w = 0; w < WORKSPACES; w++) {
    const workspace = `r${w}`;
    await fux.workspace.new.mutate({ name: workspace, cols: 160, rows: 48 });
    for (let i = 0; i < perWorkspace; i++) {
      const launch = { workspace, argv: ['/bin/sh'], cwd, env: { ...env, PS1: PROMPT } };
      // Two tabs of panes per workspace, split as `new` splits them.
      if (i === Math.ceil(perWorkspace / 2)) await fux.tab.new.mutate(launch);
      else await fux.new.mutate(launch);
    }
  }
}

/** The journal's panes whose history holds their fill marker. */
function journaled(file: string): number {
  try {
    const j = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      workspaces: Array<{ name: string; panes: Array<{ id: number; history: string }> }>;
    };
    return j.workspaces.flatMap((w) => w.panes.filter((p) => p.history.includes(`filled-${w.name}-${p.id}`)))
      .length;
  } catch {
    return 0;
  }
}

interface Run {
  /** From starting the next server to its socket answering. */
  listenMs: number;
  /** From starting the next server to the last restored pane showing its prompt. */
  runningMs: number;
  /** CPU time the next server used until then (start-up, restore, answering the polls). */
  serverCpuMs: number;
  journalBytes: number;
}

async function crashAndRestore(panes: number, log: (m: string) => void): Promise<Run> {
  const first = await FuxServer.start();
  const home = first.home;
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'fux-bench-restore-'));
  const conn = await first.connect();
  await openPanes(conn.client, first.env, panes, cwd);
  const list = await conn.client.list.query({});
  for (const w of list.workspaces)
    for (const p of w.panes)
      await conn.client.sendKeys.mutate({ workspace: w.name, id: p.id, keys: [FILL, 'Enter'] });
  const journal = path.join(home, 'state', 'fux', 'journal.json');
  await until(
    () => (journaled(journal) === panes ? true : undefined),
    `${panes} panes journaled`,
    120_000,
    100,
  );
  const journalBytes = fs.statSync(journal).size;
  conn.close();
  await first.crash();

  const t0 = performance.now();
  const next = await FuxServer.start({ home });
  const listenMs = performance.now() - t0;
  const c2 = await next.connect();
  const waiting = new Set<string>();
  const restored = await c2.client.list.query({});
  for (const w of restored.workspaces) for (const p of w.panes) waiting.add(`${w.name}:${p.id}`);
  if (waiting.size !== panes) throw new Error(`${waiting.size} of ${panes} panes came back`);
  await until(
    async () => {
      for (const key of [...waiting]) {
        const [workspace, id] = key.split(':') as [string, string];
        const { text } = await c2.client.capture.query({ workspace, id: Number(id) });
        const after = text.split('── restored').at(-1) ?? '';
        // A capture is right-trimmed: the prompt's trailing space is not in it.
        if (after.includes(PROMPT.trimEnd())) waiting.delete(key);
      }
      return waiting.size === 0 ? true : undefined;
    },
    'every restored pane to show its prompt',
    60_000,
    5,
  );
  const runningMs = performance.now() - t0;
  const serverCpuMs = cpuMs(next.pid);
  c2.close();
  await next.stop();
  fs.rmSync(cwd, { recursive: true, force: true });
  log(
    `RESTORE ${panes} panes: listening ${formatMs(listenMs)}, all running ${formatMs(runningMs)}, server CPU ${formatMs(serverCpuMs)}`,
  );
  return { listenMs, runningMs, serverCpuMs, journalBytes };
}

/** One snapshot of `panes` panes with full history, on the server's own code, in this process. */
async function snapshotCost(
  panes: number,
  reps: number,
): Promise<{ total: number[]; perPane: number[]; bytes: number }> {
  const quiet = { info: () => undefined, warn: () => undefined };
  const workspaces = new Workspaces(
    defaultSettings('/nonexistent/fux.sock'),
    new EventBus(),
    AgentDetection.load(process.env, quiet),
  );
  const env = Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const opened: Array<{ ws: string; e: PaneEntry }> = [];
  for (let i = 0; i < panes; i++) {
    // A workspace each, so that no pane is too narrow for its marker line.
    const ws = `s${i}`;
    workspaces.create(ws, { cols: 80, rows: 24 });
    opened.push({
      ws,
      e: workspaces.open(ws, { argv: ['/bin/sh', '-c', `${FILL}; exec cat`], cwd: os.tmpdir(), env }),
    });
  }
  await until(
    () =>
      opened.every(({ ws, e }) => workspaces.capture(ws, e.id, false, 0).text.includes('filled-'))
        ? true
        : undefined,
    'the snapshot panes to fill',
    120_000,
    250,
  );
  const sessions = new AgentSessions();
  const total: number[] = [];
  const perPane: number[] = [];
  let bytes = 0;
  for (let r = 0; r < reps; r++) {
    const t = performance.now();
    const histories = new Map<PaneEntry, string>();
    for (const { e } of opened) {
      const p = performance.now();
      histories.set(e, historyText(e, HISTORY));
      perPane.push(performance.now() - p);
    }
    const text = JSON.stringify(
      snapshot(workspaces.all(), {
        fux: 'bench',
        socket: '/s',
        serverEnv: process.env,
        history: (e) => histories.get(e) ?? '',
        sessions,
        closed: false,
        now: Date.now(),
        seq: 0,
      }),
    );
    total.push(performance.now() - t);
    bytes = Buffer.byteLength(text);
  }
  workspaces.hangUpAll();
  return { total, perPane, bytes };
}

async function run(options: BenchOptions): Promise<Section> {
  const panes = options.quick ? 8 : 40;
  const runs = options.quick ? 1 : 3;
  const results: Run[] = [];
  for (let r = 0; r < runs; r++) results.push(await crashAndRestore(panes, options.log));
  const cost = await snapshotCost(panes, options.quick ? 3 : 10);
  const running = median(results.map((r) => r.runningMs));
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  return {
    id: 'RESTORE',
    title: 'restore after a crash',
    method: [
      `${panes} panes (${WORKSPACES} workspaces of two tabs) of /bin/sh, each with ${HISTORY} lines of history; once all are in the journal the server is killed with SIGKILL and another started in the same home.`,
      'Running: from starting the next server until every restored pane shows its shell prompt after the restore marker (polled with `capture`); median of the runs.',
      `Snapshot: the journal of the same ${panes} panes with every history rendered (with its styles) and the JSON built, on the server's own code in the bench process. The server renders only the histories of panes that printed since the last write, one pane per turn of its event loop (so "one pane" is the longest it holds up other work), at most once a second after a change and every 5 s while panes print.`,
      `Load average at the end: ${load}.`,
    ],
    tables: [
      {
        head: ['run', 'listening', 'all panes running', 'server CPU until then', 'journal size'],
        rows: results.map((r, i) => [
          String(i + 1),
          formatMs(r.listenMs),
          formatMs(r.runningMs),
          formatMs(r.serverCpuMs),
          `${(r.journalBytes / 1024).toFixed(0)} KiB`,
        ]),
      },
      {
        head: ['snapshot of', 'all histories + JSON (median)', 'one pane (median)', 'one pane (max)', 'JSON'],
        rows: [
          [
            `${panes} panes`,
            formatMs(median(cost.total)),
            formatMs(median(cost.perPane)),
            formatMs(Math.max(...cost.perPane)),
            `${(cost.bytes / 1024).toFixed(0)} KiB`,
          ],
        ],
      },
    ],
    verdicts: [
      { target: `${panes} panes running again ≤ 2 s`, measured: formatMs(running), met: running <= GOAL_MS },
    ],
  };
}

export const restoreBench: Benchmark = { id: 'RESTORE', title: 'restore after a crash', run };
