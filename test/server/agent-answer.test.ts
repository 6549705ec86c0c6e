// `fux answer` end to end (issue 14): the real Claude Code, Codex, Gemini CLI and OpenCode in fux panes, offline against
// the fake model server, each driven to a permission prompt by a tool call and answered without
// attaching; the tool runs (or does not) as chosen and the agent goes on to idle. And the refusals.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FuxClient } from '../../src/client';
import { prepareClaude, type ClaudeRun } from '../agents/claude';
import { endCodexDaemons, prepareCodex, type CodexRun } from '../agents/codex';
import { prepareGemini, type GeminiRun } from '../agents/gemini';
import { prepareOpenCode, type OpenCodeRun } from '../agents/opencode';
import { findInstalledAgent, type AgentName } from '../agents/installed';
import {
  claudeBash,
  claudeWrite,
  codexExec,
  geminiShell,
  opencodeBash,
  opencodeWrite,
  text,
} from '../fake-model/replies';
import { FakeModelServer } from '../fake-model/server';
import { FuxHome, until, type CliResult } from '../helpers/home';

/** Every wait below is a condition; this only bounds a hung agent. */
const STEP_MS = 30_000;

let home: FuxHome | undefined;
let model: FakeModelServer | undefined;
let claudeRun: ClaudeRun | undefined;
let codexRun: CodexRun | undefined;
let geminiRun: GeminiRun | undefined;
let opencodeRun: OpenCodeRun | undefined;
afterEach(async () => {
  await home?.close();
  home = undefined;
  if (codexRun) await endCodexDaemons(codexRun.codexHome);
  await model?.close();
  await claudeRun?.sandbox.remove();
  await codexRun?.sandbox.remove();
  await geminiRun?.sandbox.remove();
  await opencodeRun?.sandbox.remove();
  model = claudeRun = codexRun = geminiRun = opencodeRun = undefined;
});

function liveFor(agent: AgentName): jest.It {
  const found = findInstalledAgent(agent);
  if ('missing' in found) console.warn(`skipping fux answer with ${agent}: ${found.missing}`);
  return 'missing' in found ? test.skip : test;
}

