import { SubscriberQueue, SubscriberTooSlow } from '../../src/server/subscriber';
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
