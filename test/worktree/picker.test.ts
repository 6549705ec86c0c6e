import { worktreeChoices } from '../../src/client/attach/worktree-picker';
import { statusRight } from '../../src/client/attach/render/chrome';
import { makeView, viewPane } from '../attach/render/harness';

const checkout = (
  pane: number,
  worktree: string | null,
  branch: string | null,
  agent: string | null,
  state: 'working' | 'blocked' | 'idle' | 'none',
) => ({
  pane,
  tab: 1,
  repo: '/src/app',
  branch,
  worktree,
  agent,
  state,
});

describe('the worktree picker and the status line branch', () => {
  const panes = [1, 2, 3, 4].map((id) => viewPane({ id, x: 0, y: 0, cols: 10, rows: 5, focused: id === 2 }));
  const view = makeView(80, 24, panes, {
    checkouts: [
      checkout(3, null, 'main', null, 'none'),
      checkout(2, 'fix-b', 'fix-b', 'codex', 'blocked'),
      checkout(1, 'feat-a', 'feat-a', 'claude', 'working'),
      checkout(4, 'feat-a', null, 'claude', 'idle'),
    ],
  });

  test("lists fux worktrees first by name, then other checkouts, each pane with its branch and agent's state", () => {
    expect(worktreeChoices(view)).toEqual([
      { pane: 1, label: 'feat-a  ⎇ feat-a    tab 1 pane 1  ● claude working' },
      { pane: 4, label: 'feat-a  ⎇ detached  tab 1 pane 4  ○ claude idle' },
      { pane: 2, label: 'fix-b   ⎇ fix-b     tab 1 pane 2  ◐ codex blocked' },
      { pane: 3, label: 'app     ⎇ main      tab 1 pane 3  no agent' },
    ]);
  });

  test("the status line's right part starts with the focused pane's branch, and has none outside a checkout", () => {
    expect(statusRight({ ...view, status: [{ segment: 's', text: '12:00' }] }).map((s) => s.text)).toEqual([
      ' ⎇ fix-b | 12:00 ',
    ]);
    expect(statusRight({ ...view, checkouts: [] })).toEqual([]);
  });
});
