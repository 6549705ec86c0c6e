import type { AnyTRPCRouter } from '@trpc/server';
import { procedureDef } from './lean-call';

/** Transport hints a procedure's meta may carry (tRPC's `.meta()`); the server's meta type extends it. */
export interface TransportMeta {
  /**
   * The procedure's reply may wait, at most HOLD_REPLY_MS, for the next frame to the same
   * connection, and leave right behind it, as TCP's delayed acknowledgement rides on the answer's
   * data. For a call whose effect comes back as an event on a subscription of the caller's (keys
   * and their echo): the caller is woken once, for both. Held only while the connection has a
   * subscription running; a caller with none is answered at once.
   */
  holdReply?: boolean;
}

/**
 * How long a reply may be held. An echo's event follows its keys' reply by ~0.1–0.5 ms on these
 * machines; a reply whose event is later (a program that does not echo, a loaded server) goes out
 * on its own after this, as it would have without the hold, 2 ms late.
 */
export const HOLD_REPLY_MS = 2;

/** Whether the procedure at `path` asks for its reply to be held (TransportMeta). */
export function holdsReply(router: AnyTRPCRouter, path: string): boolean {
  const meta = procedureDef(router, path)?.meta as TransportMeta | undefined;
  return meta?.holdReply === true;
}

/**
 * One connection's held reply, at most one at a time: written after the next frame the connection
 * sends, when HOLD_REPLY_MS have passed, or before another reply is held, whichever comes first.
 *
 * Why: on the machines this project measures (two vCPUs, DESIGN.md §11), a process woken by a
 * socket write runs on the writer's vCPU, after it, and a node process woken after a pause spends
 * ~0.2 ms on its CPU before it sleeps again. A reply written between a pty write and its echo woke
 * the caller into the echo's path: the server read the echo only once the caller had handled the
 * reply. Held until the echo's event, reply and event wake the caller once, and the event is read
 * first. B2 (`npm run bench -- b2`, four alternating runs a side): p50 1.50–1.68× tmux -C held,
 * against 1.79–1.93× without; p99 1.5–2.6 ms against 3.1–4.1 ms (docs/benchmarks.md).
 */
export class HeldReply {
  private held: { write: () => void; timer: NodeJS.Timeout } | undefined;

  /** Hold `write` (which sends the reply) until the next flush; a reply already held goes first. */
  hold(write: () => void): void {
    this.flush();
    const timer = setTimeout(() => this.flush(), HOLD_REPLY_MS);
    timer.unref();
    this.held = { write, timer };
  }

  /** Send the held reply now, if there is one. */
  flush(): void {
    const held = this.held;
    if (held === undefined) return;
    this.held = undefined;
    clearTimeout(held.timer);
    held.write();
  }
}
