import type { TitleMode } from '../emit/title-rewriter';
import { EventSinkError } from '../emit/event-sink';
import { exitLikeChild } from '../wrapper/exit';
import { enclosingZor, runNested } from '../wrapper/nested';
import { defaultCommand, runWrapper, WrapperError, type LoadDetection } from '../wrapper/run-wrapper';

/** `zor [options] [--] command…` once its options are read: by the oclif command, or bin/zor's fast path. */
export interface ZorRun {
  command: readonly string[];
  events: string | undefined;
  title: TitleMode;
  osc: boolean;
  ruleDirs: readonly string[];
  agent: string | undefined;
  debug: boolean;
}

/** A failure zor reports before the command runs: what to print and the exit status. */
export interface ZorFailure {
  message: string;
  exit: number;
}

/**
 * Run the command under zor (or, inside another zor, just run it and report to that one) and exit
 * as it did. A problem found before it starts is returned, for the caller to print. `loadDetection`
 * loads the rest of zor once it is needed (run-wrapper.ts).
 */
export async function runZor(run: ZorRun, loadDetection: LoadDetection): Promise<ZorFailure> {
  try {
    if (enclosingZor() !== undefined) {
      exitLikeChild(
        await runNested(run.command.length > 0 ? run.command : defaultCommand(process.env), run.agent),
      );
    }
    exitLikeChild(await runWrapper(run, loadDetection));
  } catch (error) {
    if (error instanceof WrapperError) return { message: error.message, exit: error.exitCode };
    if (error instanceof EventSinkError) return { message: error.message, exit: 2 };
    throw error;
  }
}
