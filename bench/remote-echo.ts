/**
 * Keystroke to echo through the attach protocol, over iroh on loopback against the local socket,
 * and the bytes each keystroke costs (issue 10: ≤ 1 ms added on loopback; issue 6: ≤ 1 KiB per
 * keystroke). `npm run bench -- b9`.
 *
 * Both paths drive a `cat` pane of one server with the attach procedures a client uses:
 * subscribe to `attach.session`, send a key as an `attach.input` notification (as the attach
 * client does: no reply), time until a frame brings the pane's changed row. Local and remote rounds are interleaved. Bytes are the frames' bytes on
 * the stream and, for iroh, the UDP bytes both ways (QUIC headers, acks and liveness pings too).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Duplex } from 'node:stream';
import { connect, type Connection } from '../src/client';
import { localIdentity } from '../src/client/remote/identity';
import { openRemote, type RemoteTransport } from '../src/client/remote/connect';
import { connectUnix, createStreamClient } from '../src/rpc/client';
import type { RemoteRouter } from '../src/server/attach/router';
import type { AttachFrame } from '../src/protocol/attach';
import { serverMain } from './lib/repo';
import type { Benchmark, BenchOptions, Section } from './lib/report';
import { formatMs, median, percentile } from './lib/stats';
import { sleep, until, within } from './lib/wait';

const OFFLINE = { FUX_IROH_RELAY: 'disabled', FUX_IROH_BIND: '127.0.0.1:0' };

/** A home of its own for each side: the server's, and the client machine's (its own key). */
function home(): { dir: string; env: Record<string, string> } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fux-bench-remote-'));
  const runtime = path.join(dir, 'run');
  fs.mkdirSync(runtime, { mode: 0o700 });
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('FUX_')) env[k] = v;
  return {
    dir,
    env: {
      ...env,
      ...OFFLINE,
      XDG_RUNTIME_DIR: runtime,
      XDG_STATE_HOME: path.join(dir, 'state'),
      XDG_CONFIG_HOME: path.join(dir, 'config'),
      FUX_SOCKET: path.join(runtime, 'fux', 'fux.sock'),
      SHELL: '/bin/sh',
    },
  };
}

type StreamClient = ReturnType<typeof createStreamClient<RemoteRouter>>;

/** One attached session over `stream`: its frames, its client id and the pane it types into. */
class Session {
  received = 0;
  private waiters: Array<(frame: AttachFrame) => void> = [];
  client = '';
  pane = 0;

  private readonly attach: StreamClient['client'];

  constructor(
    private readonly rpc: StreamClient,
    stream: Duplex,
  ) {
    this.attach = rpc.client;
    stream.on('data', (chunk: Buffer) => (this.received += chunk.length));
  }

  async start(workspace: string): Promise<void> {
    const first = new Promise<AttachFrame>((resolve) => this.waiters.push(resolve));
    this.attach.attach.session.subscribe(
      { workspace, cols: 120, rows: 40 },
      { onData: (frame) => this.frame(frame), onError: () => undefined },
    );
    const frame = await within(first, 10_000, 'the first attach frame');
    this.client = frame.client ?? '';
    this.pane = frame.view?.panes.find((p) => p.focused)?.id ?? 0;
  }

  /** One call's round trip with no pane work behind it: a resize to the size it already has. */
  async call(): Promise<number> {
    const start = performance.now();
    await this.attach.attach.resize.mutate({ client: this.client, cols: 120, rows: 40 });
    return performance.now() - start;
  }

  private frame(frame: AttachFrame): void {
    for (const wake of this.waiters.splice(0)) wake(frame);
  }

  /** Type `key`; resolve with the ms until a frame updates the pane's rows, and the bytes it took. */
  async echo(key: string): Promise<{ ms: number; bytes: number }> {
    const before = this.received;
    const echoed = new Promise<void>((resolve) => {
      const wait = (frame: AttachFrame): void => {
        const lines = frame.panes?.[String(this.pane)]?.lines;
        const shown = lines && Object.values(lines).some((row) => row.some((run) => run[1].includes(key)));
        if (shown) resolve();
        else this.waiters.push(wait);
      };
      this.waiters.push(wait);
    });
    const start = performance.now();
    this.rpc.notify('attach.input', { client: this.client, pane: this.pane, data: key });
    await within(echoed, 5_000, 'the echo frame');
    return { ms: performance.now() - start, bytes: this.received - before };
  }
}

