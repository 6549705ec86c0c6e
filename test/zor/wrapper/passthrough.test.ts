// seed 001 "Passthrough is the invariant", seed 003 §5 and DESIGN.md §10: the wrapper in a real pty.
import { join } from 'node:path';
import { TEST_DATA, TEST_RULES } from '../support/paths';
import { killRunning, runInPty } from '../support/zor-pty';

afterEach(killRunning);

const CHILD = join(TEST_DATA, 'children', 'scripted-escapes.js');
// Escape sequences are what this suite is about.
/* eslint-disable no-control-regex */
const ZOR_STATE_OSC = /\x1b\]7877;[^\x1b]*\x1b\\/g;
const ZOR_TITLE_OSC = /\x1b\]2;[●◐○][^\x1b]*\x1b\\/g;

/** What the child wrote, as its pty delivers it to zor (the child's pty turns "\n" into "\r\n"). */
const CHILD_BYTES = [
  '\x1b[1;31mred\x1b[0m plain\n',
  '\x1b]0;child title\x07',
  '\x1b]2;other title\x1b\\',
  '\x1bP+q544e\x1b\\',
  '✶ Working on it…\n\x1b[3',
  '8;5;1mX\x1b[0m\n',
  '\x1b[c',
  `reply:${Buffer.from('\x1b[?62;22c').toString('hex')}\n`,
  'bye\n',
]
  .join('')
  .replace(/\n/g, '\r\n');

describe('the wrapper passes bytes through', () => {
  it("writes the child's bytes unchanged, adding its own sequences only between escape sequences", async () => {
    const run = await runInPty([
      '--agent',
      'testagent',
      '--rules',
      TEST_RULES,
      '--',
      process.execPath,
      CHILD,
    ]);
    await run.waitForText('✶ Working on it…');
    run.write('c');
    // The DA query reaches the terminal (this test); the terminal's answer must reach the child.
    await run.waitForText('\x1b[c');
    run.write('\x1b[?62;22c');
    await run.waitForText('bye');
    run.write('q');
    expect((await run.exited).exitCode).toBe(0);

    const stdout = run.text();
    // zor announced the working state in-band, and its title, so the test is not vacuous.
    expect(stdout).toMatch(/\x1b\]7877;state=working;agent=testagent;seq=\d+;visible=working\x1b\\/);
    expect(stdout).toContain('\x1b]2;● other title\x1b\\');
    // The sequence the child split across two writes arrives whole: nothing was put inside it.
    expect(stdout).toContain('\x1b[38;5;1mX');
    // Minus zor's own sequences (and the title it restores on exit), the bytes are the child's.
    const childOnly = stdout.replace(ZOR_STATE_OSC, '').replace(ZOR_TITLE_OSC, '');
    expect(childOnly).toBe(CHILD_BYTES + '\x1b]2;other title\x1b\\');
  });

  it('passes input to the child byte for byte', async () => {
    const run = await runInPty([
      '--',
      process.execPath,
      '-e',
      `process.stdin.setRawMode(true); let got = Buffer.alloc(0);
       process.stdin.on('data', (d) => { got = Buffer.concat([got, d]);
         if (got.includes(0x04)) { process.stdout.write('got:' + got.toString('hex') + '\\n'); process.exit(0); } });
       process.stdout.write('ready\\n');`,
    ]);
    await run.waitForText('ready');
    const input = '\x1b[A\x1b[200~pasted\x1b[201~\x03\x1a\x00é\x1bOP\r\x04';
    run.write(input);
    await run.waitForText(/got:[0-9a-f]+/);
    expect(/got:([0-9a-f]+)/.exec(run.text())![1]).toBe(Buffer.from(input).toString('hex'));
    expect((await run.exited).exitCode).toBe(0);
  });
});
