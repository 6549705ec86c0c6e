import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The repository root, found from this file's place in `test/agents/`. */
export const REPO_ROOT = resolve(__dirname, '..', '..');

export interface InstalledAgent {
  /** The executable under node_modules/.bin. */
  readonly bin: string;
  /** The version from the installed package's package.json: what the fixtures were captured from. */
  readonly version: string;
}

const PACKAGES = {
  claude: { name: '@anthropic-ai/claude-code', bin: 'claude' },
  codex: { name: '@openai/codex', bin: 'codex' },
  gemini: { name: '@google/gemini-cli', bin: 'gemini' },
  opencode: { name: 'opencode-ai', bin: 'opencode' },
} as const;

export type AgentName = keyof typeof PACKAGES;

/** The installed agent, or a reason it cannot run (not installed; its native part missing). */
export function findInstalledAgent(agent: AgentName): InstalledAgent | { missing: string } {
  const { name, bin } = PACKAGES[agent];
  const manifest = join(REPO_ROOT, 'node_modules', name, 'package.json');
  const executable = join(REPO_ROOT, 'node_modules', '.bin', bin);
  if (!existsSync(manifest)) return { missing: `${name} is not installed (no ${manifest})` };
  if (!existsSync(executable)) return { missing: `${name} has no executable at ${executable}` };
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  return { bin: executable, version };
}
