import { paneIdsOf } from './tree';
import { isPane, type Axis, type LayoutNode } from './types';

/*
 * The compact layout notation of the issue tracker and the tests:
 *   node  := 'P' id | ('H' | 'V') ratio '[' node ',' node ']'
 * H is a 'row' split (children side by side), V a 'column' split (stacked); the ratio is the first
 * child's share. Whitespace may separate any two tokens.
 */

const AXIS_BY_LETTER: Readonly<Record<string, Axis>> = { H: 'row', V: 'column' };

/** A number as JavaScript writes one, so that every ratio `formatNotation` prints reads back exactly. */
const RATIO = /[0-9.]+(?:e[+-]?[0-9]+)?/iy;
const PANE_ID = /[0-9]+/y;

class NotationReader {
  readonly #text: string;
  #at = 0;

  constructor(text: string) {
    this.#text = text;
  }

  fail(expected: string): never {
    const found = this.#at < this.#text.length ? `'${this.#text[this.#at]}'` : 'the end';
    throw new SyntaxError(
      `layout notation ${JSON.stringify(this.#text)}: expected ${expected} at ${this.#at}, found ${found}`,
    );
  }

  skipSpace(): void {
    while (this.#at < this.#text.length && /\s/.test(this.#text[this.#at]!)) this.#at += 1;
  }

  atEnd(): boolean {
    this.skipSpace();
    return this.#at >= this.#text.length;
  }

  /** Consumes `char` if it is next. */
  take(char: string): boolean {
    this.skipSpace();
    if (this.#text[this.#at] !== char) return false;
    this.#at += 1;
    return true;
  }

  expect(char: string): void {
    if (!this.take(char)) this.fail(`'${char}'`);
  }

  match(pattern: RegExp, what: string): string {
    this.skipSpace();
    pattern.lastIndex = this.#at;
    const found = pattern.exec(this.#text);
    if (!found) this.fail(what);
    this.#at += found[0].length;
    return found[0];
  }

  node(): LayoutNode {
    if (this.take('P')) return { pane: Number(this.match(PANE_ID, 'a pane id')) };
    this.skipSpace();
    const axis = AXIS_BY_LETTER[this.#text[this.#at] ?? ''];
    if (!axis) this.fail("'P', 'H' or 'V'");
    this.#at += 1;
    const ratioAt = this.#at;
    const ratio = Number(this.match(RATIO, 'a ratio'));
    if (!(ratio > 0 && ratio < 1)) {
      this.#at = ratioAt;
      this.fail('a ratio strictly between 0 and 1');
    }
    this.expect('[');
    const a = this.node();
    this.expect(',');
    const b = this.node();
    this.expect(']');
    return { axis, ratio, a, b };
  }
}

export function parseNotation(text: string): LayoutNode {
  const reader = new NotationReader(text);
  const root = reader.node();
  if (!reader.atEnd()) reader.fail('the end');
  const ids = paneIdsOf(root);
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated !== undefined) {
    throw new SyntaxError(`layout notation ${JSON.stringify(text)}: pane ${repeated} appears twice`);
  }
  const tooBig = ids.find((id) => !Number.isSafeInteger(id));
  if (tooBig !== undefined)
    throw new SyntaxError(`layout notation ${JSON.stringify(text)}: pane id ${tooBig} is too large`);
  return root;
}

export function formatNotation(node: LayoutNode): string {
  if (isPane(node)) return `P${node.pane}`;
  const letter = node.axis === 'row' ? 'H' : 'V';
  return `${letter}${node.ratio}[${formatNotation(node.a)}, ${formatNotation(node.b)}]`;
}
