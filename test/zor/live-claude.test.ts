// DESIGN.md §8 and issue 3 "Live test in CI": the real Claude Code, offline against the fake
// model server, driven through working → blocked → idle while zor's rules and state machine
// watch its screen.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadRuleDirectories } from '../../src/zor/rules/sources';
import { prepareClaude, type ClaudeRun } from '../agents/claude';
import { submitPrompt } from '../agents/drive';
import { InProcessDetector } from '../agents/in-process-detector';
import { findInstalledAgent, REPO_ROOT } from '../agents/installed';
import { PtySession } from '../agents/pty-session';
import { Gate } from '../fake-model/gate';
import { claudeBash } from '../fake-model/replies';
import { FakeModelServer } from '../fake-model/server';

const claude = findInstalledAgent('claude');
const live = 'missing' in claude ? it.skip : it;
if ('missing' in claude) console.warn(`skipping the live Claude Code test: ${claude.missing}`);

/** Every wait below is a condition; this only bounds a hung agent. */
const STEP_MS = 20_000;

describe('zor watching the real Claude Code', () => {
  let server: FakeModelServer | undefined;
  let run: ClaudeRun | undefined;
  let session: PtySession | undefined;
  let detector: InProcessDetector | undefined;

  afterEach(async () => {
    detector?.stop();
    await session?.close();
    await server?.close();
    await run?.sandbox.remove();
  });

  live(
    'publishes idle, working, blocked on the permission prompt, then idle, all as agent claude',
    async () => {
      if ('missing' in claude) return;
      // Every bundled set, so the agent id comes from identifying the process, not from the test.
      const loaded = loadRuleDirectories([{ dir: join(REPO_ROOT, 'rules'), origin: 'bundled' }]);
      expect(loaded.errors.map((error) => error.message)).toEqual([]);
      const sets = loaded.sets.map((entry) => entry.set);

      server = await FakeModelServer.start();
      run = await prepareClaude({ bin: claude.bin, origin: server.origin, cols: 120, rows: 40 });
      session = PtySession.spawn(run.launch);
      detector = new InProcessDetector(session, sets);

      // Idle only publishes after the 3 s startup grace: agents draw their prompt before they
      // start on a queued argument.
      await detector.waitForState('idle', STEP_MS);

      // The model "thinks" until the test has seen working, then asks to run a command that
      // changes a file, which Claude Code must ask permission for.
      const thinking = new Gate();
      server.enqueue(
        claudeBash('touch made-by-claude.txt', 'Create a marker file', { contentAfter: thinking }),
      );
      await submitPrompt(session, 'Create the marker file');
      await detector.waitForState('working', STEP_MS);
      thinking.open();
      await detector.waitForState('blocked', STEP_MS);

      // Declining answers the prompt; Claude Code goes back to its prompt without running it.
      session.type('\x1b');
      await detector.waitForState('idle', STEP_MS);

      expect(detector.describe()).toBe('idle → working → blocked → idle');
      expect(new Set(detector.changes.map((change) => change.agent))).toEqual(new Set(['claude']));
      const blocked = detector.changes.find((change) => change.state === 'blocked')!;
      expect(blocked.visible.blocker).toBe(true);
      expect(existsSync(join(run.sandbox.workdir, 'made-by-claude.txt'))).toBe(false);
    },
    60_000,
  );
});
