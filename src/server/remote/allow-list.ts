import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseEndpointId } from '../../rpc/iroh/address';

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
    this.seen = stamp;
    this.lines = [];
    if (stamp !== undefined) {
      assertPrivate(this.file);
      const text = fs.readFileSync(this.file, 'utf8');
      this.lines = text.split('\n');
      if (this.lines.at(-1) === '') this.lines.pop();
    }
    this.ids = new Set();
    this.problemLines = [];
    this.lines.forEach((line, index) => {
      const body = line.replace(/#.*/, '').trim();
      if (!body) return;
      const id = parseEndpointId(body);
      if (id) this.ids.add(id);
      else this.problemLines.push({ line: index + 1, text: line });
    });
  }

  /** Written aside and renamed into place, so a reader never sees half a file. */
  private write(lines: string[]): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const aside = `${this.file}.${process.pid}.new`;
    const header = lines.length && lines[0]!.startsWith('#') ? [] : [HEADER];
    fs.writeFileSync(aside, [...header, ...lines].join('\n') + '\n', { mode: 0o600 });
    fs.renameSync(aside, this.file);
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
    throw error;
  }
}

/** Who can write this file decides who can attach: it must be writable by its owner alone. */
function assertPrivate(file: string): void {
  const mode = fs.statSync(file).mode;
  if ((mode & 0o022) !== 0) {
    throw new AllowListError(
      `${file} can be changed by other users (mode ${(mode & 0o777).toString(8)}), so it could let anyone attach; run \`chmod 600 ${file}\``,
    );
  }
}

export class AllowListError extends Error {}
