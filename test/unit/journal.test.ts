import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TabLayout } from '../../src/server/layout';
import { agentOfArgv, findSessions, resumeArgv } from '../../src/server/journal/agent-session';
import {
  encodedJson,
  journalPaths,
  jsonPieces,
  readJournal,
  writeAtomically,
  type WriteOps,
} from '../../src/server/journal/journal-file';
import { lastLines } from '../../src/server/journal/snapshot';
import { ChangeLog, readChangeLog, type NewRecord } from '../../src/server/journal/change-log';
import { readLiveJournal } from '../../src/server/journal/journal-file';
import { replay } from '../../src/server/journal/replay';
import { HOLDER_ARGV, planRestore } from '../../src/server/journal/restore-plan';
import type { ChangeRecord, Journal, SavedPane } from '../../src/server/journal/schema';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fux-journal-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const pane = (over: Partial<SavedPane> = {}): SavedPane => ({
  id: 1,
  tab: 1,
  argv: ['/bin/sh'],
  cwd: dir,
  env: {},
  title: '',
  agent: null,
  state: 'none',
  started: 1000,
  session: null,
  history: 'one\ntwo',
  ...over,
});

const journal = (
  panes: SavedPane[],
  layout: Journal['workspaces'][number]['tabs'][number]['layout'],
): Journal => ({
  version: 1,
  fux: '0.1.0',
  socket: '/s',
  savedAt: 5000,
  closed: false,
  workspaces: [
    {
      name: 'w',
      cols: 80,
      rows: 24,
      status: {},
      tabs: [{ id: 1, layout, recent: [1], zoomed: null }],
      activeTab: 1,
      next: { pane: 3, tab: 2 },
      panes,
    },
  ],
});

