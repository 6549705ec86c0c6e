import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TRPCError } from '@trpc/server';
import { createStreamHandler } from '../rpc/server';
import { errorLogLine } from '../rpc/error-formatter';
import { EventBus } from './events';
import { ensurePrivateDir, runtimePaths, type RuntimePaths } from '../paths';
import { isRunning, processStart } from '../process-alive';
import { peerUid } from '../peer-cred';
import { openServerLog } from '../state-dir';
import { appRouter } from './router';
import { callAt, t, type Context } from './trpc';
import { SurvivingPanes } from './holder/surviving-panes';
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

/** Raised when a live process holds the lock but no server answers on the socket. */
export class LockHeld extends Error {
  constructor(
    readonly pid: number,
    paths: RuntimePaths,
  ) {
    super(
      `the server lock ${paths.lock} is held by pid ${pid}, which is running but does not answer on ${paths.socket}; stop it (\`kill ${pid}\`) or remove ${paths.lock}`,
    );
  }
}

/** Who the lock names: its pid and when that process started (absent in a lock of an older fux). */
interface LockOwner {
  pid: number;
  start?: string;
}

function readLock(file: string): LockOwner | undefined {
  try {
    const [pidText, start] = fs.readFileSync(file, 'utf8').trim().split(' ', 2);
    const pid = Number.parseInt(pidText ?? '', 10);
    return Number.isInteger(pid) && pid > 0 ? { pid, start: start || undefined } : undefined;
  } catch {
    return undefined;
  }
}

function readPid(file: string): number | undefined {
  return readLock(file)?.pid;
}

/** Whether something accepts a connection on the socket: the one sure sign that a server runs. */
function answers(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createConnection({ path: socket });
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/**
 * How long a running owner that does not answer yet is given to start listening: it takes the lock
 * only just before it listens, so this is a start under heavy load, not a normal one.
 */
const STARTING_OWNER_GRACE_MS = 1500;

/**
 * Whether the lock's owner is a server, or about to be one. The socket decides (does something
 * answer on it); the pid is only a hint, checked for a zombie and for a pid reused since the lock
 * was written. Resolves false once the owner turns out dead; throws `LockHeld` for a live owner
 * that never listens, so the caller says who is in the way instead of waiting for nothing.
 */
async function ownerServes(owner: LockOwner, paths: RuntimePaths): Promise<boolean> {
  const deadline = Date.now() + STARTING_OWNER_GRACE_MS;
  for (;;) {
    if (owner.pid === process.pid || !isRunning(owner.pid, owner.start)) return false;
    if (await answers(paths.socket)) return true;
    if (Date.now() > deadline) throw new LockHeld(owner.pid, paths);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Take the server lock: a pid file beside the socket, holding this process's pid and start time.
 * It is what makes a race of two starts yield one server. The file appears with its content
 * already in it (written aside, then hard-linked into place, which fails if the lock exists), so a
 * contender never reads a half-written lock.
 */
async function acquireLock(paths: RuntimePaths): Promise<void> {
  const mine = `${paths.lock}.${process.pid}`;
  const content = `${process.pid} ${processStart(process.pid) ?? ''}`.trimEnd();
  for (let attempt = 0; attempt < 50; attempt++) {
    fs.writeFileSync(mine, `${content}\n`, { mode: 0o600 });
    try {
      fs.linkSync(mine, paths.lock);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      fs.rmSync(mine, { force: true });
    }
    const owner = readLock(paths.lock);
    if (owner === undefined) continue; // vanished between our link and our read: try again
    if (await ownerServes(owner, paths)) throw new AlreadyRunning(owner.pid, paths.socket);
    // The owner died without cleaning up (SIGKILL, a crash; perhaps a zombie nobody reaps). Move
    // its lock aside (only one contender's rename succeeds); if what we moved turns out to be a
    // newer live lock, put it back.
    const aside = `${paths.lock}.stale.${process.pid}`;
    try {
      fs.renameSync(paths.lock, aside);
    } catch {
      continue;
    }
    if (readPid(aside) !== owner.pid) {
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
  const log = new Logger(openServerLog(paths.stateDir, paths.log), opts.foreground);

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
  const survivors = new SurvivingPanes(paths.socket, log);
  const journal = new JournalService({
    stateDir: paths.stateDir,
    socket: paths.socket,
    workspaces,
    bus,
    config: () => config.current,
    log,
    survivor: (workspace, id) => survivors.claim({ workspace, id }),
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
    // The socket is 0600 in a 0700 directory, so only we and root can connect; if anyone else gets
    // through (a loosened mode, a shared FUX_SOCKET), the kernel's word on the peer refuses them.
    const peer = peerUid(socket);
    if (peer !== undefined && peer !== process.getuid?.() && peer !== 0) {
      log.warn(`refused a connection from uid ${peer}: only this server's own user may connect`);
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    handle(socket);
  });
  listener.on('error', (err) => log.error(`listener: ${err.message}`));
  // The lock is taken only now, just before the listen: a contender that finds a live owner not
  // answering yet need wait only for this short step (ownerServes), and a lost race started nothing.
  await acquireLock(paths);
  fs.rmSync(paths.socket, { force: true });
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
  // Panes whose holders outlived the last server are taken back by the restore, the rest ended.
  survivors.scan();
  journal.boot();
  survivors.endUnclaimed();

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
