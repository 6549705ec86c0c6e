/**
 * A pane's process on its pty: the pty module shared with the zor wrapper (src/pty/pty.ts, which
 * says what it hardens), under the names the pane code uses. The pane sets TERM in the child's
 * environment, and the pty takes its terminal name from there.
 */
export {
  Pty as PtyProcess,
  type PtyExit as PaneExit,
  type PtySpawn as PtyLaunch,
  type PtyEvents as PtyListeners,
} from '../../pty/pty';
