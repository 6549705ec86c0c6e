import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Duplex } from 'node:stream';
import { initTRPC } from '@trpc/server';
import { observable } from '@trpc/server/observable';
import { z } from 'zod';
import { createStreamHandler } from '../../src/rpc/server';
import { createStreamClient, type StreamClient } from '../../src/rpc/client';
import { AllowList } from '../../src/server/remote/allow-list';
import { RemoteEndpoint } from '../../src/server/remote/endpoint';
import { serverIdentity } from '../../src/server/remote/identity';
import { allowListFile } from '../../src/server/remote/settings';
import { localIdentity } from '../../src/client/remote/identity';
import {
  openRemote,
  type OpenRemoteOptions,
  type RemoteStatus,
  type RemoteTransport,
} from '../../src/client/remote/connect';

/** A stand-in for the attach router: what a remote peer may call, and who the server thinks it is. */
const t = initTRPC.context<{ peer: string }>().create({ isDev: false });
export const standInRouter = t.router({
  whoami: t.procedure.input(z.object({})).query(({ ctx }) => ({ peer: ctx.peer })),
  echo: t.procedure.input(z.object({ text: z.string() })).mutation(({ input }) => input.text),
  /** A number every 50 ms, like a stream of frames. */
  ticks: t.procedure.input(z.object({})).subscription(() =>
    observable<number>((emit) => {
      let n = 0;
      const timer = setInterval(() => emit.next(n++), 50);
      return () => clearInterval(timer);
    }),
  ),
});
export type StandInRouter = typeof standInRouter;

/** A private fux config dir: its own key and allow-list. */
export function configHome(): { dir: string; env: Record<string, string> } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fux-remote-'));
  return {
    dir,
    env: {
      XDG_CONFIG_HOME: path.join(dir, 'config'),
      XDG_RUNTIME_DIR: path.join(dir, 'run'),
      XDG_STATE_HOME: path.join(dir, 'state'),
      FUX_IROH_RELAY: 'disabled',
      FUX_IROH_BIND: '127.0.0.1:0',
    },
  };
}

/** A server side on loopback with relays off: the real endpoint and allow-list, the stand-in router. */
export class TestServer {
  private constructor(
    readonly home: { dir: string; env: Record<string, string> },
    readonly allowList: AllowList,
    readonly endpoint: RemoteEndpoint,
    /** What the endpoint logged. */
    readonly log: string[],
    /** The streams it served. */
    readonly streams: Duplex[],
  ) {}

  /** `observe` hears each log line and each stream served as they happen (server-process.ts prints them). */
  static async start(
    allow: string[] = [],
    observe?: { log(line: string): void; stream(peer: string): void },
  ): Promise<TestServer> {
    const home = configHome();
    const configDir = path.join(home.env.XDG_CONFIG_HOME!, 'fux');
    const allowList = new AllowList(allowListFile(configDir));
    if (allow.length) allowList.add(allow);
    const log: string[] = [];
    const streams: Duplex[] = [];
    const endpoint = await RemoteEndpoint.start({
      secretKey: serverIdentity(configDir).key,
      network: { relays: false, bindAddr: '127.0.0.1:0' },
      isAllowed: (peer) => allowList.has(peer),
      serve: (stream, peer) => {
        streams.push(stream);
        observe?.stream(peer);
        createStreamHandler({ router: standInRouter, createContext: () => ({ peer }) })(stream);
      },
      log: {
        info: (m) => (log.push(m), observe?.log(m)),
        warn: (m) => (log.push(m), observe?.log(m)),
      },
    });
    return new TestServer(home, allowList, endpoint, log, streams);
  }

  /** The endpoint's UDP address on 127.0.0.1. */
  get udpAddress(): string {
    return this.endpoint.boundSockets().find((s) => s.startsWith('127.0.0.1:'))!;
  }

  async ticket(): Promise<string> {
    return (await this.endpoint.ticket()).ticket;
  }

  async stop(): Promise<void> {
    await this.endpoint.stop();
    fs.rmSync(this.home.dir, { recursive: true, force: true });
  }
}

/** A client machine: its own config dir (so its own key), dialling with relays off. */
export class TestPeer {
  private readonly opened: RemoteTransport[] = [];
  private readonly clients: StreamClient<StandInRouter>[] = [];
  readonly home = configHome();

  get id(): string {
    return localIdentity(this.home.env).id;
  }

  async open(target: string, options: OpenRemoteOptions = {}): Promise<RemoteTransport> {
    const transport = await openRemote(target, { env: this.home.env, connectTimeoutMs: 3000, ...options });
    this.opened.push(transport);
    return transport;
  }

  client(stream: Duplex): StreamClient<StandInRouter>['client'] {
    const c = createStreamClient<StandInRouter>(stream);
    this.clients.push(c);
    return c.client;
  }

  async close(): Promise<void> {
    for (const c of this.clients) c.close();
    for (const t of this.opened) await t.close();
    fs.rmSync(this.home.dir, { recursive: true, force: true });
  }
}

/** Every status a transport reported, and a way to wait for the first of a kind. */
export class StatusLog {
  readonly seen: RemoteStatus[] = [];
  private readonly waiting: { kind: RemoteStatus['kind']; resolve: (s: RemoteStatus) => void }[] = [];

  readonly listener = (status: RemoteStatus): void => {
    this.seen.push(status);
    for (const w of this.waiting.filter((w) => w.kind === status.kind)) {
      this.waiting.splice(this.waiting.indexOf(w), 1);
      w.resolve(status);
    }
  };

  kinds(): RemoteStatus['kind'][] {
    return this.seen.map((s) => s.kind);
  }

  /** The first status of `kind`, reported already or still to come. */
  first(kind: RemoteStatus['kind']): Promise<RemoteStatus> {
    const already = this.seen.find((s) => s.kind === kind);
    if (already) return Promise.resolve(already);
    return new Promise((resolve) => this.waiting.push({ kind, resolve }));
  }

  /** The `n`th status of `kind`. */
  nth(kind: RemoteStatus['kind'], n: number): Promise<RemoteStatus> {
    return new Promise((resolve) => {
      const check = (): void => {
        const all = this.seen.filter((s) => s.kind === kind);
        if (all.length >= n) resolve(all[n - 1]!);
        else this.waiting.push({ kind, resolve: () => check() });
      };
      check();
    });
  }
}
