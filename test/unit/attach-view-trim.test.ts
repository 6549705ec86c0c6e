import { trimView } from '../../src/server/attach/view';
import type { AttachView } from '../../src/protocol/attach';

/** A view of a workspace with `tabs` tabs, the active one `active` (from 1), a pane in a checkout in each. */
function view(tabs: number, active: number): AttachView {
  return {
    workspace: 'main',
    workspaces: ['main'],
    cols: 80,
    rows: 24,
    tabs: Array.from({ length: tabs }, (_, i) => ({
      number: i + 1,
      title: `a rather long title for tab ${i + 1}`,
      panes: 1,
      active: i + 1 === active,
      state: 'none' as const,
      unseen: false,
    })),
    panes: [
      {
        id: active,
        x: 0,
        y: 0,
        cols: 80,
        rows: 24,
        focused: true,
        title: 't',
        command: 'sh',
        agent: null,
        state: 'none',
        unseen: false,
      },
    ],
    checkouts: Array.from({ length: tabs }, (_, i) => ({
      pane: i + 1,
      tab: i + 1,
      repo: `/home/someone/src/repository-number-${i + 1}`,
      branch: 'main',
      worktree: null,
      agent: null,
      state: 'none' as const,
    })),
    zoomed: false,
    status: [],
    popup: null,
    keys: { prefix: 'C-a', bindings: {} },
    clients: 1,
  };
}

const bytes = (v: AttachView): number => Buffer.byteLength(JSON.stringify(v));

describe('a view too large for its part of a frame', () => {
  test('keeps only the checkouts of the panes that show, then the tabs nearest the active one', () => {
    const full = view(5000, 4000);
    expect(bytes(full)).toBeGreaterThan(500_000);
    const trimmed = trimView(full, 64 * 1024);
    expect(bytes(trimmed)).toBeLessThanOrEqual(64 * 1024);
    expect(trimmed.checkouts?.map((c) => c.pane)).toEqual([4000]);
    const numbers = trimmed.tabs.map((t) => t.number);
    expect(numbers).toContain(4000);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => numbers[0]! + i));
    expect(numbers.length).toBeGreaterThan(100);
    expect(trimmed.tabs.find((t) => t.active)?.number).toBe(4000);
  });

  test('near the last tab, the window ends at the last tab', () => {
    const trimmed = trimView(view(5000, 5000), 64 * 1024);
    expect(trimmed.tabs.at(-1)?.number).toBe(5000);
  });

  test('a view that fits after dropping the checkouts keeps every tab', () => {
    const full = view(300, 1);
    const trimmed = trimView(full, bytes({ ...full, checkouts: [] }) + 1000);
    expect(trimmed.tabs).toHaveLength(300);
  });
});
