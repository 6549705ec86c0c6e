import type { AttachView } from '../../../protocol/attach';
import { theme } from './theme';

type AgentState = AttachView['tabs'][number]['state'];

/** A piece of the tab bar or status line: its text and SGR parameters; `tab` makes it a click target. */
export interface Segment {
  text: string;
  style: string;
  tab?: number;
}

/** The agent glyph of a state: ● working, ◐ blocked, ○ idle, nothing for exited or none. */
export function agentGlyph(state: AgentState): string {
  return state === 'working' ? '●' : state === 'blocked' ? '◐' : state === 'idle' ? '○' : '';
}

/**
 * Row 0: the workspace's name, then every tab as `N:title`, a space and its agent glyph, and its
 * unseen mark (`1:bash ○*`).
 */
export function tabBar(view: AttachView): Segment[] {
  const out: Segment[] = [{ text: ` ${view.workspace} `, style: theme.workspace }];
  for (const tab of view.tabs) {
    const style = tab.active ? theme.activeTab : theme.bar;
    const glyph = agentGlyph(tab.state);
    const mark = (glyph ? ` ${glyph}` : '') + (tab.unseen ? '*' : '');
    out.push({ text: ` ${tab.number}:${labelText(tab.title)}${mark} `, style, tab: tab.number });
  }
  return out;
}

/**
 * A program's title as a label: programs pad their titles (Gemini's `◇  Ready (work)` and some
 * 65 spaces), which would push every later tab off the bar. Runs of white space become one space.
 */
function labelText(title: string): string {
  return title.replace(/\s+/gu, ' ').trim();
}

/**
 * The status line's left part: the mode marker, then each visible pane as `id:glyph` (the unseen
 * mark after it; a pane whose agent state is none shows its id alone), the focused one bold.
 */
export function statusLeft(view: AttachView | undefined, mode: string | undefined): Segment[] {
  const out: Segment[] = [];
  if (mode) out.push({ text: ` ${mode} `, style: theme.mode });
  out.push({ text: ' ', style: theme.bar });
  if (!view) return out;
  for (const pane of view.panes) {
    const idStyle = pane.focused ? theme.focusedPane : theme.bar;
    const glyph = agentGlyph(pane.state);
    out.push({ text: glyph ? `${pane.id}:` : `${pane.id}`, style: idStyle });
    if (glyph)
      out.push({
        text: glyph,
        style: `${theme.bar};${theme.glyph[pane.state as Exclude<AgentState, 'none' | 'exited'>]}`,
      });
    if (pane.unseen) out.push({ text: '*', style: theme.unseen });
    out.push({ text: ' ', style: theme.bar });
  }
  return out;
}

/** The focused pane's branch, as `⎇ NAME` (a fux worktree that is not on its own branch adds its name). */
function focusedBranch(view: AttachView | undefined): string | undefined {
  const focused = view?.panes.find((p) => p.focused)?.id;
  const c = view?.checkouts?.find((x) => x.pane === focused);
  if (!c) return undefined;
  const branch = c.branch ?? 'detached';
  return c.worktree && c.worktree !== c.branch ? `⎇ ${branch} (${c.worktree})` : `⎇ ${branch}`;
}

/** The status line's right part: the focused pane's branch, then the `set-status` segments' text, separated. */
export function statusRight(view: AttachView | undefined): Segment[] {
  const branch = focusedBranch(view);
  const texts = [...(branch ? [branch] : []), ...(view?.status ?? []).map((s) => s.text)].filter(
    (t) => t !== '',
  );
  if (texts.length === 0) return [];
  return [{ text: ` ${texts.join(' | ')} `, style: theme.bar }];
}
