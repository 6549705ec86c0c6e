import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FuxHome, until } from '../helpers/home';

/**
 * Another local user tries to make our client talk to their server (issue 32): they get to the
 * socket's directory first, or point a symbolic link of theirs at it, or hand us a socket whose
 * file looks like ours. The attacker is a real process of another uid (nobody, 65534), which only
 * root can start; elsewhere these tests skip and say so.
 */
const OTHER = 65534;
const asRoot = process.getuid?.() === 0;
if (!asRoot) {
  console.log('skipping the other-user socket attacks: they need root to run a process of another uid');
}
const describeAsRoot = asRoot ? describe : describe.skip;

/** A listener run by uid OTHER that reports, on its stdout, every byte a client sends it. */
class Impostor {
  readonly child: ChildProcess;
  received = '';
  private out = '';

  constructor(socket: string, opts: { makeDir?: boolean } = {}) {
    const script = `
      const fs = require('fs'), net = require('net'), path = require('path');
      const socket = ${JSON.stringify(socket)};
      if (${opts.makeDir === true}) fs.mkdirSync(path.dirname(socket), { mode: 0o700 });
      fs.rmSync(socket, { force: true });
      net.createServer((c) => c.on('data', (d) => process.stdout.write('DATA ' + d.length + '\\n')))
        .listen(socket, () => { fs.chmodSync(socket, 0o777); process.stdout.write('LISTENING\\n'); });`;
    this.child = spawn(process.execPath, ['-e', script], {
      uid: OTHER,
      gid: OTHER,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (d: Buffer) => {
      this.out += d.toString();
      this.received = this.out;
    });
    this.child.stderr!.on('data', (d: Buffer) => (this.out += d.toString()));
  }

  listening(): Promise<unknown> {
    return until(
      () => this.out.includes('LISTENING') || undefined,
      10_000,
      `the impostor to listen: ${this.out}`,
    );
  }

  /** Bytes it was sent: none is the point. */
  get bytes(): number {
    return [...this.received.matchAll(/DATA (\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
  }

  stop(): void {
    this.child.kill('SIGKILL');
  }
}

describeAsRoot('a socket that another user put in our way', () => {
  let home: FuxHome;
  /** Like /tmp: anyone may create an entry, only its owner may remove it. */
  let shared: string;
  const impostors: Impostor[] = [];
  /** The caller's environment holds a secret; no byte of any request may reach the impostor. */
  const secret = { FUX_TEST_SECRET: 'hunter2' };

  beforeEach(() => {
    home = new FuxHome();
    shared = fs.mkdtempSync(path.join(os.tmpdir(), 'fux-shared-'));
    fs.chmodSync(shared, 0o1777);
  });
  afterEach(async () => {
    for (const i of impostors.splice(0)) i.stop();
    fs.rmSync(shared, { recursive: true, force: true });
    await home.close();
  });

  /** The CLI on the default socket path under `runtime` (no FUX_SOCKET), as a user without one runs it. */
  const cliIn = (runtime: string, args: string[]): ReturnType<FuxHome['cli']> => {
    // An empty FUX_SOCKET counts as unset: the client takes $XDG_RUNTIME_DIR/fux/fux.sock.
    return home.cli(args, { env: { ...secret, XDG_RUNTIME_DIR: runtime, FUX_SOCKET: '' } });
  };

  test('a socket directory another user made first is refused by the client before a byte is sent', async () => {
    const impostor = new Impostor(path.join(shared, 'fux', 'fux.sock'), { makeDir: true });
    impostors.push(impostor);
    await impostor.listening();
    for (const args of [['list'], ['new', '--', 'true']]) {
      const r = cliIn(shared, args);
      expect(r.code).not.toBe(0);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(new RegExp(`fux.* belongs to uid ${OTHER}, not to you \\(uid 0\\)`));
    }
    expect(impostor.bytes).toBe(0);
  });

  test('a symbolic link of another user is refused by the server and the client, wherever it points', async () => {
    const mine = fs.mkdtempSync(path.join(home.dir, 'mine-'));
    const link = path.join(shared, 'fux');
    // First at a 0700 directory of ours: the server must not start there.
    const linked = spawn('ln', ['-s', mine, link], { uid: OTHER, gid: OTHER });
    await new Promise((r) => linked.on('exit', r));
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    const first = cliIn(shared, ['list']);
    expect(first.code).not.toBe(0);
    expect(first.stderr).toMatch(/fux is a symbolic link, not a directory of yours/);
    expect(fs.readdirSync(mine)).toEqual([]);

    // Then at theirs, with their listener behind it: the client must not connect.
    const theirs = path.join(shared, 'theirs');
    const impostor = new Impostor(path.join(theirs, 'fux.sock'), { makeDir: true });
    impostors.push(impostor);
    await impostor.listening();
    const relinked = spawn('ln', ['-sfn', theirs, link], { uid: OTHER, gid: OTHER });
    await new Promise((r) => relinked.on('exit', r));
    expect(fs.realpathSync(link)).toBe(theirs);
    const second = cliIn(shared, ['new', '--', 'true']);
    expect(second.code).not.toBe(0);
    expect(second.stderr).toMatch(/is a symbolic link/);
    expect(impostor.bytes).toBe(0);
  });

  test('a socket that looks like ours but is answered by another uid is refused once connected', async () => {
    // Root moves another user's live socket into our private directory and gives the file to us:
    // the directory and the file pass every check, only the kernel knows who listens.
    const theirs = path.join(shared, 'theirs');
    const impostor = new Impostor(path.join(theirs, 'fux.sock'), { makeDir: true });
    impostors.push(impostor);
    await impostor.listening();
    const privateDir = fs.mkdtempSync(path.join(home.dir, 'private-'));
    const socket = path.join(privateDir, 'fux.sock');
    fs.renameSync(path.join(theirs, 'fux.sock'), socket);
    fs.lchownSync(socket, 0, 0);
    const r = home.cli(['new', '--socket', socket, '--', 'true'], { env: secret });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(`the server on .*fux.sock runs as uid ${OTHER}, not as you \\(uid 0\\)`),
    );
    expect(impostor.bytes).toBe(0);
  });

  test('a client of another uid that reaches the socket is refused by the server without an answer', async () => {
    await home.startServer();
    // Open what a careless user might (a shared FUX_SOCKET): the kernel's word on the peer still holds.
    for (let dir = path.dirname(home.socket); dir !== path.dirname(home.dir); dir = path.dirname(dir))
      fs.chmodSync(dir, 0o711);
    fs.chmodSync(home.socket, 0o666);
    const probe = `
      const c = require('net').connect(${JSON.stringify(home.socket)});
      let got = '';
      c.on('connect', () => c.write(JSON.stringify({ id: 1, method: 'query', params: { path: 'list', input: {} } }) + '\\n'));
      c.on('data', (d) => (got += d));
      c.on('close', () => { console.log(got === '' ? 'CLOSED' : 'ANSWERED ' + got); process.exit(0); });
      // A reset or a broken pipe (the server hung up with our request unread) is no answer either.
      const hungUp = (e) => (e.code === 'ECONNRESET' || e.code === 'EPIPE') && got === '';
      c.on('error', (e) => { console.log(hungUp(e) ? 'CLOSED' : e.code); process.exit(0); });`;
    const child = spawn(process.execPath, ['-e', probe], { uid: OTHER, gid: OTHER });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise((r) => child.on('exit', r));
    expect(out.trim()).toBe('CLOSED');
    // And it is still ours to use, once its directory is closed again (a client refuses it open).
    fs.chmodSync(path.dirname(home.socket), 0o700);
    expect(home.cli(['list']).code).toBe(0);
  });
});

test('a socket directory that is a symbolic link to our own private directory is refused even by us', () => {
  const home = new FuxHome();
  try {
    const mine = fs.mkdtempSync(path.join(home.dir, 'mine-'));
    const runtime = path.dirname(path.dirname(home.socket));
    fs.symlinkSync(mine, path.join(runtime, 'fux'));
    const r = home.cli(['list']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/is a symbolic link, not a directory of yours/);
    // Nothing was made through the link.
    expect(fs.readdirSync(mine)).toEqual([]);
  } finally {
    void home.close();
  }
});
