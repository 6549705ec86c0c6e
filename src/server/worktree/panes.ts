import * as path from 'node:path';
import type { PaneOfWorktree } from '../schemas';
import type { Workspaces } from '../workspaces';
import { realPath } from './checkout';

/** The panes, in every workspace, whose program works in `dir` or below it. */
export function panesIn(workspaces: Workspaces, dir: string): PaneOfWorktree[] {
  const top = realPath(dir);
  const out: PaneOfWorktree[] = [];
  for (const ws of workspaces.all()) {
    for (const e of ws.panes.values()) {
      const cwd = e.pane.currentCwd();
      if (cwd !== top && !cwd.startsWith(top + path.sep)) continue;
      const status = e.agent.current;
      out.push({ workspace: ws.name, id: e.id, agent: status.agent ?? null, state: status.state });
    }
  }
  return out;
}
