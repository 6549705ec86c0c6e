import { initTRPC } from '@trpc/server';
import { errorFormatter } from '../rpc/error-formatter';
import type { TransportMeta } from '../rpc/held-reply';
import { FuxError } from './errors';
import type { z } from 'zod';
import type { EventBus } from './events';
import type { Workspaces } from './workspaces';
import type { AttachHub } from './attach/hub';
import type { Worktrees } from './worktree/worktrees';
import type { JournalService } from './journal';

/** What the transport tells a procedure about its connection (see src/rpc). */
export interface ConnectionHandle {
  /** Resolves when the connection can take more bytes: streaming procedures await it (backpressure). */
  writable(): Promise<void>;
  /** Whether `writable()` would resolve at once (a push stream may then write without waiting). */
  canWrite(): boolean;
  close(reason: string): void;
}

export interface ServerControl {
  info(): { pid: number; version: string; socket: string; uptimeMs: number; log: string };
  /** The config file's problem if no client has been told yet (see ConfigStore.takeProblem). */
  takeConfigProblem(): string | undefined;
  stop(reason: string): void;
  /** The journal: what `fux restore` would bring back, and bringing it back. */
  restore: Pick<JournalService, 'view' | 'restoreKept'>;
}

export interface Context {
  workspaces: Workspaces;
  bus: EventBus;
  attach: AttachHub;
  worktrees: Worktrees;
  /** The remote peer's endpoint id on an iroh connection; undefined on the local socket. */
  peer?: string;
  conn: ConnectionHandle;
  server: ServerControl;
  /** Events a subscriber may have queued before it is cut off. */
  subscriberQueueLimit: number;
  /** The server log, for what a client is not there to hear. */
  log(message: string): void;
  /** Call a control procedure by its path (`tab.select`) in this context, as a client would. */
  call(path: string, input: unknown): Promise<unknown>;
}

/** A procedure's description and the CLI verb that calls it, for `docs/protocol.md`; and the transport's hints. */
export interface ProcedureMeta extends TransportMeta {
  verb: string;
  description: string;
  /** What a subscription that is not an event stream sends, for the protocol document. */
  yields?: z.ZodType;
  /** Whether `yields` describes each of many messages rather than the only one. */
  streams?: boolean;
}

export const t = initTRPC.context<Context>().meta<ProcedureMeta>().create({
  isDev: false,
  // One formatter for every reply (src/rpc/error-formatter.ts): `id: expected a number, got a
  // string` with a code, never a stack, a server path or the validator's JSON.
  errorFormatter,
});

/**
 * Every procedure. It has no middleware: user errors are TRPCErrors already (FuxError), and a
 * procedure without middlewares of its own is called by the direct path without tRPC's chain.
 */
export const proc = t.procedure;

/**
 * Call the procedure at `path` (`tab.select`) through a caller made by `t.createCallerFactory`:
 * checked and performed as it is for a client, its errors those a client gets.
 */
export function callAt(caller: object, path: string, input: unknown): Promise<unknown> {
  let target: unknown = caller;
  for (const part of path.split('.')) target = (target as Record<string, unknown>)[part];
  if (typeof target !== 'function') throw new FuxError('NOT_FOUND', `no procedure ${path}`);
  return Promise.resolve((target as (input: unknown) => unknown)(input));
}
