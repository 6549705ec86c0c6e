import { join } from 'node:path';
import { Gate } from '../test/fake-model/gate';
import { opencodeBash, opencodeWrite, text } from '../test/fake-model/replies';
import { prepareOpenCode } from '../test/agents/opencode';
import { createReleaseFifo, submitPromptPersistently } from '../test/agents/drive';
import type { AgentCaptureContext } from './capture-claude';
import { captureWhen, type CaptureSpec } from './capture-fixture';
import { withAgentScreen, type AgentScreen } from './capture-session';

/**
 * The OpenCode captures: one session walked through every state at its prompt. OpenCode has no
 * startup dialog offline (it asks nothing about the folder), and its title only names the
 * session, so every state is read from the screen.
 */

async function withOpenCode(
  context: AgentCaptureContext,
  label: string,
  body: (screen: AgentScreen) => Promise<void>,
): Promise<void> {
  const run = await prepareOpenCode({
    bin: context.bin,
    origin: context.server.origin,
    cols: context.size.cols,
    rows: context.size.rows,
    root: join(context.scratch, label),
  });
  await withAgentScreen(run, body);
}

export async function captureOpenCode(context: AgentCaptureContext): Promise<void> {
  await withOpenCode(context, 'ready', (screen) => walkThroughStates(context, screen));
}

async function walkThroughStates(
  context: AgentCaptureContext,
  { session, view, workdir }: AgentScreen,
): Promise<void> {
  const { server } = context;
  const screenHas = (...needles: string[]): boolean =>
    needles.every((needle) => view.text().includes(needle));
  const working = (): boolean => screenHas('esc interrupt');
  const atPrompt = (): boolean => screenHas('ctrl+p commands') && !working() && !screenHas('Permission');
  const snap = (spec: CaptureSpec, condition: () => boolean): Promise<string> =>
    captureWhen(session, view, context.writer, spec, condition, 60_000);
  const turn = async (prompt: string): Promise<void> => {
    const fromIndex = server.requests.length;
    const sent = (): boolean => server.requests.slice(fromIndex).some((request) => request.kind === 'main');
    await submitPromptPersistently(session, prompt, sent, { attempts: 3, retryMs: 20_000 });
  };
  const backToPrompt = (gone: string): Promise<void> =>
    session.waitFor(() => atPrompt() && !screenHas(gone), {
      timeoutMs: 60_000,
      what: `the prompt, without "${gone}"`,
    });

  await snap(
    { name: 'idle-fresh', expect: 'idle', matched: 'none' },
    () => atPrompt() && screenHas('Ask anything'),
  );

  const answer = 'Here is an answer from the fake model, streamed while you watch.';
  const thinking = new Gate();
  const streamed = new Gate();
  server.enqueue(text(answer, { contentAfter: thinking, holdUntil: streamed }));
  await turn('Say something slowly');
  await snap({ name: 'working-thinking', expect: 'working', matched: 'interrupt_footer' }, working);
  thinking.open();
  await snap(
    { name: 'working-streaming', expect: 'working', matched: 'interrupt_footer' },
    () => working() && screenHas(answer.slice(0, 30)),
  );
  streamed.open();
  await snap(
    { name: 'idle-after-reply', expect: 'idle', matched: 'none' },
    () => atPrompt() && screenHas(answer.slice(-20)),
  );

  const fifo = await createReleaseFifo(workdir);
  server.enqueue(opencodeBash(`cat ${fifo.name}`, 'Wait for the release signal'));
  await turn('Run the waiting tool');
  await snap(
    { name: 'working-tool', expect: 'working', matched: 'interrupt_footer' },
    () => working() && screenHas(`cat ${fifo.name}`),
  );
  await fifo.release(session, atPrompt, 60_000);

  server.enqueue(opencodeBash('touch made-by-bash.txt', 'Create a marker file'));
  await turn('Touch a file');
  await snap({ name: 'permission-command', expect: 'blocked', matched: 'permission_prompt' }, () =>
    screenHas('Permission', 'touch made-by-bash.txt'),
  );
  session.type('\x1b');
  await backToPrompt('Permission');

  server.enqueue(opencodeWrite(join(workdir, 'notes.txt'), 'first line\nsecond line\n'));
  await turn('Write a notes file');
  await snap({ name: 'permission-write', expect: 'blocked', matched: 'permission_prompt' }, () =>
    screenHas('Permission', 'notes.txt'),
  );
  session.type('\x1b');
  await backToPrompt('Permission');

  await submitPromptPersistently(session, '/models', () => screenHas('Select model'));
  await snap({ name: 'model-picker', expect: 'skip', matched: 'model_picker' }, () =>
    screenHas('Select model'),
  );
  session.type('\x1b');
  await backToPrompt('Select model');

  session.type('△ Permission required   Allow once   Allow always   Reject');
  await snap({ name: 'guard-typed-question', expect: 'idle', matched: 'none' }, () =>
    screenHas('△ Permission required   Allow once'),
  );
}