describe('the journal file', () => {
  test('the default socket journals as journal.json, any other socket under a name of its own', () => {
    const env = { XDG_RUNTIME_DIR: '/run/user/7' };
    expect(journalPaths('/state', '/run/user/7/fux/fux.sock', env).file).toBe('/state/journal.json');
    const a = journalPaths('/state', '/tmp/a/fux.sock', env).file;
    const b = journalPaths('/state', '/tmp/b/fux.sock', env).file;
    expect(a).toMatch(/^\/state\/journal-[0-9a-f]{12}\.json$/);
    expect(a).not.toBe(b);
  });

  test('is written 0600 in a 0700 directory, whole, and read back', async () => {
    const file = path.join(dir, 'state', 'journal.json');
    const j = journal([pane()], { pane: 1 });
    await writeAtomically(file, jsonPieces(j));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(readJournal(file, '/s')).toEqual({ kind: 'ok', journal: j });
    expect(fs.readdirSync(path.dirname(file))).toEqual(['journal.json']);
  });

  test('a write that fails (a full disk) leaves the old journal and no temp file', async () => {
    const file = path.join(dir, 'journal.json');
    fs.writeFileSync(file, 'old');
    const full: WriteOps = {
      ...fs.promises,
      open: async (...args: Parameters<typeof fs.promises.open>) => {
        const handle = await fs.promises.open(...args);
        return Object.assign(Object.create(handle) as typeof handle, {
          write: () =>
            Promise.reject(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' })),
          close: () => handle.close(),
        });
      },
    };
    await expect(writeAtomically(file, ['new'], full)).rejects.toThrow(/ENOSPC/);
    expect(fs.readFileSync(file, 'utf8')).toBe('old');
    expect(fs.readdirSync(dir)).toEqual(['journal.json']);
  });

  test('is written in pieces that make up its JSON exactly, a long history cut across them', async () => {
    // 3 000 lines of styled text with a four-byte glyph in each (a surrogate pair in the string),
    // so that some cut falls inside a pair unless the cutting avoids it.
    const history = Array.from(
      { length: 3000 },
      (_, i) => `\x1b[1m${i}\x1b[0m 🦀 "quoted" \\ ${'x'.repeat(i % 7)}`,
    );
    const j = journal([pane({ history: history.join('\n') }), pane({ id: 2, history: '' })], {
      axis: 'row',
      ratio: 0.5,
      a: { pane: 1 },
      b: { pane: 2 },
    });
    const pieces = [...jsonPieces(j)];
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join('')).toBe(JSON.stringify(j));
    // Each piece encodes on its own to the bytes of the whole: no pair was parted.
    expect(Buffer.concat(pieces.map((p) => Buffer.from(p))).equals(Buffer.from(JSON.stringify(j)))).toBe(
      true,
    );
    expect(jsonPieces({ a: undefined, b: [undefined, 1] }).next().value).toBe('{"b":[null,1]}');
    // A pair exactly where a piece of 32 Ki characters would end (after the opening quote).
    const straddling = `${'a'.repeat(32 * 1024 - 2)}🦀${'b'.repeat(40_000)}`;
    expect(Buffer.concat([...jsonPieces(straddling)].map((p) => Buffer.from(p))).toString()).toBe(
      JSON.stringify(straddling),
    );
    // A long string given as its JSON already made: the same file, that string written as given.
    const made = encodedJson(j.workspaces[0]!.panes[0]!.history);
    const withMade = [
      ...jsonPieces(j, (text) => (text === j.workspaces[0]!.panes[0]!.history ? made : undefined)),
    ];
    expect(withMade).toContain(made);
    expect(Buffer.concat(withMade.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))).toString()).toBe(
      JSON.stringify(j),
    );
    const file = path.join(dir, 'journal.json');
    await writeAtomically(file, withMade);
    expect(readJournal(file, '/s')).toEqual({ kind: 'ok', journal: j });
    await writeAtomically(file, jsonPieces(j));
    expect(readJournal(file, '/s')).toEqual({ kind: 'ok', journal: j });
  });

  test("keeps a pane's last lines of history, the blank lines at the bottom dropped", () => {
    const old = (text: string, lines: number): string => {
      const rows = text.replace(/\n+$/, '').split('\n');
      return rows.slice(Math.max(0, rows.length - lines)).join('\n');
    };
    const texts = ['', '\n', 'a', 'a\nb\nc', 'a\nb\nc\n\n\n', '\nb', '\n\nb\n', 'a\n\nb', 'x\ny\n\nz\n'];
    for (const text of texts) {
      for (const lines of [1, 2, 3, 4, 10])
        expect([text, lines, lastLines(text, lines)]).toEqual([text, lines, old(text, lines)]);
    }
  });

  test('another server’s journal (another socket) is left alone', () => {
    const file = path.join(dir, 'journal.json');
    fs.writeFileSync(file, JSON.stringify(journal([pane()], { pane: 1 })));
    expect(readJournal(file, '/other')).toEqual({ kind: 'none' });
    expect(fs.existsSync(file)).toBe(true);
  });
});

