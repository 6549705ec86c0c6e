import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { VerdictState } from '../src/zor/agent-state';
import { formatFixture } from '../src/zor/fixture/fixture';
import type { ScreenView } from '../src/zor/screen/screen-view';
import type { PtySession } from '../test/agents/pty-session';

/** A terminal size a capture runs at. */
export interface Size {
  readonly cols: number;
  readonly rows: number;
}

/** The size fixtures are named after plainly (`permission-bash.txt`); other sizes get a suffix. */
export const PRIMARY_SIZE: Size = { cols: 120, rows: 40 };
export const CAPTURE_SIZES: readonly Size[] = [PRIMARY_SIZE, { cols: 80, rows: 24 }];
/** The agents whose rules are checked at any size are captured wide and tall, and small, too. */
export const ANY_SIZES: readonly Size[] = [...CAPTURE_SIZES, { cols: 200, rows: 50 }, { cols: 60, rows: 20 }];

export function sizeLabel(size: Size): string {
  return `${size.cols}x${size.rows}`;
}

/**
 * What one capture is meant to show: the fixture's name, the state a person reading the screen
 * would call it, and the rule id that should decide it (`none` for the idle fallback). These are
 * judgments written in the scenario, not read back from the rules, so a fixture can disagree with
 * a rule set and fail.
 */
export interface CaptureSpec {
  readonly name: string;
  readonly expect: VerdictState;
  readonly matched: string;
}

export function fixtureFileName(name: string, size: Size): string {
  return isPrimarySize(size) ? `${name}.txt` : `${name}-${sizeLabel(size)}.txt`;
}

/** The size a fixture file was captured at, read back from its name (see fixtureFileName). */
export function fixtureSize(fileName: string): string {
  return /-(\d+x\d+)\.txt$/.exec(fileName)?.[1] ?? sizeLabel(PRIMARY_SIZE);
}

export function isPrimarySize(size: Size): boolean {
  return size.cols === PRIMARY_SIZE.cols && size.rows === PRIMARY_SIZE.rows;
}

/** Writes `fixtures/<agent>/<name>[-COLSxROWS].txt` from what a screen view shows right now. */
export class FixtureWriter {
  constructor(
    private readonly directory: string,
    private readonly agent: string,
    private readonly agentVersion: string,
    private readonly size: Size,
    /** Every file written, by this writer and by those `at` made from it. */
    readonly written: string[] = [],
  ) {
    mkdirSync(directory, { recursive: true });
  }

  /** A writer for the same agent at another size, as after the terminal was resized. */
  at(size: Size): FixtureWriter {
    return new FixtureWriter(this.directory, this.agent, this.agentVersion, size, this.written);
  }

  write(view: ScreenView, spec: CaptureSpec): string {
    const text = formatFixture(
      {
        agent: this.agent,
        agentVersion: this.agentVersion,
        title: view.title(),
        progress: view.progress(),
        expect: spec.expect,
        matched: spec.matched,
        lines: view.lines(),
        // Only a prompt is answered, and only answering reads styles; other screens stay plain text.
        styles: spec.expect === 'blocked' ? view.styles() : [],
      },
      new Map([['size', sizeLabel(this.size)]]),
    );
    const file = join(this.directory, fixtureFileName(spec.name, this.size));
    writeFileSync(file, text);
    this.written.push(file);
    return file;
  }
}

/**
 * Whether the screen shows every needle, read as running text: runs of white space (line breaks,
 * no-break spaces) count as one space, so a needle still matches where a narrow terminal wrapped it.
 */
export function screenShows(view: ScreenView, ...needles: string[]): boolean {
  const flat = (text: string): string => text.replace(/\s+/g, ' ');
  const text = flat(view.lines().join('\n'));
  return needles.every((needle) => text.includes(flat(needle)));
}

/**
 * Waits until `condition` holds, lets a frame that arrived in pieces finish drawing, checks the
 * condition again (a redraw may have changed it) and writes the fixture. The condition is the
 * capture's proof that the screen shows what the spec says; a UI change in a new agent release
 * makes the capture fail here instead of writing a misleading fixture.
 */
export async function captureWhen(
  session: PtySession,
  view: ScreenView,
  writer: FixtureWriter,
  spec: CaptureSpec,
  condition: () => boolean,
  timeoutMs = 20_000,
): Promise<string> {
  const what = `the screen for fixture "${spec.name}"`;
  await session.waitFor(condition, { timeoutMs, what });
  await session.waitForOutputPause(150, 1000);
  await session.waitFor(condition, { timeoutMs: 5000, what });
  return writer.write(view, spec);
}

/** The name every reply-across-a-resize fixture starts with. */
export const RESIZED_PREFIX = 'resized-';

/** Where a capture at the primary size resizes the terminal to, in the middle of a reply. */
export const RESIZED_TO: Size = { cols: 60, rows: 20 };

/**
 * The reply-across-a-resize captures (`resized-streaming`, `resized-idle`, named with the size
 * resized to): a reply held open while it streams, the terminal shrunk under it, the screen
 * captured once the agent has redrawn at the new size, then again when the reply has finished.
 */
export async function captureResizedReply(
  session: PtySession,
  view: ScreenView,
  writer: FixtureWriter,
  steps: {
    /** Starts a turn whose streamed reply stays open until `finish` is called. */
    readonly startReply: () => Promise<void>;
    readonly finish: () => void;
    readonly streaming: () => boolean;
    readonly finished: () => boolean;
    readonly streamingRule: string;
    readonly idleRule: string;
  },
): Promise<void> {
  await steps.startReply();
  await session.waitFor(steps.streaming, { timeoutMs: 30_000, what: 'the reply streaming' });
  session.resize(RESIZED_TO.cols, RESIZED_TO.rows);
  const resized = writer.at(RESIZED_TO);
  await captureWhen(
    session,
    view,
    resized,
    { name: `${RESIZED_PREFIX}streaming`, expect: 'working', matched: steps.streamingRule },
    steps.streaming,
  );
  steps.finish();
  await captureWhen(
    session,
    view,
    resized,
    { name: `${RESIZED_PREFIX}idle`, expect: 'idle', matched: steps.idleRule },
    steps.finished,
  );
}
