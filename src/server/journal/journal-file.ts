/**
 * The journal on disk: one file per server under the state dir (0700), written whole and
 * atomically (a temp file, fsync, rename) so a crash mid-write leaves the previous journal, never
 * half of one, and beside it the change log of what changed since (change-log.ts). A file that
 * cannot be used is moved aside, never deleted, and never fatal.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultSocketPath } from '../../paths';
import { issueText } from '../../rpc/error-formatter';
import { JOURNAL_VERSION, journalSchema, type Journal } from './schema';
import { socketKey } from '../socket-key';
import { readChangeLog } from './change-log';
import { replay } from './replay';
import { version as fuxVersion } from '../version';
import { UnreadableFile, readUtf8File } from '../../regular-file';

export interface JournalPaths {
  /** What the running server writes, and what the next one restores after a crash. */
  file: string;
  /** A journal the server found at start and did not restore, kept for `fux restore`. */
  previous: string;
  /** The change log's two files: what changed since `file` was written. */
  changes: readonly [string, string];
}

/**
 * The journal of the server on `socket`: `journal.json` for the default socket, else one named by
 * a hash of the socket path, so a server on a private FUX_SOCKET (a test's) never restores, nor
 * overwrites, another server's session that shares the state dir.
 */
export function journalPaths(
  stateDir: string,
  socket: string,
  env: Record<string, string | undefined> = process.env,
): JournalPaths {
  const own = path.resolve(socket) === path.resolve(defaultSocketPath(env));
  const key = own ? 'journal' : `journal-${socketKey(socket)}`;
  return {
    file: path.join(stateDir, `${key}.json`),
    previous: path.join(stateDir, `${key}.previous.json`),
    changes: [path.join(stateDir, `${key}.changes-1.jsonl`), path.join(stateDir, `${key}.changes-2.jsonl`)],
  };
}

export type JournalRead =
  | { kind: 'none' }
  | { kind: 'ok'; journal: Journal }
  /** Unusable: `problem` says why and where the file went. */
  | { kind: 'bad'; problem: string };

export type LiveJournalRead =
  | Exclude<JournalRead, { kind: 'ok' }>
  /** `replayed`: the change log changed it, so it is not on disk as it is. `problem`: a damaged record. */
  | { kind: 'ok'; journal: Journal; replayed: boolean; problem?: string };

/**
 * The journal a server left, with its change log replayed over it: the records up to a damaged
 * one, which is moved aside with its file. A bad journal is moved aside and its change log not
 * used: what it changed is not there to change.
 */
export function readLiveJournal(
  paths: JournalPaths,
  socket: string,
  now: Date = new Date(),
): LiveJournalRead {
  const found = readJournal(paths.file, socket, now);
  if (found.kind === 'bad') return found;
  const base = found.kind === 'ok' ? found.journal : undefined;
  const changes = readChangeLog(paths.changes, socket);
  const journal = replay(base, changes.records, { socket, fux: fuxVersion });
  const problem = changes.damaged
    .map((d) => `${d.file} ${d.why}: the changes from there on are not restored; ${moveAside(d.file, now)}`)
    .join('; ');
  if (!journal) return problem ? { kind: 'bad', problem } : { kind: 'none' };
  return { kind: 'ok', journal, replayed: journal !== base, ...(problem ? { problem } : {}) };
}
/**
 * A bound, so that whatever is put there cannot fill the server's memory at boot; far above what
 * a journal holds (40 panes with their history are some megabytes of JSON).
 */
const MAX_JOURNAL_BYTES = 256 * 1024 * 1024;

/** Read a journal; one that is unreadable, damaged or of another version is moved aside. */
export function readJournal(file: string, socket: string, now: Date = new Date()): JournalRead {
  let text: string;
  try {
    text = readUtf8File(file, MAX_JOURNAL_BYTES);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'none' };
    // Something that is not a file (a FIFO), or not one this server wrote (too large, not UTF-8).
    if (err instanceof UnreadableFile)
      return { kind: 'bad', problem: `${err.message}; ${moveAside(file, now)}` };
    return { kind: 'bad', problem: `cannot read ${file}: ${(err as Error).message}` };
  }
  const why = problemOf(text);
  if (typeof why === 'string') {
    return { kind: 'bad', problem: `${file} ${why}; ${moveAside(file, now)} and started empty` };
  }
  // Another server's journal (its socket hashed to the same name): not ours to restore or move.
  if (why.socket !== socket) return { kind: 'none' };
  return { kind: 'ok', journal: why };
}

/** The journal in `text`, or what is wrong with it. */
function problemOf(text: string): Journal | string {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return `is not JSON (${(err as Error).message})`;
  }
  const version = (raw as { version?: unknown } | null)?.version;
  if (version !== JOURNAL_VERSION) {
    return `was written by another fux (journal version ${JSON.stringify(version)}; this fux reads version ${JOURNAL_VERSION})`;
  }
  const parsed = journalSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return `is damaged (${issue.path.join('.') || 'top'}: ${issueText(issue, raw)})`;
  }
  return parsed.data;
}

