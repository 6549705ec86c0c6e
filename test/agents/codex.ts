import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { agentLaunch, createSandbox, type AgentSandbox } from './agent-home';
import type { PtySessionOptions } from './pty-session';
import { endProcessesWithEnvironment } from './stray-processes';

/**
 * Codex offline (DESIGN.md §11): a private `CODEX_HOME` whose config.toml selects a custom model
 * provider at the fake server over the Responses API, trusts the project (or not, to show the
 * trust prompt), and asks for approval on escalation so a `require_escalated` call prompts.
 */

export interface CodexStartup {
  /**
   * false leaves the project untrusted and makes it a git repository: Codex 0.171 asks whether to
   * trust an untrusted repository, but starts without asking in an untrusted plain folder.
   */
  readonly trustProject: boolean;
}

export const CODEX_READY: CodexStartup = { trustProject: true };

/** The provider's key variable; any value works, the fake server never checks it. */
const KEY_VARIABLE = 'FUX_FAKE_MODEL_KEY';

export interface CodexRun {
  readonly sandbox: AgentSandbox;
  readonly codexHome: string;
  readonly launch: PtySessionOptions;
}

function configToml(origin: string, workdir: string, startup: CodexStartup): string {
  const lines = [
    'model = "gpt-5.3-codex"',
    'model_provider = "fake"',
    'approval_policy = "on-request"',
    'sandbox_mode = "workspace-write"',
    '',
    '[model_providers.fake]',
    'name = "fake"',
    `base_url = "${origin}/v1"`,
    'wire_api = "responses"',
    `env_key = "${KEY_VARIABLE}"`,
    // Offline there is nothing to retry against; fail fast instead of backing off for minutes.
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
    // /tmp is writable under workspace-write by default, and every sandbox lives there; without
    // this a patch outside the project would apply without asking.
    '[sandbox_workspace_write]',
    'exclude_slash_tmp = true',
    'exclude_tmpdir_env_var = true',
    '',
  ];
  if (startup.trustProject)
    lines.push(`[projects.${JSON.stringify(workdir)}]`, 'trust_level = "trusted"', '');
  return lines.join('\n');
}

export async function prepareCodex(options: {
  readonly bin: string;
  readonly origin: string;
  readonly cols: number;
  readonly rows: number;
  /** A fixed sandbox directory (see createSandbox); a unique temporary one by default. */
  readonly root?: string;
  readonly startup?: CodexStartup;
}): Promise<CodexRun> {
  const sandbox = await createSandbox('fux-codex', options.root);
  const codexHome = join(sandbox.home, '.codex');
  await mkdir(codexHome, { recursive: true });
  const startup = options.startup ?? CODEX_READY;
  await writeFile(join(codexHome, 'config.toml'), configToml(options.origin, sandbox.workdir, startup));
  if (!startup.trustProject) await promisify(execFile)('git', ['init', '--quiet', sandbox.workdir]);
  return {
    sandbox,
    codexHome,
    launch: agentLaunch(options, sandbox, { CODEX_HOME: codexHome, [KEY_VARIABLE]: 'fake-key' }),
  };
}

/**
 * Ends the `codex app-server` daemon Codex leaves running after its TUI exits, so the caller can
 * remove CODEX_HOME (see endProcessesWithEnvironment).
 */
export function endCodexDaemons(codexHome: string, graceMs = 3000): Promise<number[]> {
  return endProcessesWithEnvironment('CODEX_HOME', codexHome, graceMs);
}
