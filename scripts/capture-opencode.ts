import type { XtermScreenView } from '../src/zor/screen/xterm-screen-view';
import { opencodeBash, opencodeWrite } from '../test/fake-model/replies';
import { prepareOpenCode } from '../test/agents/opencode';
import type { AgentCaptureContext } from './capture-claude';
import { screenShows } from './capture-fixture';
import { prepareOptions, withAgentScreen, type AgentScreen } from './capture-session';
import { walkThroughStates, type AgentWalk } from './capture-walk';

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
  const run = await prepareOpenCode(prepareOptions(context, label));
  await withAgentScreen(run, body);
}

export async function captureOpenCode(context: AgentCaptureContext): Promise<void> {
  await withOpenCode(context, 'ready', (screen) =>
    walkThroughStates(context, screen, openCodeWalk(screen.view)),
  );
}

function openCodeWalk(view: XtermScreenView): AgentWalk {
  const screenHas = (...needles: string[]): boolean => screenShows(view, ...needles);
  const working = (): boolean => screenHas('esc interrupt');
  return {
    working,
    atPrompt: () => screenHas('ctrl+p commands') && !working() && !screenHas('Permission'),
    readyText: 'Ask anything',
    rules: { idle: 'none', working: 'interrupt_footer', blocked: 'permission_prompt' },
    shell: opencodeBash,
    writeFile: opencodeWrite,
    commandPrompt: 'Permission required',
    writePrompt: 'Permission required',
    modelPicker: { command: '/models', text: 'Select model' },
    guard: {
      typed: '△ Permission required   Allow once   Allow always   Reject',
      shown: '△ Permission required Allow once',
    },
    // OpenCode starts slowly, and answers its first prompt slowly, on a loaded machine.
    timeoutMs: 60_000,
    submit: { attempts: 3, retryMs: 20_000 },
  };
}
