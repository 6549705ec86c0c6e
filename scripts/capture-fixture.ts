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
  const primary = size.cols === PRIMARY_SIZE.cols && size.rows === PRIMARY_SIZE.rows;
  return primary ? `${name}.txt` : `${name}-${sizeLabel(size)}.txt`;
}

/** The size a fixture file was captured at, read back from its name (see fixtureFileName). */
export function fixtureSize(fileName: string): string {
  return /-(\d+x\d+)\.txt$/.exec(fileName)?.[1] ?? sizeLabel(PRIMARY_SIZE);
}

/** Writes `fixtures/<agent>/<name>[-COLSxROWS].txt` from what a screen view shows right now. */
export class FixtureWriter {
  readonly written: string[] = [];

  constructor(
    private readonly directory: string,
    private readonly agent: string,
    private readonly agentVersion: string,
    private readonly size: Size,
  ) {
    mkdirSync(directory, { recursive: true });
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
