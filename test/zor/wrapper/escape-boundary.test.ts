// seed 001 "Passthrough is the invariant" and DESIGN.md §10: zor's bytes go in only between
// sequences, over a corpus of every sequence class split at every chunk boundary.
import corpus from '../data/escape-corpus.json';
import { EscapeBoundary } from '../../../src/zor/wrapper/escape-boundary';
import { OrderedOutput } from '../../../src/zor/wrapper/ordered-output';

// Text between sequences is divisible at every character; a sequence is one atom.
const atoms = corpus.atoms
  .flatMap((atom) => (atom.startsWith('\x1b') ? [atom] : Array.from(atom)))
  .map((atom) => Buffer.from(atom, 'utf8'));
const stream = Buffer.concat(atoms);
/** Byte offsets between atoms: the only places an insertion is safe. */
const boundaries = new Set<number>([0]);
atoms.reduce((offset, atom) => {
  boundaries.add(offset + atom.length);
  return offset + atom.length;
}, 0);

describe('EscapeBoundary', () => {
  it('is at a boundary after exactly the bytes that end an atom of the corpus', () => {
    const tracker = new EscapeBoundary();
    const reported: number[] = [];
    for (let offset = 1; offset <= stream.length; offset++) {
      tracker.feed(stream.subarray(offset - 1, offset));
      if (tracker.atBoundary) reported.push(offset);
    }
    expect(reported).toEqual([...boundaries].filter((offset) => offset > 0));
  });

  it.each([
    ['CSI', '\x1b[1;2'],
    ['OSC', '\x1b]0;ti'],
    ['OSC awaiting the backslash of ST', '\x1b]2;x\x1b'],
    ['DCS', '\x1bP+q54'],
    ['a lone ESC', '\x1b'],
    ['an ESC with an intermediate', '\x1b('],
    ['a two-byte character', '\xc3'],
    ['a four-byte character', '\xf0\x9f\x98'],
  ])('is not at a boundary inside %s', (_, partial) => {
    const tracker = new EscapeBoundary();
    tracker.feed(Buffer.from(partial, 'latin1'));
    expect(tracker.atBoundary).toBe(false);
  });

  it('recovers from a malformed character at the next byte', () => {
    const tracker = new EscapeBoundary();
    tracker.feed(Buffer.from([0xe4, 0x41]));
    expect(tracker.atBoundary).toBe(true);
  });
});

describe('OrderedOutput over the corpus split at every byte', () => {
  const MARK = '<zor>';

  it.each([...Array(stream.length + 1).keys()])(
    'split at byte %i: child bytes intact, insertions only at boundaries',
    (split) => {
      const written: Buffer[] = [];
      const output = new OrderedOutput((bytes) => written.push(Buffer.from(bytes)));
      output.childOutput(stream.subarray(0, split));
      output.inject(MARK);
      output.childOutput(stream.subarray(split));
      output.inject(MARK);
      const stdout = Buffer.concat(written).toString('latin1');
      const mark = Buffer.from(MARK).toString('latin1');
      expect(stdout.split(mark).join('')).toBe(stream.toString('latin1'));
      // Each insertion sits at a byte offset (counted in child bytes) that is between atoms.
      let childOffset = 0;
      const insertedAt: number[] = [];
      for (const piece of stdout.split(mark).slice(0, -1)) {
        childOffset += Buffer.from(piece, 'latin1').length;
        insertedAt.push(childOffset);
      }
      expect(insertedAt).toHaveLength(2);
      for (const offset of insertedAt) expect(boundaries.has(offset)).toBe(true);
    },
  );
});
