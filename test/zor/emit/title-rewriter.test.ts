// seed 001 "In-band: the title" and seed 003 §6.
import { TitleRewriter, titleOsc } from '../../../src/zor/emit/title-rewriter';

describe('TitleRewriter', () => {
  it('prefix: rewrites the child title with the state glyph and re-sends on a state change', () => {
    const title = new TitleRewriter('prefix');
    expect(title.childSetTitle('Claude Code')).toBeUndefined();
    expect(title.stateChanged('working', 'claude')).toBe(titleOsc('● Claude Code'));
    expect(title.childSetTitle('Claude Code: refactor')).toBe(titleOsc('● Claude Code: refactor'));
    expect(title.stateChanged('blocked', 'claude')).toBe(titleOsc('◐ Claude Code: refactor'));
    expect(title.stateChanged('idle', 'claude')).toBe(titleOsc('○ Claude Code: refactor'));
    expect(title.stateChanged('idle', 'claude')).toBeUndefined();
  });

  it('prefix: shows the glyph alone while the child has no title, and restores the title at none', () => {
    const title = new TitleRewriter('prefix');
    expect(title.stateChanged('idle', 'claude')).toBe(titleOsc('○'));
    title.childSetTitle('shell');
    expect(title.stateChanged('none', undefined)).toBe(titleOsc('shell'));
  });

  it('replace: shows the glyph and the agent whatever the child sets', () => {
    const title = new TitleRewriter('replace');
    expect(title.stateChanged('working', 'codex')).toBe(titleOsc('● codex'));
    expect(title.childSetTitle('something else')).toBe(titleOsc('● codex'));
    expect(title.stateChanged('none', undefined)).toBe(titleOsc('something else'));
  });

  it('never: emits nothing, ever', () => {
    const title = new TitleRewriter('never');
    expect(title.stateChanged('working', 'claude')).toBeUndefined();
    expect(title.childSetTitle('x')).toBeUndefined();
    expect(title.restore()).toBeUndefined();
  });

  it("restores the child's last title unprefixed on exit, only if zor touched it", () => {
    const touched = new TitleRewriter('prefix');
    touched.childSetTitle('vim');
    touched.stateChanged('working', 'a');
    touched.childSetTitle('vim: file');
    expect(touched.restore()).toBe(titleOsc('vim: file'));
    const untouched = new TitleRewriter('prefix');
    untouched.childSetTitle('vim');
    expect(untouched.restore()).toBeUndefined();
  });
});
