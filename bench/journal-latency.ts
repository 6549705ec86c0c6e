/**
 * What journaling a structural change before its reply costs a verb (issue 32): the latency of
 * `new` and `kill` over a held connection (the server's part) and of the `fux new` / `fux kill`
 * processes (what a user waits for), on a server with a few panes and on one whose 40 panes each
 * keep 2000 lines of history (a full journal of megabytes); and, in this process, what a reply
 * waits for: a record of a one-pane change written and flushed to the disk of the state dir.
 * Run it with `npx esbuild bench/journal-latency.ts --bundle --platform=node --packages=external
 * --outfile=.tmp/journal-latency.js && node .tmp/journal-latency.js` (a bundle outside the
 * repository would not find it).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FuxClient } from '../src/client';
import { ChangeLog } from '../src/server/journal/change-log';
import { FuxServer } from './lib/fux-server';
import { fuxBin } from './lib/repo';
import { formatMs, median, percentile } from './lib/stats';
import { until } from './lib/wait';

const RPC_RUNS = 40;
const CLI_RUNS = 12;
const HISTORY_PANES = 40;

/** Median and p90 of a sample, as a table cell. */
function figures(ms: readonly number[]): string {
  return `median ${formatMs(median(ms))}, p90 ${formatMs(percentile(ms, 90))}`;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

/** `new` then `kill` of a pane, RPC_RUNS times, over the held connection. */
async function rpc(fux: FuxClient, workspace: string): Promise<{ open: number[]; kill: number[] }> {
  const open: number[] = [];
  const kill: number[] = [];
  for (let i = 0; i < RPC_RUNS; i++) {
    let id = 0;
    open.push(
      await timed(async () => (id = (await fux.new.mutate({ workspace, argv: ['sleep', '600'] })).id)),
    );
    kill.push(await timed(() => fux.kill.mutate({ workspace, id })));
  }
  return { open, kill };
}

/** `fux new` then `fux kill`, CLI_RUNS times, each a process as a user runs it. */
function cli(server: FuxServer, workspace: string): { open: number[]; kill: number[] } {
  const open: number[] = [];
  const kill: number[] = [];
  const run = (args: string[]): { ms: number; out: string } => {
    const start = performance.now();
    const r = spawnSync(process.execPath, [fuxBin, ...args], { env: server.env, encoding: 'utf8' });
    const ms = performance.now() - start;
    if (r.status !== 0) throw new Error(`fux ${args.join(' ')}: ${r.stderr}`);
    return { ms, out: r.stdout };
  };
  for (let i = 0; i < CLI_RUNS; i++) {
    const opened = run(['new', '-w', workspace, '--json', '--', 'sleep', '600']);
    open.push(opened.ms);
    const { id } = JSON.parse(opened.out) as { id: number };
    kill.push(run(['kill', '-w', workspace, String(id)]).ms);
  }
  return { open, kill };
}

/** HISTORY_PANES shells, each having printed 2000 lines, all of it in the journal. */
async function fillHistories(server: FuxServer, fux: FuxClient): Promise<void> {
  for (let i = 0; i < HISTORY_PANES; i++) {
    const workspace = `h${i % 4}`;
    if (i < 4) await fux.workspace.new.mutate({ name: workspace, cols: 200, rows: 50 });
    const { id } = await (i % 8 < 4 ? fux.new : fux.tab.new).mutate({ workspace, argv: ['/bin/sh'] });
    await fux.sendKeys.mutate({
      workspace,
      id,
      keys: ['seq 2000 | sed "s/^/history line of some length /"', 'Enter'],
    });
  }
  const file = path.join(server.env.XDG_STATE_HOME!, 'fux', 'journal.json');
  await until(
    () => {
      try {
        return (fs.readFileSync(file, 'utf8').match(/history line of some length 2000/g)?.length ?? 0) >=
          HISTORY_PANES
          ? true
          : undefined;
      } catch {
        return undefined;
      }
    },
    'the journal to hold every history',
    60_000,
    200,
  );
  console.log(`journal: ${(fs.statSync(file).size / 1024 / 1024).toFixed(1)} MiB`);
}

async function scenario(
  label: string,
  prepare?: (s: FuxServer, f: FuxClient) => Promise<void>,
): Promise<void> {
  const server = await FuxServer.start();
  const conn = await server.connect();
  try {
    const fux = conn.client;
    if (prepare) await prepare(server, fux);
    await fux.new.mutate({ workspace: 'bench', argv: ['sleep', '600'] });
    const r = await rpc(fux, 'bench');
    const c = cli(server, 'bench');
    console.log(`${label}:`);
    console.log(`  rpc new   ${figures(r.open)}`);
    console.log(`  rpc kill  ${figures(r.kill)}`);
    console.log(`  fux new   ${figures(c.open)}`);
    console.log(`  fux kill  ${figures(c.kill)}`);
  } finally {
    conn.close();
    await server.stop();
  }
}

/** A record as `kill` appends it, written and flushed RPC_RUNS times in a row, in a temp state dir. */
async function recordAndFlush(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fux-bench-changes-'));
  const changes = new ChangeLog([path.join(dir, 'c1'), path.join(dir, 'c2')], 0, {
    info: () => undefined,
    warn: (m) => console.error(m),
  });
  const record = {
    at: Date.now(),
    socket: path.join(dir, 'fux.sock'),
    workspace: 'bench',
    now: {
      cols: 80,
      rows: 24,
      status: {},
      activeTab: 1,
      next: { pane: 3, tab: 2 },
      tabs: [1],
      changedTabs: [{ id: 1, layout: { pane: 1 }, recent: [1], zoomed: null }],
      opened: [],
      closed: [2],
    },
  };
  const ms: number[] = [];
  try {
    for (let i = 0; i < RPC_RUNS * 5; i++) {
      ms.push(
        await timed(() => {
          changes.append(record);
          return changes.durable();
        }),
      );
    }
  } finally {
    await changes.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(`record + fdatasync (what a reply waits for): ${figures(ms)}`);
}

async function main(): Promise<void> {
  await recordAndFlush();
  await scenario('one workspace, one pane besides');
  await scenario(`${HISTORY_PANES} panes of 2000 lines of history besides`, fillHistories);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
