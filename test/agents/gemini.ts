import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agentLaunch, createSandbox, type AgentSandbox } from './agent-home';
import type { PtySessionOptions } from './pty-session';

/**
 * Gemini CLI offline: `GOOGLE_GEMINI_BASE_URL` at the fake server (the Gemini API's own base-URL
 * setting) with a `GEMINI_API_KEY`, and a private `~/.gemini/settings.json` that selects API-key
 * auth (else it asks how to sign in), turns off usage statistics and the update check (both
 * would reach Google), a `trustedFolders.json` that trusts the project (else it asks that), and a
 * policy that lets `cat` run unasked.
 */

export interface GeminiStartup {
  /** false leaves the project untrusted so the folder-trust dialog shows. */
  readonly trustFolder: boolean;
}

export const GEMINI_READY: GeminiStartup = { trustFolder: true };

export interface GeminiRun {
  readonly sandbox: AgentSandbox;
  readonly launch: PtySessionOptions;
}

const SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
};

/** A user policy: `cat` runs without asking, so a tool reading a fifo shows working, not a prompt. */
const POLICY = [
  '[[rule]]',
  'toolName = "run_shell_command"',
  'commandPrefix = "cat"',
  'decision = "allow"',
  'priority = 100',
  '',
].join('\n');

export async function prepareGemini(options: {
  readonly bin: string;
  readonly origin: string;
  readonly cols: number;
  readonly rows: number;
  /** A fixed sandbox directory (see createSandbox); a unique temporary one by default. */
  readonly root?: string;
  readonly startup?: GeminiStartup;
}): Promise<GeminiRun> {
  const startup = options.startup ?? GEMINI_READY;
  const sandbox = await createSandbox('fux-gemini', options.root);
  const settingsDir = join(sandbox.home, '.gemini');
  await mkdir(settingsDir, { recursive: true });
  await writeFile(join(settingsDir, 'settings.json'), JSON.stringify(SETTINGS, null, 2));
  await mkdir(join(settingsDir, 'policies'), { recursive: true });
  await writeFile(join(settingsDir, 'policies', 'fux-capture.toml'), POLICY);
  if (startup.trustFolder) {
    const trusted = { [sandbox.workdir]: 'TRUST_FOLDER' };
    await writeFile(join(settingsDir, 'trustedFolders.json'), JSON.stringify(trusted, null, 2));
  }
  return {
    sandbox,
    launch: agentLaunch(options, sandbox, {
      GOOGLE_GEMINI_BASE_URL: options.origin,
      GEMINI_API_KEY: 'fux-fake-model-key',
    }),
  };
}