/** A pane of `argv` in a fresh server, with the CLI and the pane's state at hand. */
async function paneOf(
  launch: { file: string; cwd: string; env: Readonly<Record<string, string>> },
  size = { cols: 120, rows: 40 },
) {
  home = new FuxHome();
  await home.startServer();
  const fux: FuxClient = await home.client();
  const fuxHome = home;
  await fux.workspace.new.mutate({ name: 'main', ...size });
  const { id } = await fux.new.mutate({ argv: [launch.file], cwd: launch.cwd, env: { ...launch.env } });
  const cli = (...args: string[]): CliResult => fuxHome.cli([...args]);
  const state = async (): Promise<string | undefined> =>
    (await fux.list.query({})).workspaces[0]?.panes.find((p) => p.id === id)?.state;
  const screen = async (): Promise<string> => (await fux.capture.query({ id })).text;
  /** Until the pane's published state is `want`; a timeout shows the screen, to tell why. */
  const reach = async (want: string, what: string): Promise<void> => {
    try {
      await until(
        async () => ((await state()) === want ? true : undefined),
        STEP_MS,
        `${what} (state ${want})`,
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}; state ${await state()}, screen:\n${await screen()}`, {
        cause: error,
      });
    }
  };
  return { fux, id, cli, screen, reach };
}

/** How often Enter is pressed again while a typed prompt has not reached the model. */
const ENTER_AGAIN_MS = 2000;

type AgentPane = Awaited<ReturnType<typeof paneOf>> & {
  readonly workdir: string;
  readonly model: FakeModelServer;
  /** Types a prompt and presses Enter until the model is asked. */
  submit(prompt: string): Promise<void>;
};

/** The installed agent in a pane of a fresh server, offline against a fresh fake model, at its prompt. */
async function agentAtPrompt(
  agent: AgentName,
  prepare: (bin: string, origin: string) => Promise<ClaudeRun | CodexRun | GeminiRun | OpenCodeRun>,
  /**
   * Text the prompt shows once the agent reads input, for an agent that is rightly idle (nothing
   * drawn yet) before it does: keys typed then are lost.
   */
  readyText?: string,
  size?: { cols: number; rows: number },
): Promise<AgentPane> {
  const found = findInstalledAgent(agent);
  if ('missing' in found) throw new Error(found.missing);
  const fake = await FakeModelServer.start();
  model = fake;
  const run = await prepare(found.bin, fake.origin);
  const pane = await paneOf(run.launch, size);
  await pane.reach('idle', `${agent} at its prompt`);
  const { cli, id, screen } = pane;
  if (readyText !== undefined)
    await until(async () => (await screen()).includes(readyText) || undefined, STEP_MS, `"${readyText}"`);
  const submit = async (prompt: string): Promise<void> => {
    const from = fake.requests.length;
    expect(cli('send-keys', String(id), prompt).code).toBe(0);
    await until(async () => (await screen()).includes(prompt) || undefined, STEP_MS, `"${prompt}" typed`);
    // Codex takes keys that arrive in one burst as a paste, and an Enter soon after a paste as a
    // newline in the composer; under load the echo can show before that window closes. Pressing
    // Enter again is harmless: an empty composer ignores it.
    let pressed = Number.NEGATIVE_INFINITY;
    try {
      await until(
        () => {
          if (fake.requests.slice(from).some((r) => r.kind === 'main')) return true;
          if (Date.now() - pressed >= ENTER_AGAIN_MS) {
            expect(cli('send-keys', String(id), 'Enter').code).toBe(0);
            pressed = Date.now();
          }
          return undefined;
        },
        STEP_MS,
        `"${prompt}" sent to the model`,
      );
    } catch (error) {
      const asked = fake.requests.slice(from).map((r) => r.kind);
      throw new Error(
        `${(error as Error).message}; requests since: [${asked.join(', ')}], screen:\n${await screen()}`,
        { cause: error },
      );
    }
  };
  return { ...pane, workdir: run.sandbox.workdir, model: fake, submit };
}

/** The approved tool made `file`, the agent went on to its reply, and it is back at its prompt. */
async function toolRanAndAgentWentOn(pane: AgentPane, file: string, reply: string): Promise<void> {
  await until(() => fs.existsSync(path.join(pane.workdir, file)) || undefined, STEP_MS, 'the command to run');
  await until(
    async () => (await pane.screen()).includes(reply) || undefined,
    STEP_MS,
    'the reply after the tool',
  );
  await pane.reach('idle', 'back at its prompt');
}

describe('fux answer', () => {
  test('refuses a pane that is not blocked, a pane that does not exist and a choice that is none', async () => {
    const { id, cli } = await paneOf({
      file: '/bin/sh',
      cwd: process.cwd(),
      env: { PATH: process.env.PATH ?? '' },
    });
    const notBlocked = cli('answer', String(id), 'yes');
    expect(notBlocked.code).not.toBe(0);
    expect(notBlocked.stderr).toContain(`pane ${id} in workspace main is not blocked on a prompt`);
    expect(notBlocked.stderr).toContain(`fux wait ${id} --state blocked`);
    expect(cli('answer', String(id)).stderr).toContain('is not blocked on a prompt');

    const unknown = cli('answer', String(id), 'maybe');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('unknown choice "maybe": answer yes, no, always or an option number');

    const noPane = cli('answer', '42', 'yes');
    expect(noPane.code).not.toBe(0);
    expect(noPane.stderr).toContain('no pane 42 in workspace main');
  }, 30_000);

  liveFor('claude')(
    'approves a real Claude Code command with yes and declines a file write with no',
    async () => {
      const pane = await agentAtPrompt('claude', async (bin, origin) => {
        claudeRun = await prepareClaude({ bin, origin, cols: 120, rows: 40 });
        return claudeRun;
      });
      const { id, cli, reach, submit, workdir, model } = pane;

      model.enqueue(
        claudeBash('touch made-by-claude.txt', 'Create a marker file'),
        text('The marker is made.'),
      );
      await submit('Create the marker file');
      await reach('blocked', 'the command permission prompt');
      const listed = cli('answer', String(id), '--json');
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual({
        rule: 'permission_dialog',
        options: [
          { number: 1, label: 'Yes', cursor: true },
          { number: 2, label: expect.stringMatching(/^Yes, and always allow /), cursor: false },
          { number: 3, label: 'No', cursor: false },
        ],
      });
      const approved = cli('answer', String(id), 'yes');
      expect(approved.stderr).toBe('');
      expect(approved.stdout.trim()).toBe(`pane ${id}: chose 1. Yes`);
      await toolRanAndAgentWentOn(pane, 'made-by-claude.txt', 'The marker is made.');

      model.enqueue(claudeWrite(path.join(workdir, 'notes.txt'), 'Some notes.\n'), text('Left it alone.'));
      await submit('Write the notes');
      await reach('blocked', 'the file write prompt');
      const missing = cli('answer', String(id), '4');
      expect(missing.code).not.toBe(0);
      expect(missing.stderr).toMatch(
        /pane \d+: the prompt has no option 4; the options on screen: 1\. Yes · 2\. Yes, allow all edits during this session \(shift\+tab\) · 3\. No/,
      );
      const declined = JSON.parse(cli('answer', String(id), 'no', '--json').stdout) as {
        option: unknown;
        keys: unknown;
      };
      expect(declined).toMatchObject({ option: { number: 3, label: 'No' }, keys: ['3'] });
      await reach('idle', 'Claude Code back at its prompt after declining');
      expect(fs.existsSync(path.join(workdir, 'notes.txt'))).toBe(false);
    },
    180_000,
  );

  liveFor('claude')(
    'reads every option of a real Claude Code prompt that a 29-column pane wraps, and answers no',
    async () => {
      const size = { cols: 29, rows: 20 };
      const pane = await agentAtPrompt(
        'claude',
        async (bin, origin) => {
          claudeRun = await prepareClaude({ bin, origin, ...size });
          return claudeRun;
        },
        undefined,
        size,
      );
      const { id, cli, reach, submit, workdir, model, screen } = pane;
      model.enqueue(claudeWrite(path.join(workdir, 'notes.txt'), 'Some notes.\n'), text('Left it alone.'));
      await submit('Write the notes');
      await reach('blocked', 'the file write prompt');
      // Drawn as "2.Yes, allow all edits" and two more lines under it.
      expect(await screen()).toMatch(/^ {3}2\.Yes, allow all edits\n {5}during this session$/m);
      const listed = cli('answer', String(id), '--json');
      // The question wraps too ("Do you want to create / notes.txt?"): choice_list, not permission_dialog, knows it.
      expect(JSON.parse(listed.stdout)).toEqual({
        rule: expect.any(String),
        options: [
          { number: 1, label: 'Yes', cursor: true },
          { number: 2, label: 'Yes, allow all edits during this session (shift+tab)', cursor: false },
          { number: 3, label: 'No', cursor: false },
        ],
      });
      const declined = JSON.parse(cli('answer', String(id), 'no', '--json').stdout) as unknown;
      expect(declined).toMatchObject({ option: { number: 3, label: 'No' }, keys: ['3'] });
      await reach('idle', 'Claude Code back at its prompt after declining');
      expect(fs.existsSync(path.join(workdir, 'notes.txt'))).toBe(false);
    },
    180_000,
  );

  liveFor('codex')(
    'approves a real Codex command with always',
    async () => {
      const pane = await agentAtPrompt('codex', async (bin, origin) => {
        codexRun = await prepareCodex({ bin, origin, cols: 120, rows: 40 });
        return codexRun;
      });
      const { id, cli, reach, submit, model } = pane;

      model.enqueue(
        codexExec('touch made-by-codex.txt', { escalated: true, justification: 'Create a marker file?' }),
        text('The marker is made.'),
      );
      await submit('Create the marker file');
      await reach('blocked', 'the approval prompt');
      const approved = JSON.parse(cli('answer', String(id), 'always', '--json').stdout) as unknown;
      expect(approved).toMatchObject({
        option: {
          number: 2,
          label: expect.stringMatching(/^Yes, and don't ask again for commands that start with/),
        },
        keys: ['2'],
      });
      await toolRanAndAgentWentOn(pane, 'made-by-codex.txt', 'The marker is made.');
      expect(cli('answer', String(id), 'yes').stderr).toContain(
        'is not blocked on a prompt: it is idle (codex)',
      );
    },
    180_000,
  );
  liveFor('gemini')(
    'approves a real Gemini CLI command with yes, moving its cursor and pressing Enter',
    async () => {
      // Gemini CLI can be idle (its banner drawn) before its composer reads keys: the kernel
      // echoes keys typed then above the banner, and they never reach the composer.
      const pane = await agentAtPrompt(
        'gemini',
        async (bin, origin) => {
          geminiRun = await prepareGemini({ bin, origin, cols: 120, rows: 40 });
          return geminiRun;
        },
        'Type your message',
      );
      const { id, cli, reach, submit, model } = pane;

      model.enqueue(
        geminiShell('touch made-by-gemini.txt', 'Create a marker file'),
        text('The marker is made.'),
      );
      await submit('Create the marker file');
      await reach('blocked', 'the command permission prompt');
      expect(JSON.parse(cli('answer', String(id), '--json').stdout)).toEqual({
        rule: 'permission_dialog',
        options: [
          { number: 1, label: 'Allow once', cursor: true },
          { number: 2, label: 'Allow for this session', cursor: false },
          { number: 3, label: 'No, suggest changes (esc)', cursor: false },
        ],
      });
      const approved = cli('answer', String(id), 'yes');
      expect(approved.stderr).toBe('');
      expect(approved.stdout.trim()).toBe(`pane ${id}: chose 1. Allow once`);
      await toolRanAndAgentWentOn(pane, 'made-by-gemini.txt', 'The marker is made.');

      // Declining is the last option: the cursor moves down twice before Enter.
      model.enqueue(geminiShell('touch not-made.txt', 'Create another file'), text('Left it alone.'));
      await submit('Create another file');
      await reach('blocked', 'the second permission prompt');
      const declined = JSON.parse(cli('answer', String(id), 'no', '--json').stdout) as unknown;
      expect(declined).toMatchObject({
        option: { number: 3, label: 'No, suggest changes (esc)' },
        keys: ['Down', 'Down', 'Enter'],
      });
      await reach('idle', 'Gemini CLI back at its prompt after declining');
      expect(fs.existsSync(path.join(pane.workdir, 'not-made.txt'))).toBe(false);
    },
    180_000,
  );

  liveFor('opencode')(
    'answers a real OpenCode row of buttons: always (with its confirmation), then yes and 3 on file writes',
    async () => {
      const pane = await agentAtPrompt(
        'opencode',
        async (bin, origin) => {
          opencodeRun = await prepareOpenCode({ bin, origin, cols: 120, rows: 40 });
          return opencodeRun;
        },
        'Ask anything',
      );
      const { id, cli, reach, submit, workdir, model } = pane;
      // OpenCode marks the selected button only by its background colour; zor reads it from the
      // pane's cells. The selection starts on "Allow once".
      const buttons = (selected: number) =>
        ['Allow once', 'Allow always', 'Reject'].map((label, i) => ({
          number: i + 1,
          label,
          cursor: i + 1 === selected,
        }));

      model.enqueue(
        opencodeBash('touch made-by-opencode.txt', 'Create a marker file'),
        text('The marker is made.'),
      );
      await submit('Create the marker file');
      await reach('blocked', 'the command permission prompt');
      expect(JSON.parse(cli('answer', String(id), '--json').stdout)).toEqual({
        rule: 'permission_prompt',
        options: buttons(1),
      });
      // "Allow always" opens a confirmation, whose Confirm is selected: the second Enter.
      const always = JSON.parse(cli('answer', String(id), 'always', '--json').stdout) as unknown;
      expect(always).toMatchObject({
        option: { number: 2, label: 'Allow always' },
        keys: ['Right', 'Enter', 'Enter'],
      });
      await toolRanAndAgentWentOn(pane, 'made-by-opencode.txt', 'The marker is made.');
      // Always it was, not once: the next touch runs without a prompt (nothing here would answer one).
      model.enqueue(opencodeBash('touch touched-again.txt', 'Another marker'), text('Touched again.'));
      await submit('Touch another marker');
      await toolRanAndAgentWentOn(pane, 'touched-again.txt', 'Touched again.');

      model.enqueue(opencodeWrite(path.join(workdir, 'notes.txt'), 'Some notes.\n'), text('Notes written.'));
      await submit('Write the notes');
      await reach('blocked', 'the file write prompt');
      const approved = cli('answer', String(id), 'yes');
      expect(approved.stderr).toBe('');
      expect(approved.stdout.trim()).toBe(`pane ${id}: chose 1. Allow once`);
      await toolRanAndAgentWentOn(pane, 'notes.txt', 'Notes written.');

      // Declining by number: Reject is the third button, two to the right of the selection.
      model.enqueue(opencodeWrite(path.join(workdir, 'other.txt'), 'More.\n'), text('Left it alone.'));
      await submit('Write another file');
      await reach('blocked', 'the second file write prompt');
      expect(cli('answer', String(id), '4').stderr).toContain(
        'the prompt has no option 4; the options on screen: 1. Allow once · 2. Allow always · 3. Reject',
      );
      const declined = JSON.parse(cli('answer', String(id), '3', '--json').stdout) as unknown;
      expect(declined).toMatchObject({
        option: { number: 3, label: 'Reject' },
        keys: ['Right', 'Right', 'Enter'],
      });
      await reach('idle', 'OpenCode back at its prompt after rejecting');
      expect(fs.existsSync(path.join(workdir, 'other.txt'))).toBe(false);
    },
    300_000,
  );
});
