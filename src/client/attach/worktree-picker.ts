import type { AttachView } from '../../protocol/attach';
import { agentGlyph } from './render/chrome';

/** One line of the worktree picker: a pane working in a checkout, and the pane Enter focuses. */
export interface WorktreeChoice {
  label: string;
  pane: number;
}

function baseName(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

/**
 * The picker's lines (prefix W): every pane of the workspace that works in a git checkout, fux's
 * worktrees first and by name, then the other checkouts; each with its branch and its agent's state.
 */
export function worktreeChoices(view: AttachView | undefined): WorktreeChoice[] {
  const rows = (view?.checkouts ?? []).map((c) => {
    const place = c.worktree ?? `${baseName(c.repo)}`;
    const branch = c.branch ?? 'detached';
    const who = c.agent ? `${agentGlyph(c.state)} ${c.agent} ${c.state}` : 'no agent';
    return { key: `${c.worktree ? 0 : 1}\0${place}\0${String(c.pane).padStart(6)}`, place, branch, who, c };
  });
  rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const width = Math.max(0, ...rows.map((r) => r.place.length));
  const bwidth = Math.max(0, ...rows.map((r) => r.branch.length));
  return rows.map((r) => ({
    label: `${r.place.padEnd(width)}  ⎇ ${r.branch.padEnd(bwidth)}  tab ${r.c.tab} pane ${r.c.pane}  ${r.who}`,
    pane: r.c.pane,
  }));
}
