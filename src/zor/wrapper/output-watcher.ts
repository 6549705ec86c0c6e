/**
 * The wrapper's detection side: the child's output, already on its way to stdout (output-relay.ts),
 * goes (off the output path, parse-feed.ts) to an @xterm/headless terminal, and once parsed the
 * detector steps and the announcer emits. It also schedules the detector's timed steps (holds,
 * probes, heartbeats) and pauses the child when the parser falls behind.
 */
import { Unicode11Addon } from '@xterm/addon-unicode11';
import { Terminal } from '@xterm/headless';
import { performance } from 'node:perf_hooks';
import { timeoutFor } from '../deadline';
import { Detector, type DetectorOptions } from '../detector';
import { XtermScreenView } from '../screen/xterm-screen-view';
import type { Announcer } from './announcer';
import { dumpFixture } from './fixture-dump';
import type { OutputParser, PauseReason } from './output-relay';
import { ParseFeed, scrollbackFor } from './parse-feed';

/** Above this much unparsed output the child is paused; xterm discards beyond 50 MB pending. */
const PARSE_HIGH_WATER = 4 * 1024 * 1024;
const PARSE_LOW_WATER = 1024 * 1024;

export interface OutputWatcherOptions {
  readonly cols: number;
  readonly rows: number;
  readonly detector: Omit<DetectorOptions, 'screen' | 'now'>;
  /** Writes zor's own bytes to stdout between escape sequences. */
  readonly inject: (text: string) => void;
  /** Builds the announcer once the watcher can take injections. */
  readonly announcer: (inject: (text: string) => void, childTitle: () => string) => Announcer;
  /** Stop (true) or restart (false) reading the child, for one reason among several. */
  readonly pause: (reason: PauseReason, paused: boolean) => void;
  readonly debug: ((line: string) => void) | undefined;
}

export class OutputWatcher implements OutputParser {
  private readonly terminal: Terminal;
  private readonly screen: XtermScreenView;
  private readonly detector: Detector;
  private readonly feed: ParseFeed;
  readonly announcer: Announcer;
  private timer: NodeJS.Timeout | undefined;
  private stepQueued = false;
  private finished = false;
  private dumps = 0;

  constructor(private readonly options: OutputWatcherOptions) {
    this.terminal = new Terminal({
      cols: options.cols,
      rows: options.rows,
      scrollback: scrollbackFor(options.rows),
      allowProposedApi: true,
    });
    this.terminal.loadAddon(new Unicode11Addon());
    this.terminal.unicode.activeVersion = '11';
    this.screen = new XtermScreenView(this.terminal);
    this.detector = new Detector({ ...options.detector, screen: this.screen, now: performance.now() });
    this.feed = new ParseFeed(this.terminal, () => {
      if (this.feed.unparsed < PARSE_LOW_WATER) this.options.pause('parser', false);
      this.queueStep();
    });
    this.announcer = options.announcer(options.inject, () => this.screen.title());
    this.terminal.onTitleChange(() => this.announcer.childSetTitle(this.screen.title()));
    const debug = options.debug;
    if (debug !== undefined) {
      // zor 0.1 passes a child's own state reports through and only logs them (seed 001).
      for (const number of [7877, 21337]) {
        this.terminal.parser.registerOscHandler(number, (data) => {
          debug(`child sent OSC ${number};${data}`);
          return true;
        });
      }
    }
  }

  /** Starts the timed steps (the first probe runs at once). */
  start(): void {
    this.step();
  }

  childOutput(chunk: Buffer, plainFrom: number): void {
    this.feed.push(chunk, plainFrom);
    if (this.feed.unparsed > PARSE_HIGH_WATER) this.options.pause('parser', true);
  }

  resize(cols: number, rows: number): void {
    this.feed.resize(cols, rows);
  }

  /** Writes a fixture of what the rules see now (SIGUSR1) and returns its path. */
  dumpFixture(): string {
    return dumpFixture(
      {
        screen: this.screen,
        agent: this.detector.published.agent,
        agentVersion: this.detector.ruleSet?.agentVersion,
        verdict: this.detector.verdictNow(),
      },
      ++this.dumps,
    );
  }

  /** The child has exited: stop stepping and let the announcer close. */
  finish(exit: { readonly code: number | null; readonly signal?: string | undefined }): void {
    this.finished = true;
    clearTimeout(this.timer);
    this.announcer.childExited(exit);
    this.options.debug?.(`parsed ${this.feed.parsed} of ${this.feed.received} output bytes`);
    this.feed.dispose();
    this.screen.dispose();
    this.terminal.dispose();
  }

  private step(): void {
    this.stepQueued = false;
    if (this.finished) return;
    this.announcer.handle(this.detector.step(performance.now()));
    clearTimeout(this.timer);
    const deadline = this.detector.nextDeadline();
    if (Number.isFinite(deadline))
      this.timer = setTimeout(() => this.step(), timeoutFor(deadline, performance.now()));
  }

  /** Output parsed: step once per turn of the event loop, however many chunks arrived. */
  private queueStep(): void {
    if (this.stepQueued) return;
    this.stepQueued = true;
    setImmediate(() => this.step());
  }
}
