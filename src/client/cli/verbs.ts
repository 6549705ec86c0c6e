import type { FuxClient } from '../index';
import { launchInput } from '../launch';
import { listAll } from '../list-all';
import { paneFromEnv, parsePaneId } from '../target';
import type { VerbResult } from './output';

/**
 * What the verbs that scripts call most do once their arguments are parsed: one call and its text.
 * The oclif commands and the CLI's fast path (fast-path.ts) both run these, so the two cannot
 * answer differently. Nothing here imports oclif.
 */

export async function list(client: FuxClient, input: { workspace?: string }): Promise<VerbResult> {
  const res = await listAll(client, input);
  return {
    value: res,
    human: () =>
      res.workspaces
        .map((w) => {
          const head = `${w.name} (${w.cols}x${w.rows})`;
          const rows = w.panes.map((p) => {
            const mark = p.active ? '*' : p.focused ? '+' : ' ';
            const title = p.title ? `  "${p.title}"` : '';
            const branch = p.branch ? `  ⎇ ${p.branch}` : '';
            const restored = p.restored ? `  (restored)${p.survived ? ' (survived)' : ''}` : '';
            const agent = p.agent ? `  ${p.agent} ${p.state}${p.unseen ? ' (unseen)' : ''}` : '';
            return `  ${mark} ${String(p.id).padStart(3)}  tab ${p.tab}  ${p.cols}x${p.rows}+${p.x}+${p.y}  pid ${p.pid}  ${p.command.join(' ')}  ${p.cwd}${branch}${agent}${title}${restored}`;
          });
          return [head, ...rows].join('\n');
        })
        .join('\n'),
  };
}

export async function capture(
  client: FuxClient,
  input: { workspace?: string; id: string; attrs?: boolean; scrollback?: number },
): Promise<VerbResult> {
  const res = await client.capture.query({
    workspace: input.workspace,
    id: parsePaneId(input.id),
    attrs: input.attrs,
    scrollback: input.scrollback,
  });
  return { value: res, human: () => res.text };
}

export async function sendKeys(
  client: FuxClient,
  input: { workspace?: string; id: string; keys: string[]; literal?: boolean },
): Promise<VerbResult> {
  if (input.keys.length === 0)
    throw new Error("nothing to send; give the keys after the pane id, like `fux send-keys 2 'ls' Enter`");
  const res = await client.sendKeys.mutate({
    workspace: input.workspace,
    id: parsePaneId(input.id),
    keys: input.keys,
    literal: input.literal,
  });
  return { value: res, human: () => '' };
}

interface LaunchFlags {
  workspace?: string;
  cwd?: string;
  env?: string[];
  /** fux's git worktree (branch) to start in. */
  worktree?: string;
  /** The program and its arguments (empty: the default command). */
  command: string[];
}

export async function newPane(client: FuxClient, input: LaunchFlags): Promise<VerbResult> {
  const res = await client.new.mutate({
    workspace: input.workspace,
    ...launchInput(input, input.command),
    worktree: input.worktree,
  });
  return { value: res, human: () => String(res.id) };
}

export async function split(
  client: FuxClient,
  input: LaunchFlags & { direction: 'h' | 'v'; target?: number },
): Promise<VerbResult> {
  const res = await client.split.mutate({
    workspace: input.workspace,
    direction: input.direction,
    target: input.target ?? paneFromEnv(input.workspace),
    ...launchInput(input, input.command),
    worktree: input.worktree,
  });
  return { value: res, human: () => String(res.id) };
}
