import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

/** server-process.ts as a child that a test can freeze and thaw. */
export class FrozenServer {
  /** What it logged, and the streams it served (by peer), so far. */
  readonly log: string[] = [];
  readonly streams: string[] = [];

  private constructor(
    private readonly child: ChildProcess,
    readonly id: string,
    readonly ticket: string,
  ) {}

  static async start(allowed: string): Promise<FrozenServer> {
    const child = spawn(
      process.execPath,
      [
        '-r',
        path.join(root, 'scripts', 'capture-register.js'),
        path.join(__dirname, 'server-process.ts'),
        allowed,
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const messages: Array<Record<string, string>> = [];
    let server: FrozenServer | undefined;
    const ready = new Promise<FrozenServer>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
          const message = JSON.parse(out.slice(0, nl)) as Record<string, string>;
          out = out.slice(nl + 1);
          if (message.ticket) resolve((server = new FrozenServer(child, message.id!, message.ticket)));
          else if (server) server.record(message);
          else messages.push(message);
        }
      });
      child.once('exit', (code) =>
        reject(new Error(`the server process exited (${code}) before it was ready`)),
      );
    });
    const started = await ready;
    for (const m of messages) started.record(m);
    return started;
  }

  private record(message: Record<string, string>): void {
    if (message.log !== undefined) this.log.push(message.log);
    if (message.stream !== undefined) this.streams.push(message.stream);
  }

  /** Stop the process dead: no packet of any path is answered until thaw(). */
  freeze(): void {
    this.child.kill('SIGSTOP');
  }

  thaw(): void {
    this.child.kill('SIGCONT');
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGCONT');
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
  }
}
