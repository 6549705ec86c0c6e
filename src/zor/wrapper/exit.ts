/**
 * Ending zor the way its child ended: the same exit code, or death by the same signal, so a shell
 * or a supervisor above zor sees exactly what it would have seen without it.
 */
import { constants } from 'node:os';
import type { ChildExit } from './run-wrapper';

export function exitLikeChild(exit: ChildExit): never {
  if (exit.signal !== undefined) {
    // Default disposition first, or a handler installed by Node or oclif would swallow the signal.
    process.removeAllListeners(exit.signal);
    process.kill(process.pid, exit.signal);
    // A signal that does not kill by default (or is blocked) falls back to the shell's convention.
    process.exit(128 + (constants.signals[exit.signal] ?? 0));
  }
  process.exit(exit.code);
}
