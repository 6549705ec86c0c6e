import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

/** server-process.ts as a child that a test can freeze and thaw. */
export class FrozenServer {
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
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
      });
      child.once('exit', (code) =>
        reject(new Error(`the server process exited (${code}) before it was ready`)),
      );
    });
    const { id, ticket } = JSON.parse(line) as { id: string; ticket: string };
    return new FrozenServer(child, id, ticket);
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
