import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TRPCError } from '@trpc/server';
import { createStreamHandler } from '../rpc/server';
import { errorLogLine } from '../rpc/error-formatter';
import { EventBus } from './events';
import { ensurePrivateDir, runtimePaths, type RuntimePaths } from '../paths';
import { isAlive } from '../process-alive';
import { appRouter } from './router';
import { callAt, t, type Context } from './trpc';
import { Logger } from './log';
import { Workspaces, defaultSettings, type ServerSettings } from './workspaces';
import { version } from './version';
import { AgentDetection } from './agent/agent-detection';
import { configFile, defaultCommandOf, type FuxConfig } from './config';
import { AttachHub } from './attach/hub';
import { Worktrees } from './worktree/worktrees';
import { ConfigStore } from './config-store';
import { Hooks } from './hooks';
import { HookRecord, hookRecordFile } from './hook-record';
import { JournalService } from './journal';
import { platformNotifier } from './notifier';
import { remoteRouter } from './attach/router';
import { RemoteService } from './remote/service';
import type { RemoteContext } from './remote/router';
import { allowFromServeEnv, networkSettings } from './remote/settings';
import { startMemoryReturn } from './memory/memory-return';
import { paneParseScheduler } from './pane/parse-scheduler';

export interface ServeOptions {
  socket: string;
  /** Also log to stderr (`fux serve` in a terminal). */
  foreground: boolean;
  settings?: Partial<ServerSettings>;
  subscriberQueueLimit?: number;
  /** Endpoint ids to add to the allow-list at boot (`fux serve --allow`; default: $FUX_SERVE_ALLOW). */
  allow?: string[];
}

/** Raised when another live server owns the socket; the caller decides whether that is an error. */
export class AlreadyRunning extends Error {
  constructor(
    readonly pid: number,
    socket: string,
  ) {
    super(`a fux server (pid ${pid}) is already running on ${socket}; \`fux kill-server\` stops it`);
  }
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Take the server lock: a pid file beside the socket. It is what makes a race of two starts yield
 * one server, and what tells a stale socket (its owner is dead) from a live one. The file appears
 * with its content already in it (written aside, then hard-linked into place, which fails if the
 * lock exists), so a contender never reads a half-written lock.
 */
function acquireLock(paths: RuntimePaths): void {
  const mine = `${paths.lock}.${process.pid}`;
  for (let attempt = 0; attempt < 50; attempt++) {
    fs.writeFileSync(mine, `${process.pid}\n`, { mode: 0o600 });
    try {
      fs.linkSync(mine, paths.lock);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      fs.rmSync(mine, { force: true });
    }
    const owner = readPid(paths.lock);
    if (owner === undefined) continue; // vanished between our link and our read: try again
    if (owner !== process.pid && isAlive(owner)) throw new AlreadyRunning(owner, paths.socket);
    // The owner died without cleaning up (SIGKILL, a crash). Move its lock aside (only one
    // contender's rename succeeds); if what we moved turns out to be a newer live lock, put it back.
    const aside = `${paths.lock}.stale.${process.pid}`;
    try {
      fs.renameSync(paths.lock, aside);
    } catch {
      continue;
    }
    if (readPid(aside) !== owner) {
      try {
        fs.linkSync(aside, paths.lock);
      } catch {
        // someone else holds the lock now; the next attempt will see them
      }
    }
    fs.rmSync(aside, { force: true });
  }
  throw new Error(`could not take the server lock ${paths.lock}; remove it if no fux server is running`);
}

export interface RunningServer {
  paths: RuntimePaths;
  workspaces: Workspaces;
  log: Logger;
  stop(reason: string): Promise<void>;
  /** Resolves when the server has stopped. */
  stopped: Promise<void>;
}

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const paths = runtimePaths(opts.socket);
  ensurePrivateDir(path.dirname(paths.socket));
  fs.mkdirSync(paths.stateDir, { recursive: true, mode: 0o700 });
  const log = new Logger(paths.log, opts.foreground);
  acquireLock(paths);
  fs.rmSync(paths.socket, { force: true });

  const bus = new EventBus();
  const config = new ConfigStore(configFile(paths.configDir), log);
  const detection = AgentDetection.load(process.env, log);
  const workspaces = new Workspaces({ ...defaultSettings(paths.socket), ...opts.settings }, bus, detection);
  const notifier = platformNotifier(
    {
      bus,
      enabled: () => config.current.notify,
      finishDelayMs: () => config.current.notify_delay * 1000,
      lookedAt: (ws, id) => workspaces.lookedAt(ws, id),
    },
    process.env,
  );
  const applyPaneDefaults = (c: FuxConfig): void =>
    workspaces.setPaneDefaults({ defaultCommand: defaultCommandOf(c), scrollback: c.scrollback });
  applyPaneDefaults(config.current);
  config.onChange(applyPaneDefaults);
  bus.history.resize(config.current.event_history);
  config.onChange((c) => bus.history.resize(c.event_history));
  const attach = new AttachHub({ workspaces, bus, config: () => config.current, log: (m) => log.warn(m) });
  startMemoryReturn(bus, () => paneParseScheduler.worked, log);
  config.onChange(() => attach.configChanged());
  const worktrees = new Worktrees(() => ({
    root: config.current.worktree_root,
    setup: config.current.worktree_setup,
  }));
  const journal = new JournalService({
    stateDir: paths.stateDir,
    socket: paths.socket,
    workspaces,
    bus,
    config: () => config.current,
    log,
  });
  const started = Date.now();
  let stopping: Promise<void> | undefined;
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((r) => (resolveStopped = r));

