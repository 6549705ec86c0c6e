import type { ScreenView } from '../src/zor/screen/screen-view';
import type { XtermScreenView } from '../src/zor/screen/xterm-screen-view';
import { submitPromptPersistently } from '../test/agents/drive';
import { opencodeBash, opencodeWrite } from '../test/fake-model/replies';
import { prepareOpenCode } from '../test/agents/opencode';
import type { AgentCaptureContext } from './capture-claude';
import { captureWhen, screenShows } from './capture-fixture';
import { prepareOptions, withAgentScreen, type AgentScreen } from './capture-session';
import { walkThroughStates, type AgentWalk } from './capture-walk';

/**
 * The OpenCode captures: one session walked through every state at its prompt, and one that moves
 * the selection along the permission prompt's row of buttons (drawn only by colour, so these
 * fixtures carry the screen's styles) and opens the "Always allow" confirmation. OpenCode has no
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
  await withOpenCode(context, 'buttons', (screen) => captureButtons(context, screen));
}

const RIGHT = '\x1b[C';
const LEFT = '\x1b[D';

/**
 * Whether the last line showing `label` draws all of it on a background of its own: how OpenCode
 * marks the selected button (checked here from the cells, not through the rules under test).
 */
function drawnSelected(view: ScreenView, label: string): boolean {
  const lines = view.lines();
  const line = lines.findLastIndex((text) => text.includes(label));
  if (line < 0) return false;
  const text = lines[line]!;
  const from = Array.from(text.slice(0, text.lastIndexOf(label))).length;
  const spans = view.styles().filter((span) => span.line === line && span.flags.includes('background'));
  for (let column = from; column < from + Array.from(label).length; column++)
    if (!spans.some((span) => span.from <= column && column < span.to)) return false;
  return true;
}

/**
 * A command's permission prompt with the selection moved to "Reject" (Right twice from "Allow
 * once"), then to "Allow always" (Left) and chosen, which opens the confirmation; Esc cancels it
 * and Esc again rejects the command.
 */
async function captureButtons(context: AgentCaptureContext, { session, view }: AgentScreen): Promise<void> {
  const walk = openCodeWalk(view);
  const { server, writer } = context;
  const shows = (...needles: string[]): boolean => screenShows(view, ...needles);
  const timeoutMs = walk.timeoutMs;
  await session.waitFor(() => walk.atPrompt() && shows(walk.readyText), { timeoutMs, what: 'the prompt' });
  server.enqueue(opencodeBash('touch made-by-choice.txt', 'Create a marker file'));
  const from = server.requests.length;
  await submitPromptPersistently(
    session,
    'Touch a file',
    () => server.requests.slice(from).some((request) => request.kind === 'main'),
    walk.submit,
  );
  const permission = (): boolean => shows(walk.commandPrompt, 'Allow once');
  await session.waitFor(() => permission() && drawnSelected(view, 'Allow once'), {
    timeoutMs,
    what: 'the permission prompt with "Allow once" selected',
  });
  session.type(RIGHT);
  await session.waitFor(() => drawnSelected(view, 'Allow always'), {
    timeoutMs,
    what: '"Allow always" selected',
  });
  session.type(RIGHT);
  await captureWhen(
    session,
    view,
    writer,
    { name: 'permission-reject-selected', expect: 'blocked', matched: 'permission_prompt' },
    () => permission() && drawnSelected(view, 'Reject') && !drawnSelected(view, 'Allow once'),
    timeoutMs,
  );
  session.type(LEFT);
  await session.waitFor(() => drawnSelected(view, 'Allow always'), {
    timeoutMs,
    what: '"Allow always" selected',
  });
  session.type('\r');
  await captureWhen(
    session,
    view,
    writer,
    { name: 'permission-always-confirm', expect: 'blocked', matched: 'always_confirm' },
    () => shows('Always allow', 'Confirm', 'Cancel') && drawnSelected(view, 'Confirm'),
    timeoutMs,
  );
  session.type('\x1b');
  await session.waitFor(permission, { timeoutMs, what: 'the permission prompt again' });
  session.type('\x1b');
  await session.waitFor(() => walk.atPrompt() && !shows(walk.commandPrompt), {
    timeoutMs,
    what: 'the prompt after rejecting',
  });
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
