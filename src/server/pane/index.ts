export { Pane, type PaneEvents, type PaneSpawn } from './pane';
export type { PaneExit } from './pty-process';
export { MAX_CAPTURE_BYTES, type CaptureOptions, type CaptureResult } from './capture';