describe('the change log (issue 32)', () => {
  const quiet = { info: () => undefined, warn: (m: string) => warnings.push(m) };
  let warnings: string[];
  beforeEach(() => (warnings = []));

  /** A record of workspace w: pane `id` opened in tab 1, which holds it alone. */
  const opening = (id: number, over: Partial<SavedPane> = {}, closed: number[] = []): NewRecord => ({
    at: 6000 + id,
    socket: '/s',
    workspace: 'w',
    now: {
      cols: 80,
      rows: 24,
      status: {},
      activeTab: 1,
      next: { pane: id + 1, tab: 2 },
      tabs: [1],
      changedTabs: [{ id: 1, layout: { pane: id }, recent: [id], zoomed: null }],
      opened: [pane({ id, history: '', ...over })],
      closed,
    },
  });
  const seqs = (records: readonly ChangeRecord[]): number[] => records.map((r) => r.seq);

  test('records come back in order across its two files; the file a journal covers is emptied once that journal is written', async () => {
    const files = [path.join(dir, 'state', 'c1'), path.join(dir, 'state', 'c2')] as const;
    const changes = new ChangeLog(files, 10, quiet);
    expect(fs.statSync(files[0]).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(files[0])).mode & 0o777).toBe(0o700);
    changes.append(opening(1));
    changes.append(opening(2));
    // Written in the turn of the change, before any flush.
    expect(seqs(readChangeLog(files, '/s').records)).toEqual([11, 12]);
    await changes.durable();
    const covers = changes.mark();
    expect(covers).toBe(12);
    changes.append(opening(3)); // while that journal is written: into the other file
    changes.covered(covers);
    expect(fs.readFileSync(files[0], 'utf8')).toBe('');
    expect(seqs(readChangeLog(files, '/s').records)).toEqual([13]);
    // The next journal's records go back to the first file; the second is emptied after it.
    const next = changes.mark();
    changes.append(opening(4));
    changes.covered(next);
    expect(fs.readFileSync(files[1], 'utf8')).toBe('');
    expect(readChangeLog(files, '/s')).toEqual({
      records: [expect.objectContaining({ seq: 14 })],
      damaged: [],
    });
    await changes.close();
    // A new server starts them empty.
    await new ChangeLog(files, 14, quiet).close();
    expect(readChangeLog(files, '/s').records).toEqual([]);
    expect(warnings).toEqual([]);
  });

  test("a record cut short by a crash and another server's records are left out quietly; a damaged one is moved aside and said", () => {
    const paths = journalPaths(dir, path.join(dir, 'fux.sock'), {});
    const line = (seq: number, socket = '/s'): string =>
      `${JSON.stringify({ seq, ...opening(seq), socket })}\n`;
    fs.writeFileSync(paths.changes[0], line(1) + line(2, '/other') + line(3).slice(0, 40));
    expect(seqs(readChangeLog(paths.changes, '/s').records)).toEqual([1]);
    expect(readChangeLog(paths.changes, '/s').damaged).toEqual([]);

    fs.writeFileSync(paths.changes[1], `${line(4)}{"seq": 5}\n${line(6)}`);
    const read = readLiveJournal(paths, '/s', new Date('2024-05-01T10:00:00Z'));
    expect(read).toMatchObject({
      kind: 'ok',
      replayed: true,
      problem: expect.stringMatching(
        /changes-2\.jsonl line 2 is damaged \(at: missing, expected a number\): the changes from there on are not restored; moved it to .*changes-2\.jsonl\.corrupt-2024-05-01T10-00-00-000Z/,
      ),
    });
    // The panes of records 1 and 4, not 6's: it came after the damage.
    expect(read.kind === 'ok' && read.journal.workspaces[0]!.panes.map((p) => p.id)).toEqual([1, 4]);
    expect(read.kind === 'ok' && read.journal.seq).toBe(4);
    expect(fs.existsSync(paths.changes[1])).toBe(false);
  });

  test('replayed over the journal written whole: panes keep their saved history, also one opened again at its id; what a record closes or removes goes', () => {
    const base = { ...journal([pane({ history: 'saved lines' })], { pane: 1 }), seq: 3 };
    const rec = (seq: number, r: NewRecord): ChangeRecord => ({ seq, ...r });
    const split: NewRecord = {
      ...opening(2),
      now: {
        ...opening(2).now!,
        changedTabs: [
          {
            id: 1,
            layout: { axis: 'row', ratio: 0.5, a: { pane: 1 }, b: { pane: 2 } },
            recent: [2, 1],
            zoomed: null,
          },
        ],
      },
    };
    const o = { socket: '/s', fux: 'test' };
    // Records the journal holds already (seq ≤ 3) change nothing.
    expect(replay(base, [rec(2, opening(2))], o)).toBe(base);
    const after = replay(base, [rec(2, opening(9)), rec(4, split)], o)!;
    expect(after).toMatchObject({ seq: 4, savedAt: 6002, closed: false });
    expect(after.workspaces[0]!.panes.map((p) => [p.id, p.history])).toEqual([
      [1, 'saved lines'],
      [2, ''],
    ]);
    expect(after.workspaces[0]!.tabs[0]!.recent).toEqual([2, 1]);
    // Pane 1 opened again at its id (a restore by the next server), pane 2 closed.
    const again = replay(base, [rec(4, split), rec(5, opening(1, { argv: ['/bin/bash'] }, [2]))], o)!;
    expect(again.workspaces[0]!.panes.map((p) => [p.id, p.argv, p.history])).toEqual([
      [1, ['/bin/bash'], 'saved lines'],
    ]);
    const gone = replay(base, [rec(4, split), rec(5, { ...split, now: null })], o)!;
    expect(gone.workspaces).toEqual([]);
    // Over no journal at all: the server died before it wrote one.
    expect(replay(undefined, [rec(1, opening(1))], o)!.workspaces[0]!.panes.map((p) => p.id)).toEqual([1]);
  });
});

