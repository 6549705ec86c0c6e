/**
 * The change log (issue 32): the structural changes since the last journal written whole, one
 * JSON record a line. A record is written in the turn its change happens, before anyone hears of
 * it, so a SIGKILL right after cannot lose it; it reaches the disk (fdatasync) soon after, the
 * records of many changes in one flush, and a verb answers once its record has. Two files take
 * turns: the records go to one while a journal being written whole covers the other, which is
 * emptied once that journal is on disk, so neither holds more than the changes between two
 * journals.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { issueText } from '../../rpc/error-formatter';
import { changeRecord, type ChangeRecord } from './schema';
import type { JournalLog } from './journal-writer';

export type NewRecord = Omit<ChangeRecord, 'seq'>;

interface LogFile {
  readonly path: string;
  fd: number;
  size: number;
  /** The seq of its last record; 0: it holds none. */
  last: number;
}

export class ChangeLog {
  /** Empty when they could not be opened: the server then runs without a change log. */
  private readonly files: LogFile[] = [];
  private current = 0;
  private seq: number;
  /** Every record up to this seq is on disk. */
  private synced: number;
  /** Files written since their last flush. */
  private readonly dirty = new Set<LogFile>();
  private waiting: Array<{ seq: number; resolve: () => void }> = [];
  private flushing = false;
  private lastError: string | undefined;

  /**
   * Open the two `files` (made 0600 in a 0700 directory), emptied: what they held is in the
   * journal the caller read at start. Records count on from `seq`, the last the journal on disk
   * holds.
   */
  constructor(
    files: readonly [string, string],
    seq: number,
    private readonly log: JournalLog,
  ) {
    this.seq = this.synced = seq;
    const opened: number[] = [];
    try {
      for (const file of files) {
        const dir = path.dirname(file);
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        fs.chmodSync(dir, 0o700);
        const fd = fs.openSync(file, 'a', 0o600);
        opened.push(fd);
        fs.ftruncateSync(fd);
        this.files.push({ path: file, fd, size: 0, last: 0 });
      }
      // The files' names too must survive a power cut, not only what is written in them.
      syncDirectory(path.dirname(files[0]));
    } catch (err) {
      for (const fd of opened) fs.closeSync(fd);
      this.files.length = 0;
      this.problem(`cannot open the change log ${files.join(', ')}`, err);
    }
  }

  /**
   * Write a record now (its seq is the next one) and flush it soon. A write that fails (a full
   * disk) is undone, so the file never holds half a record, and logged once.
   */
  append(record: NewRecord): void {
    const f = this.files[this.current];
    if (!f) return;
    const seq = this.seq + 1;
    const line = Buffer.from(`${JSON.stringify({ seq, ...record })}\n`);
    try {
      for (let done = 0; done < line.length;) done += fs.writeSync(f.fd, line, done);
    } catch (err) {
      try {
        fs.ftruncateSync(f.fd, f.size);
      } catch {
        // the next record would follow half of this one: its reader stops there and says so
      }
      this.problem(`cannot record a change in ${f.path}`, err);
      return;
    }
    this.seq = seq;
    f.size += line.length;
    f.last = seq;
    this.dirty.add(f);
    void this.flush();
  }

  /** Resolves once every record written so far is on disk (or failed to get there, which is logged). */
  durable(): Promise<void> {
    if (this.synced >= this.seq) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiting.push({ seq: this.seq, resolve });
      void this.flush();
    });
  }

  /**
   * A journal is about to be written whole: the seq of the last record it holds. Records from now
   * on go to the other file if it is empty, so that this one can be emptied once the journal is
   * on disk.
   */
  mark(): number {
    const other = 1 - this.current;
    if (this.files[other]?.size === 0) this.current = other;
    return this.seq;
  }

  /** The journal holding every record up to `seq` is on disk: empty the files it covers. */
  covered(seq: number): void {
    for (const f of this.files) {
      if (f.size === 0 || f.last > seq) continue;
      try {
        fs.ftruncateSync(f.fd);
      } catch (err) {
        this.problem(`cannot empty ${f.path}`, err);
        continue;
      }
      f.size = 0;
      f.last = 0;
      this.dirty.delete(f);
    }
  }

  async close(): Promise<void> {
    await this.durable();
    for (const f of this.files) fs.closeSync(f.fd);
    this.files.length = 0;
  }

  /** Flush the written files, again while records keep coming, resolving each wait its flush covers. */
  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.synced < this.seq) {
        const upTo = this.seq;
        const files = [...this.dirty];
        this.dirty.clear();
        await Promise.all(files.map((f) => this.datasync(f)));
        this.synced = upTo;
        this.waiting = this.waiting.filter((w) => {
          if (w.seq > upTo) return true;
          w.resolve();
          return false;
        });
      }
    } finally {
      this.flushing = false;
    }
  }

  private datasync(f: LogFile): Promise<void> {
    return new Promise((resolve) => {
      fs.fdatasync(f.fd, (err) => {
        if (err) this.problem(`cannot flush ${f.path}`, err);
        resolve();
      });
    });
  }

  /** A failure, logged once while it lasts: a full disk fails every record alike. */
  private problem(what: string, err: unknown): void {
    const message = `${what} (${(err as Error).message})`;
    if (message === this.lastError) return;
    this.lastError = message;
    this.log.warn(
      `journal: ${message}; the server carries on, and a restart restores the last journal written whole`,
    );
  }
}

function syncDirectory(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

export interface ChangesRead {
  /** Every record of ours in the files, by seq. */
  records: ChangeRecord[];
  /** Files with a damaged record (not a write cut short by the crash): the records after it are left out. */
  damaged: Array<{ file: string; why: string }>;
}

/**
 * The records in the change log's files, those of the server on `socket`. A last line without
 * its newline is a write the crash cut short, never acknowledged: it is left out quietly.
 */
export function readChangeLog(files: readonly string[], socket: string): ChangesRead {
  const records: ChangeRecord[] = [];
  const damaged: ChangesRead['damaged'] = [];
  for (const file of files) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        damaged.push({ file, why: `cannot be read (${(err as Error).message})` });
      continue;
    }
    const lines = text.split('\n');
    lines.pop(); // what follows the last newline: nothing, or a write cut short
    for (const [i, line] of lines.entries()) {
      const why = recordOf(line);
      if (typeof why === 'string') {
        damaged.push({ file, why: `line ${i + 1} ${why}` });
        break;
      }
      if (why.socket === socket) records.push(why);
    }
  }
  records.sort((a, b) => a.seq - b.seq);
  return { records, damaged };
}

/** The record on `line`, or what is wrong with it. */
function recordOf(line: string): ChangeRecord | string {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch (err) {
    return `is not JSON (${(err as Error).message})`;
  }
  const parsed = changeRecord.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  return `is damaged (${issue.path.join('.') || 'top'}: ${issueText(issue, raw)})`;
}
