// seed 001 "Out-of-band: event lines" and seed 003 §6: line format and non-blocking sinks.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentLine, exitLine, stateLine } from '../../../src/zor/emit/event-line';
import { EventSinkError, openEventSink } from '../../../src/zor/emit/event-sink';
import { NO_FLAGS } from '../../../src/zor/agent-state';
import { until } from '../../helpers/wait-for';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'zor-events-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('event lines', () => {
  it('carry the transition, the flags, the title and a timestamp in seconds', () => {
    const line = stateLine(
      {
        state: 'blocked',
        previous: 'working',
        agent: 'claude',
        seq: 12,
        visible: { idle: false, blocker: true, working: false },
        exited: false,
        title: 'Claude Code',
      },
      1756900000123,
    );
    expect(JSON.parse(line)).toEqual({
      t: 'state',
      state: 'blocked',
      previous: 'working',
      agent: 'claude',
      seq: 12,
      visible: ['blocker'],
      title: 'Claude Code',
      ts: 1756900000.123,
    });
  });

  it('mark the exit idle and write a null agent for none; a heartbeat has no previous', () => {
    expect(
      JSON.parse(
        stateLine(
          {
            state: 'idle',
            previous: 'working',
            agent: 'a',
            seq: 2,
            visible: NO_FLAGS,
            exited: true,
            title: '',
          },
          0,
        ),
      ),
    ).toMatchObject({ exited: true });
    const heartbeat = JSON.parse(
      stateLine({ state: 'none', agent: undefined, seq: 3, visible: NO_FLAGS, exited: false, title: '' }, 0),
    );
    expect(heartbeat).toEqual({ t: 'state', state: 'none', agent: null, seq: 3, title: '', ts: 0 });
  });

  it('describe agents and the exit', () => {
    expect(JSON.parse(agentLine({ agent: 'claude', pid: 48211 }, 1000))).toEqual({
      t: 'agent',
      agent: 'claude',
      pid: 48211,
      ts: 1,
    });
    expect(JSON.parse(agentLine(undefined, 1000))).toEqual({ t: 'agent', agent: null, ts: 1 });
    expect(JSON.parse(exitLine({ code: 0 }, 0))).toEqual({ t: 'exit', code: 0, ts: 0 });
    expect(JSON.parse(exitLine({ code: null, signal: 'SIGTERM' }, 0))).toEqual({
      t: 'exit',
      code: null,
      signal: 'SIGTERM',
      ts: 0,
    });
  });
});

describe('event sinks', () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  it('write lines to a unix socket as a client', async () => {
    const path = join(dir, 'events.sock');
    const received: string[] = [];
    server = createServer((connection) => connection.on('data', (data) => received.push(data.toString())));
    await new Promise<void>((resolve) => server!.listen(path, resolve));
    const sink = openEventSink(path);
    sink.write('{"t":"one"}');
    sink.write('{"t":"two"}');
    await until(() => received.join('') === '{"t":"one"}\n{"t":"two"}\n', 10_000, 'both lines');
    await sink.close();
    expect(sink.dropped).toBe(0);
  });

  it('reconnect to a unix socket that dropped them, at most once a second', async () => {
    let now = 0;
    const path = join(dir, 'events.sock');
    const received: string[] = [];
    const connections: Socket[] = [];
    server = createServer((connection) => {
      connections.push(connection);
      connection.on('data', (data) => received.push(data.toString()));
    });
    await new Promise<void>((resolve) => server!.listen(path, resolve));
    const sink = openEventSink(path, () => now);
    sink.write('first');
    await until(() => received.join('').includes('first\n'), 10_000, 'the first line');
    // The reader goes away; zor notices when its socket closes.
    connections[0]!.destroy();
    await until(
      () => {
        sink.write('while gone');
        return sink.dropped > 0;
      },
      10_000,
      'the sink to notice the lost connection',
    );
    const droppedWhileGone = sink.dropped;
    sink.write('still within the retry second');
    expect(sink.dropped).toBe(droppedWhileGone + 1);
    now += 1000;
    sink.write('second');
    await until(() => received.join('').includes('second\n'), 10_000, 'the line after reconnecting');
    expect(connections).toHaveLength(2);
    await sink.close();
  });

  it('drop lines to a full fifo instead of blocking, counting them', async () => {
    const path = join(dir, 'events.fifo');
    execFileSync('mkfifo', [path]);
    // A reader that holds the fifo open and never reads: the pipe fills at 64 KiB.
    const reader = spawn('sh', ['-c', `exec 3<"${path}"; sleep 30`], { stdio: 'ignore' });
    try {
      const sink = await until(
        () => {
          const candidate = openEventSink(path);
          candidate.write('probe');
          return candidate.dropped === 0 && candidate;
        },
        10_000,
        'the fifo reader',
      );
      const line = JSON.stringify({ t: 'state', padding: 'x'.repeat(200) });
      for (let index = 0; index < 5000; index++) sink.write(line);
      expect(sink.dropped).toBeGreaterThan(0);
      expect(sink.dropped).toBeLessThan(5000);
      await sink.close();
    } finally {
      reader.kill('SIGKILL');
    }
  });

  it('drop lines while a fifo has no reader', () => {
    const path = join(dir, 'events.fifo');
    execFileSync('mkfifo', [path]);
    const sink = openEventSink(path);
    sink.write('nobody listens');
    expect(sink.dropped).toBe(1);
  });

  it('refuse a target that is not a socket or fifo, saying what to use', () => {
    const file = join(dir, 'plain');
    closeSync(openSync(file, 'w'));
    expect(() => openEventSink(file)).toThrow(EventSinkError);
    expect(() => openEventSink(file)).toThrow(/not a unix socket or fifo/);
    expect(() => openEventSink(join(dir, 'missing'))).toThrow(/no such socket or fifo/);
  });
});
