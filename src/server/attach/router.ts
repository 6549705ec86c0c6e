import * as os from 'node:os';
import {
  attachInputs,
  frameSchema,
  historySchema,
  promptSchema,
  type AttachFrame,
} from '../../protocol/attach';
import { proc, t, type ConnectionHandle } from '../trpc';
import { definedEnv } from '../../protocol/env';
import { z } from 'zod';
import { pushStream, type PushStream } from '../../rpc/push-stream';
import type { AttachHub } from './hub';
import type { AttachSession } from './session';

/** Frames go out at most this often: 60 per second, the most a terminal shows. */
export const FRAME_INTERVAL_MS = 1000 / 60;

const ok = z.object({ ok: z.literal(true) });

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * A session's frames: wait for a change, wait until the connection can take more (backpressure)
 * and the frame interval has passed, then send what changed since the last frame. Changes that
 * arrive while it waits fold into that one frame, so a slow client sees fewer frames, never a
 * backlog. Each frame is emitted and written at once (a push stream); while the loop waits, an
 * echo's frame is built and written by the pane's output in the turn that parsed it
 * (AttachSession.sendDirectly).
 */
function frames(hub: AttachHub, session: AttachSession, conn: ConnectionHandle): PushStream<AttachFrame> {
  return pushStream(async (emit, signal) => {
    let last = -Infinity;
    let reason = 'detached';
    // An echo's frame is built and written in the turn that parsed it when the loop below is
    // waiting, the interval has passed and the client has read everything: no promise turn.
    session.sendDirectly(() => {
      if (signal.aborted || !conn.canWrite() || performance.now() - last < FRAME_INTERVAL_MS) return false;
      const frame = hub.frame(session);
      // An end is the workspace's state, not the session's: the loop builds it again, and ends.
      if (frame?.end !== undefined) return false;
      if (frame === undefined) return true;
      try {
        emit(frame);
      } catch {
        // Never into the pane's parse: the loop sends the whole state again, and fails as it must.
        session.markReset();
        return false;
      }
      last = performance.now();
      return true;
    });
    try {
      for (;;) {
        await session.changed(signal);
        if (signal.aborted) return;
        // A client that has read everything can take the frame now: no promise turn to find that out.
        if (!conn.canWrite()) await conn.writable();
        // Timers fire on libuv's whole-millisecond clock, up to 1 ms before a fractional deadline:
        // wait again until the interval has really passed, or a client gets a little over 60 a second.
        for (let wait = last + FRAME_INTERVAL_MS - performance.now(); wait > 0;) {
          await sleep(Math.ceil(wait), signal);
          if (signal.aborted) return;
          wait = last + FRAME_INTERVAL_MS - performance.now();
        }
        const frame = hub.frame(session);
        if (!frame) continue;
        last = performance.now();
        emit(frame);
        if (frame.end !== undefined) {
          reason = frame.end.message;
          return;
        }
      }
    } finally {
      hub.detach(session, reason);
    }
  });
}

/**
 * The attach protocol (src/protocol/attach.ts): one subscription of frames per attached
 * client, and the calls its keys, mouse and size make. Remote peers get this router and nothing
 * else.
 */
export const attachRouter = t.router({
  session: proc
    .meta({
      verb: 'attach [workspace]',
      description:
        'attach: the workspace as frames (the whole state, then what changed), paced to the client; creates the workspace if needed',
      yields: frameSchema,
      streams: true,
    })
    .input(attachInputs.session)
    .subscription(({ ctx, input }) => {
      // A remote peer's cwd and environment are another machine's: its workspace starts in the
      // server's home with the server's environment.
      const remote = ctx.peer !== undefined;
      const env = definedEnv((remote ? undefined : input.env) ?? process.env);
      const session = ctx.attach.attach({
        workspace: input.workspace,
        cols: input.cols,
        rows: input.rows,
        launch: { cwd: (remote ? undefined : input.cwd) ?? os.homedir(), env },
        remote: ctx.peer ?? null,
      });
      return frames(ctx.attach, session, ctx.conn);
    }),
  resize: proc
    .meta({
      verb: 'attach',
      description: "an attached client's pane area changed size; the last resize wins",
    })
    .input(attachInputs.resize)
    .output(ok)
    .mutation(({ ctx, input }) => {
      ctx.attach.resize(input.client, input.cols, input.rows);
      return { ok: true as const };
    }),
  // The typing path: the attach client sends this as a notification (no id, no reply), so a key
  // costs one frame each way (its echo) and no reply, nor an output schema, is on the way.
  input: proc
    .meta({
      verb: 'attach',
      description:
        'keys, paste and mouse reports for the focused pane or the popup; returns nothing, and is best sent as a notification (no `id`): it is then run in order with the calls and not answered',
    })
    .input(attachInputs.input)
    .mutation(({ ctx, input }): void => {
      ctx.attach.input(input.client, input.pane, input.data, input.binary ?? false);
    }),
  action: proc
    .meta({
      verb: 'attach',
      description:
        'a key binding or click: a control procedure called in the context of this client, a workspace, a command',
    })
    .input(attachInputs.action)
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      const call = ctx.attach.action(input.client, input.action);
      if (call?.path === 'popup') {
        // A popup's call ends when its program does; the key is done once it shows.
        ctx.call(call.path, call.input).catch((err: Error) => ctx.log(`popup from a key: ${err.message}`));
      } else if (call) {
        await ctx.call(call.path, call.input);
      }
      return { ok: true as const };
    }),
  prompt: proc
    .meta({
      verb: 'attach',
      description:
        "the options of a blocked pane's prompt (default: the focused pane), for the prefix-a picker; choosing one is the bindable `answer` call",
    })
    .input(attachInputs.prompt)
    .output(promptSchema)
    .query(({ ctx, input }) => ctx.attach.prompt(input.client, input.pane)),
  history: proc
    .meta({ verb: 'attach', description: "a pane's history and screen as runs, for copy mode" })
    .input(attachInputs.history)
    .output(historySchema)
    .query(({ ctx, input }) => ctx.attach.history(input.client, input.pane, input.lines)),
});

/** What a remote peer may call: attach, and nothing of the control API. */
export const remoteRouter = t.router({ attach: attachRouter });
export type RemoteRouter = typeof remoteRouter;
