import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agentLaunch, createSandbox, type AgentSandbox } from './agent-home';
import type { PtySessionOptions } from './pty-session';

/**
 * OpenCode offline: an `opencode.json` in the project with a custom provider on the bundled
 * `@ai-sdk/openai-compatible` package whose `baseURL` is the fake server (Chat Completions), that
 * provider's model as the default, and permission to run commands and edit files set to "ask"
 * (OpenCode allows both by default, so nothing would ever block). The environment turns off what
 * would reach the network: the models.dev catalogue, the update check, sharing, LSP downloads and
 * the default plugins (installed from npm at startup).
 */

export interface OpenCodeRun {
  readonly sandbox: AgentSandbox;
  readonly launch: PtySessionOptions;
}

/** The model OpenCode shows in its footer ("Build · Fake Model Fake"). */
export const OPENCODE_MODEL = 'fake/fake-model';

function config(origin: string): Record<string, unknown> {
  return {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    model: OPENCODE_MODEL,
    // `cat` runs unasked (the last matching pattern wins), so a tool reading a fifo shows working.
    permission: { bash: { '*': 'ask', 'cat *': 'allow' }, edit: 'ask' },
    provider: {
      fake: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Fake',
        options: { baseURL: `${origin}/v1`, apiKey: 'fux-fake-model-key' },
        models: { 'fake-model': { name: 'Fake Model' } },
      },
    },
  };
}

export async function prepareOpenCode(options: {
  readonly bin: string;
  readonly origin: string;
  readonly cols: number;
  readonly rows: number;
  /** A fixed sandbox directory (see createSandbox); a unique temporary one by default. */
  readonly root?: string;
}): Promise<OpenCodeRun> {
  const sandbox = await createSandbox('fux-opencode', options.root);
  await writeFile(join(sandbox.workdir, 'opencode.json'), JSON.stringify(config(options.origin), null, 2));
  return {
    sandbox,
    launch: agentLaunch(options, sandbox, {
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_SHARE: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    }),
  };
}
