import { SubscriberQueue, SubscriberTooSlow, resumeCommand } from '../../src/server/subscriber';
import type { FuxEvent } from '../../src/server/events';

const output = (id: number): FuxEvent => ({ type: 'pane.output', workspace: 'w', id, seq: 0, ts: 0 });
const focused = (id: number): FuxEvent => ({ type: 'pane.focused', workspace: 'w', id, seq: id, ts: 0 });

describe('a subscriber queue', () => {
  test('delivers events in order', async () => {
    const q = new SubscriberQueue(10);
    q.push(focused(1));
    q.push(output(2));
    expect(await q.next()).toEqual(focused(1));
    expect(await q.next()).toEqual(output(2));
  });

  test('waits for the next event and wakes when one is pushed', async () => {
    const q = new SubscriberQueue(10);
    const next = q.next();
    q.push(focused(7));
    expect(await next).toEqual(focused(7));
  });

  test('hands events straight to a direct reader while it waits on an empty queue, in the pusher’s turn', async () => {
    const q = new SubscriberQueue(10);
    const direct: FuxEvent[] = [];
    q.deliverDirectly((e) => (direct.push(e), true));
    q.push(focused(1)); // the reader is not waiting yet: queued
    expect(direct).toEqual([]);
    expect(await q.next()).toEqual(focused(1));
    const next = q.next();
    q.push(focused(2));
    q.push(output(3));
    expect(direct).toEqual([focused(2), output(3)]);
    q.push(focused(4));
    expect(
      await Promise.race([next, new Promise((resolve) => setImmediate(() => resolve('still waiting')))]),
    ).toBe('still waiting');
  });

  test('queues an event the direct reader refuses, and everything after it until the reader catches up', async () => {
    const q = new SubscriberQueue(10);
    const direct: FuxEvent[] = [];
    let ready = false;
    q.deliverDirectly((e) => ready && (direct.push(e), true));
    const first = q.next();
    q.push(focused(1)); // refused: the connection is not ready
    ready = true;
    q.push(focused(2)); // behind the refused one, so queued too: the order holds
    expect(direct).toEqual([]);
    expect(await first).toEqual(focused(1));
    expect(await q.next()).toEqual(focused(2));
    const waiting = q.next();
    q.push(focused(3));
    expect(direct).toEqual([focused(3)]);
    q.push(focused(5));
    ready = false;
    q.push(focused(6));
    expect(await waiting).toEqual(focused(6));
  });

  test('drops output nudges first when full, counting them', async () => {
    const q = new SubscriberQueue(3);
    q.push(output(1));
    q.push(focused(2));
    q.push(output(3));
    q.push(focused(4)); // full: the oldest nudge goes
    q.push(output(5)); // full of real events and a nudge: the nudge at the front goes
    expect(q.dropped).toBe(2);
    expect([await q.next(), await q.next(), await q.next()]).toEqual([focused(2), focused(4), output(5)]);
  });

  test('a queue full of real events overflows: the reader is told it is too slow, with the limit', async () => {
    const q = new SubscriberQueue(2);
    for (let i = 0; i < 3; i++) q.push(focused(i));
    await expect(q.next()).rejects.toThrow(SubscriberTooSlow);
    await expect(q.next()).rejects.toThrow(/more than 2 events waiting/);
  });

  test('an aborted wait resolves undefined', async () => {
    const q = new SubscriberQueue(2);
    const ac = new AbortController();
    const next = q.next(ac.signal);
    ac.abort();
    expect(await next).toBeUndefined();
  });
});

test('whenOverflowed resolves the moment the queue overflows, so a writer stuck on a dead reader wakes', async () => {
  const q = new SubscriberQueue(1);
  let woke = false;
  const wait = q.whenOverflowed().then(() => (woke = true));
  q.push(focused(1));
  await Promise.resolve();
  expect(woke).toBe(false);
  q.push(focused(2));
  await wait;
  expect(woke).toBe(true);
  expect(() => q.assertKeepingUp()).toThrow(SubscriberTooSlow);
});

describe('the command a cut-off subscriber is given', () => {
  test('resumes after the seq with the same workspace and events', () => {
    expect(resumeCommand(41, {})).toBe('fux subscribe --since 41');
    expect(resumeCommand(41, { workspace: 'main', events: ['pane.title', 'agent.state'] })).toBe(
      'fux subscribe --since 41 -w main pane.title agent.state',
    );
  });

  test('quotes a workspace name the shell would not read back as itself', () => {
    expect(resumeCommand(7, { workspace: "bob's work" })).toBe(`fux subscribe --since 7 -w 'bob'\\''s work'`);
    expect(resumeCommand(7, { workspace: '$(rm -rf ~)' })).toBe(`fux subscribe --since 7 -w '$(rm -rf ~)'`);
  });
});
