import { join } from 'node:path';
import { XtermScreenView } from '../src/zor/screen/xterm-screen-view';
import { Gate } from '../test/fake-model/gate';
import { codexExec, text } from '../test/fake-model/replies';
import { CODEX_READY, endCodexDaemons, prepareCodex, type CodexStartup } from '../test/agents/codex';
import { createReleaseFifo, submitPrompt } from '../test/agents/drive';
import { PtySession } from '../test/agents/pty-session';
import { prepareOptions } from './capture-session';
import type { AgentCaptureContext } from './capture-claude';
import {
  captureResizedReply,
  captureWhen,
  isPrimarySize,
  screenShows,
  type CaptureSpec,
} from './capture-fixture';

/**
 * The Codex captures: one session walked through every state at its composer, and one session
 * in an untrusted git repository for the trust prompt, Codex's only startup dialog here (in an
 * untrusted plain folder it starts without asking). While a reply streams Codex draws no status
 * line; only its title spinner says it is working.
 */

/** Codex's title while a turn runs starts with a braille spinner frame. */
const WORKING_TITLE = /^[\u2800-\u28ff] /;

interface CodexScreen {
  readonly session: PtySession;
  readonly view: XtermScreenView;
  readonly root: string;
  readonly workdir: string;
}

async function withCodex(
  context: AgentCaptureContext,
  label: string,
  startup: CodexStartup,
  body: (screen: CodexScreen) => Promise<void>,
): Promise<void> {
  const run = await prepareCodex({ ...prepareOptions(context, label), startup });
  const session = PtySession.spawn(run.launch);
  const view = new XtermScreenView(session.terminal);
  try {
    await body({ session, view, root: run.sandbox.root, workdir: run.sandbox.workdir });
  } finally {
    view.dispose();
    await session.close();
    await endCodexDaemons(run.codexHome);
    await run.sandbox.remove();
  }
}

export async function captureCodex(context: AgentCaptureContext): Promise<void> {
  await withCodex(context, 'ready', CODEX_READY, (screen) => walkThroughStates(context, screen));
  await withCodex(context, 'trust', { trustProject: false }, async ({ session, view }) => {
    const spec: CaptureSpec = { name: 'startup-trust', expect: 'blocked', matched: 'choice_dialog' };
    await captureWhen(session, view, context.writer, spec, () => view.text().includes('Trust this folder?'));
  });
  // Once, from the primary size: a reply that streams across a resize.
  if (isPrimarySize(context.size))
    await withCodex(context, 'resize', CODEX_READY, async ({ session, view }) => {
      const state = codexState(view);
      await session.waitFor(state.atPrompt, { timeoutMs: 20_000, what: 'the composer' });
      const streamed = new Gate();
      await captureResizedReply(session, view, context.writer, {
        startReply: async () => {
          context.server.enqueue(text(ANSWER, { holdUntil: streamed }));
          await submitPrompt(session, 'Say something slowly');
        },
        finish: () => streamed.open(),
        streaming: () => state.working() && view.text().includes(ANSWER.slice(0, 20)),
        finished: state.atPrompt,
        streamingRule: 'title_spinner',
        idleRule: 'turn_finished',
      });
    });
}

const ANSWER = 'Here is an answer from the fake model, streamed while you watch.';

/** What Codex's title and screen say: a turn running, or the composer waiting. */
function codexState(view: XtermScreenView): { working: () => boolean; atPrompt: () => boolean } {
  const screenHas = (...needles: string[]): boolean => screenShows(view, ...needles);
  const working = (): boolean => WORKING_TITLE.test(view.title());
  // The title is empty until Codex has finished starting (its app-server daemon answering); a
  // prompt typed before that waits behind "Waiting for startup".
  const atPrompt = (): boolean =>
    view.title() !== '' &&
    !working() &&
    !view.title().includes('Action Required') &&
    screenHas('? for shortcuts') &&
    !screenHas('Working (');
  return { working, atPrompt };
}

