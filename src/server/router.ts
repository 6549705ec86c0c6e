import { TRPCError } from '@trpc/server';
import { pushStream, type PushStream } from '../rpc/push-stream';
import type { FuxEvent, StreamEvent } from './events';
import { proc, t } from './trpc';
import { definedEnv } from '../protocol/env';
import { listPage } from './list-page';
import { inputs, outputs, type WaitResult } from './schemas';
import { SubscriberQueue, SubscriberTooSlow, resumeCommand } from './subscriber';
import type { Launch } from './workspaces';
import { tabOf, type PaneEntry } from './workspace';
import { startWait, type PendingWait } from './wait';
import { attachRouter } from './attach/router';
import { remoteControlRouter } from './remote/router';
import { worktreeRouter } from './worktree/router';
import type { Context } from './trpc';
import { restoreInputs, restoreOutputs } from './journal/protocol';

function launchOf(input: { argv?: string[]; cwd?: string; env?: Record<string, string> }): Launch {
  return { argv: input.argv, cwd: input.cwd ?? process.cwd(), env: definedEnv(input.env ?? process.env) };
}

/**
 * Start a pane with `start`, in fux's git worktree `worktree` of the caller's repository when one is
 * named (made or reused first); a pane that cannot start takes a worktree made for it with it.
 */
async function launchIn<T>(
  ctx: Context,
  input: { argv?: string[]; cwd?: string; env?: Record<string, string>; worktree?: string },
  start: (launch: Launch) => T,
): Promise<T> {
  const launch = launchOf(input);
  if (input.worktree === undefined) return start(launch);
  const wt = await ctx.worktrees.ensure(launch.cwd, input.worktree, launch.env);
  try {
    return start({ ...launch, cwd: wt.path });
  } catch (err) {
    await wt.undo();
    throw err;
  }
}

const opened = (
  e: PaneEntry,
  workspace: string,
): { id: number; workspace: string; tab: number; pid: number } => ({
  id: e.id,
  workspace,
  tab: tabOf(e, workspace).id,
  pid: e.pane.pid,
});

const ok = { ok: true as const };

/**
 * A verb's answer once what it changed is in the journal on disk (issue 32): a crash right after
 * the answer neither brings back a pane it closed nor loses one it opened.
 */
async function journaled<T>(ctx: Context, answer: T): Promise<T> {
  await ctx.workspaces.recorded();
  return answer;
}

/** A wait as a stream of one message: the result, then the end (or the error). */
async function* waitResult(wait: PendingWait): AsyncGenerator<WaitResult> {
  try {
    yield await wait.result;
  } finally {
    wait.cancel();
  }
}

