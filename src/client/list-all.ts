import type { FuxClient } from './index';
import type { WorkspaceInfo } from '../server/schemas';

/**
 * `list` as one reply, as `tmux list-panes -a` prints everything: the server sends thousands of
 * panes in pages (each within a frame), and this reads them all and joins each workspace's tabs
 * and panes back together. The pages are read one call after another, so a pane that moved
 * between two of them could come twice: the later copy is dropped.
 */
export async function listAll(
  client: FuxClient,
  input: { workspace?: string },
): Promise<{ workspaces: WorkspaceInfo[] }> {
  const byName = new Map<string, WorkspaceInfo>();
  let from: number | undefined;
  do {
    const page = await client.list.query({ workspace: input.workspace, from });
    for (const part of page.workspaces) {
      const known = byName.get(part.name);
      if (known === undefined) byName.set(part.name, part);
      else join(known, part);
    }
    from = page.next;
  } while (from !== undefined);
  return { workspaces: [...byName.values()] };
}

/** The tabs and panes of a later page's part of a workspace, after those already read. */
function join(into: WorkspaceInfo, part: WorkspaceInfo): void {
  const tabs = new Set(into.tabs.map((t) => t.id));
  const panes = new Set(into.panes.map((p) => p.id));
  into.tabs.push(...part.tabs.filter((t) => !tabs.has(t.id)));
  into.panes.push(...part.panes.filter((p) => !panes.has(p.id)));
}
