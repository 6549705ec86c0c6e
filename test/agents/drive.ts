import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { PtySession } from './pty-session';

/** Types a prompt, waits until the agent echoes it, then presses Enter. */
export async function submitPrompt(session: PtySession, prompt: string, timeoutMs = 10_000): Promise<void> {
  session.type(prompt);
  await session.waitForText(prompt, timeoutMs);
  session.type('\r');
}

/**
 * Like submitPrompt, for an agent that may take the Enter for part of a paste (Gemini CLI reads
 * keys that come in a burst as pasted text, where Enter is a newline): lets the echo settle
 * before Enter, then presses Enter again until `submitted` holds, up to `attempts` times, each
 * given `retryMs` to show. An extra Enter at an empty prompt does nothing.
 */
export async function submitPromptPersistently(
  session: PtySession,
  prompt: string,
  submitted: () => boolean,
  { attempts = 5, retryMs = 3000 } = {},
): Promise<void> {
  session.type(prompt);
  await session.waitForText(prompt, 10_000);
  await session.waitForOutputPause(300, 2000);
  session.type('\r');
  for (let attempt = 1; ; attempt++) {
    try {
      await session.waitFor(submitted, { timeoutMs: retryMs, what: `"${prompt}" to be submitted` });
      return;
    } catch (error) {
      if (attempt >= attempts) throw error;
      session.type('\r');
    }
  }
}

/**
 * A named pipe in the project that a tool call can read (`cat release.fifo` blocks until a writer
 * comes), so "a tool is running" lasts exactly until the capture or test says so. Agents treat
 * `cat` as read-only and run it without asking.
 */
export interface ReleaseFifo {
  readonly name: string;
  /**
   * Writes a line to the pipe whenever something has it open for reading, until `finished` holds
   * (the agent shows the tool done), up to `timeoutMs`. Writing once is not enough: an agent may
   * open the file itself to preview it, and a line it reads never reaches the tool.
   */
  release(session: PtySession, finished: () => boolean, timeoutMs: number): Promise<void>;
}

export async function createReleaseFifo(directory: string, name = 'release.fifo'): Promise<ReleaseFifo> {
  const path = join(directory, name);
  await promisify(execFile)('mkfifo', [path]);
  return {
    name,
    async release(session, finished, timeoutMs) {
      let writing = false;
      await session.waitFor(
        () => {
          if (finished()) return true;
          if (!writing) {
            writing = true;
            // Under O_NONBLOCK, opening a fifo nobody reads fails (ENXIO) instead of hanging.
            open(path, constants.O_WRONLY | constants.O_NONBLOCK)
              .then(async (handle) => {
                await handle.write('released\n');
                await handle.close();
              })
              .catch(() => undefined)
              .finally(() => {
                writing = false;
              });
          }
          return false;
        },
        { timeoutMs, what: `the tool reading ${name} to finish` },
      );
    },
  };
}
