import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agentLaunch, createSandbox, type AgentSandbox } from './agent-home';
import type { PtySessionOptions } from './pty-session';

/**
 * Claude Code offline (DESIGN.md §11): `ANTHROPIC_BASE_URL` at the fake server, and a private
 * `$HOME/.claude.json` that marks onboarding done (else it checks connectivity and stops), the
 * custom key approved (else it asks about the key), and the folder trusted (else it asks that).
 */

export interface ClaudeStartup {
  /** false leaves the key unapproved so the "use this API key?" dialog shows. */
  readonly approveKey: boolean;
  /** false leaves the folder untrusted so the trust dialog shows. */
  readonly trustFolder: boolean;
}

export const CLAUDE_READY: ClaudeStartup = { approveKey: true, trustFolder: true };

/** A key shaped like a real one; Claude Code remembers approval by its last 20 characters. */
const FAKE_API_KEY = 'sk-ant-api03-fux-fake-model-server-key-0123456789abcdefghij';

export interface ClaudeRun {
  readonly sandbox: AgentSandbox;
  readonly launch: PtySessionOptions;
}

export async function prepareClaude(options: {
  readonly bin: string;
  readonly origin: string;
  readonly cols: number;
  readonly rows: number;
  /** A fixed sandbox directory (see createSandbox); a unique temporary one by default. */
  readonly root?: string;
  readonly startup?: ClaudeStartup;
}): Promise<ClaudeRun> {
  const startup = options.startup ?? CLAUDE_READY;
  const sandbox = await createSandbox('fux-claude', options.root);
  const config = {
    hasCompletedOnboarding: true,
    theme: 'dark',
    autoUpdates: false,
    customApiKeyResponses: { approved: startup.approveKey ? [FAKE_API_KEY.slice(-20)] : [], rejected: [] },
    projects: {
      [sandbox.workdir]: { hasTrustDialogAccepted: startup.trustFolder, allowedTools: [] },
    },
  };
  await writeFile(join(sandbox.home, '.claude.json'), JSON.stringify(config, null, 2));
  return {
    sandbox,
    launch: agentLaunch(options, sandbox, {
      ANTHROPIC_BASE_URL: options.origin,
      ANTHROPIC_API_KEY: FAKE_API_KEY,
      DISABLE_AUTOUPDATER: '1',
    }),
  };
}
