// Issue 12 end to end: a real Claude Code in a fux pane (offline, against the fake model server) is
// asked something; the server is killed with SIGKILL; the next server resumes Claude Code in its
// own session (`claude --resume <id>`, the id from its transcript files), and Claude's next request
// to the model carries the conversation from before the crash.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FuxClient } from '../../src/client';
import { prepareClaude, type ClaudeRun } from '../agents/claude';
import { findInstalledAgent } from '../agents/installed';
import { text } from '../fake-model/replies';
import { FakeModelServer } from '../fake-model/server';
import { FuxHome, until } from '../helpers/home';

const claude = findInstalledAgent('claude');
const live = 'missing' in claude ? test.skip : test;
if ('missing' in claude) console.warn(`skipping the Claude Code restore test: ${claude.missing}`);

const WORKSPACE = 'agents';
/** Every wait below is a condition; this only bounds a hung agent. */
const STEP_MS = 30_000;

let home: FuxHome | undefined;
let model: FakeModelServer | undefined;
let run: ClaudeRun | undefined;
afterEach(async () => {
  await home?.close();
  await model?.close();
  await run?.sandbox.remove();
});

interface SavedSession {
  workspaces: Array<{ panes: Array<{ id: number; session: { agent: string; id: string } | null }> }>;
}

describe('a Claude Code pane after a crash', () => {
  live(
    'is resumed in its own session, and its next request carries the conversation from before',
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

      const gone = new Promise((resolve) => first.once('exit', resolve));
      first.kill('SIGKILL');
      await gone;
      const requestsBefore = model.requests.length;

      await home.startServer();
      fux = await home.client();
      const pane = (await fux.list.query({ workspace: WORKSPACE })).workspaces[0]!.panes[0]!;
      expect(pane).toMatchObject({ id, restored: true, command: [claude.bin, '--resume', saved.id] });

      model.enqueue(text('The code word was PAPAYA.'));
      await until(async () => (await screen()).includes('❯'), STEP_MS, 'the resumed Claude prompt');
      await submit('What was the code word?');
      const request = await until(
        () =>
          model!.requests
            .slice(requestsBefore)
            .find((r) => r.kind === 'main' && JSON.stringify(r.body).includes('What was the code word?')),
        STEP_MS,
        'the next main request',
      );
      const body = JSON.stringify(request.body);
      expect(body).toContain('Remember the code word PAPAYA');
      expect(body).toContain('Noted: the code word is PAPAYA.');
    },
    180_000,
  );
});
