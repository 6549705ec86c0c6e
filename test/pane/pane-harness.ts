import { Pane, type PaneExit, type PaneSpawn } from '../../src/server/pane';

/** The environment panes get in tests: this process's, without anything fux- or tmux-specific. */
export function testEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('FUX_') && !key.startsWith('TMUX')) env[key] = value;
  }
  return env;
}

const live = new Set<Pane>();

/** Spawn `script` under /bin/sh -c in an 80×24 pane (overridable); `disposeAll` reaps it. */
export function shPane(script: string, overrides: Partial<PaneSpawn> = {}): Pane {
  const pane = Pane.spawn({
    argv: ['/bin/sh', '-c', script],
    cwd: '/tmp',
    env: testEnv(),
    cols: 80,
    rows: 24,
    scrollback: 1000,
    ...overrides,
  });
  live.add(pane);
  return pane;
}

/** Dispose every pane a test spawned (call from afterEach). */
export function disposeAll(): void {
  for (const pane of live) pane.dispose();
  live.clear();
}

/** Resolve with the pane's exit once its process is gone and its output parsed. */
export function exited(pane: Pane, deadlineMs = 15_000): Promise<PaneExit> {
  if (pane.exit) return Promise.resolve(pane.exit);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`pane ${pane.pid} did not exit within ${deadlineMs} ms`)),
      deadlineMs,
    );
    pane.once('exit', (exit) => {
      clearTimeout(timer);
      resolve(exit);
    });
  });
}

/**
 * Wait until `predicate` holds, re-checking after each parsed output and every 10 ms; reject with
 * `what` and the pane's screen if the deadline passes first.
 */
export function until(
  pane: Pane,
  what: string,
  predicate: () => boolean,
  deadlineMs = 10_000,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (!predicate()) return;
      stop();
      resolve();
    };
    const poll = setInterval(check, 10);
    const deadline = setTimeout(() => {
      stop();
      reject(new Error(`timed out waiting for ${what}; screen:\n${screen(pane)}`));
    }, deadlineMs);
    const stop = (): void => {
      clearInterval(poll);
      clearTimeout(deadline);
      pane.off('output', check);
    };
    pane.on('output', check);
    check();
  });
}

/** The pane's viewport as plain text. */
export function screen(pane: Pane): string {
  return pane.capture({ attrs: false, scrollback: 0 }).text;
}

/** Wait until the viewport shows `text`. */
export function untilShown(pane: Pane, text: string): Promise<void> {
  return until(pane, JSON.stringify(text), () => screen(pane).includes(text));
}