describe('agent sessions', () => {
  test('the agent is known by its program name', () => {
    expect(agentOfArgv(['/usr/local/bin/claude', '--model', 'opus'])).toBe('claude');
    expect(agentOfArgv(['codex'])).toBe('codex');
    expect(agentOfArgv(['/bin/bash'])).toBeUndefined();
  });

  test('resuming keeps the flags and drops the session choice and a first prompt', () => {
    const s = { agent: 'claude' as const, id: 'abc' };
    expect(resumeArgv(['claude', '--model', 'opus', 'fix the bug'], s)).toEqual([
      'claude',
      '--model',
      'opus',
      '--resume',
      'abc',
    ]);
    expect(resumeArgv(['claude', '--resume', 'old', '--verbose'], s)).toEqual([
      'claude',
      '--verbose',
      '--resume',
      'abc',
    ]);
    expect(resumeArgv(['claude', '-c'], s)).toEqual(['claude', '--resume', 'abc']);
    const c = { agent: 'codex' as const, id: 'x-1' };
    expect(resumeArgv(['codex', '-m', 'o3'], c)).toEqual(['codex', 'resume', 'x-1', '-m', 'o3']);
    expect(resumeArgv(['codex', 'resume', 'old-id', '-m', 'o3'], c)).toEqual([
      'codex',
      'resume',
      'x-1',
      '-m',
      'o3',
    ]);
  });

  const uuid = (n: number): string => `0000000${n}-1111-2222-3333-444444444444`;

  function transcript(file: string, cwd: string, mtimeMs: number): void {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `{"type":"user","cwd":${JSON.stringify(cwd)}}\n`);
    fs.utimesSync(file, mtimeMs / 1000, mtimeMs / 1000);
  }

  test("Claude Code's session is its newest transcript of the cwd since the pane started; two panes never share one", () => {
    const home = path.join(dir, 'home');
    const cwd = '/work/my.project';
    const projects = path.join(home, '.claude', 'projects', '-work-my-project');
    const t0 = Date.UTC(2026, 0, 10, 12);
    transcript(path.join(projects, `${uuid(1)}.jsonl`), cwd, t0 - 60_000); // before both panes
    transcript(path.join(projects, `${uuid(2)}.jsonl`), cwd, t0 + 5_000);
    transcript(path.join(projects, `${uuid(3)}.jsonl`), cwd, t0 + 9_000);
    transcript(path.join(projects, `${uuid(4)}.jsonl`), '/work/my-project', t0 + 20_000); // same slug, other cwd
    const env = { HOME: home };
    expect(
      findSessions(
        [
          { agent: 'claude', cwd, env, since: t0 },
          { agent: 'claude', cwd, env, since: t0 + 1000 },
          { agent: 'claude', cwd, env, since: t0 + 30_000 },
        ],
        t0 + 40_000,
      ),
    ).toEqual([uuid(2), uuid(3), undefined]);
  });

  test("Codex's session is its newest rollout of the cwd since the pane started", () => {
    const codexHome = path.join(dir, 'codex');
    const t0 = new Date(2026, 0, 10, 12).getTime();
    const day = path.join(codexHome, 'sessions', '2026', '01', '10');
    transcript(path.join(day, `rollout-2026-01-10T12-00-05-${uuid(5)}.jsonl`), '/p', t0 + 5000);
    transcript(path.join(day, `rollout-2026-01-10T12-00-07-${uuid(6)}.jsonl`), '/q', t0 + 7000);
    expect(
      findSessions([{ agent: 'codex', cwd: '/p', env: { CODEX_HOME: codexHome }, since: t0 }], t0 + 10_000),
    ).toEqual([uuid(5)]);
  });
});

