import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseEndpointId } from '../../rpc/iroh/address';
import { FsFailure, makeDirs } from '../../fs-failure';
import { UnreadableFile, readRegularFile } from '../../regular-file';
import { FuxError } from '../errors';

/** A line of the file that is not an endpoint id (it is kept in the file, and allows no one). */
export interface AllowListProblem {
  line: number;
  text: string;
}

/**
 * The endpoint ids that may attach remotely, kept in a file (0600): one id per line; `#` starts a
 * comment; blank lines are ignored. Edits through `add`/`remove` keep every other line as it was,
 * so a person's comments survive. The file is re-read when it changes on disk, so a hand edit
 * takes effect at the next connection without a restart.
 */
export class AllowList {
  private lines: string[] = [];
  private ids = new Set<string>();
  private problemLines: AllowListProblem[] = [];
  /** What the file was when last read: size and mtime, or undefined when it did not exist. */
  private seen: string | undefined;

  /** Nothing is read until the list is first asked (a bad file is then a clear error, not a crash at construction). */
  constructor(readonly file: string) {}

  /** Whether `id` may attach (the file is checked for changes first). */
  has(id: string): boolean {
    this.refresh();
    return this.ids.has(id);
  }

  list(): string[] {
    this.refresh();
    return [...this.ids];
  }

  /** Lines that are not ids, for the log. */
  problems(): AllowListProblem[] {
    this.refresh();
    return this.problemLines;
  }

  get size(): number {
    return this.list().length;
  }

  /** Allow `ids` (already validated); returns those that were not allowed before. */
  add(ids: readonly string[]): string[] {
    this.refresh();
    const added = [...new Set(ids)].filter((id) => !this.ids.has(id));
    if (added.length === 0) return [];
    this.write([...this.lines, ...added]);
    return added;
  }

  /** Stop allowing `ids`; returns those that were allowed. */
  remove(ids: readonly string[]): string[] {
    this.refresh();
    const gone = new Set(ids.filter((id) => this.ids.has(id)));
    if (gone.size === 0) return [];
    this.write(this.lines.filter((line) => !gone.has(idOfLine(line) ?? '')));
    return [...gone];
  }

  private refresh(): void {
    const stamp = fileStamp(this.file);
    if (stamp === this.seen) return;
    this.seen = undefined;
    this.lines = [];
    this.ids = new Set();
    this.problemLines = [];
    // A file that cannot be read allows no one, and says why at every use until it is fixed.
    if (stamp !== undefined) {
      this.lines = this.read().split('\n');
      if (this.lines.at(-1) === '') this.lines.pop();
    }
    this.seen = stamp;
    this.lines.forEach((line, index) => {
      const body = line.replace(/#.*/, '').trim();
      if (!body) return;
      const id = parseEndpointId(body);
      if (id) this.ids.add(id);
      else this.problemLines.push({ line: index + 1, text: line });
    });
  }

  /** The file's text; it must be a regular file that only its owner can write. */
  private read(): string {
    let bytes: Buffer;
    let mode: number;
    try {
      ({
        bytes,
        stats: { mode },
      } = readRegularFile(this.file, MAX_ALLOW_LIST_BYTES));
    } catch (error) {
      if (error instanceof UnreadableFile) throw new AllowListError(`${error.message}; ${WHAT_IT_IS}`);
      throw new AllowListError(new FsFailure('read', this.file, error).message);
    }
    // Who can write this file decides who can attach: it must be writable by its owner alone.
    if ((mode & 0o022) !== 0) {
      throw new AllowListError(
        `${this.file} can be changed by other users (mode ${(mode & 0o777).toString(8)}), so it could let anyone attach; run \`chmod 600 ${this.file}\``,
      );
    }
    // Leniently: a line that is not an id (whatever its bytes) allows no one and is reported.
    return bytes.toString('utf8');
  }

  /** Written aside and renamed into place, so a reader never sees half a file. */
  private write(lines: string[]): void {
    const aside = `${this.file}.${process.pid}.new`;
    const header = lines.length && lines[0]!.startsWith('#') ? [] : [HEADER];
    try {
      makeDirs(path.dirname(this.file), 0o700);
      try {
        fs.writeFileSync(aside, [...header, ...lines].join('\n') + '\n', { mode: 0o600 });
        fs.renameSync(aside, this.file);
      } catch (error) {
        fs.rmSync(aside, { force: true });
        // The file is what failed to be written, whichever step of writing it failed.
        throw new FsFailure('write', this.file, error);
      }
    } catch (error) {
      if (!(error instanceof FsFailure)) throw error;
      const list = error.path === this.file ? 'the allow-list' : `the allow-list ${this.file}`;
      throw new AllowListError(`${error.message}; ${list} was not changed`);
    }
    this.seen = undefined;
    this.refresh();
  }
}

const HEADER = '# endpoint ids that may attach to this fux server (`fux allow`, `fux allow --remove`)';

function idOfLine(line: string): string | undefined {
  return parseEndpointId(line.replace(/#.*/, '').trim());
}

function fileStamp(file: string): string | undefined {
  try {
    const st = fs.statSync(file);
    return `${st.size}:${st.mtimeMs}:${st.ino}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new AllowListError(new FsFailure('read', file, error).message);
  }
}

/** A file of ids of 64 characters: a megabyte is some 15 000 of them, far more than anyone allows. */
const MAX_ALLOW_LIST_BYTES = 1024 * 1024;

const WHAT_IT_IS = 'the allow-list is a regular file of endpoint ids, one a line (`fux allow` writes it)';

/** An allow-list that cannot be read or written: the message says which file, why, and what to do. */
export class AllowListError extends FuxError {
  constructor(message: string) {
    super('PRECONDITION_FAILED', message);
  }
}
