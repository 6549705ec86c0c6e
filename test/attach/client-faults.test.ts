/**
 * An exception inside the attach client never ends it (issue 31.1): the client runs in this
 * process against a real server, a step of its own is made to throw, and the session must go on,
 * with the fault in the client log and one line on the status line.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { Terminal } from '@xterm/headless';
import { connect } from '../../src/client';
import { runAttach, type AttachOutcome } from '../../src/client/attach/run';
import { Compositor } from '../../src/client/attach/render/compositor';
import { FuxHome, until } from '../helpers/home';
import { FakeTerminalOutput } from './render/harness';

let home: FuxHome;
beforeEach(async () => {
  home = new FuxHome();
  await home.startServer();
});
afterEach(async () => {
  jest.restoreAllMocks();
  await home.close();
});

/** The client in this process, drawing into a headless xterm the test reads. */
async function attach(log: string): Promise<{
  type(text: string): void;
  screen(): string[];
  outcome: Promise<AttachOutcome>;
}> {
  const term = new Terminal({ cols: 60, rows: 12, allowProposedApi: true, scrollback: 0 });
  const output = new FakeTerminalOutput(60, 12);
  const write = output.write.bind(output);
  output.write = ((chunk: string) => {
    term.write(chunk);
    return write(chunk);
  }) as typeof output.write;
  const input = new PassThrough();
  const outcome = runAttach({
    transport: {
      open: async () => {
        const c = await connect({ socket: home.socket, autostart: false });
        return { client: c.client, notify: c.notify, close: c.close };
      },
    },
    workspace: 'w-faults',
    cwd: home.dir,
    env: { ...home.env, PS1: '$ ' },
    input: input as unknown as NodeJS.ReadStream,
    output: output as unknown as NodeJS.WriteStream,
    log,
  });
  const screen = (): string[] =>
    Array.from({ length: 12 }, (_, y) => term.buffer.active.getLine(y)?.translateToString(true) ?? '');
  return { type: (text) => input.write(text), screen, outcome };
}

async function shows(client: { screen(): string[] }, text: string): Promise<void> {
  await until(() => client.screen().some((l) => l.includes(text)), 10_000, `"${text}" on the screen`);
}

test('a draw that throws is logged and shown in one line; the session goes on and draws again', async () => {
  const log = path.join(home.dir, 'client.log');
  const client = await attach(log);
  await until(() => client.screen().some((l) => /\$ ?$/.test(l)), 10_000, 'the shell prompt');
  // The next draw throws, as the picker's did (issue 31.1); one fault, then the real render.
  jest.spyOn(Compositor.prototype, 'render').mockImplementationOnce(() => {
    throw new TypeError("Cannot read properties of undefined (reading 'top')");
  });
  client.type('echo before-fault\r');
  await shows(client, 'drawing failed: Cannot read properties of undefined');
  expect(fs.readFileSync(log, 'utf8')).toMatch(
    /drawing: TypeError: Cannot read properties of undefined[^]*\n\s+at /,
  );
  client.type('echo after-fault\r');
  await shows(client, 'after-fault');
  expect(client.screen().join('\n')).toContain('before-fault');
  client.type('\x01d');
  await expect(client.outcome).resolves.toMatchObject({ kind: 'detached' });
});