describe('the restore plan', () => {
  const options = {
    skip: ['htop'],
    serverEnv: { HOME: os.homedir(), PATH: process.env.PATH },
    exists: () => false,
    now: new Date(2026, 0, 1, 9, 5, 7),
  };

  test('a shell restarts in its cwd after its history and a marker; a skipped program shows [exited]', () => {
    const [ws] = planRestore(
      journal([pane({ id: 1 }), pane({ id: 2, argv: ['htop'] })], {
        axis: 'row',
        ratio: 0.5,
        a: { pane: 1 },
        b: { pane: 2 },
      }),
      options,
    );
    expect(ws!.restored).toBe(true);
    const [shell, htop] = ws!.panes;
    expect(shell).toMatchObject({ how: 'restarted', argv: ['/bin/sh'], cwd: dir, reason: null });
    expect(shell!.preface).toBe('one\r\ntwo\x1b[0m\r\n\x1b[0;2m── restored 09:05:07 ──\x1b[0m\r\n');
    expect(htop).toMatchObject({
      how: 'not-restarted',
      argv: HOLDER_ARGV,
      saved: ['htop'],
      reason: 'restore_skip names htop',
    });
    expect(htop!.preface).toContain('[exited] not restarted: restore_skip names htop');
  });

  test('a gone directory starts in HOME; a missing program is not restarted; an agent without a session starts afresh', () => {
    const claude = path.join(dir, 'claude');
    fs.writeFileSync(claude, '#!/bin/sh\n', { mode: 0o755 });
    const [ws] = planRestore(
      journal(
        [
          pane({ id: 1, cwd: path.join(dir, 'gone') }),
          pane({ id: 2, argv: ['no-such-program-anywhere'] }),
          pane({ id: 3, argv: [claude], env: { HOME: dir } }),
        ],
        {
          axis: 'row',
          ratio: 0.5,
          a: { pane: 1 },
          b: { axis: 'column', ratio: 0.3, a: { pane: 2 }, b: { pane: 3 } },
        },
      ),
      options,
    );
    const [gone, missing, agent] = ws!.panes;
    expect(gone).toMatchObject({ how: 'restarted', cwd: os.homedir() });
    expect(gone!.reason).toMatch(/is gone; started in/);
    expect(missing!.how).toBe('not-restarted');
    expect(agent).toMatchObject({
      how: 'restarted',
      argv: [claude],
      reason: 'no claude session was found for it; started afresh',
    });
  });

  test('a workspace whose layout does not match its panes, or whose name is taken, does not come back', () => {
    expect(planRestore(journal([pane()], { pane: 2 }), options)[0]).toMatchObject({
      restored: false,
      reason: 'its saved layout does not match its saved panes',
    });
    expect(planRestore(journal([pane()], { pane: 1 }), { ...options, exists: () => true })[0]).toMatchObject({
      restored: false,
      reason: 'a workspace w runs already',
    });
  });
});

describe('a restored tab layout', () => {
  test('keeps its tree, ratios, focus history and zoom', () => {
    const root = {
      axis: 'row' as const,
      ratio: 0.3,
      a: { pane: 4 },
      b: { axis: 'column' as const, ratio: 0.6, a: { pane: 5 }, b: { pane: 7 } },
    };
    const layout = TabLayout.restore(root, [5, 7, 4], 5);
    expect(layout.toJSON()).toEqual(root);
    expect(layout.recentlyFocused()).toEqual([5, 7, 4]);
    expect(layout.zoomed).toBe(5);
    layout.remove(5);
    expect(layout.focused).toBe(7);
  });

  test('refuses a tree with a pane twice or a ratio out of range', () => {
    expect(() =>
      TabLayout.restore({ axis: 'row', ratio: 0.5, a: { pane: 1 }, b: { pane: 1 } }, [1], undefined),
    ).toThrow(/twice/);
    expect(() =>
      TabLayout.restore({ axis: 'row', ratio: 1, a: { pane: 1 }, b: { pane: 2 } }, [1], undefined),
    ).toThrow(/ratio/);
  });
});
