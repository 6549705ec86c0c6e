/**
 * ScreenView over an `@xterm/headless` Terminal that someone else owns and feeds (the fux server's
 * pane, or the wrapper). It listens for the title, the bell and OSC 9;4 progress, and reads the
 * detection window from the buffer on demand, caching it until the next parsed write or resize.
 *
 * The terminal's scrollback should be at least its row count: the detection window reaches into
 * scrollback when the bottom of the viewport is blank.
 */
import type { IDisposable, Terminal } from '@xterm/headless';
import { detectionWindow, detectionWindowStyles } from './detection-window';
import { parseProgressOsc } from './progress';
import { joinLines, type Progress, type ScreenSize, type ScreenView, type StyleSpan } from './screen-view';
import { sanitiseTitle } from './title';

/** OSC 9 is shared with other subcommands; the handler returns false so other handlers still run. */
const OSC_PROGRESS = 9;

export class XtermScreenView implements ScreenView, IDisposable {
  private currentTitle = '';
  private currentProgress: Progress | undefined;
  private bells = 0;
  private cachedLines: readonly string[] = [];
  private cachedText = '';
  /** Computed on demand only: rules never read styles, so a pane's detection does not pay for them. */
  private cachedStyles: readonly StyleSpan[] | undefined;
  private stale = true;
  /** Title, progress or bell changed since the last takeChanged(). */
  private evidenceChanged = false;
  private textAtLastTake = '';
  private readonly subscriptions: IDisposable[];

  constructor(private readonly terminal: Terminal) {
    this.subscriptions = [
      terminal.onTitleChange((title) => {
        const sanitised = sanitiseTitle(title);
        if (sanitised !== this.currentTitle) this.evidenceChanged = true;
        this.currentTitle = sanitised;
      }),
      terminal.onBell(() => {
        this.bells++;
        this.evidenceChanged = true;
      }),
      terminal.parser.registerOscHandler(OSC_PROGRESS, (data) => {
        const progress = parseProgressOsc(data);
        if (progress !== undefined) {
          this.currentProgress = progress;
          this.evidenceChanged = true;
        }
        return false;
      }),
      terminal.onWriteParsed(() => {
        this.stale = true;
      }),
      terminal.onResize(() => {
        this.stale = true;
      }),
    ];
  }

  lines(): readonly string[] {
    this.refresh();
    return this.cachedLines;
  }

  text(): string {
    this.refresh();
    return this.cachedText;
  }

  styles(): readonly StyleSpan[] {
    this.refresh();
    this.cachedStyles ??= detectionWindowStyles(
      this.terminal.buffer.active,
      this.terminal.rows,
      this.cachedLines,
    );
    return this.cachedStyles;
  }

  title(): string {
    return this.currentTitle;
  }

  progress(): Progress | undefined {
    return this.currentProgress;
  }

  bellCount(): number {
    return this.bells;
  }

  size(): ScreenSize {
    return { rows: this.terminal.rows, cols: this.terminal.cols };
  }

  takeChanged(): boolean {
    const text = this.text();
    const changed = this.evidenceChanged || text !== this.textAtLastTake;
    this.evidenceChanged = false;
    this.textAtLastTake = text;
    return changed;
  }

  /**
   * Forgets the title and progress: when a different agent (or the same one relaunched) takes the
   * foreground, what the previous one reported is no longer evidence.
   */
  clearEvidence(): void {
    if (this.currentTitle !== '' || this.currentProgress !== undefined) this.evidenceChanged = true;
    this.currentTitle = '';
    this.currentProgress = undefined;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private refresh(): void {
    if (!this.stale) return;
    this.stale = false;
    this.cachedLines = detectionWindow(this.terminal.buffer.active, this.terminal.rows);
    this.cachedText = joinLines(this.cachedLines);
    this.cachedStyles = undefined;
  }
}
