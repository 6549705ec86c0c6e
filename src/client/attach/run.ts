/**
 * The attach client: the user's terminal in raw mode, a Compositor drawing the frames the server
 * sends, and a Controller turning keys and mouse into input and actions. The transport is
 * whatever `open` returns (the local socket, or an iroh stream for `fux connect`); only the
 * `attach` procedures are used, so the remote router suffices.
 */
import type { TRPCClient } from '@trpc/client';
import type { Unsubscribable } from '@trpc/server/observable';
import type { RemoteRouter } from '../../server/attach/router';
import type { AttachAction, AttachFrame } from '../../protocol/attach';
import { Compositor } from './render/compositor';
import { InputDecoder } from './input/decoder';
import { Controller, FOCUSED } from './controller';
import { Predictor, predictModeFrom, type PaneScreen } from './predict';

export type AttachClient = TRPCClient<RemoteRouter>;

export interface AttachTransport {
  client: AttachClient;
  close(): void;
}

export interface RunAttachOptions {
  /** Opens the transport; called again to reconnect when `reconnectMs` allows. */
  open(): Promise<AttachTransport>;
  workspace?: string;
  cwd: string;
  env: Record<string, string>;
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  /** Keep trying to get back for this long after the connection drops (remote attach); 0: give up at once. */
  reconnectMs?: number;
  /** An `open` failure that retrying cannot mend (refused, server gone): the session ends with it at once. */
  isFatal?(err: unknown): boolean;
  /** Notices about the link ("no answer for 3 s; reconnecting…"), shown as a message until cleared. */
  notices?: NoticeSource;
}

/** Something that tells the client about its link; `undefined` clears the notice. */
export interface NoticeSource {
  listen(show: (text: string | undefined) => void): () => void;
}

export interface AttachOutcome {
  /** Why the client left: "detached", the server's reason, or the error. */
  reason: string;
  /** Whether that was the user's wish (detach) rather than a failure. */
  detached: boolean;
}

/**
 * How an attach command ends, as tmux's: `[detached]`, `[exited]` when the workspace's last pane
 * exited, otherwise an error that says how to get back (`again`, e.g. "run `fux` again").
 */
export function reportOutcome(outcome: AttachOutcome, again: string): void {
  if (outcome.detached) process.stdout.write('[detached]\n');
  else if (/^workspace .* closed$/.test(outcome.reason)) process.stdout.write('[exited]\n');
  else throw new Error(`${outcome.reason}; ${again} to re-attach`);
}

