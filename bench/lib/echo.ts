import * as net from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Connection } from '../../src/client';
import type { FuxEventStream } from './fux-events';
import type { TmuxControl } from './tmux-control';
import type { TmuxServer } from './tmux-server';
import { sleep, within } from './wait';

/** A server with `panes` idle `cat` panes that can time one keystroke's echo. */
export interface EchoTarget {
  readonly panes: number;
  /** Send one key to pane `index`; resolves with the ms until its echo was seen. */
  keystroke(index: number): Promise<number>;
}

export const ECHO_COLS = 200;
export const ECHO_ROWS = 50;
const ECHO_WORKSPACE = 'echo';
const KEY = 'x';
const ECHO_TIMEOUT_MS = 5_000;
/**
 * The least time between two keystrokes to the same pane. fux's `pane.output` nudge fires at once
 * only after 250 ms without one (then it is rate-capped), so each pane is given 300 ms; keystrokes
 * go round-robin over several panes to keep the run short. tmux gets the same schedule.
 */
export const PANE_GAP_MS = 300;

/**
 * fux: `sendKeys` on the typed client, then the `pane.output` event for that pane on a
 * subscription held open all along. The echo is the pty's own (the line discipline echoes the
 * key; `cat` prints nothing until Enter), so the event means "the echo has been parsed".
 */
export async function fuxEchoTarget(
  conn: Connection,
  events: FuxEventStream,
  panes: number,
  cwd: string,
): Promise<EchoTarget> {
  await conn.client.workspace.new.mutate({ name: ECHO_WORKSPACE, cols: ECHO_COLS, rows: ECHO_ROWS });
  const ids: number[] = [];
  for (let i = 0; i < panes; i++) {
    ids.push((await conn.client.tab.new.mutate({ workspace: ECHO_WORKSPACE, argv: ['cat'], cwd })).id);
  }
  return {
    panes,
    async keystroke(index) {
      const id = ids[index]!;
      const echoed = events.next(
        (e) => e.type === 'pane.output' && e.workspace === ECHO_WORKSPACE && e.id === id,
        ECHO_TIMEOUT_MS,
        `the echo in fux pane ${id}`,
      );
      const start = performance.now();
      await conn.client.sendKeys.mutate({ workspace: ECHO_WORKSPACE, id, keys: [KEY], literal: true });
      return (await echoed).at - start;
    },
  };
}

/**
 * tmux: `send-keys` on a control-mode client attached to the session of the `cat` panes, then
 * that pane's `%output` line, which tmux sends as soon as it has read (and parsed) the echo.
 */
export async function tmuxEchoTarget(
  tmux: TmuxServer,
  panes: number,
): Promise<{ target: EchoTarget; control: TmuxControl }> {
  const ids = [await tmux.newSession(ECHO_WORKSPACE, ['cat'], ECHO_COLS, ECHO_ROWS)];
  while (ids.length < panes) ids.push(await tmux.newWindow(ECHO_WORKSPACE, ['cat']));
  const control = await tmux.control(ECHO_WORKSPACE);
  const target: EchoTarget = {
    panes,
    async keystroke(index) {
      const pane = ids[index]!;
      let stop: () => void = () => undefined;
      const echoed = new Promise<number>((resolve) => {
        stop = control.onOutput((id, data, at) => {
          if (id === pane && data.includes(KEY)) resolve(at);
        });
      });
      try {
        const start = performance.now();
        await control.command(`send-keys -t ${pane} -l ${KEY}`);
        return (await within(echoed, ECHO_TIMEOUT_MS, `the echo in tmux pane ${pane}`)) - start;
      } finally {
        stop();
      }
    },
  };
  return { target, control };
}

/**
 * The floor (bench/lib/floor-programs.ts): a bare node server of `cat` panes on a unix socket,
 * JSON lines each way; the key goes out as `{"p": pane, "k": "x"}` and its echo is the first
 * `{"p": pane, "d": …}` line holding it. `close` ends the connection.
 */
export async function floorEchoTarget(
  socket: string,
  panes: number,
): Promise<EchoTarget & { close(): void }> {
  const conn = net.connect(socket);
  await new Promise<void>((resolve, reject) => conn.once('connect', resolve).once('error', reject));
  conn.setEncoding('utf8');
  let waiter: { pane: number; resolve: (at: number) => void } | undefined;
  let buffered = '';
  conn.on('data', (text: string) => {
    buffered += text;
    for (let n = buffered.indexOf('\n'); n !== -1; n = buffered.indexOf('\n')) {
      const { p, d } = JSON.parse(buffered.slice(0, n)) as { p: number; d: string };
      buffered = buffered.slice(n + 1);
      if (waiter?.pane === p && d.includes(KEY)) {
        // Stamped once the line is decoded, as fux's event is (and tmux's `%output` line).
        waiter.resolve(performance.now());
        waiter = undefined;
      }
    }
  });
  return {
    panes,
    async keystroke(index) {
      const echoed = new Promise<number>((resolve) => (waiter = { pane: index, resolve }));
      const start = performance.now();
      conn.write(`${JSON.stringify({ p: index, k: KEY })}\n`);
      return (await within(echoed, ECHO_TIMEOUT_MS, `the echo in the floor's pane ${index}`)) - start;
    },
    close: () => conn.destroy(),
  };
}

/**
 * `count` keystrokes round-robin over the target's panes, each pane's next one no sooner than
 * PANE_GAP_MS after its last echo; the first keystroke of each pane is a warm-up, not counted.
 */
export async function measureEcho(target: EchoTarget, count: number): Promise<number[]> {
  const lastEcho = new Array<number>(target.panes).fill(-Infinity);
  const latencies: number[] = [];
  for (let k = 0; k < count + target.panes; k++) {
    const index = k % target.panes;
    const wait = lastEcho[index]! + PANE_GAP_MS - performance.now();
    if (wait > 0) await sleep(wait);
    const ms = await target.keystroke(index);
    lastEcho[index] = performance.now();
    if (k >= target.panes) latencies.push(ms);
  }
  return latencies;
}
