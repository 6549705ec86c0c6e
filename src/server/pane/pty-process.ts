/**
 * A pane's process on its pty: under a holder (src/server/holder/, native/pane-holder.c) when it is
 * built, so the pane outlives the server; else on the pty module shared with the zor wrapper
 * (src/pty/pty.ts, which says what it hardens), in the server's own process. Both give the pane
 * the same surface. The pane sets TERM in the child's environment, and the pty takes its terminal
 * name from there.
 */
import { Pty, type PtyEvents, type PtySpawn } from '../../pty/pty';
import { HeldPty } from '../holder/held-pty';
import type { PanePlace } from '../holder/key';
import { holderNative } from '../holder/native';
import { holderFits, startHeld } from '../holder/start-holder';

export {
  Pty as PtyProcess,
  type PtyExit as PaneExit,
  type PtySpawn as PtyLaunch,
  type PtyEvents as PtyListeners,
} from '../../pty/pty';

/** What a pane needs of its process, whichever runs it. */
export interface PaneProcess {
  readonly pid: number;
  write(data: string | Uint8Array): void;
  resize(cols: number, rows: number): void;
  kill(signal: string): void;
  pause(): void;
  resume(): void;
  dispose(): void;
}

/** Where a pane's holder listens and the place it keeps (a pane without one runs in the server). */
export interface PaneHolding {
  readonly dir: string;
  readonly place: PanePlace;
}

/** Start the program: under a holder when there is a place for one and the holder is built. */
export function startPtyProcess(launch: PtySpawn, listeners: PtyEvents, holding?: PaneHolding): PaneProcess {
  const native = holding === undefined ? undefined : holderNative();
  // A pane whose holder's socket would not fit a unix address runs in the server, as without holders.
  if (holding === undefined || native === undefined || !holderFits(holding.dir, holding.place))
    return Pty.spawn(launch, listeners);
  return startHeld(launch, holding.place, holding.dir, native, listeners);
}

/** Take back the pane a holder kept running while no server held it (listening on `socket`). */
export function takeHeldPty(socket: string, listeners: PtyEvents): HeldPty {
  const native = holderNative();
  if (native === undefined) throw new Error('the pane holder is not built');
  return HeldPty.take(socket, native.addon, listeners);
}
