#!/usr/bin/env node
/**
 * The server process: `node dist/server/main.js --socket PATH [--foreground]`. The client starts it
 * detached when no server answers; `fux serve` runs it in the foreground. Kept free of oclif so a
 * start costs only what the server itself needs.
 */
import { AlreadyRunning, startServer } from './daemon';
import { resolveSocketPath } from '../paths';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const foreground = process.argv.includes('--foreground');
  const socket = resolveSocketPath(arg('--socket'));
  let server;
  try {
    server = await startServer({ socket, foreground });
  } catch (err) {
    if (err instanceof AlreadyRunning && !foreground) process.exit(0); // lost a start race: the winner serves
    process.stderr.write(`fux serve: ${(err as Error).message}\n`);
    process.exit(1);
  }
  const running = server;
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.on(sig, () => void running.stop(`signal ${sig}`));
  }
  // A daemon hosting user sessions must outlive a bug in one request: log it and carry on.
  process.on('uncaughtException', (err) => running.log.error(`uncaught: ${err.stack ?? String(err)}`));
  process.on('unhandledRejection', (err) => running.log.error(`unhandled rejection: ${String(err)}`));
  await running.stopped;
  process.exit(0);
}

void main();
