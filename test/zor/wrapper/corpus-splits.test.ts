// DESIGN.md §10: byte-identical output over a corpus of escape sequences split at every chunk
// boundary, through the real wrapper, while zor announces state changes in between.
import { join } from 'node:path';
import corpus from '../data/escape-corpus.json';
import { TEST_DATA, TEST_RULES } from '../support/paths';
import { killRunning, runInPty } from '../support/zor-pty';

// Escape sequences are what this suite is about.
/* eslint-disable no-control-regex */

afterEach(killRunning);

const RULE = '─'.repeat(30);
const SCREENS = [
  '\x1b[2J\x1b[H✶ Working on it…\n',
  `\x1b[2J\x1b[Hdone\n${RULE}\n❯ \n${RULE}\n`,
  `\x1b[2J\x1b[H${RULE}\n Pick one\n ❯ 1. A\n${RULE}\n Enter to select · Esc to cancel\n`,
];

/** Splits text into atoms: escape sequences whole, text by character, "\n" as the pty sends it. */
function atomsOf(text: string): string[] {
  return Array.from(text).map((character) => (character === '\n' ? '\r\n' : character));
}

it('passes the corpus through split at every byte, announcing only between sequences', async () => {
  const corpusAtoms = corpus.atoms.flatMap((atom) =>
    atom.startsWith('\x1b') ? [atom.replace(/\n/g, '\r\n')] : atomsOf(atom),
  );
  const corpusBytes = Buffer.byteLength(corpus.atoms.join(''));
  const expectedAtoms: string[] = [];
  for (let split = 0; split <= corpusBytes; split++) {
    expectedAtoms.push(
      ...corpusAtoms,
      ...SCREENS[split % SCREENS.length]!.split(/(\x1b\[2J|\x1b\[H)/)
        .filter(Boolean)
        .flatMap((piece) => (piece.startsWith('\x1b') ? [piece] : atomsOf(piece))),
    );
  }
  expectedAtoms.push(...atomsOf('end\n'));
  const expected = expectedAtoms.join('');

  const run = await runInPty([
    '--title',
    'never',
    '--agent',
    'testagent',
    '--rules',
    TEST_RULES,
    '--',
    process.execPath,
    join(TEST_DATA, 'children', 'corpus-splits.js'),
  ]);
  await run.waitForText('end\r\n', 'the last line');
  run.write('q');
  expect((await run.exited).exitCode).toBe(0);

  const stdout = run.text();
  const zorOsc = /\x1b\]7877;[^\x1b]*\x1b\\/g;
  const announcements = stdout.match(zorOsc) ?? [];
  // The rules saw working, idle and blocked screens go by, so zor had plenty to say.
  expect(announcements.length).toBeGreaterThan(10);
  expect(stdout.replace(zorOsc, '')).toBe(expected);

  // Every announcement sits where the child's stream is between atoms.
  const safe = new Set<number>([0]);
  expectedAtoms.reduce((offset, atom) => {
    safe.add(offset + atom.length);
    return offset + atom.length;
  }, 0);
  let childOffset = 0;
  const pieces = stdout.split(zorOsc);
  for (const piece of pieces.slice(0, -1)) {
    childOffset += piece.length;
    expect(safe.has(childOffset)).toBe(true);
  }
});
