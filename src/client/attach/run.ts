/**
 * The attach client: the user's terminal in raw mode, a Compositor drawing the session's mirror,
 * and a Controller turning keys and mouse into input and actions. runAttach wires the parts:
 * the connection (transport, session, reconnect), the mirror of the session (AttachState), the
 * input outbox, the paint scheduler, the prediction driver and the overlays. The transport is
 * whatever the source opens (the local socket, or an iroh stream for `fux connect`); only the
 * `attach` procedures are used, so the remote router suffices.
 */
import { TRPCClientError } from '@trpc/client';
import type { AttachFrame } from '../../protocol/attach';
import { Compositor } from './render/compositor';
import { AttachState } from './render/state';
import { InputDecoder } from './input/decoder';
import { Controller, FOCUSED } from './controller';
import { predictModeFrom, type PaneScreen } from './predict';
import { AttachConnection, type AttachTransportSource } from './connection';
import { InputOutbox } from './outbox';
import { PaintScheduler } from './paint';
import { PredictionDriver } from './prediction-driver';
import { Overlays } from './overlays';
import { Faults } from './faults';
import { appendClientLog, clientLogPath } from './client-log';

export type { AttachClient, AttachTransport, AttachTransportSource } from './connection';

export interface RunAttachOptions {
  /** Opens the transport (and, if it can, reopens it after a loss). */
  transport: AttachTransportSource;
  workspace?: string;
  cwd: string;
  env: Record<string, string>;
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  /** Notices about the link ("no answer for 3 s; reconnecting…"), shown as a message until cleared. */
  notices?: NoticeSource;
  /** Where the client logs its own faults; default: client.log in the state dir (clientLogPath). */
  log?: string;
}

/** Something that tells the client about its link; `undefined` clears the notice. */
export interface NoticeSource {
  listen(show: (text: string | undefined) => void): () => void;
}

export interface AttachOutcome {
  /**
   * How the session ended: the user (or the server) detached it, the workspace's last pane
   * exited, or something failed (`message` says what).
   */
  kind: 'detached' | 'exited' | 'failed';
  message: string;
}

/**
 * How an attach command ends, as tmux's: `[detached]`, `[exited]` when the workspace's last pane
 * exited, otherwise an error that says how to get back (`again`, e.g. "run `fux` again").
 */
export function reportOutcome(outcome: AttachOutcome, again: string): void {
  if (outcome.kind === 'detached') process.stdout.write('[detached]\n');
  else if (outcome.kind === 'exited') process.stdout.write('[exited]\n');
  else throw new Error(`${outcome.message}; ${again} to re-attach`);
}

