/**
 * `zor explain --pane`: asks a running wrapper (by pid, default `$ZOR_PID`) for a fixture of its
 * screen with SIGUSR1 and waits for the file to appear, so the live pane can be explained.
 */
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureDumpPrefix } from '../wrapper/fixture-dump';

function dumpsOf(pid: number, directory: string): Set<string> {
  const prefix = fixtureDumpPrefix(pid);
  try {
    return new Set(readdirSync(directory).filter((name) => name.startsWith(prefix) && name.endsWith('.txt')));
  } catch {
    return new Set();
  }
}

export class PaneDumpError extends Error {}

export async function requestPaneDump(pid: number, timeoutMs = 3000, directory = tmpdir()): Promise<string> {
  const before = dumpsOf(pid, directory);
  try {
    process.kill(pid, 'SIGUSR1');
  } catch {
    throw new PaneDumpError(
      `no zor wrapper with pid ${pid}; run this inside \`zor -- …\` or pass --pane PID`,
    );
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const fresh = [...dumpsOf(pid, directory)].find((name) => !before.has(name));
    if (fresh !== undefined) return join(directory, fresh);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new PaneDumpError(`zor ${pid} wrote no fixture within ${timeoutMs} ms; is it a zor wrapper?`);
}
