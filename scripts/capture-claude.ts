import { join } from 'node:path';
import { XtermScreenView } from '../src/zor/screen/xterm-screen-view';
import { Gate } from '../test/fake-model/gate';
import {
  claudeAskUserQuestion,
  claudeBash,
  claudeEnterPlanMode,
  claudeExitPlanMode,
  claudeWrite,
  text,
} from '../test/fake-model/replies';
import type { FakeModelServer } from '../test/fake-model/server';
import { CLAUDE_READY, prepareClaude, type ClaudeStartup } from '../test/agents/claude';
import { createReleaseFifo, submitPrompt } from '../test/agents/drive';
import { PtySession } from '../test/agents/pty-session';
import { prepareOptions } from './capture-session';
import {
  captureResizedReply,
  captureWhen,
  isPrimarySize,
  screenShows,
  type CaptureSpec,
  type FixtureWriter,
  type Size,
} from './capture-fixture';

/**
 * The Claude Code captures: one session walked through every state at its prompt, and one
 * session per startup dialog. Each capture names the state and the rule that should decide it.
 */

export interface AgentCaptureContext {
  readonly bin: string;
  readonly server: FakeModelServer;
  readonly size: Size;
  /** A fixed directory for this agent and size; sandboxes go under it. */
  readonly scratch: string;
  readonly writer: FixtureWriter;
}

/** Claude's title while a turn runs starts with a braille spinner frame. */
const WORKING_TITLE = /^[\u2800-\u28ff] /;

interface ClaudeScreen {
  readonly session: PtySession;
  readonly view: XtermScreenView;
  readonly workdir: string;
}

async function withClaude(
  context: AgentCaptureContext,
  label: string,
  startup: ClaudeStartup,
  body: (screen: ClaudeScreen) => Promise<void>,
): Promise<void> {
  const run = await prepareClaude({ ...prepareOptions(context, label), startup });
  const session = PtySession.spawn(run.launch);
  const view = new XtermScreenView(session.terminal);
  try {
    await body({ session, view, workdir: run.sandbox.workdir });
  } finally {
    view.dispose();
    await session.close();
    await run.sandbox.remove();
  }
}

export async function captureClaude(context: AgentCaptureContext): Promise<void> {
  await withClaude(context, 'ready', CLAUDE_READY, (screen) => walkThroughStates(context, screen));
  await withClaude(context, 'key', { ...CLAUDE_READY, approveKey: false }, async ({ session, view }) => {
    await capture(
      context,
      session,
      view,
      { name: 'startup-api-key', expect: 'blocked', matched: 'permission_dialog' },
      () => view.text().includes('Do you want to use this API key?'),
    );
  });
  // Answering the plan approval either way leaves Claude in plan mode, so it gets its own session.
  await withClaude(context, 'plan', CLAUDE_READY, async ({ session, view }) => {
    await session.waitFor(() => view.text().includes('? for shortcuts'), {
      timeoutMs: 20_000,
      what: 'the prompt',
    });
    context.server.enqueue(
      claudeEnterPlanMode(),
      claudeExitPlanMode('1. Create notes.txt\n2. Write a line into it'),
    );
    await submitPrompt(session, 'Plan a change');
    await capture(
      context,
      session,
      view,
      { name: 'plan-approval', expect: 'blocked', matched: 'choice_list' },
      () => view.text().includes('Exit plan mode?'),
    );
  });
  await withClaude(context, 'trust', { ...CLAUDE_READY, trustFolder: false }, async ({ session, view }) => {
    await capture(
      context,
      session,
      view,
      { name: 'startup-trust', expect: 'blocked', matched: 'confirm_dialog' },
      () => view.text().includes('Yes, I trust this folder'),
    );
  });
  // Once, from the primary size: a reply that streams across a resize.
  if (isPrimarySize(context.size))
    await withClaude(context, 'resize', CLAUDE_READY, async ({ session, view }) => {
      const working = (): boolean => WORKING_TITLE.test(view.title());
      const atPrompt = (): boolean => view.title().startsWith('✳') && view.text().includes('? for shortcuts');
      await session.waitFor(atPrompt, { timeoutMs: 20_000, what: 'the prompt' });
      const streamed = new Gate();
      await captureResizedReply(session, view, context.writer, {
        startReply: async () => {
          context.server.enqueue(text(ANSWER, { holdUntil: streamed }));
          await submitPrompt(session, 'Say something slowly');
        },
        finish: () => streamed.open(),
        streaming: () => working() && view.text().includes(ANSWER.slice(0, 20)),
        finished: atPrompt,
        streamingRule: 'title_spinner',
        idleRule: 'prompt_box_idle',
      });
    });
}

const ANSWER = 'Here is an answer from the fake model, streamed while you watch.';