export async function runAttach(opts: RunAttachOptions): Promise<AttachOutcome> {
  const { input, output } = opts;
  // Connect before touching the terminal: a server that cannot be reached is a plain error.
  const connection = await AttachConnection.open(opts.transport);
  const mirror = new AttachState();
  const compositor = new Compositor({
    output,
    cols: output.columns || 80,
    rows: output.rows || 24,
    state: mirror,
  });
  const logFile = opts.log ?? clientLogPath();
  // Whatever goes wrong inside the client is reported and the session goes on (Faults).
  const faults = new Faults({
    log: (text) => appendClientLog(logFile, text),
    show: (line) => overlays.failed(`${line}; details in ${logFile}`),
    repaint: () => {
      compositor.repaintAll();
      paint.request();
    },
  });
  const paint = new PaintScheduler(faults.guard('drawing', () => compositor.render()));
  const overlays = new Overlays((overlay) => {
    compositor.setOverlay(overlay);
    paint.request();
  });
  const decoder = new InputDecoder();
  let finish!: (o: AttachOutcome) => void;
  const done = new Promise<AttachOutcome>((r) => (finish = r));
  let over = false;

  const report = (p: Promise<unknown> | undefined): void => {
    p?.catch((err: Error) => overlays.failed(err.message));
  };

  const prediction = new PredictionDriver(predictModeFrom(opts.env), {
    show: (pane, p) => compositor.setPrediction(pane, p),
    target: () => controller.target(),
    screenOf: (pane) => paneScreen(mirror, pane),
    repaint: () => paint.request(),
  });
  const outbox = new InputOutbox({
    send: (pane, data, binary) => connection.input(pane === FOCUSED ? undefined : pane, data, binary),
    typed: (data) => prediction.typed(data),
  });

  const controller = new Controller({
    compositor,
    send: (pane, data, binary = false) => outbox.add(pane, data, binary),
    action: (action) => report(connection.action(action)),
    history: (pane) => connection.history(pane),
    prompt: (pane) =>
      connection.prompt(pane).catch((err: Error) => {
        overlays.failed(err.message);
        return undefined;
      }),
    detach: () => end({ kind: 'detached', message: 'detached' }),
    redraw: () => paint.request(),
    modesOf: (pane) => mirror.pane(pane)?.modes,
    showPanel: (panel) => overlays.setPanel(panel),
    // The server's refusal (the pane closed meanwhile) is a failed call, shown; anything else is a fault.
    failed: (what, err) =>
      err instanceof TRPCClientError ? overlays.failed(`${what}: ${err.message}`) : faults.caught(what, err),
  });

  const onFrame = faults.guard('a frame from the server', (frame: AttachFrame): void => {
    if (frame.end !== undefined) {
      end({
        kind: frame.end.reason === 'workspace-closed' ? 'exited' : 'detached',
        message: frame.end.message,
      });
      return;
    }
    mirror.apply(frame);
    compositor.mirrored(frame);
    if (frame.view) controller.setView(frame.view);
    prediction.framed(frame);
    const target = controller.target();
    compositor.setKeyModes(target === undefined ? undefined : mirror.pane(target)?.modes);
    if (frame.bell?.length) compositor.write('\x07');
    paint.request();
  });

  let escTimer: NodeJS.Timeout | undefined;
  const feed = faults.guard('input', (chunk: Buffer): void => {
    const typed = decoder.plain(chunk);
    if (typed !== undefined && controller.typeThrough(typed)) {
      outbox.flush();
      return;
    }
    for (const token of decoder.feed(chunk)) controller.handle(token);
    outbox.flush();
    armEscape();
  });
  const armEscape = (): void => {
    if (escTimer) clearTimeout(escTimer);
    escTimer = undefined;
    const deadline = decoder.pendingDeadline();
    if (deadline === undefined) return;
    escTimer = setTimeout(
      faults.guard('input', () => {
        escTimer = undefined;
        for (const token of decoder.flush()) controller.handle(token);
        outbox.flush();
        armEscape();
      }),
      Math.max(0, deadline - Date.now()),
    );
  };
  const onResize = faults.guard('a resize', (): void => {
    compositor.resize(output.columns || 80, output.rows || 24);
    paint.request();
    // Too small, the workspace keeps its size (the too-small view shows); else the server
    // lays it out, and a refusal shows as that view too, never as an error.
    if (compositor.tooSmall()) return;
    const area = compositor.area();
    connection
      .resize(area.cols, area.rows)
      ?.then(
        () => compositor.refused(undefined),
        (err: Error) => compositor.refused(err.message),
      )
      .finally(() => paint.request());
  });

  const stopNotices = opts.notices?.listen(faults.guard('a notice', (text) => overlays.setLinkNotice(text)));

  function end(outcome: AttachOutcome): void {
    if (over) return;
    over = true;
    faults.stop();
    stopNotices?.();
    overlays.stop();
    prediction.stop();
    paint.stop();
    if (escTimer) clearTimeout(escTimer);
    input.off('data', feed);
    output.off('resize', onResize);
    connection.close();
    compositor.destroy();
    if (input.isTTY) input.setRawMode(false);
    input.pause();
    finish(outcome);
  }

  if (input.isTTY) input.setRawMode(true);
  input.on('data', feed);
  input.resume();
  output.on('resize', onResize);
  connection.start(
    () => {
      const area = compositor.area();
      return { workspace: opts.workspace, cols: area.cols, rows: area.rows, cwd: opts.cwd, env: opts.env };
    },
    {
      frame: onFrame,
      linkNotice: faults.guard('a notice', (text: string | undefined) => overlays.setLinkNotice(text)),
      lost: (message) => end({ kind: 'failed', message }),
    },
  );
  return done;
}

/** A pane as the server last drew it, for the predictor to check its guesses against. */
function paneScreen(mirror: AttachState, pane: number): PaneScreen | undefined {
  const p = mirror.pane(pane);
  if (!p) return undefined;
  return {
    charAt: (x, y) => p.lines[y]?.[x]?.ch || ' ',
    cursor: p.cursor,
    cols: p.cols,
  };
}
