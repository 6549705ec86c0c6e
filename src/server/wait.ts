/**
 * `wait`: until panes' agents make a transition into a state. A transition counts if it came after
 * the pane's last input (or its start), seen live or remembered by the workspace, so "send a
 * prompt, then wait for idle" holds however fast the agent answers, and cannot be satisfied by the
 * idle prompt the agent showed before it read the prompt. With `now`, a pane already there counts
 * too. A pane whose program ended has `exited`. Registered synchronously when the call arrives,
 * before the caller hears that the wait has started.
 */
import { TRPCError } from '@trpc/server';
import type { AgentState } from '../zor';
import type { EventBus, FuxEvent } from './events';
import type { PaneExit } from './pane';
import type { Reached } from './reached-states';
import type { WaitResult } from './schemas';
import type { Workspaces } from './workspaces';

export interface WaitRequest {
  readonly workspace?: string | undefined;
  readonly ids: readonly number[];
  readonly state: AgentState;
  readonly any?: boolean | undefined;
  readonly now?: boolean | undefined;
  readonly timeoutMs?: number | undefined;
}

export interface PendingWait {
  /** Resolves when the panes got there; rejects on timeout or when a pane it needs closed. */
  readonly result: Promise<WaitResult>;
  /** Stop waiting (the caller went away); the result then never settles. */
  cancel(): void;
}

function panesText(ids: Iterable<number>): string {
  const list = [...ids];
  return `${list.length === 1 ? 'pane' : 'panes'} ${list.join(', ')}`;
}

function exitText(exit: PaneExit): string {
  return exit.code === null ? `signal ${exit.signal}` : `exit ${exit.code}`;
}

function durationText(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}

/** Starts a wait; throws (no pane, no workspace) before anything is registered. */
export function startWait(bus: EventBus, workspaces: Workspaces, request: WaitRequest): PendingWait {
  const ws = workspaces.get(request.workspace);
  const { state } = request;
  const reached: Reached[] = [];
  const ids = [...new Set(request.ids)];
  const closed = ids.flatMap((id) => {
    const pane = ws.reached.closedPane(id);
    return pane === undefined ? [] : [{ id, ...pane }];
  });
  // Looked up before anything counts: a pane that never was is an error, whatever the others did.
  const entries = ids.filter((id) => !closed.some((c) => c.id === id)).map((id) => ws.entry(id));
  const pending = new Set(entries.map((e) => e.id));
  const done = (): boolean => (request.any ? reached.length > 0 : pending.size === 0);

  // A pane that closed before the wait arrived has exited; for any other state it never will get there.
  for (const c of closed) {
    if (state === 'exited') reached.push(c.reached);
    else if (!request.any || entries.length === 0) {
      throw new TRPCError({
        code: 'NOT_FOUND',
        message: `pane ${c.id} closed (${exitText(c.exit)}) before it became ${state}`,
      });
    }
  }
  for (const e of entries) {
    const current = e.agent.current;
    const earlier = ws.reached.since(e.id, state, e.pane.lastInputAt);
    if (request.now && current.state === state) {
      reached.push({ id: e.id, agent: current.agent ?? null, previous: null, state, ts: e.agent.since });
    } else if (earlier !== undefined) reached.push(earlier);
    else continue;
    pending.delete(e.id);
  }

  let settle: { resolve(result: WaitResult): void; reject(error: Error): void } | undefined;
  const result = new Promise<WaitResult>((resolve, reject) => (settle = { resolve, reject }));
  let timer: NodeJS.Timeout | undefined;
  let stopListening = (): void => undefined;
  const finish = (outcome: WaitResult | TRPCError): void => {
    stopListening();
    clearTimeout(timer);
    if (outcome instanceof TRPCError) settle?.reject(outcome);
    else settle?.resolve(outcome);
    settle = undefined;
  };

  /** A pane that can no longer get there; with `any` another pane may still, without it the wait fails. */
  const giveUp = (id: number, code: 'NOT_FOUND' | 'PRECONDITION_FAILED', why: string): void => {
    pending.delete(id);
    if (!request.any || pending.size === 0) {
      finish(new TRPCError({ code, message: `${why} before it became ${state}` }));
    }
  };

  const observe = (e: FuxEvent): void => {
    if (e.workspace !== ws.name || (e.type !== 'agent.state' && e.type !== 'pane.closed')) return;
    if (!pending.has(e.id)) return;
    if (e.type === 'agent.state') {
      if (e.state === state && e.previous !== state) {
        pending.delete(e.id);
        reached.push({ id: e.id, agent: e.agent, previous: e.previous, state, ts: e.ts });
        if (done()) finish({ panes: reached });
      } else if (e.state === 'exited' && state !== 'none') {
        // Its agent ended: it will not be working, blocked or idle again (a new one is a new wait).
        giveUp(e.id, 'PRECONDITION_FAILED', `the agent in pane ${e.id} (${e.agent ?? 'unknown'}) exited`);
      }
    } else if (state === 'exited') {
      // Its program ended: whatever the agent was, the pane has exited.
      const last = entries.find((entry) => entry.id === e.id)?.agent.current;
      pending.delete(e.id);
      reached.push({ id: e.id, agent: last?.agent ?? null, previous: last?.state ?? null, state, ts: e.ts });
      if (done()) finish({ panes: reached });
    } else {
      giveUp(e.id, 'NOT_FOUND', `pane ${e.id} closed (${exitText(e.exit)})`);
    }
  };

  if (done()) finish({ panes: reached });
  else {
    stopListening = bus.listen(observe);
    if (request.timeoutMs !== undefined) {
      const timeoutMs = request.timeoutMs;
      timer = setTimeout(() => {
        const states = [...pending].map(
          (id) => `${id} is ${ws.panes.get(id)?.agent.current.state ?? 'gone'}`,
        );
        finish(
          new TRPCError({
            code: 'TIMEOUT',
            message: `${panesText(pending)} did not become ${state} within ${durationText(timeoutMs)} (${states.join(', ')})`,
          }),
        );
      }, timeoutMs);
    }
  }
  return {
    result,
    cancel: () => {
      stopListening();
      clearTimeout(timer);
      settle = undefined;
    },
  };
}
