/**
 * The hooks a server has running, written down so the next server can end them. Hooks run in
 * their own process group (so stopping one reaches what it started), which also means they
 * outlive a server killed with SIGKILL. Each group is recorded with its leader's start time in a
 * 0600 file under the state dir, one per socket; a server that takes over the socket ends the
 * groups still there whose leader is the very process recorded (a pid reused since is left alone)
 * before it starts its own hooks, so a hook never runs twice.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isRunning, processStart } from '../process-alive';
import { socketKey } from './socket-key';
import { readUtf8File } from '../regular-file';

/** A line per hook: a record of more is not one this server wrote. */
const MAX_RECORD_BYTES = 1024 * 1024;

interface Entry {
  readonly pid: number;
  readonly start: string;
}

/** The record's file for a server on `socket`: one per socket, as two servers may share a state dir. */
export function hookRecordFile(stateDir: string, socket: string): string {
  return path.join(stateDir, `hooks.${socketKey(socket)}.pids`);
}

export class HookRecord {
  private readonly entries = new Map<number, Entry>();

  constructor(private readonly file: string) {}

  /**
   * The groups a previous server left running: their leaders, still the processes recorded.
   * Forgets the old record either way (this server writes its own).
   */
  leftovers(): number[] {
    let text: string;
    try {
      text = readUtf8File(this.file, MAX_RECORD_BYTES);
    } catch {
      // None, or not one a server wrote (a FIFO, a huge file): nothing to end. This server's own
      // record replaces it (written aside and renamed over it).
      return [];
    }
    fs.rmSync(this.file, { force: true });
    const pids: number[] = [];
    for (const line of text.split('\n')) {
      const [pidText, start] = line.split(' ', 2);
      const pid = Number(pidText);
      if (!Number.isInteger(pid) || pid <= 1 || start === undefined) continue;
      if (isRunning(pid, start)) pids.push(pid);
    }
    return pids;
  }

  add(pid: number): void {
    const start = processStart(pid);
    if (start === undefined) return; // already gone: nothing to leave behind
    this.entries.set(pid, { pid, start });
    this.write();
  }

  remove(pid: number): void {
    if (this.entries.delete(pid)) this.write();
  }

  private write(): void {
    if (this.entries.size === 0) {
      fs.rmSync(this.file, { force: true });
      return;
    }
    const text = [...this.entries.values()].map((e) => `${e.pid} ${e.start}\n`).join('');
    const aside = `${this.file}.${process.pid}`;
    fs.writeFileSync(aside, text, { mode: 0o600 });
    fs.renameSync(aside, this.file);
  }
}
