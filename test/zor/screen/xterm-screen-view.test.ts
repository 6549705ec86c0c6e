// seed 003 §1: the screen view over @xterm/headless.
import { sanitiseTitle } from '../../../src/zor/screen/title';
import { XtermScreenView } from '../../../src/zor/screen/xterm-screen-view';
import { feed, makeTerminal } from '../support/terminal';

function setup(cols = 20, rows = 5) {
  const terminal = makeTerminal(cols, rows);
  const view = new XtermScreenView(terminal);
  return { terminal, view };
}

describe('XtermScreenView title', () => {
  it('records the OSC 0 and OSC 2 title and clears it on an empty one', async () => {
    const { terminal, view } = setup();
    await feed(terminal, '\x1b]0;first\x07');
    expect(view.title()).toBe('first');
    await feed(terminal, '\x1b]2;second\x1b\\');
    expect(view.title()).toBe('second');
    await feed(terminal, '\x1b]2;\x07');
    expect(view.title()).toBe('');
  });

  it('caps the title at 256 characters', async () => {
    const { terminal, view } = setup();
    await feed(terminal, `\x1b]2;${'é'.repeat(300)}\x07`);
    expect(view.title()).toBe('é'.repeat(256));
  });

  it('forgets title and progress when evidence is cleared for a new agent', async () => {
    const { terminal, view } = setup();
    await feed(terminal, '\x1b]2;old agent\x07\x1b]9;4;1;50\x07');
    view.clearEvidence();
    expect(view.title()).toBe('');
    expect(view.progress()).toBeUndefined();
  });
});

describe('sanitiseTitle', () => {
  it('strips C0, DEL and C1 control characters', () => {
    expect(sanitiseTitle('a\x01b\x7fc\u0085d\u009be\tf')).toBe('abcdef');
  });

  it('caps at 256 code points without splitting a surrogate pair', () => {
    expect(Array.from(sanitiseTitle('😀'.repeat(300)))).toHaveLength(256);
    expect(sanitiseTitle('😀'.repeat(300))).toBe('😀'.repeat(256));
  });
});

describe('XtermScreenView bell and progress', () => {
  it('counts bells', async () => {
    const { terminal, view } = setup();
    await feed(terminal, '\x07x\x07\x07');
    expect(view.bellCount()).toBe(3);
  });

  it.each([
    ['0', '', { state: 0, percent: 0 }],
    ['1', '42', { state: 1, percent: 42 }],
    ['2', '100', { state: 2, percent: 100 }],
    ['3', '', { state: 3, percent: 0 }],
    ['4', '7', { state: 4, percent: 7 }],
  ])('reads OSC 9;4 state %s with percent "%s"', async (state, percent, expected) => {
    const { terminal, view } = setup();
    expect(view.progress()).toBeUndefined();
    await feed(terminal, `\x1b]9;4;${state};${percent}\x1b\\`);
    expect(view.progress()).toEqual(expected);
  });

  it('reports a clear as 0:0 even when it carries a percent', async () => {
    const { terminal, view } = setup();
    await feed(terminal, '\x1b]9;4;1;60\x07\x1b]9;4;0;60\x07');
    expect(view.progress()).toEqual({ state: 0, percent: 0 });
  });

  it.each(['4', '4;9;1', '4;1;101', '4;x;1', '4;1;5;6', '4;-1;0', 'hello from iTerm2', '1;4;1'])(
    'ignores the malformed or foreign OSC 9 payload "%s", keeping the last report',
    async (payload) => {
      const { terminal, view } = setup();
      await feed(terminal, '\x1b]9;4;1;10\x07');
      await feed(terminal, `\x1b]9;${payload}\x07`);
      expect(view.progress()).toEqual({ state: 1, percent: 10 });
    },
  );
});

describe('XtermScreenView changed flag', () => {
  it('is set by new content and reset by reading it', async () => {
    const { terminal, view } = setup();
    await feed(terminal, 'hello');
    expect(view.takeChanged()).toBe(true);
    expect(view.takeChanged()).toBe(false);
  });

  it('stays false after bytes that repaint identical content', async () => {
    const { terminal, view } = setup();
    await feed(terminal, 'spinner ⠋\r\nsecond');
    view.takeChanged();
    await feed(terminal, '\x1b[H\x1b[2Jspinner ⠋\r\nsecond');
    expect(view.takeChanged()).toBe(false);
  });

  it('is set by a title change, a progress report and a bell', async () => {
    const { terminal, view } = setup();
    view.takeChanged();
    for (const bytes of ['\x1b]2;t\x07', '\x1b]9;4;3;\x07', '\x07']) {
      await feed(terminal, bytes);
      expect(view.takeChanged()).toBe(true);
    }
  });
});

