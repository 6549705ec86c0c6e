/**
 * The title glyph. zor never edits the child's bytes, so its title is an extra OSC 2 appended after
 * the child's own (at an escape-sequence boundary, by the wrapper):
 * - `prefix` (the default): `<glyph> <the child's title>`, re-sent when the state or the child's
 *   title changes;
 * - `replace`: `<glyph> <agent>`, whatever the child set;
 * - `never`: titles pass through untouched (fux draws its own status).
 * Glyphs: ● working, ◐ blocked, ○ idle, none for `none` (the child's own title is restored). On exit,
 * if zor ever changed the title, the child's last title is put back unprefixed.
 */
import type { AgentState } from '../agent-state';

export type TitleMode = 'prefix' | 'replace' | 'never';

export const TITLE_MODES: readonly TitleMode[] = ['prefix', 'replace', 'never'];

export const STATE_GLYPHS: Record<AgentState, string> = {
  working: '●',
  blocked: '◐',
  idle: '○',
  exited: '',
  none: '',
};

export function titleOsc(title: string): string {
  return `\x1b]2;${title}\x1b\\`;
}

export class TitleRewriter {
  private childTitle = '';
  private state: AgentState = 'none';
  private agent: string | undefined;
  /** What zor last made the terminal show, or `undefined` when the terminal shows the child's own. */
  private shown: string | undefined;

  constructor(private readonly mode: TitleMode) {}

  /** The child set its title (its OSC has already passed through). Returns zor's OSC to append, if any. */
  childSetTitle(title: string): string | undefined {
    this.childTitle = title;
    // The child's sequence replaced whatever zor had shown.
    if (this.shown !== undefined) this.shown = title;
    return this.render();
  }

  stateChanged(state: AgentState, agent: string | undefined): string | undefined {
    this.state = state;
    this.agent = agent;
    return this.render();
  }

  /** On exit: the child's last title, unprefixed, if zor ever touched the title. */
  restore(): string | undefined {
    if (this.shown === undefined || this.shown === this.childTitle) return undefined;
    this.shown = this.childTitle;
    return titleOsc(this.childTitle);
  }

  private desired(): string | undefined {
    const glyph = STATE_GLYPHS[this.state];
    if (this.mode === 'never' || glyph === '') return undefined;
    const label = this.mode === 'replace' ? (this.agent ?? '') : this.childTitle;
    return label === '' ? glyph : `${glyph} ${label}`;
  }

  private render(): string | undefined {
    const desired = this.desired();
    if (desired === undefined) {
      // Back to none: put the child's own title back if zor's is showing.
      return this.restore();
    }
    if (desired === this.shown) return undefined;
    this.shown = desired;
    return titleOsc(desired);
  }
}