export async function runAttach(opts: RunAttachOptions): Promise<AttachOutcome> {
  const { input, output } = opts;
  // Connect before touching the terminal: a server that cannot be reached is a plain error.
  let transport: AttachTransport | undefined = await opts.open();
  const compositor = new Compositor({ output, cols: output.columns || 80, rows: output.rows || 24 });
  const decoder = new InputDecoder();
  let sub: Unsubscribable | undefined;
  let client = '';
  let finish!: (o: AttachOutcome) => void;
  const done = new Promise<AttachOutcome>((r) => (finish = r));
  let over = false;

  // The server paces frames; the client paints once per turn of the event loop, after every frame
  // and key that arrived in it, so a burst costs one paint and a lone echo paints at once.
  let paintQueued = false;
  const redraw = (): void => {
    if (paintQueued || over) return;
    paintQueued = true;
    setImmediate(() => {
      paintQueued = false;
      if (!over) compositor.render();
    });
  };

  const predictor = new Predictor(predictModeFrom(opts.env));
  let predicted: number | undefined;
  /** Show what the predictor has for the pane keys go to (and nothing on the one they went to before). */
  let predictionTimer: NodeJS.Timeout | undefined;
  const showPrediction = (): void => {
    const target = controller.target();
    if (predicted !== undefined && predicted !== target) compositor.setPrediction(predicted, undefined);
    predicted = target;
    if (target !== undefined) compositor.setPrediction(target, predictor.overlay(target));
    // A guess the program never answers is taken back at its deadline: no frame would do it.
    if (predictionTimer) clearTimeout(predictionTimer);
    const deadline = predictor.deadline();
    if (deadline === undefined) return;
    predictionTimer = setTimeout(
      () => {
        predictionTimer = undefined;
        const screen = target === undefined ? undefined : paneScreen(compositor, target);
        if (target !== undefined && screen) predictor.update(target, screen);
        showPrediction();
        redraw();
      },
      Math.max(0, deadline - Date.now()) + 1,
    );
  };

  const call = (p: Promise<unknown>): void => {
    p.catch((err: Error) => {
      compositor.setOverlay({ kind: 'message', text: err.message });
      redraw();
    });
  };

  // Keys decoded from one read go out as one call per pane (a fast typist's or a terminal's burst
  // is one chunk), in order.
  let outbox: Array<{ pane: number | typeof FOCUSED; data: string; binary: boolean }> = [];
  const flushInput = (): void => {
    const batch = outbox;
    outbox = [];
    if (!transport || !client) return;
    for (const { pane, data, binary } of batch) {
      const sent = performance.now();
      const reply = transport.client.attach.input.mutate({
        client,
        pane: pane === FOCUSED ? undefined : pane,
        data,
        binary: binary || undefined,
      });
      call(reply.then(() => predictor.roundTrip(performance.now() - sent)));
      // Typing is predicted on the pane the client shows focused.
      const target = controller.target();
      const screen = pane === FOCUSED && target !== undefined ? paneScreen(compositor, target) : undefined;
      if (!binary && screen && target !== undefined) {
        predictor.typed(target, data, screen);
        showPrediction();
        redraw();
      }
    }
  };
  const queueInput = (pane: number | typeof FOCUSED, data: string, binary: boolean): void => {
    const last = outbox[outbox.length - 1];
    if (last && last.pane === pane && last.binary === binary) last.data += data;
    else outbox.push({ pane, data, binary });
  };

  const controller = new Controller({
    compositor,
    send: (pane, data, binary = false) => queueInput(pane, data, binary),
    action: (action: AttachAction) => {
      if (transport && client) call(transport.client.attach.action.mutate({ client, action }));
    },
    history: (pane) => {
      if (!transport || !client) return Promise.reject(new Error('not attached'));
      return transport.client.attach.history.query({ client, pane, lines: 100_000 });
    },
    detach: () => end({ reason: 'detached', detached: true }),
    redraw,
    modesOf: (pane) => compositor.modesOf(pane),
  });

  const onFrame = (frame: AttachFrame): void => {
    if (frame.client) client = frame.client;
    if (frame.end !== undefined) {
      end({ reason: frame.end, detached: false });
      return;
    }
    compositor.apply(frame);
    if (frame.view) controller.setView(frame.view);
    const target = controller.target();
    const screen = target === undefined ? undefined : paneScreen(compositor, target);
    if (target !== undefined && screen) predictor.update(target, screen);
    showPrediction();
    compositor.setKeyModes(target === undefined ? undefined : compositor.modesOf(target));
    if (frame.bell?.length) compositor.write('\x07');
    redraw();
  };

  let lostAt: number | undefined;
  const subscribe = (t: AttachTransport): void => {
    const area = compositor.area();
    sub = t.client.attach.session.subscribe(
      { workspace: opts.workspace, cols: area.cols, rows: area.rows, cwd: opts.cwd, env: opts.env },
      {
        onData: (frame) => {
          lostAt = undefined;
          onFrame(frame);
        },
        onError: (err) => void lost(err.message),
        onComplete: () => void lost('the server closed the session'),
      },
    );
  };

  const lost = async (why: string): Promise<void> => {
    if (over) return;
    const budget = opts.reconnectMs ?? 0;
    if (budget <= 0) return end({ reason: why, detached: false });
    lostAt ??= Date.now();
    compositor.setOverlay({ kind: 'message', text: `reconnecting… (${why})` });
    redraw();
    sub?.unsubscribe();
    transport?.close();
    transport = undefined;
    client = '';
    while (!over && Date.now() - lostAt < budget) {
      try {
        transport = await opts.open();
        compositor.setOverlay(undefined);
        subscribe(transport);
        return;
      } catch (err) {
        if (opts.isFatal?.(err)) return end({ reason: (err as Error).message, detached: false });
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    end({ reason: `${why}; gave up reconnecting`, detached: false });
  };

  let escTimer: NodeJS.Timeout | undefined;
  const feed = (chunk: Buffer): void => {
    for (const token of decoder.feed(chunk)) controller.handle(token);
    flushInput();
    armEscape();
  };
  const armEscape = (): void => {
    if (escTimer) clearTimeout(escTimer);
    escTimer = undefined;
    const deadline = decoder.pendingDeadline();
    if (deadline === undefined) return;
    escTimer = setTimeout(
      () => {
        escTimer = undefined;
        for (const token of decoder.flush()) controller.handle(token);
        flushInput();
        armEscape();
      },
      Math.max(0, deadline - Date.now()),
    );
  };
  const onResize = (): void => {
    compositor.resize(output.columns || 80, output.rows || 24);
    const area = compositor.area();
    if (transport && client)
      call(transport.client.attach.resize.mutate({ client, cols: area.cols, rows: area.rows }));
    redraw();
  };

  const stopNotices = opts.notices?.listen((text) => {
    compositor.setOverlay(text === undefined ? undefined : { kind: 'message', text });
    redraw();
  });

  function end(outcome: AttachOutcome): void {
    if (over) return;
    over = true;
    stopNotices?.();
    if (predictionTimer) clearTimeout(predictionTimer);
    if (escTimer) clearTimeout(escTimer);
    input.off('data', feed);
    output.off('resize', onResize);
    sub?.unsubscribe();
    transport?.close();
    compositor.destroy();
    if (input.isTTY) input.setRawMode(false);
    input.pause();
    finish(outcome);
  }

  if (input.isTTY) input.setRawMode(true);
  input.on('data', feed);
  input.resume();
  output.on('resize', onResize);
  subscribe(transport);
  return done;
}

/** A pane as the server last drew it, for the predictor to check its guesses against. */
function paneScreen(compositor: Compositor, pane: number): PaneScreen | undefined {
  const mirror = compositor.state.pane(pane);
  if (!mirror) return undefined;
  return {
    charAt: (x, y) => mirror.lines[y]?.[x]?.ch || ' ',
    cursor: mirror.cursor,
    cols: mirror.cols,
  };
}