export const appRouter = t.router({
  list: proc
    .meta({
      verb: 'list',
      description:
        'workspaces, tabs and panes with geometry, focus and layout; in pages when there are many (`next`), which the CLI reads as one list',
    })
    .input(inputs.list)
    .output(outputs.list)
    .query(({ ctx, input }) => {
      const all = input.workspace ? [ctx.workspaces.get(input.workspace)] : ctx.workspaces.all();
      return listPage(all, input.from ?? 0);
    }),

  new: proc
    .meta({
      verb: 'new',
      description: 'open a pane in the active tab, splitting the focused pane along its longer side',
    })
    .input(inputs.new)
    .output(outputs.opened)
    .mutation(async ({ ctx, input }) => {
      const ws = ctx.workspaces.resolveName(input.workspace);
      return journaled(
        ctx,
        opened(await launchIn(ctx, input, (launch) => ctx.workspaces.open(ws, launch)), ws),
      );
    }),

  split: proc
    .meta({ verb: 'split', description: 'split a pane: v puts the new pane to the right, h below' })
    .input(inputs.split)
    .output(outputs.opened)
    .mutation(async ({ ctx, input }) => {
      const ws = ctx.workspaces.resolveName(input.workspace);
      const axis = input.direction === 'v' ? 'row' : 'column';
      const entry = await launchIn(ctx, input, (launch) =>
        ctx.workspaces.split(ws, axis, input.target, launch),
      );
      return journaled(ctx, opened(entry, ws));
    }),

  focus: proc
    .meta({ verb: 'focus', description: 'focus a pane by id, or the nearest pane in a direction (no wrap)' })
    .input(inputs.focus)
    .output(outputs.focus)
    .mutation(({ ctx, input }) => ({ id: ctx.workspaces.focus(input.workspace, input.target) })),

  zoom: proc
    .meta({ verb: 'zoom', description: 'toggle a pane (default: the focused one) filling its tab' })
    .input(inputs.zoom)
    .output(outputs.zoom)
    .mutation(({ ctx, input }) => journaled(ctx, ctx.workspaces.zoom(input.workspace, input.id))),

  kill: proc
    .meta({ verb: 'kill', description: 'close a pane and end its process (SIGHUP, then SIGKILL)' })
    .input(inputs.kill)
    .output(outputs.ok)
    .mutation(({ ctx, input }) => {
      ctx.workspaces.kill(input.workspace, input.id);
      return journaled(ctx, ok);
    }),

  resize: proc
    .meta({ verb: 'resize', description: 'grow or shrink a pane along its split axis, in cells' })
    .input(inputs.resize)
    .output(outputs.resize)
    .mutation(({ ctx, input }) =>
      journaled(ctx, { changed: ctx.workspaces.resize(input.workspace, input.id, input.delta) }),
    ),

  sendKeys: proc
    // The keys' echo comes back as a `pane.output` event: a subscriber gets the reply right behind it.
    .meta({ verb: 'send-keys', description: "write keys to a pane's pty", holdReply: true })
    .input(inputs.sendKeys)
    .output(outputs.sendKeys)
    .mutation(({ ctx, input }) => ({
      bytes: ctx.workspaces.sendKeys(input.workspace, input.id, input.keys, input.literal ?? false),
    })),

  prompt: proc
    .meta({
      verb: 'answer ID',
      description:
        "the options of a blocked pane's visible prompt, as zor reads them with the agent's rule set",
    })
    .input(inputs.prompt)
    .output(outputs.prompt)
    .query(({ ctx, input }) => ctx.workspaces.prompt(input.workspace, input.id)),

  answer: proc
    .meta({
      verb: 'answer',
      description:
        "choose an option of a blocked pane's visible prompt (yes, always, no or its number): checked against the options on screen, then its keys are sent",
    })
    .input(inputs.answer)
    .output(outputs.answer)
    .mutation(({ ctx, input }) => ctx.workspaces.answer(input.workspace, input.id, input.choice)),

  capture: proc
    .meta({
      verb: 'capture',
      description: 'pane text, plain or with cell attributes, optionally with history (≤ 128 KiB)',
    })
    .input(inputs.capture)
    .output(outputs.capture)
    .query(({ ctx, input }) =>
      ctx.workspaces.capture(input.workspace, input.id, input.attrs ?? false, input.scrollback ?? 0),
    ),

  tab: t.router({
    new: proc
      .meta({ verb: 'tab new', description: 'a new tab with one pane, made active' })
      .input(inputs.tabNew)
      .output(outputs.opened)
      .mutation(({ ctx, input }) => {
        const ws = ctx.workspaces.resolveName(input.workspace);
        return journaled(ctx, opened(ctx.workspaces.openTab(ws, launchOf(input)), ws));
      }),
    select: proc
      .meta({ verb: 'tab next|prev|N', description: 'make a tab active' })
      .input(inputs.tabSelect)
      .output(outputs.tabSelect)
      .mutation(({ ctx, input }) => ({ number: ctx.workspaces.selectTab(input.workspace, input.which) })),
  }),

  workspace: t.router({
    list: proc
      .meta({ verb: 'workspace list', description: 'the workspaces with their pane and tab counts' })
      .input(inputs.workspaceList)
      .output(outputs.workspaceList)
      .query(({ ctx }) => ({
        workspaces: ctx.workspaces.all().map((w) => ({
          name: w.name,
          panes: w.tiles().length,
          tabs: w.tabs.length,
          cols: w.size.cols,
          rows: w.size.rows,
        })),
      })),
    new: proc
      .meta({
        verb: 'workspace new',
        description: 'create an empty workspace (optionally with a size); `new` fills it',
      })
      .input(inputs.workspaceNew)
      .output(outputs.workspaceNew)
      .mutation(({ ctx, input }) => {
        const size = input.cols && input.rows ? { cols: input.cols, rows: input.rows } : undefined;
        return { name: ctx.workspaces.create(input.name, size).name };
      }),
    kill: proc
      .meta({ verb: 'workspace kill', description: 'close a workspace and end all its panes' })
      .input(inputs.workspaceKill)
      .output(outputs.workspaceKill)
      .mutation(({ ctx, input }) => journaled(ctx, { panes: ctx.workspaces.killWorkspace(input.name) })),
    resize: proc
      .meta({
        verb: 'workspace resize',
        description: 'set the size every layout of a workspace is fitted to',
      })
      .input(inputs.workspaceResize)
      .output(outputs.ok)
      .mutation(({ ctx, input }) => {
        ctx.workspaces.resizeWorkspace(input.workspace, { cols: input.cols, rows: input.rows });
        return journaled(ctx, ok);
      }),
  }),

  popup: proc
    .meta({
      verb: 'popup',
      description:
        'run a program in a pane centred over the workspace until it exits; returns its exit status. It is a pane like the others (its events, agent state, send-keys, capture, wait, kill), in no tab and not in `list`',
    })
    .input(inputs.popup)
    .output(outputs.popup)
    .mutation(async ({ ctx, input }) => {
      const ws = ctx.workspaces.resolveName(input.workspace);
      const want = input.cols && input.rows ? { cols: input.cols, rows: input.rows } : undefined;
      const { entry, exited } = ctx.workspaces.openPopup(ws, launchOf(input), want);
      return { id: entry.id, exit: await exited };
    }),

  attach: attachRouter,

  worktree: worktreeRouter,

  remote: remoteControlRouter,

  setStatus: proc
    .meta({ verb: 'set-status', description: 'set a named status-line segment; empty text removes it' })
    .input(inputs.setStatus)
    .output(outputs.ok)
    .mutation(({ ctx, input }) => {
      ctx.workspaces.setStatus(input.workspace, input.segment, input.text);
      return ok;
    }),

  subscribe: proc
    .meta({
      verb: 'subscribe',
      description:
        'a stream of events, one per message, until stopped; with `since`, first the events after that seq still held (after an `events.gap` if some are not)',
    })
    .input(inputs.subscribe)
    .subscription(({ ctx, input }): PushStream<StreamEvent> => {
      const wanted = input.events?.length ? new Set(input.events) : undefined;
      const mine = (e: FuxEvent): boolean =>
        (!wanted || wanted.has(e.type)) && (!input.workspace || e.workspace === input.workspace);
      const { since } = input;
      if (since !== undefined && since > ctx.bus.seq) {
        throw new TRPCError({
          code: 'BAD_REQUEST',
          message: `seq ${since} is ahead of this server's last (${ctx.bus.seq}): the server restarted since (or the seq is wrong); subscribe without since`,
        });
      }
      const queue = new SubscriberQueue(ctx.subscriberQueueLimit);
      // Listening and reading the history in one synchronous step: every event after the replay is
      // in the queue, and none of them is also in the replay.
      const stop = ctx.bus.listen((e) => {
        if (mine(e)) queue.push(e);
      });
      const replay = since === undefined ? undefined : ctx.bus.history.after(since, ctx.bus.seq);
      // Each event is written from this loop as it is taken from the queue (a push stream).
      return pushStream(async (emit, signal) => {
        /** The last seq written to this subscriber: where it resumes from if it is cut off. */
        let sent = since ?? ctx.bus.seq;
        const send = async (): Promise<void> => {
          // A reader that stopped never drains; the queue overflowing is what ends the wait then.
          await Promise.race([ctx.conn.writable(), queue.whenOverflowed()]);
          queue.assertKeepingUp();
        };
        try {
          if (replay?.gap) {
            const { from, to } = replay.gap;
            await send();
            emit({ type: 'events.gap', seq: to, ts: Date.now(), from, to, lost: to - from + 1 });
            sent = to;
          }
          for (const e of replay?.events ?? []) {
            if (!mine(e)) continue;
            await send();
            emit(e);
            sent = e.seq;
          }
          // Caught up: from now on an event that finds this loop waiting and the connection ready
          // is written in the turn it happens (an echo's nudge leaves with the echo's parse).
          queue.deliverDirectly((e) => {
            if (signal.aborted || !ctx.conn.canWrite()) return false;
            try {
              emit(e);
            } catch {
              // Never into the emitter's caller (a pane's parse): the loop sends it, and fails as it must.
              return false;
            }
            sent = e.seq;
            return true;
          });
          for (;;) {
            const e = await queue.next(signal);
            if (!e) return;
            await send();
            emit(e);
            sent = e.seq;
          }
        } catch (err) {
          if (err instanceof SubscriberTooSlow) {
            const message = `${err.message}; the last seq sent was ${sent}: resume with \`${resumeCommand(sent, input)}\``;
            ctx.log(`dropped a subscriber: ${message}`);
            // The connection's farewell, the last frame after everything sent, says it (an error
            // reply to the subscription would go nowhere: a closed connection sends nothing more).
            ctx.conn.close(message);
            return;
          }
          throw err;
        } finally {
          stop();
        }
      });
    }),

  // A subscription, not a long mutation: the caller hears "started" once the wait is registered,
  // so a script can start it, then send the prompt, and cannot miss a fast agent; and a caller
  // that goes away (Ctrl-C) stops the wait on the server instead of leaving it to its timeout.
  wait: proc
    .meta({
      verb: 'wait',
      description:
        "wait until panes' agents make a transition into a state after their last input, even one before the call (with `now`, being there counts; a closed pane has exited); one message, then the end",
      yields: outputs.wait,
    })
    .input(inputs.wait)
    .subscription(({ ctx, input, signal }) => {
      // Registered here, synchronously, before tRPC answers "started".
      const wait = startWait(ctx.bus, ctx.workspaces, input);
      signal?.addEventListener('abort', () => wait.cancel(), { once: true });
      return waitResult(wait);
    }),

  restore: t.router({
    plan: proc
      .meta({
        verb: 'restore --list|--dry-run',
        description:
          'the journal `fux restore` would bring back (one the server found at start and did not restore), pane by pane, and how each would run',
      })
      .input(restoreInputs.plan)
      .output(restoreOutputs.plan)
      .query(({ ctx }) => ctx.server.restore.view()),
    run: proc
      .meta({
        verb: 'restore',
        description:
          "bring back the kept journal's workspaces (those whose names are free); each gets a workspace.restored event",
      })
      .input(restoreInputs.run)
      .output(restoreOutputs.run)
      .mutation(({ ctx }) => journaled(ctx, { workspaces: ctx.server.restore.restoreKept() })),
  }),

  server: t.router({
    info: proc
      .meta({ verb: 'serve', description: 'the running server: pid, version, socket, log' })
      .input(inputs.serverInfo)
      .output(outputs.serverInfo)
      .query(({ ctx }) => ctx.server.info()),
    configProblem: proc
      .meta({
        verb: '<any verb>',
        description:
          'the problem of a bad config.toml, once: the first client to ask gets it (the CLI prints it on stderr, an attached client shows it), later ones get null until the file changes',
      })
      .input(inputs.serverConfigProblem)
      .output(outputs.serverConfigProblem)
      .mutation(({ ctx }) => ({ problem: ctx.server.takeConfigProblem() ?? null })),
    kill: proc
      .meta({
        verb: 'kill-server',
        description: 'stop the server: every pane gets SIGHUP, the socket is removed',
      })
      .input(inputs.serverKill)
      .output(outputs.ok)
      .mutation(({ ctx }) => {
        // Reply first, then stop, so the caller sees the answer.
        setImmediate(() => ctx.server.stop('kill-server'));
        return ok;
      }),
  }),
});

export type AppRouter = typeof appRouter;
