/**
 * The least node can do on B8's path, as reference programs run in the same bench as fux and tmux:
 * what an attach echo costs when each process does nothing but move the bytes (and parse them, as
 * any terminal multiplexer must). Each is a `node -e` program, so the bench's bundle is not needed
 * to run it; they load node-pty and xterm from this checkout.
 *
 * - **One process** (`oneProcess`): the outer terminal and the pane's pty in the same node process,
 *   as tmux's server reads and writes its client's terminal itself.
 * - **Two processes** (`relayServer` + `relayClient`): fux's shape. A client owns the outer
 *   terminal and relays keys over a unix socket, one JSON line each, to a server that owns the
 *   panes; the echo comes back the same way. B2 talks to the same server from the bench.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { repoRoot } from './repo';
import { within } from './wait';

const modules = {
  pty: path.join(repoRoot, 'node_modules', 'node-pty'),
  xterm: path.join(repoRoot, 'node_modules', '@xterm', 'headless'),
};

/** `cat` on a pty of the given size, its output parsed by a headless xterm as it arrives. */
const paneSource = `
const pty = require(${JSON.stringify(modules.pty)});
const { Terminal } = require(${JSON.stringify(modules.xterm)});
function pane(cols, rows, onOutput) {
  const p = pty.spawn('cat', [], { cols, rows, cwd: '/', env: process.env });
  const terminal = new Terminal({ cols, rows, allowProposedApi: true });
  p.onData((data) => { terminal.write(data); onOutput(data); });
  return p;
}
`;

/** Calls `onMessage` with each JSON line a stream brings: the relay's framing, both ways. */
const jsonLinesSource = `
function jsonLines(stream, onMessage) {
  let buffered = '';
  stream.setEncoding('utf8');
  stream.on('data', (text) => {
    buffered += text;
    for (let n = buffered.indexOf('\\n'); n !== -1; n = buffered.indexOf('\\n')) {
      const line = buffered.slice(0, n);
      buffered = buffered.slice(n + 1);
      onMessage(JSON.parse(line));
    }
  });
}
`;

/** Raw keys from this process's terminal into the pane; the pane's output parsed and drawn back. */
export function oneProcess(cols: number, rows: number): string {
  return `${paneSource}
const p = pane(${cols}, ${rows}, (data) => process.stdout.write(data));
process.stdin.setRawMode(true);
process.stdin.on('data', (keys) => p.write(keys.toString('latin1')));
`;
}

/**
 * `panes` panes behind a unix socket: a JSON line `{"p": pane, "k": keys}` in, a JSON line
 * `{"p": pane, "d": output}` out to the last peer that connected; prints a line once listening.
 */
function relayServer(socket: string, panes: number, cols: number, rows: number): string {
  return `${paneSource}${jsonLinesSource}
const net = require('node:net');
let peer;
const panes = [];
for (let i = 0; i < ${panes}; i++)
  panes.push(pane(${cols}, ${rows}, (data) => peer?.write(JSON.stringify({ p: i, d: data }) + '\\n')));
net.createServer((c) => {
  peer = c;
  jsonLines(c, ({ p, k }) => panes[p].write(k));
}).listen(${JSON.stringify(socket)}, () => process.stdout.write('listening\\n'));
`;
}

/** The two-process floor's server (relayServer), listening on `socket` once this resolves. */
export async function startRelayServer(
  socket: string,
  panes: number,
  cols: number,
  rows: number,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', relayServer(socket, panes, cols, rows)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const listening = new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) =>
      reject(new Error(`the floor's relay server exited (${code}) before listening`)),
    );
  });
  try {
    await within(listening, 10_000, "the floor's relay server to listen");
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return child;
}

/** The outer terminal's side of relayServer: raw keys to its first pane, that pane's output to the terminal. */
export function relayClient(socket: string): string {
  return `${jsonLinesSource}
const net = require('node:net');
const c = net.connect(${JSON.stringify(socket)});
process.stdin.setRawMode(true);
process.stdin.on('data', (keys) => c.write(JSON.stringify({ p: 0, k: keys.toString('latin1') }) + '\\n'));
jsonLines(c, ({ d }) => process.stdout.write(d));
`;
}
