/**
 * The server's state dir (`$XDG_STATE_HOME/fux`: its log, the journal), made ready by the server
 * and by the client that starts one in the background (whose output goes to the same log). Both
 * say the same when it cannot be: which directory or file, why, and what to do.
 */
import * as fs from 'node:fs';
import { FsFailure, makeDirs } from './fs-failure';

/** The state dir or the log in it cannot be made or written; the message says which, why, and what to do. */
export class StateDirUnusable extends Error {
  constructor(failure: FsFailure) {
    super(
      `${failure.message}; the server keeps its log there: set XDG_STATE_HOME to a directory you can write`,
      { cause: failure },
    );
    this.name = 'StateDirUnusable';
  }
}

/** Creates `stateDir` (0700) if needed and opens `logFile` in it for appending (0600); returns the fd. */
export function openServerLog(stateDir: string, logFile: string): number {
  try {
    makeDirs(stateDir, 0o700);
  } catch (error) {
    throw error instanceof FsFailure ? new StateDirUnusable(error) : error;
  }
  try {
    return fs.openSync(logFile, 'a', 0o600);
  } catch (error) {
    throw new StateDirUnusable(new FsFailure('write', logFile, error));
  }
}
