// The native relay (native/zor-relay.c) and the way back to node-pty: zor relays through the
// helper the build compiled, and without it (none built, none runnable, or `ZOR_RELAY=` empty) it
// relays through node-pty with the same bytes, status and size. The other wrapper tests run on
// whichever path the build gives (the native one where a compiler exists).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../support/paths';
import { killRunning, runInPty } from '../support/zor-pty';

afterEach(killRunning);

const BUILT = join(REPO, 'native', 'build', 'zor-relay');
/** Bytes that cross escape sequences, a title and UTF-8, then an exit status (the child's pty maps LF to CR LF). */
const CHILD = ['sh', '-c', `printf 'a\\033[1mb\\033[0m\\n\\033]2;t\\007é\\n'; exit 5`];
const EXPECTED = 'a\x1b[1mb\x1b[0m\r\n\x1b]2;t\x07é\r\n';

describe('the native relay', () => {
  (existsSync(BUILT) ? it : it.skip)('relays the child when the build compiled it', async () => {
    const run = await runInPty(['--debug', '--title', 'never', '--no-osc', '--', ...CHILD]);
    expect((await run.exited).exitCode).toBe(5);
    expect(run.text()).toContain(`output relayed by ${BUILT}`);
    expect(run.text()).toContain(EXPECTED);
  });

  it.each([
    ['ZOR_RELAY is empty', ''],
    ['the relay named cannot run', join(REPO, 'native', 'no-such-relay')],
  ])('falls back to node-pty when %s, with the same bytes and status', async (_, relay) => {
    const run = await runInPty(['--debug', '--title', 'never', '--no-osc', '--', ...CHILD], {
      env: { ZOR_RELAY: relay },
    });
    expect((await run.exited).exitCode).toBe(5);
    expect(run.text()).toContain('output relayed through node-pty');
    expect(run.text()).toContain(EXPECTED);
  });
});
