/**
 * zor inside zor: the outer wrapper already watches this terminal (and identifies agents in it by
 * process tree), so an inner `zor -- cmd` runs cmd directly on the same terminal, with no second
 * pty or emulator. `ZOR_PID` in the environment names the outer wrapper.
 */
import { spawn } from 'node:child_process';
import type { ChildExit } from './run-wrapper';
import { isAlive } from '../../process-alive';

/** The pid of a live enclosing zor, if this process runs under one. */
export function enclosingZor(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const pid = Number(env.ZOR_PID);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return undefined;
  return isAlive(pid) ? pid : undefined;
}

export function runNested(command: readonly string[], agent: string | undefined): Promise<ChildExit> {
  const [file, ...args] = command;
  const env = agent === undefined ? process.env : { ...process.env, ZOR_AGENT: agent };
  const child = spawn(file!, args, { stdio: 'inherit', env });
  // Terminal signals reach the child directly (same foreground group); these would not.
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const forwarders = (['SIGTERM', 'SIGHUP'] as const).map((signal) => [signal, forward(signal)] as const);
  for (const [signal, handler] of forwarders) process.on(signal, handler);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      for (const [name, handler] of forwarders) process.off(name, handler);
      resolve({ code: code ?? 0, signal: signal ?? undefined });
    });
  });
}
