import { createServer, type Server } from 'node:net';

/**
 * The listening end of `zor --events SOCKET`: zor connects as a client and writes one JSON object
 * per line. Keeps every line in order, so a test can wait for a state and then check the history.
 */

export type EventLine = Readonly<Record<string, unknown>>;

export class EventListener {
  readonly lines: EventLine[] = [];

  private constructor(private readonly server: Server) {}

  static async listen(path: string): Promise<EventListener> {
    const server = createServer();
    const listener = new EventListener(server);
    server.on('connection', (connection) => {
      let buffered = '';
      connection.on('data', (data: Buffer) => {
        buffered += data.toString('utf8');
        for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
          listener.lines.push(JSON.parse(buffered.slice(0, newline)) as EventLine);
          buffered = buffered.slice(newline + 1);
        }
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => resolve());
    });
    return listener;
  }

  /** State changes only: a heartbeat repeats its change's `seq` and carries no `previous`. */
  changes(): EventLine[] {
    return this.lines.filter((line) => line.t === 'state' && 'previous' in line);
  }

  /** The latest published state, or `none` before the first change. */
  currentState(): string {
    const changes = this.changes();
    return changes.length === 0 ? 'none' : String(changes[changes.length - 1]!.state);
  }

  /**
   * The published states in order, a change of flags alone (idle without, then with, the prompt
   * drawn) not repeating the state: "idle → working → blocked → idle".
   */
  describe(): string {
    const states = this.changes()
      .map((line) => String(line.state))
      .filter((state, index, all) => state !== all[index - 1]);
    return states.join(' → ') || 'nothing';
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
