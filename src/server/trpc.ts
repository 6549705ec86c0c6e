import { initTRPC, TRPCError } from '@trpc/server';
import { errorFormatter } from '../rpc/error-formatter';
import type { z } from 'zod';
import type { EventBus } from './events';
import { FuxError } from './errors';
import { KeyNameError } from '../protocol/send-keys';
import type { Workspaces } from './workspaces';
import type { AttachHub } from './attach/hub';
import type { Worktrees } from './worktree/worktrees';
import type { JournalService } from './journal';

/** What the transport tells a procedure about its connection (see src/rpc). */
export interface ConnectionHandle {
  /** Resolves when the connection can take more bytes: streaming procedures await it (backpressure). */
  writable(): Promise<void>;
  /** Bytes written that the peer has not taken yet: none means `writable()` would resolve at once. */
  bufferedBytes(): number;
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

/** A procedure's description and the CLI verb that calls it, for `docs/protocol.md`. */
export interface ProcedureMeta {
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

/** Turn our user-facing errors into tRPC errors with the same code and message. */
const userErrors = t.middleware(async ({ next }) => {
  const res = await next();
  if (!res.ok) {
    const cause = res.error.cause;
    if (cause instanceof FuxError) throw new TRPCError({ code: cause.code, message: cause.message });
    if (cause instanceof KeyNameError) throw new TRPCError({ code: 'BAD_REQUEST', message: cause.message });
  }
  return res;
});

export const proc = t.procedure.use(userErrors);

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
