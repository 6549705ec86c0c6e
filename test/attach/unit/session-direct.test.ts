import { AttachSession } from '../../../src/server/attach/session';
import type { Workspace } from '../../../src/server/workspace';
import type { AttachView } from '../../../src/protocol/attach';

/** Whether `p` has settled by the next turn of the event loop. */
const settledYet = (p: Promise<void>): Promise<boolean> =>
  Promise.race([p.then(() => true), new Promise<boolean>((resolve) => setImmediate(() => resolve(false)))]);

/** Clear what is pending, as the frame loop's next frame would (a workspace with no panes). */
function drain(s: AttachSession): void {
  s.frame(
    { panes: new Map(), popup: undefined } as unknown as Workspace,
    () => ({ panes: [] }) as unknown as AttachView,
  );
  expect(s.pending).toBe(false);
}

/** A session whose first frame (the reset) has gone out, so nothing is pending. */
function caughtUp(): AttachSession {
  const s = new AttachSession('c1', 'w', null, { cols: 80, rows: 24 }, {});
  drain(s);
  return s;
}

describe('an attach session sending a pane’s frame in the turn it drew', () => {
  it('asks the direct sender only while the frame loop waits, and does not wake the loop when it sent', async () => {
    const s = caughtUp();
    const stop = new AbortController();
    let calls = 0;
    // The real sender builds and writes the frame (what drain does), which leaves nothing pending.
    s.sendDirectly(() => (calls++, drain(s), true));
    s.markPane(1); // the loop is not waiting: it will find the pane when it looks
    expect(calls).toBe(0);
    expect(await settledYet(s.changed(stop.signal))).toBe(true);
    drain(s);
    const waiting = s.changed(stop.signal);
    s.markPane(1);
    expect(calls).toBe(1);
    expect(await settledYet(waiting)).toBe(false);
    stop.abort();
    expect(await settledYet(waiting)).toBe(true);
  });

  it('wakes the loop when the direct sender leaves the frame to it', async () => {
    const s = caughtUp();
    const stop = new AbortController();
    s.sendDirectly(() => false);
    const waiting = s.changed(stop.signal);
    s.markPane(3);
    expect(await settledYet(waiting)).toBe(true);
    expect(s.pending).toBe(true);
    stop.abort();
  });
});
