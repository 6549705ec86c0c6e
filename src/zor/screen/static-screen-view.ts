/** A fixed screen (a fixture, or a test's hand-written screen) seen through the ScreenView interface. */
import {
  joinLines,
  normaliseWindowLines,
  type Progress,
  type ScreenSize,
  type ScreenView,
  type StyleSpan,
} from './screen-view';
import { sanitiseTitle } from './title';

export interface StaticScreen {
  readonly lines: readonly string[];
  readonly title?: string;
  readonly progress?: Progress;
  /** Styled runs of `lines` (a fixture's `attrs`); none when absent. */
  readonly styles?: readonly StyleSpan[];
}

export class StaticScreenView implements ScreenView {
  private readonly windowLines: readonly string[];
  private readonly windowText: string;
  private readonly screenTitle: string;
  private unread = true;

  constructor(private readonly screen: StaticScreen) {
    this.windowLines = normaliseWindowLines(screen.lines);
    this.windowText = joinLines(this.windowLines);
    this.screenTitle = sanitiseTitle(screen.title ?? '');
  }

  lines(): readonly string[] {
    return this.windowLines;
  }

  text(): string {
    return this.windowText;
  }

  /** The given runs on lines the window keeps (trailing blank lines are dropped). */
  styles(): readonly StyleSpan[] {
    return (this.screen.styles ?? []).filter((span) => span.line < this.windowLines.length);
  }

  title(): string {
    return this.screenTitle;
  }

  progress(): Progress | undefined {
    return this.screen.progress;
  }

  bellCount(): number {
    return 0;
  }

  size(): ScreenSize {
    return {
      rows: this.windowLines.length,
      cols: Math.max(0, ...this.windowLines.map((line) => Array.from(line).length)),
    };
  }

  /** A static screen changes once: when it is first looked at. */
  takeChanged(): boolean {
    const changed = this.unread;
    this.unread = false;
    return changed;
  }
}
