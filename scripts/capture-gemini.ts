import { join } from 'node:path';
import { Gate } from '../test/fake-model/gate';
import { geminiShell, geminiWriteFile, text } from '../test/fake-model/replies';
import { GEMINI_READY, prepareGemini, type GeminiStartup } from '../test/agents/gemini';
import { createReleaseFifo, submitPromptPersistently } from '../test/agents/drive';
import type { AgentCaptureContext } from './capture-claude';
import { captureWhen, type CaptureSpec } from './capture-fixture';
import { withAgentScreen, type AgentScreen } from './capture-session';

/**
 * The Gemini CLI captures: one session walked through every state at its prompt, and one in an
 * untrusted folder for the folder-trust dialog. Gemini CLI names its state in the title
 * ("◇  Ready", "✦  Working…", "✋  Action Required"), each followed by the folder's name.
 */

async function withGemini(
  context: AgentCaptureContext,
  label: string,
  startup: GeminiStartup,
  body: (screen: AgentScreen) => Promise<void>,
): Promise<void> {
  const run = await prepareGemini({
    bin: context.bin,
    origin: context.server.origin,
    cols: context.size.cols,
    rows: context.size.rows,
    root: join(context.scratch, label),
    startup,
  });
  await withAgentScreen(run, body);
}

export async function captureGemini(context: AgentCaptureContext): Promise<void> {
  await withGemini(context, 'ready', GEMINI_READY, (screen) => walkThroughStates(context, screen));
  await withGemini(context, 'trust', { trustFolder: false }, async ({ session, view }) => {
    const spec: CaptureSpec = { name: 'startup-trust', expect: 'blocked', matched: 'choice_dialog' };
    await captureWhen(session, view, context.writer, spec, () =>
      view.text().includes('Do you trust the files in this folder?'),
    );
  });
}

async function walkThroughStates(
  context: AgentCaptureContext,
  { session, view, workdir }: AgentScreen,
): Promise<void> {
  const { server } = context;
  const screenHas = (...needles: string[]): boolean =>
    needles.every((needle) => view.text().includes(needle));
  const working = (): boolean => view.title().startsWith('✦');
  const atPrompt = (): boolean =>
    view.title().startsWith('◇') && screenHas('Type your message') && !screenHas('esc to cancel');
  const snap = (spec: CaptureSpec, condition: () => boolean): Promise<string> =>
    captureWhen(session, view, context.writer, spec, condition, 30_000);
  const turn = async (prompt: string): Promise<void> => {
    const fromIndex = server.requests.length;
    const sent = (): boolean => server.requests.slice(fromIndex).some((request) => request.kind === 'main');
    await submitPromptPersistently(session, prompt, sent);
    await server.waitForRequest((request) => request.kind === 'main', { fromIndex, timeoutMs: 30_000 });
  };
  const backToPrompt = (gone: string): Promise<void> =>
    session.waitFor(() => atPrompt() && !screenHas(gone), {
      timeoutMs: 30_000,
      what: `the prompt, without "${gone}"`,
    });

  // Gemini CLI draws its prompt box long before it reads input; the "Ready" title says it does.
  await snap({ name: 'idle-fresh', expect: 'idle', matched: 'title_ready' }, atPrompt);

  const answer = 'Here is an answer from the fake model, streamed while you watch.';
  const thinking = new Gate();
  const streamed = new Gate();
  server.enqueue(text(answer, { contentAfter: thinking, holdUntil: streamed }));
  await turn('Say something slowly');
  await snap(
    { name: 'working-thinking', expect: 'working', matched: 'title_working' },
    () => working() && screenHas('esc to cancel'),
  );
  thinking.open();
  await snap(
    { name: 'working-streaming', expect: 'working', matched: 'title_working' },
    () => working() && screenHas(answer.slice(0, 30)),
  );
  streamed.open();
  await snap(
    { name: 'idle-after-reply', expect: 'idle', matched: 'title_ready' },
    () => atPrompt() && screenHas(answer.slice(-20)),
  );

  const fifo = await createReleaseFifo(workdir);
  server.enqueue(geminiShell(`cat ${fifo.name}`, 'Wait for the release signal'));
  await turn('Run the waiting tool');
  await snap(
    { name: 'working-tool', expect: 'working', matched: 'title_working' },
    () => working() && screenHas(`cat ${fifo.name}`, 'esc to cancel'),
  );
  await fifo.release(session, atPrompt, 30_000);

  server.enqueue(geminiShell('touch made-by-shell.txt', 'Create a marker file'));
  await turn('Touch a file');
  await snap({ name: 'permission-command', expect: 'blocked', matched: 'permission_dialog' }, () =>
    screenHas('Allow execution of', 'touch made-by-shell.txt'),
  );
  session.type('\x1b');
  await backToPrompt('Allow execution of');

  server.enqueue(geminiWriteFile(join(workdir, 'notes.txt'), 'first line\nsecond line\n'));
  await turn('Write a notes file');
  await snap({ name: 'permission-write', expect: 'blocked', matched: 'permission_dialog' }, () =>
    screenHas('notes.txt', 'Allow once'),
  );
  session.type('\x1b');
  await backToPrompt('Allow once');

  await submitPromptPersistently(session, '/model', () => screenHas('Select Model'));
  await snap({ name: 'model-picker', expect: 'skip', matched: 'model_picker' }, () =>
    screenHas('Select Model'),
  );
  session.type('\x1b');
  await backToPrompt('Select Model');

  // Without its "?": a "?" typed at the prompt opens the shortcuts panel.
  session.type('Allow execution of [Shell] 1. Allow once');
  await snap({ name: 'guard-typed-question', expect: 'idle', matched: 'title_ready' }, () =>
    screenHas('> Allow execution of [Shell] 1. Allow once'),
  );
}
