import { PtyProcess, type PaneExit } from '../../src/server/pane/pty-process';
import { testEnv } from './pane-harness';

interface Run {
  text: string;
  exit: PaneExit;
  toldGone: boolean;
}

/** Spawn `script`, pause reading at once, and resume only when told the child is gone. */
function runPausedUntilChildGone(script: string): Promise<Run> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let toldGone = false;
    const pty: PtyProcess = PtyProcess.spawn(
      { file: '/bin/sh', args: ['-c', script], cwd: '/tmp', env: testEnv(), cols: 80, rows: 24 },
      {
        bytes: (chunk) => chunks.push(Buffer.from(chunk)),
        childGone: () => {
          toldGone = true;
          pty.resume();
        },
        closed: (exit) => resolve({ text: Buffer.concat(chunks).toString(), exit, toldGone }),
      },
    );
    pty.pause();
  });
}

describe('a pty process', () => {
  test('tells its owner when the child dies while reading is paused, in time to read its output (20 of 20)', async () => {
    // Paused past node-pty's 200 ms close timer, the output would be thrown away; the death watch
    // is the only thing here that resumes reading.
    let whole = 0;
    for (let run = 0; run < 20; run++) {
      const result = await runPausedUntilChildGone("printf 'last line'; exit 3");
      if (result.toldGone && result.text === 'last line' && result.exit.code === 3) whole++;
    }
    expect(whole).toBe(20);
  });

  test('delivers raw bytes, leaving UTF-8 decoding to the terminal', async () => {
    const chunks: Uint8Array[] = [];
    await new Promise<void>((resolve) => {
      PtyProcess.spawn(
        {
          file: '/bin/sh',
          args: ['-c', "printf '\\377\\360\\237\\230\\200'"],
          cwd: '/tmp',
          env: testEnv(),
          cols: 80,
          rows: 24,
        },
        { bytes: (chunk) => chunks.push(chunk), childGone: () => {}, closed: () => resolve() },
      );
    });
    expect([...Buffer.concat(chunks)]).toEqual([0xff, 0xf0, 0x9f, 0x98, 0x80]);
  });
});
