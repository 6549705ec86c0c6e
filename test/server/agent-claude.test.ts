// End to end (issue 4): the real Claude Code in a fux pane, offline against the fake model server,
// driven with `fux send-keys` and watched through the server's `agent.state` events: idle at the
// prompt, working on a prompt, idle, blocked on a shell-command permission prompt, approved (the
// command really runs), idle, blocked on a file-write prompt, declined with Esc, idle.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FuxClient } from '../../src/client';
import type { EventOf, FuxEvent } from '../../src/server/events';
import { prepareClaude, type ClaudeRun } from '../agents/claude';
import { findInstalledAgent } from '../agents/installed';
import { Gate } from '../fake-model/gate';
import { claudeBash, claudeWrite, text } from '../fake-model/replies';
import { FakeModelServer, type RecordedRequest } from '../fake-model/server';
import { FuxHome, root, until } from '../helpers/home';

const claude = findInstalledAgent('claude');
const live = 'missing' in claude ? test.skip : test;
if ('missing' in claude) console.warn(`skipping the end-to-end Claude Code test: ${claude.missing}`);

const WORKSPACE = 'agents';
/** Every wait below is a condition; this only bounds a hung agent. */
const STEP_MS = 20_000;

let home: FuxHome | undefined;
let model: FakeModelServer | undefined;
let run: ClaudeRun | undefined;
afterEach(async () => {
  await home?.close();
  await model?.close();
  await run?.sandbox.remove();
});

describe('a real Claude Code in a fux pane', () => {
  live(
    'is seen idle, working, idle, blocked on a command, idle, blocked on a file write, idle, as agent claude',
    async () => {
      if ('missing' in claude) return;
      model = await FakeModelServer.start();
      run = await prepareClaude({ bin: claude.bin, origin: model.origin, cols: 120, rows: 40 });
      const workdir = run.sandbox.workdir;
      home = new FuxHome();
      await home.startServer();
      const fux: FuxClient = await home.client();
      const fuxHome = home;

      const events: EventOf<'agent.state'>[] = [];
      let started!: () => void;
      const subscribed = new Promise<void>((resolve) => (started = resolve));
      const sub = fux.subscribe.subscribe(
        { events: ['agent.state'], workspace: WORKSPACE },
        {
          onStarted: () => started(),
          onData: (e) => {
            const event = e as FuxEvent;
            if (event.type === 'agent.state') events.push(event);
          },
        },
      );
      await subscribed;
      await fux.workspace.new.mutate({ name: WORKSPACE, cols: 120, rows: 40 });
      const { id } = await fux.new.mutate({
        workspace: WORKSPACE,
        argv: [claude.bin],
        cwd: workdir,
        env: run.launch.env,
      });

      const sendKeys = (...keys: string[]): void => {
        const r = fuxHome.cli(['send-keys', '-w', WORKSPACE, String(id), ...keys]);
        if (r.code !== 0) throw new Error(`fux send-keys failed: ${r.stderr}`);
      };
      const screen = async (): Promise<string> =>
        (await fux.capture.query({ workspace: WORKSPACE, id })).text;
      /** The next event into `state` after event number `from`. */
      const reach = (state: string, from: number) =>
        until(
          () => events.slice(from).find((e) => e.state === state),
          STEP_MS,
          `${state} (seen so far: ${events.map((e) => e.state).join(' → ') || 'nothing'})`,
        );
      const submit = async (prompt: string): Promise<number> => {
        sendKeys(prompt);
        await until(async () => (await screen()).includes(prompt), STEP_MS, `the prompt "${prompt}" to show`);
        const mark = events.length;
        sendKeys('Enter');
        return mark;
      };

      // Idle shows only after the 3 s startup grace: agents draw their prompt before they start.
      await reach('idle', 0);

      // A text reply the model "thinks" about until the test has seen working.
      const thinking = new Gate();
      model.enqueue(text('Hello from the fake model.', { contentAfter: thinking }));
      let mark = await submit('Say hello');
      await reach('working', mark);
      mark = events.length;
      thinking.open();
      await reach('idle', mark);

      // A command that changes a file: Claude Code asks first; approving it runs it.
      model.enqueue(claudeBash('touch made-by-claude.txt', 'Create a marker file'));
      mark = await submit('Create the marker file');
      const bashPrompt = await reach('blocked', mark);
      expect(bashPrompt.visible).toContain('blocker');
      mark = events.length;
      sendKeys('Enter');
      await reach('idle', mark);
      expect(fs.existsSync(path.join(workdir, 'made-by-claude.txt'))).toBe(true);

      // A file write: declined with Esc, so the file never appears.
      model.enqueue(claudeWrite(path.join(workdir, 'notes.txt'), 'Some notes.\n'));
      mark = await submit('Write the notes');
      const writePrompt = await reach('blocked', mark);
      expect(writePrompt.visible).toContain('blocker');
      mark = events.length;
      sendKeys('Escape');
      await reach('idle', mark);
      expect(fs.existsSync(path.join(workdir, 'notes.txt'))).toBe(false);

      sub.unsubscribe();
      const states = events.map((e) => e.state).filter((state, i, all) => state !== all[i - 1]);
      // Between a prompt and its permission dialog Claude Code may show working for a moment.
      expect(states.join(' ')).toMatch(
        /^idle working idle (working )?blocked (working )?idle (working )?blocked idle$/,
      );
      expect(new Set(events.map((e) => e.agent))).toEqual(new Set(['claude']));
      expect(new Set(events.map((e) => e.id))).toEqual(new Set([id]));
    },
    120_000,
  );
});