async function walkThroughStates(
  context: AgentCaptureContext,
  { session, view, root, workdir }: CodexScreen,
): Promise<void> {
  const { server } = context;
  const screenHas = (...needles: string[]): boolean => screenShows(view, ...needles);
  const { working, atPrompt } = codexState(view);
  const snap = (spec: CaptureSpec, condition: () => boolean): Promise<string> =>
    captureWhen(session, view, context.writer, spec, condition);
  const turn = async (prompt: string): Promise<void> => {
    const fromIndex = server.requests.length;
    await submitPrompt(session, prompt);
    await server.waitForRequest((request) => request.kind === 'main', { fromIndex, timeoutMs: 20_000 });
  };
  const backToPrompt = (gone: string): Promise<void> =>
    session.waitFor(() => atPrompt() && !screenHas(gone), {
      timeoutMs: 20_000,
      what: `the composer, without "${gone}"`,
    });

  await snap({ name: 'idle-fresh', expect: 'idle', matched: 'none' }, atPrompt);

  const answer = ANSWER;
  const thinking = new Gate();
  const streamed = new Gate();
  server.enqueue(text(answer, { contentAfter: thinking, holdUntil: streamed }));
  await turn('Say something slowly');
  await snap(
    { name: 'working-thinking', expect: 'working', matched: 'title_spinner' },
    () => working() && screenHas('Working (', 'esc to interrupt'),
  );
  thinking.open();
  await snap(
    { name: 'working-streaming', expect: 'working', matched: 'title_spinner' },
    () => working() && screenHas(answer.slice(0, 30)),
  );
  streamed.open();
  await snap(
    { name: 'idle-after-reply', expect: 'idle', matched: 'turn_finished' },
    () => atPrompt() && screenHas('Worked for', answer.slice(-20)),
  );

  const fifo = await createReleaseFifo(workdir);
  server.enqueue(codexExec(`cat ${fifo.name}`, { escalated: false }));
  await turn('Run the waiting tool');
  await snap(
    { name: 'working-tool', expect: 'working', matched: 'title_spinner' },
    () => working() && screenHas(fifo.name, 'esc to interrupt'),
  );
  await fifo.release(session, atPrompt, 20_000);

  server.enqueue(
    codexExec('touch made-by-exec.txt', {
      escalated: true,
      justification: 'Create a marker file outside the sandbox?',
    }),
  );
  await turn('Touch a file');
  await snap({ name: 'permission-command', expect: 'blocked', matched: 'approval_prompt' }, () =>
    screenHas('Would you like to run the following command?', 'touch made-by-exec.txt'),
  );
  session.type('\x1b');
  await backToPrompt('Would you like to run the following command?');

  // Codex edits files through apply_patch; a patch outside the project's writable roots asks.
  const outside = join(root, 'outside', 'notes.txt');
  const patch = [
    'apply_patch <<EOF',
    '*** Begin Patch',
    `*** Add File: ${outside}`,
    '+first line',
    '*** End Patch',
    'EOF',
    '',
  ];
  server.enqueue(codexExec(patch.join('\n'), { escalated: false }));
  await turn('Write a notes file');
  await snap({ name: 'permission-write', expect: 'blocked', matched: 'approval_prompt' }, () =>
    screenHas('Would you like to make the following edits?'),
  );
  session.type('\x1b');
  await backToPrompt('Would you like to make the following edits?');

  // Esc twice at an empty composer browses the transcript ("edit a previous message"); the
  // footer says "Browsing transcript ·", shortened to "Browsing ·" in narrow terminals.
  session.type('\x1b');
  await session.waitForText('esc again', 10_000);
  session.type('\x1b');
  await snap({ name: 'transcript', expect: 'skip', matched: 'transcript_browser' }, () =>
    screenHas('Browsing', 'esc back'),
  );
  session.type('\x1b');
  await backToPrompt('esc back');

  session.type('/model');
  await session.waitForText('/model', 10_000);
  session.type('\r');
  await snap({ name: 'model-picker', expect: 'skip', matched: 'model_picker' }, () =>
    screenHas('Select Model and Effort'),
  );
  session.type('\x1b');
  await backToPrompt('Select Model and Effort');

  session.type('Do you want to proceed?');
  await snap({ name: 'guard-typed-question', expect: 'idle', matched: 'none' }, () =>
    screenHas('› Do you want to proceed?'),
  );
}
