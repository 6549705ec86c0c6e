import { join } from 'node:path';
import { XtermScreenView } from '../src/zor/screen/xterm-screen-view';
import type { AgentSandbox } from '../test/agents/agent-home';
import { PtySession, type PtySessionOptions } from '../test/agents/pty-session';
import type { AgentCaptureContext } from './capture-claude';

/** One agent running in a pty for a capture, with the screen zor would read. */
export interface AgentScreen {
  readonly session: PtySession;
  readonly view: XtermScreenView;
  readonly workdir: string;
}

/**
 * Starts a prepared agent run, hands its screen to `body`, and always ends the agent and removes
 * its sandbox. When `body` fails (a wait timed out) the error carries the screen as it was, the
 * first thing to read when a new agent release draws something the capture did not expect.
 */
export async function withAgentScreen(
  run: { readonly sandbox: AgentSandbox; readonly launch: PtySessionOptions },
  body: (screen: AgentScreen) => Promise<void>,
): Promise<void> {
  const session = PtySession.spawn(run.launch);
  const view = new XtermScreenView(session.terminal);
  try {
    await body({ session, view, workdir: run.sandbox.workdir });
  } catch (error) {
    throw new Error(`${String(error)}\nthe screen (title "${view.title()}"):\n${view.lines().join('\n')}`, {
      cause: error,
    });
  } finally {
    view.dispose();
    await session.close();
    await run.sandbox.remove();
  }
}

/** What every agent's prepare function takes for a capture: the agent, the server, the size, a fixed sandbox. */
export function prepareOptions(
  context: AgentCaptureContext,
  label: string,
): { bin: string; origin: string; cols: number; rows: number; root: string } {
  return {
    bin: context.bin,
    origin: context.server.origin,
    cols: context.size.cols,
    rows: context.size.rows,
    root: join(context.scratch, label),
  };
}