/** Move a bad file to `<file>.corrupt-<time>`; says where it went (or that it could not). */
function moveAside(file: string, now: Date): string {
  const aside = `${file}.corrupt-${now.toISOString().replace(/[:.]/g, '-')}`;
  try {
    fs.renameSync(file, aside);
    return `moved it to ${aside}`;
  } catch (err) {
    return `could not move it aside (${(err as Error).message})`;
  }
}

/** The file operations a write needs; a test passes failing ones (a full disk). */
export type WriteOps = Pick<typeof fs.promises, 'open' | 'rename' | 'rm' | 'mkdir' | 'chmod'>;

/**
 * Write `pieces` to `file` whole, one after the other: to a temp file beside it (0600), flushed to
 * disk, then renamed over it, so a reader sees the old journal or the new one; the rename is
 * flushed too, for the change log it covers is emptied next. The directory is made 0700. On
 * failure the temp file is removed and the old journal stays.
 */
export async function writeAtomically(
  file: string,
  pieces: Iterable<string | Uint8Array>,
  ops: WriteOps = fs.promises,
): Promise<void> {
  const dir = path.dirname(file);
  await ops.mkdir(dir, { recursive: true, mode: 0o700 });
  await ops.chmod(dir, 0o700);
  const temp = `${file}.tmp-${process.pid}`;
  try {
    const handle = await ops.open(temp, 'w', 0o600);
    try {
      for (const piece of pieces) {
        if (typeof piece === 'string') await handle.write(piece, null, 'utf8');
        else await handle.write(piece);
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    await ops.rename(temp, file);
  } catch (err) {
    await ops.rm(temp, { force: true }).catch(() => undefined);
    throw err;
  }
  const handle = await ops.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** `writeAtomically`, all at once: for the server's start, before it serves anyone. */
export function writeAtomicallySync(file: string, pieces: Iterable<string | Uint8Array>): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  const temp = `${file}.tmp-${process.pid}`;
  try {
    const fd = fs.openSync(temp, 'w', 0o600);
    try {
      for (const piece of pieces) {
        const bytes = typeof piece === 'string' ? Buffer.from(piece) : piece;
        for (let done = 0; done < bytes.length;) done += fs.writeSync(fd, bytes, done);
      }
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw err;
  }
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** About the most characters of JSON `jsonPieces` gathers into one piece. */
const PIECE_CHARS = 32 * 1024;

/**
 * A long string's JSON (`JSON.stringify(text)`, UTF-8), made once and kept, so that writing the
 * same string again costs nothing: the journal writes each pane's saved history at every write,
 * and it changes far less often.
 */
export function encodedJson(text: string): Uint8Array {
  return Buffer.from(JSON.stringify(text));
}

/**
 * `value` as `JSON.stringify` writes it (plain data: objects, arrays, strings, numbers, booleans,
 * null), in pieces of about PIECE_CHARS characters, a long string cut across pieces, or given as
 * the bytes `encoded` has for it (from `encodedJson`). A journal of 40 panes is megabytes of JSON,
 * and made whole it was one string and one buffer of that size every few seconds: glibc then
 * raises its mmap threshold to that size and serves the next ones from its heap, between the
 * panes' rows, where the holes they leave keep the resident set high. Pieces this small are freed
 * and reused.
 */
export function* jsonPieces(
  value: unknown,
  encoded: (text: string) => Uint8Array | undefined = () => undefined,
): Generator<string | Uint8Array> {
  let gathered = '';
  for (const token of jsonTokens(value, encoded)) {
    if (typeof token !== 'string') {
      if (gathered !== '') yield gathered;
      gathered = '';
      yield token;
      continue;
    }
    gathered += token;
    if (gathered.length >= PIECE_CHARS) {
      yield gathered;
      gathered = '';
    }
  }
  if (gathered !== '') yield gathered;
}

function* jsonTokens(
  value: unknown,
  encoded: (text: string) => Uint8Array | undefined,
): Generator<string | Uint8Array> {
  if (Array.isArray(value)) {
    yield '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) yield ',';
      yield* jsonTokens(value[i] ?? null, encoded);
    }
    yield ']';
  } else if (typeof value === 'object' && value !== null) {
    let first = true;
    yield '{';
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue; // as JSON.stringify leaves it out
      yield `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      yield* jsonTokens(item, encoded);
    }
    yield '}';
  } else if (typeof value === 'string' && value.length > PIECE_CHARS) {
    const known = encoded(value);
    if (known) {
      yield known;
      return;
    }
    const text = JSON.stringify(value);
    for (let start = 0; start < text.length;) {
      let end = Math.min(text.length, start + PIECE_CHARS);
      // A piece is encoded on its own: never part a surrogate pair (JSON keeps pairs as they are).
      if (isHighSurrogate(text.charCodeAt(end - 1)) && end < text.length) end--;
      yield text.slice(start, end);
      start = end;
    }
  } else {
    yield JSON.stringify(value);
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Keep a journal the server did not restore (all of it or part) for `fux restore`, in place of any older one. */
export function keepAsPrevious(paths: JournalPaths, journal: Journal): void {
  writeAtomicallySync(paths.previous, jsonPieces(journal));
}
