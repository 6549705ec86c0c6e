import type { AttachFrame } from '../../protocol/attach';
import { Predictor, type PaneScreen, type PredictMode } from './predict';
import type { Prediction } from './render/prediction';

export interface PredictionDeps {
  /** Draw (or, undefined, take away) the guesses over a pane. */
  show(pane: number, prediction: Prediction | undefined): void;
  /** The pane keys go to now: the popup, else the focused pane. */
  target(): number | undefined;
  /** A pane as the server last drew it. */
  screenOf(pane: number): PaneScreen | undefined;
  repaint(): void;
}

/**
 * Runs the Predictor (mosh-style local echo) for the attach client: tells it what was typed and
 * what the server drew, keeps its guesses on the pane keys go to (and off the one they went to
 * before), and takes a guess back at its deadline when no frame comes to do it. The round trip
 * it judges the link by is the echo's: from keys sent to the first frame that redraws their pane
 * (input is not answered, so there is no reply to time).
 */
export class PredictionDriver {
  private readonly predictor: Predictor;
  /** The pane guesses were last drawn on. */
  private drawnOn: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** When the oldest keys not yet answered by a frame of their pane were sent. */
  private sentAt: number | undefined;
  /** Whether the last redraw showed a guess. */
  private guessing = false;

  constructor(
    mode: PredictMode,
    private readonly deps: PredictionDeps,
    private readonly now: () => number = Date.now,
  ) {
    this.predictor = new Predictor(mode, now);
  }

  /** Text for the focused pane, just sent. */
  typed(data: string): void {
    this.sentAt ??= this.now();
    const target = this.deps.target();
    const screen = target === undefined ? undefined : this.deps.screenOf(target);
    if (target === undefined || !screen) return;
    this.predictor.typed(target, data, screen);
    // No guess shown before or now (a fast link, or prediction off): nothing to repaint until the echo.
    if (this.redraw()) this.deps.repaint();
  }

  /** A frame arrived: guesses it confirms go, a contradicted one takes the rest with it. */
  framed(frame: AttachFrame): void {
    const target = this.deps.target();
    if (this.sentAt !== undefined && target !== undefined && frame.panes?.[String(target)]) {
      this.predictor.roundTrip(this.now() - this.sentAt);
      this.sentAt = undefined;
    }
    this.check();
    this.redraw();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private check(): void {
    const target = this.deps.target();
    const screen = target === undefined ? undefined : this.deps.screenOf(target);
    if (target !== undefined && screen) this.predictor.update(target, screen);
  }

  /** Shows the guesses on the pane keys go to; whether any guess shows now or did before. */
  private redraw(): boolean {
    const target = this.deps.target();
    if (this.drawnOn !== undefined && this.drawnOn !== target) this.deps.show(this.drawnOn, undefined);
    this.drawnOn = target;
    const overlay = target === undefined ? undefined : this.predictor.overlay(target);
    if (target !== undefined) this.deps.show(target, overlay);
    const changed = this.guessing || overlay !== undefined;
    this.guessing = overlay !== undefined;
    this.stop();
    const deadline = this.predictor.deadline();
    if (deadline === undefined) return changed;
    // A guess the program never answers is taken back at its deadline: no frame would do it.
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.check();
        this.redraw();
        this.deps.repaint();
      },
      Math.max(0, deadline - this.now()) + 1,
    );
    return changed;
  }
}
