import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PtySessionOptions } from './pty-session';
import { endProcessesWithEnvironment } from './stray-processes';

/**
 * A private sandbox for one agent run: a HOME nothing else reads, a working directory for the
 * project, and removal afterwards, so no capture or test touches the user's real config.
 */
export interface AgentSandbox {
  readonly root: string;
  readonly home: string;
  readonly workdir: string;
  remove(): Promise<void>;
}

/**
 * A fresh sandbox under a unique temporary name, or at `fixedRoot` (emptied first) when the
 * caller wants paths that are the same on every run, as captures do so that regenerated fixtures
 * differ only where the agent's screen did.
 */
export async function createSandbox(prefix: string, fixedRoot?: string): Promise<AgentSandbox> {
  let root: string;
  if (fixedRoot === undefined) {
    root = await mkdtemp(join(tmpdir(), `${prefix}-`));
  } else {
    await rm(fixedRoot, { recursive: true, force: true });
    await mkdir(fixedRoot, { recursive: true });
    root = fixedRoot;
  }
  const home = join(root, 'home');
  const workdir = join(root, 'project');
  await mkdir(home, { recursive: true });
  await mkdir(workdir, { recursive: true });
  return {
    root,
    home,
    workdir,
    // An agent's helper processes outlive its pty (Gemini CLI's relaunched child does): end the
    // ones this sandbox's HOME names first. Retries: one may still be closing files in it.
    remove: async () => {
      await endProcessesWithEnvironment('HOME', home);
      await rm(root, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

/** The environment every agent gets: nothing inherited beyond PATH, so a run is reproducible. */
function baseEnvironment(home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    TERM: 'xterm-256color',
    COLORTERM: 'truecolor',
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    SHELL: '/bin/bash',
    USER: process.env.USER ?? 'fux',
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
  };
}

/** How an agent is started in its sandbox's project: its executable, at a terminal size. */
export interface AgentLaunchOptions {
  readonly bin: string;
  readonly cols: number;
  readonly rows: number;
}

/** The launch of an agent in `sandbox`'s project, with the base environment and then `env`. */
export function agentLaunch(
  options: AgentLaunchOptions,
  sandbox: AgentSandbox,
  env: Record<string, string>,
): PtySessionOptions {
  return {
    file: options.bin,
    args: [],
    cwd: sandbox.workdir,
    cols: options.cols,
    rows: options.rows,
    env: { ...baseEnvironment(sandbox.home), ...env },
  };
}