// Issue 12: the same Claude Code, asked something, then the server killed with SIGKILL; the next
// server resumes it in its own session (`claude --resume <id>`, the id from its transcript files),
// and Claude's next request to the model carries the conversation from before the crash.
interface SavedSession {
  workspaces: Array<{ panes: Array<{ id: number; session: { agent: string; id: string } | null }> }>;
}

describe('a Claude Code pane after a crash', () => {
  live(
    'keeps its conversation: the same process under its holder, else resumed in its own session',
    async () => {
      if ('missing' in claude) return;
      model = await FakeModelServer.start();
      run = await prepareClaude({ bin: claude.bin, origin: model.origin, cols: 120, rows: 40 });
      home = new FuxHome();
      const fuxHome = home;
      const journal = path.join(home.env.XDG_STATE_HOME, 'fux', 'journal.json');
      const first = await home.startServer();
      let fux: FuxClient = await home.client();
      await fux.workspace.new.mutate({ name: WORKSPACE, cols: 120, rows: 40 });
      const { id } = await fux.new.mutate({
        workspace: WORKSPACE,
        argv: [claude.bin],
        cwd: run.sandbox.workdir,
        env: run.launch.env,
      });
      const screen = async (): Promise<string> =>
        (await fux.capture.query({ workspace: WORKSPACE, id })).text;
      const submit = async (prompt: string): Promise<void> => {
        const r = fuxHome.cli(['send-keys', '-w', WORKSPACE, String(id), prompt]);
        if (r.code !== 0) throw new Error(`fux send-keys failed: ${r.stderr}`);
        await until(async () => (await screen()).includes(prompt), STEP_MS, `the prompt "${prompt}" to show`);
        fuxHome.cli(['send-keys', '-w', WORKSPACE, String(id), 'Enter']);
      };

      model.enqueue(text('Noted: the code word is PAPAYA.'));
      await until(async () => (await screen()).includes('❯'), STEP_MS, 'the Claude prompt');
      await submit('Remember the code word PAPAYA');
      await until(async () => (await screen()).includes('Noted: the code word'), STEP_MS, 'the reply');
      // Claude Code writes its transcript; the journal learns the session id from it.
      const saved = await until(
        () => {
          if (!fs.existsSync(journal)) return undefined;
          const j = JSON.parse(fs.readFileSync(journal, 'utf8')) as SavedSession;
          return j.workspaces[0]?.panes[0]?.session ?? undefined;
        },
        STEP_MS,
        'the journal to name the Claude session',
      );
      expect(saved.agent).toBe('claude');
      const transcript = path.join(
        run.sandbox.home,
        '.claude',
        'projects',
        run.sandbox.workdir.replace(/[^A-Za-z0-9]/g, '-'),
        `${saved.id}.jsonl`,
      );
      expect(fs.readFileSync(transcript, 'utf8')).toContain('PAPAYA');

      const before = (await fux.list.query({ workspace: WORKSPACE })).workspaces[0]!.panes[0]!;
      const gone = new Promise((resolve) => first.once('exit', resolve));
      first.kill('SIGKILL');
      await gone;
      const requestsBefore = model.requests.length;

      await home.startServer();
      fux = await home.client();
      const pane = (await fux.list.query({ workspace: WORKSPACE })).workspaces[0]!.panes[0]!;
      // A pane under a holder (native/pane-holder.c) outlives the server: the same Claude Code
      // process goes on. Without the holder built, the journal starts it again on its session.
      if (fs.existsSync(path.join(root, 'native', 'build', 'pane-holder'))) {
        expect(pane).toMatchObject({
          id,
          restored: true,
          survived: true,
          pid: before.pid,
          command: [claude.bin],
        });
      } else {
        expect(pane).toMatchObject({ id, restored: true, command: [claude.bin, '--resume', saved.id] });
      }

      model.enqueue(text('The code word was PAPAYA.'));
      await until(async () => (await screen()).includes('❯'), STEP_MS, 'the resumed Claude prompt');
      await submit('What was the code word?');
      const asked = (): RecordedRequest | undefined =>
        model!.requests
          .slice(requestsBefore)
          .find((r) => r.kind === 'main' && JSON.stringify(r.body).includes('What was the code word?'));
      // The restored history already shows a `❯`, so the prompt may be typed while the resumed
      // Claude Code is still starting, which drops an Enter: press it again until the request comes.
      for (let attempt = 1; !asked() && attempt < 5; attempt++) {
        await until(asked, 3000, 'the next main request').catch(() => {
          fuxHome.cli(['send-keys', '-w', WORKSPACE, String(id), 'Enter']);
        });
      }
      const request = await until(asked, STEP_MS, 'the next main request');
      const body = JSON.stringify(request.body);
      expect(body).toContain('Remember the code word PAPAYA');
      expect(body).toContain('Noted: the code word is PAPAYA.');
    },
    180_000,
  );
});