async function run(options: BenchOptions): Promise<Section> {
  const keys = options.quick ? 40 : 300;
  const server = home();
  const laptop = home();
  let child: ChildProcess | undefined;
  let control: Connection | undefined;
  let remote: RemoteTransport | undefined;
  try {
    child = spawn(process.execPath, [serverMain, '--socket', server.env.FUX_SOCKET!, '--foreground'], {
      env: server.env,
      stdio: 'ignore',
    });
    control = await until(
      () => connect({ socket: server.env.FUX_SOCKET, autostart: false }).catch(() => undefined),
      'the fux server',
      15_000,
      20,
    );
    // A workspace each: a session also gets frames for what the other path's keys change, and its
    // frame pacing (≤ 60/s) would then delay its own echo.
    for (const name of ['local', 'remote']) {
      await control.client.workspace.new.mutate({ name, cols: 120, rows: 40 });
      await control.client.new.mutate({ workspace: name, argv: ['cat'], cwd: server.dir });
    }
    await control.client.remote.allow.add.mutate({ ids: [localIdentity(laptop.env).id] });
    const { ticket } = await control.client.remote.ticket.mutate({});

    const socket = await connectUnix(server.env.FUX_SOCKET!);
    const local = new Session(createStreamClient<RemoteRouter>(socket), socket);
    await local.start('local');
    remote = await openRemote(ticket, { env: laptop.env });
    const overIroh = new Session(createStreamClient<RemoteRouter>(remote.stream), remote.stream);
    await overIroh.start('remote');
    options.log(`  keystroke echo, local socket vs iroh on loopback, ${keys} keys each…`);

    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const localTimes: number[] = [];
    const remoteTimes: number[] = [];
    const localBytes: number[] = [];
    const remoteBytes: number[] = [];
    const udpBytes: number[] = [];
    for (let i = 0; i < keys; i++) {
      const key = letters[i % letters.length]!;
      const l = await local.echo(key);
      localTimes.push(l.ms);
      localBytes.push(l.bytes);
      await sleep(10);
      const udp0 = remote.udpBytes();
      const r = await overIroh.echo(key);
      const udp1 = remote.udpBytes();
      remoteTimes.push(r.ms);
      remoteBytes.push(r.bytes);
      if (udp0 && udp1) udpBytes.push(udp1.sent - udp0.sent + (udp1.received - udp0.received));
      await sleep(10);
      if (i % 40 === 39) {
        await control.client.sendKeys.mutate({ workspace: 'local', id: local.pane, keys: ['Enter'] });
        await control.client.sendKeys.mutate({ workspace: 'remote', id: overIroh.pane, keys: ['Enter'] });
        await sleep(50);
      }
    }
    const localCalls: number[] = [];
    const remoteCalls: number[] = [];
    for (let i = 0; i < keys; i++) {
      localCalls.push(await local.call());
      remoteCalls.push(await overIroh.call());
    }
    const added = median(remoteTimes) - median(localTimes);
    const perKey = median(udpBytes);
    return {
      id: 'B9',
      title: 'remote attach: keystroke echo over iroh on loopback vs the local socket, bytes per keystroke',
      method: [
        'one server, relays and discovery off; two workspaces with a `cat` pane each, one attached over the unix socket, one over iroh (a second identity, allowed)',
        `each path: an \`attach.input\` notification with one letter, timed until a frame updates the pane's row; ${keys} keys each, interleaved`,
        'bytes: frame bytes on the stream per key; for iroh also UDP bytes both ways per key (QUIC and pings included)',
        'call: the round trip of `attach.resize` to the size the session has (no pane work): the transport and tRPC alone',
      ],
      tables: [
        {
          head: ['path', 'echo p50', 'echo p99', 'call p50', 'stream bytes / key', 'UDP bytes / key'],
          rows: [
            [
              'local socket',
              formatMs(percentile(localTimes, 50)),
              formatMs(percentile(localTimes, 99)),
              formatMs(median(localCalls)),
              String(median(localBytes)),
              '',
            ],
            [
              'iroh (loopback)',
              formatMs(percentile(remoteTimes, 50)),
              formatMs(percentile(remoteTimes, 99)),
              formatMs(median(remoteCalls)),
              String(median(remoteBytes)),
              String(perKey),
            ],
          ],
        },
      ],
      verdicts: [
        { target: '≤ local + 1 ms on loopback (p50)', measured: `+${formatMs(added)}`, met: added <= 1 },
        { target: '≤ 1 KiB per keystroke', measured: `${perKey} B`, met: perKey <= 1024 },
      ],
    };
  } finally {
    await remote?.close();
    control?.close();
    child?.kill('SIGTERM');
    if (child && child.exitCode === null) await new Promise((resolve) => child!.once('exit', resolve));
    for (const h of [server, laptop]) fs.rmSync(h.dir, { recursive: true, force: true });
  }
}

export const remoteEcho: Benchmark = { id: 'B9', title: 'remote echo', run };
