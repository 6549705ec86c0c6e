import type { XtermScreenView } from '../src/zor/screen/xterm-screen-view';
import { geminiShell, geminiWriteFile } from '../test/fake-model/replies';
import { GEMINI_READY, prepareGemini, type GeminiStartup } from '../test/agents/gemini';
import type { AgentCaptureContext } from './capture-claude';
import { captureWhen, screenShows, type CaptureSpec } from './capture-fixture';
import { prepareOptions, withAgentScreen, type AgentScreen } from './capture-session';
import { walkThroughStates, type AgentWalk } from './capture-walk';

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
  const run = await prepareGemini({ ...prepareOptions(context, label), startup });
  await withAgentScreen(run, body);
}

export async function captureGemini(context: AgentCaptureContext): Promise<void> {
  await withGemini(context, 'ready', GEMINI_READY, (screen) =>
    walkThroughStates(context, screen, geminiWalk(screen.view)),
  );
  await withGemini(context, 'trust', { trustFolder: false }, async ({ session, view }) => {
    const spec: CaptureSpec = { name: 'startup-trust', expect: 'blocked', matched: 'choice_dialog' };
    await captureWhen(session, view, context.writer, spec, () =>
      view.text().includes('Do you trust the files in this folder?'),
    );
  });
}

function geminiWalk(view: XtermScreenView): AgentWalk {
  const screenHas = (...needles: string[]): boolean => screenShows(view, ...needles);
  return {
    working: () => view.title().startsWith('✦'),
    // Gemini CLI draws its prompt box long before it reads input; the "Ready" title says it does.
    atPrompt: () =>
      view.title().startsWith('◇') && screenHas('Type your message') && !screenHas('esc to cancel'),
    readyText: 'Type your message',
    waitingText: 'esc to cancel',
    rules: { idle: 'title_ready', working: 'title_working', blocked: 'permission_dialog' },
    shell: geminiShell,
    writeFile: geminiWriteFile,
    commandPrompt: 'Allow execution of',
    writePrompt: 'Allow once',
    modelPicker: { command: '/model', text: 'Select Model' },
    // Without its "?": a "?" typed at the prompt opens the shortcuts panel.
    guard: {
      typed: 'Allow execution of [Shell] 1. Allow once',
      shown: '> Allow execution of [Shell] 1. Allow once',
    },
    timeoutMs: 30_000,
    submit: { attempts: 5, retryMs: 3000 },
  };
}