  const control = {
    info: () => ({
      pid: process.pid,
      version,
      socket: paths.socket,
      uptimeMs: Date.now() - started,
      log: paths.log,
    }),
    stop: (reason: string) => void stop(reason),
    // A bad journal is news the same way as a bad config: once, on the next verb's stderr.
    takeConfigProblem: () =>
      [config.takeProblem(), journal.takeProblem()].filter((p) => p !== undefined).join('\n') || undefined,
    restore: { view: () => journal.view(), restoreKept: () => journal.restoreKept() },
  };
  // One short line per failed call: what the client was told, never its input or a stack.
  const onError = ({
    error,
    path: proc,
    input,
  }: {
    error: TRPCError;
    path?: string;
    input?: unknown;
  }): void => log.warn(errorLogLine(error, proc, input));
  // Remote peers (iroh) get the attach router alone, each stream with its peer's id in the context.
  const createCaller = t.createCallerFactory(appRouter);
  /**
   * What every procedure gets, on the unix socket and on an iroh stream alike; `call` runs another
   * procedure in the same context (a key bound to one, from an attached client).
   */
  const contextFor = <C extends Context>(
    conn: Context['conn'],
    extra: Omit<C, keyof Context> & Partial<Context>,
  ): C => {
    const ctx = {
      workspaces,
      bus,
      attach,
      worktrees,
      conn,
      server: control,
      subscriberQueueLimit: opts.subscriberQueueLimit ?? 1024,
      log: (message: string) => log.warn(message),
      call: (procedure: string, input: unknown) => callAt(createCaller(ctx), procedure, input),
      ...extra,
    } as C;
    return ctx;
  };
  const remote = new RemoteService({
    configDir: paths.configDir,
    network: networkSettings(),
    log,
    serve: (stream, peer) =>
      createStreamHandler({
        router: remoteRouter,
        createContext: (conn) => contextFor<Context>(conn, { peer }),
        onError,
      })(stream),
  });
  const handle = createStreamHandler({
    router: appRouter,
    createContext: (conn) => contextFor<Context & RemoteContext>(conn, { remote }),
    onError,
  });

  const sockets = new Set<net.Socket>();
  // Half-open: `echo request | socat` shuts its side after writing and still gets the reply.
  const listener = net.createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    handle(socket);
  });
  listener.on('error', (err) => log.error(`listener: ${err.message}`));
  // The socket is created 0600 (umask), so no other user can connect even for an instant.
  const oldMask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen({ path: paths.socket, backlog: 511 }, () => {
        listener.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    fs.rmSync(paths.lock, { force: true });
    throw err;
  } finally {
    process.umask(oldMask);
  }
  fs.chmodSync(paths.socket, 0o600);
  if (readPid(paths.lock) !== process.pid) {
    // Displaced in a start race after all: leave the socket to the winner.
    listener.close();
    throw new AlreadyRunning(readPid(paths.lock) ?? 0, paths.socket);
  }
  log.info(`fux ${version} listening on ${paths.socket} (pid ${process.pid})`);

  // Restored (or not) only now that this server holds the socket: a start that lost the race starts nothing.
  journal.boot();

  // Remote attach: `fux serve --allow` ids join the allow-list; the endpoint starts if anyone is on it.
  const bootAllow = opts.allow ?? allowFromServeEnv(process.env);
  delete process.env.FUX_SERVE_ALLOW; // not for the panes
  await remote.boot(bootAllow);

  // Hooks start once the socket answers, so a hook that connects at once finds the server.
  const hookEnv: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('FUX_')) hookEnv[k] = v;
  hookEnv.FUX_SOCKET = paths.socket;
  const hookOutput = fs.openSync(paths.log, 'a', 0o600);
  const record = new HookRecord(hookRecordFile(paths.stateDir, paths.socket));
  const hooks = new Hooks({ env: hookEnv, cwd: os.homedir(), output: hookOutput, log, record });
  await hooks.endLeftovers();
  void hooks.set(config.current.hooks);
  config.onChange((next) => void hooks.set(next.hooks));
  config.watch();

  async function stop(reason: string): Promise<void> {
    if (stopping) return stopping;
    stopping = (async () => {
      log.info(`stopping: ${reason}`);
      await remote.stop();
      config.close();
      notifier.close();
      attach.close();
      // The last journal, marked closed, before the panes are hung up and leave their workspaces.
      await journal.close();
      workspaces.hangUpAll();
      await hooks.stopAll();
      fs.closeSync(hookOutput);
      await new Promise<void>((r) => listener.close(() => r()));
      fs.rmSync(paths.socket, { force: true });
      fs.rmSync(paths.lock, { force: true });
      log.close();
      resolveStopped();
    })();
    for (const s of sockets) s.destroy();
    return stopping;
  }

  return { paths, workspaces, log, stop, stopped };
}
