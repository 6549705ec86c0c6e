import { join } from 'node:path';
import { Gate } from '../test/fake-model/gate';
import { text, type ToolCallReply } from '../test/fake-model/replies';
import { createReleaseFifo, submitPromptPersistently } from '../test/agents/drive';
import type { AgentCaptureContext } from './capture-claude';
import { captureWhen, screenShows, type CaptureSpec } from './capture-fixture';
import type { AgentScreen } from './capture-session';

/**
 * The walk through every state at an agent's prompt, for agents whose screens differ but whose
 * states come in the same order (Gemini CLI, OpenCode): idle, a reply thinking, streaming and
 * done, a tool running, a command and a file write waiting for permission (declined with Esc),
 * the model picker, and a guard typed into the prompt. What differs is described by an AgentWalk.
 */
export interface AgentWalk {
  /** The agent says a turn is running (its title, or a footer). */
  readonly working: () => boolean;
  /** The agent waits at its prompt with nothing running and nothing asked. */
  readonly atPrompt: () => boolean;
  /** What the empty prompt shows once the agent reads input. */
  readonly readyText: string;
  /** Shown beside `working` while a turn waits for the model or a tool, if anything is. */
  readonly waitingText?: string;
  /** The rules that must decide each kind of screen. */
  readonly rules: { readonly idle: string; readonly working: string; readonly blocked: string };
  readonly shell: (command: string, description: string) => ToolCallReply;
  readonly writeFile: (path: string, content: string) => ToolCallReply;
  /** Text of the permission prompt for a command, and for a file write. */
  readonly commandPrompt: string;
  readonly writePrompt: string;
  readonly modelPicker: { readonly command: string; readonly text: string };
  /** Text typed into the prompt that reads like a permission prompt, and how it shows. */
  readonly guard: { readonly typed: string; readonly shown: string };
  /** How long the agent may take to show each screen, and how often to repeat a dropped Enter. */
  readonly timeoutMs: number;
  readonly submit: { readonly attempts: number; readonly retryMs: number };
}

const ANSWER = 'Here is an answer from the fake model, streamed while you watch.';

export async function walkThroughStates(
  context: AgentCaptureContext,
  { session, view, workdir }: AgentScreen,
  walk: AgentWalk,
): Promise<void> {
  const { server } = context;
  const { working, atPrompt, rules, timeoutMs } = walk;
  const screenHas = (...needles: string[]): boolean => screenShows(view, ...needles);
  const waiting = walk.waitingText === undefined ? [] : [walk.waitingText];
  const snap = (spec: CaptureSpec, condition: () => boolean): Promise<string> =>
    captureWhen(session, view, context.writer, spec, condition, timeoutMs);
  const turn = async (prompt: string): Promise<void> => {
    const fromIndex = server.requests.length;
    const sent = (): boolean => server.requests.slice(fromIndex).some((request) => request.kind === 'main');
    await submitPromptPersistently(session, prompt, sent, walk.submit);
  };
  const backToPrompt = (gone: string): Promise<void> =>
    session.waitFor(() => atPrompt() && !screenHas(gone), {
      timeoutMs,
      what: `the prompt, without "${gone}"`,
    });

  await snap(
    { name: 'idle-fresh', expect: 'idle', matched: rules.idle },
    () => atPrompt() && screenHas(walk.readyText),
  );

  const thinking = new Gate();
  const streamed = new Gate();
  server.enqueue(text(ANSWER, { contentAfter: thinking, holdUntil: streamed }));
  await turn('Say something slowly');
  await snap(
    { name: 'working-thinking', expect: 'working', matched: rules.working },
    () => working() && screenHas(...waiting),
  );
  thinking.open();
  await snap(
    { name: 'working-streaming', expect: 'working', matched: rules.working },
    () => working() && screenHas(ANSWER.slice(0, 30)),
  );
  streamed.open();
  await snap(
    { name: 'idle-after-reply', expect: 'idle', matched: rules.idle },
    () => atPrompt() && screenHas(ANSWER),
  );

  const fifo = await createReleaseFifo(workdir);
  server.enqueue(walk.shell(`cat ${fifo.name}`, 'Wait for the release signal'));
  await turn('Run the waiting tool');
  await snap(
    { name: 'working-tool', expect: 'working', matched: rules.working },
    () => working() && screenHas(`cat ${fifo.name}`, ...waiting),
  );
  await fifo.release(session, atPrompt, timeoutMs);

  server.enqueue(walk.shell('touch made-by-shell.txt', 'Create a marker file'));
  await turn('Touch a file');
  await snap({ name: 'permission-command', expect: 'blocked', matched: rules.blocked }, () =>
    screenHas(walk.commandPrompt, 'touch made-by-shell.txt'),
  );
  session.type('\x1b');
  await backToPrompt(walk.commandPrompt);

  server.enqueue(walk.writeFile(join(workdir, 'notes.txt'), 'first line\nsecond line\n'));
  await turn('Write a notes file');
  await snap({ name: 'permission-write', expect: 'blocked', matched: rules.blocked }, () =>
    screenHas(walk.writePrompt, 'notes.txt'),
  );
  session.type('\x1b');
  await backToPrompt(walk.writePrompt);

  const picker = walk.modelPicker;
  await submitPromptPersistently(session, picker.command, () => screenHas(picker.text), walk.submit);
  await snap({ name: 'model-picker', expect: 'skip', matched: 'model_picker' }, () => screenHas(picker.text));
  session.type('\x1b');
  await backToPrompt(picker.text);

  session.type(walk.guard.typed);
  await snap({ name: 'guard-typed-question', expect: 'idle', matched: rules.idle }, () =>
    screenHas(walk.guard.shown),
  );
}