function capture(
  context: AgentCaptureContext,
  session: PtySession,
  view: XtermScreenView,
  spec: CaptureSpec,
  condition: () => boolean,
): Promise<string> {
  return captureWhen(session, view, context.writer, spec, condition);
}

async function walkThroughStates(
  context: AgentCaptureContext,
  { session, view, workdir }: ClaudeScreen,
): Promise<void> {
  const { server } = context;
  // The live prompt box puts a no-break space after its ❯; screenShows reads it as a space.
  const screenHas = (...needles: string[]): boolean => screenShows(view, ...needles);
  const atPrompt = (): boolean => view.title().startsWith('✳') && screenHas('? for shortcuts');
  const working = (): boolean => WORKING_TITLE.test(view.title());
  const snap = (spec: CaptureSpec, condition: () => boolean): Promise<string> =>
    capture(context, session, view, spec, condition);
  /** Submits a prompt and waits for the main request it causes, so later waits cannot see the previous turn. */
  const turn = async (prompt: string): Promise<void> => {
    const fromIndex = server.requests.length;
    await submitPrompt(session, prompt);
    await server.waitForRequest((request) => request.kind === 'main', { fromIndex, timeoutMs: 20_000 });
  };
  const backToPrompt = (gone: string): Promise<void> =>
    session.waitFor(() => atPrompt() && !screenHas(gone), {
      timeoutMs: 20_000,
      what: `the prompt, without "${gone}"`,
    });

  await snap({ name: 'idle-fresh', expect: 'idle', matched: 'prompt_box_idle' }, atPrompt);

  const answer = ANSWER;
  const thinking = new Gate();
  const streamed = new Gate();
  server.enqueue(text(answer, { contentAfter: thinking, holdUntil: streamed }));
  await turn('Say something slowly');
  await snap(
    { name: 'working-thinking', expect: 'working', matched: 'title_spinner' },
    () => working() && screenHas('esc to interrupt'),
  );
  thinking.open();
  await snap(
    { name: 'working-streaming', expect: 'working', matched: 'title_spinner' },
    () => working() && screenHas(answer.slice(0, 30)),
  );
  streamed.open();
  await snap(
    { name: 'idle-after-reply', expect: 'idle', matched: 'prompt_box_idle' },
    () => atPrompt() && screenHas(answer.slice(-20)),
  );

  const fifo = await createReleaseFifo(workdir);
  server.enqueue(claudeBash(`cat ${fifo.name}`, 'Wait for the release signal'));
  await turn('Run the waiting tool');
  await snap(
    { name: 'working-tool', expect: 'working', matched: 'title_spinner' },
    () => working() && screenHas(`cat ${fifo.name}`, 'esc to interrupt'),
  );
  await fifo.release(session, atPrompt, 20_000);

  server.enqueue(claudeBash('touch made-by-bash.txt', 'Create a marker file'));
  await turn('Touch a file');
  await snap({ name: 'permission-bash', expect: 'blocked', matched: 'permission_dialog' }, () =>
    screenHas('Do you want to proceed?', 'touch made-by-bash.txt'),
  );
  session.type('\x1b');
  await backToPrompt('Do you want to proceed?');

  server.enqueue(claudeWrite(join(workdir, 'notes.txt'), 'first line\nsecond line\n'));
  await turn('Write a notes file');
  await snap({ name: 'permission-write', expect: 'blocked', matched: 'permission_dialog' }, () =>
    screenHas('Do you want to create notes.txt?'),
  );
  session.type('\x1b');
  await backToPrompt('Do you want to create notes.txt?');

  server.enqueue(
    claudeAskUserQuestion('Which colour should the button be?', 'Colour', [
      { label: 'Red', description: 'A warm red' },
      { label: 'Blue', description: 'A calm blue' },
    ]),
  );
  await turn('Ask me a question');
  await snap({ name: 'question-select', expect: 'blocked', matched: 'confirm_dialog' }, () =>
    screenHas('Which colour should the button be?', 'Enter to select'),
  );
  session.type('\x1b');
  await backToPrompt('Enter to select');

  session.type('\x0f');
  await snap({ name: 'transcript', expect: 'skip', matched: 'transcript_viewer' }, () =>
    screenHas('Showing detailed transcript'),
  );
  session.type('\x0f');
  await backToPrompt('Showing detailed transcript');

  session.type('/model');
  await session.waitForText('/model', 10_000);
  session.type('\r');
  await snap(
    { name: 'model-picker', expect: 'skip', matched: 'model_picker' },
    () =>
      // In a short terminal the picker's heading scrolls off above its footer.
      screenHas('Select model') || screenHas('Enter to set as default'),
  );
  session.type('\x1b');
  await backToPrompt('Enter to set as default');

  session.type('Do you want to proceed?');
  await snap({ name: 'guard-typed-question', expect: 'idle', matched: 'prompt_box_idle' }, () =>
    screenHas('❯ Do you want to proceed?'),
  );
}
