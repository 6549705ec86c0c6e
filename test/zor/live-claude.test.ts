// DESIGN.md §8 and issue 3 "Live test in CI": the real Claude Code under `zor --events` in a pty,
// offline against the fake model server, driven through working → blocked → idle; zor finds the
// agent from the process tree and loads the bundled rule sets, as a user's `zor -- claude` does.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { prepareClaude, type ClaudeRun } from '../agents/claude';
import { submitPrompt } from '../agents/drive';
import { EventListener } from '../agents/event-listener';
import { findInstalledAgent } from '../agents/installed';
import { PtySession } from '../agents/pty-session';
import { Gate } from '../fake-model/gate';
import { claudeBash } from '../fake-model/replies';
import { FakeModelServer } from '../fake-model/server';
import { zorScript } from './support/zor-cli';

const claude = findInstalledAgent('claude');
const live = 'missing' in claude ? it.skip : it;
if ('missing' in claude) console.warn(`skipping the live Claude Code test: ${claude.missing}`);

/** Every wait below is a condition; this only bounds a hung agent. */
const STEP_MS = 20_000;

describe('zor --events wrapping the real Claude Code', () => {
  let server: FakeModelServer | undefined;
  let run: ClaudeRun | undefined;
  let session: PtySession | undefined;
  let events: EventListener | undefined;

  afterEach(async () => {
    await session?.close();
    await events?.close();
    await server?.close();
    await run?.sandbox.remove();
  });

  live(
    'announces idle, working, blocked on the permission prompt, then idle, all as agent claude',
    async () => {
      if ('missing' in claude) return;
      server = await FakeModelServer.start();
      run = await prepareClaude({ bin: claude.bin, origin: server.origin, cols: 120, rows: 40 });
      events = await EventListener.listen(join(run.sandbox.root, 'events.sock'));
      const script = await zorScript();
      session = PtySession.spawn({
        ...run.launch,
        file: process.execPath,
        args: [script, 'zor', '--events', join(run.sandbox.root, 'events.sock'), '--', claude.bin],
      });
      const listener = events;
      const waitForState = (state: string): Promise<void> =>
        session!.waitFor(() => listener.currentState() === state, {
          timeoutMs: STEP_MS,
          what: `zor to announce ${state} (announced so far: ${listener.describe()})`,
        });

      // Idle is announced only after the 3 s startup grace: agents draw their prompt before they
      // start on a queued argument.
      await waitForState('idle');

      // The model "thinks" until the test has seen working, then asks to run a command that
      // changes a file, which Claude Code must ask permission for.
      const thinking = new Gate();
      server.enqueue(
        claudeBash('touch made-by-claude.txt', 'Create a marker file', { contentAfter: thinking }),
      );
      await submitPrompt(session, 'Create the marker file');
      await waitForState('working');
      thinking.open();
      await waitForState('blocked');

      // Declining answers the prompt; Claude Code goes back to its prompt without running it.
      session.type('\x1b');
      await waitForState('idle');

      expect(listener.describe()).toBe('idle → working → blocked → idle');
      expect(new Set(listener.changes().map((line) => line.agent))).toEqual(new Set(['claude']));
      expect(listener.lines.find((line) => line.t === 'agent')).toMatchObject({ agent: 'claude' });
      expect(listener.changes().find((line) => line.state === 'blocked')).toMatchObject({
        visible: ['blocker'],
      });
      expect(existsSync(join(run.sandbox.workdir, 'made-by-claude.txt'))).toBe(false);
    },
    60_000,
  );
});