describe('XtermScreenView detection window', () => {
  it('reads a row with a CJK glyph back as one character per glyph', async () => {
    const { terminal, view } = setup();
    await feed(terminal, '中文 ok 😀!');
    expect(view.lines()).toEqual(['中文 ok 😀!']);
  });

  it('right-trims lines and drops trailing blank lines, ending the text with a newline', async () => {
    const { terminal, view } = setup();
    await feed(terminal, 'one   \r\n\r\ntwo  \r\n');
    expect(view.lines()).toEqual(['one', '', 'two']);
    expect(view.text()).toBe('one\n\ntwo\n');
  });

  it('reaches into scrollback when the bottom half of the viewport is blank', async () => {
    const { terminal, view } = setup(20, 4);
    // Six lines scroll two into history; then the screen is cleared below line 1 and the cursor
    // sits on the first row, as an agent that redraws from the top leaves it.
    await feed(terminal, 'l1\r\nl2\r\nl3\r\nl4\r\nl5\r\nl6');
    await feed(terminal, '\x1b[2;1H\x1b[J\x1b[1;1H');
    expect(terminal.buffer.active.baseY).toBe(2);
    expect(view.lines()).toEqual(['l1', 'l2', 'l3']);
  });

  it('ends the window at the cursor when it is below the last non-blank row', async () => {
    const { terminal, view } = setup(20, 4);
    await feed(terminal, 'l1\r\nl2\r\nl3\r\nl4\r\nl5\x1b[3;1H\x1b[J\x1b[4;1H');
    // Viewport rows: l2, l3, blank, blank (cursor on the last); the window is the viewport.
    expect(view.lines()).toEqual(['l2', 'l3']);
  });

  it('shows nothing from history when the whole viewport is blank', async () => {
    const { terminal, view } = setup(20, 3);
    await feed(terminal, 'a\r\nb\r\nc\r\nd\r\ne\x1b[H\x1b[2J');
    expect(view.lines()).toEqual([]);
    expect(view.text()).toBe('');
  });

  it("reads the alternate screen's own rows, not the primary history", async () => {
    const { terminal, view } = setup(20, 3);
    await feed(terminal, 'p1\r\np2\r\np3\r\np4\x1b[?1049h\x1b[Halt top\x1b[3;1Halt bottom');
    expect(terminal.buffer.active.type).toBe('alternate');
    expect(view.lines()).toEqual(['alt top', '', 'alt bottom']);
    await feed(terminal, '\x1b[?1049l');
    expect(view.lines()).toEqual(['p2', 'p3', 'p4']);
  });

  it('leaves the viewport at the live screen after reading into scrollback', async () => {
    const { terminal, view } = setup(20, 4);
    await feed(terminal, 'l1\r\nl2\r\nl3\r\nl4\r\nl5\r\nl6\x1b[2;1H\x1b[J\x1b[1;1H');
    view.lines();
    const buffer = terminal.buffer.active;
    expect(buffer.viewportY).toBe(buffer.baseY);
  });

  it('reports the terminal size', () => {
    const { view } = setup(33, 7);
    expect(view.size()).toEqual({ rows: 7, cols: 33 });
  });
});

describe('XtermScreenView styles', () => {
  it('reads bold, inverse and a background other than the row’s as runs in code-point columns', async () => {
    const { terminal, view } = setup(30, 4);
    // A row on a grey panel (48;5;236) with one button on blue: the panel is the row's own colour.
    const panel = '\x1b[48;5;236m';
    await feed(
      terminal,
      `${panel} Once  \x1b[44m Always \x1b[0m${panel}  No${' '.repeat(10)}\x1b[0m\r\n` +
        `中\x1b[1mbold\x1b[0m \x1b[7minv\x1b[0m\r\n`,
    );
    expect(view.lines()).toEqual([' Once   Always   No', '中bold inv']);
    expect(view.styles()).toEqual([
      { line: 0, from: 7, to: 15, flags: ['background'] },
      // The row's own background is the terminal default here; the wide glyph is one column.
      { line: 1, from: 1, to: 5, flags: ['bold'] },
      { line: 1, from: 6, to: 9, flags: ['inverse'] },
    ]);
  });

  it('recomputes the styles after the screen changes, and only then', async () => {
    const { terminal, view } = setup(20, 3);
    await feed(terminal, '\x1b[1mhi\x1b[0m');
    const first = view.styles();
    expect(view.styles()).toBe(first);
    await feed(terminal, '\r\x1b[0mhi');
    expect(view.styles()).toEqual([]);
  });
});
