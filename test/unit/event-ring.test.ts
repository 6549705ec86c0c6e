import { EventBus } from '../../src/server/events';
import { EventRing } from '../../src/server/event-ring';

const focus = (id: number) => ({ type: 'pane.focused' as const, workspace: 'w', id });
const nudge = (id: number) => ({ type: 'pane.output' as const, workspace: 'w', id });

function bus(capacity: number): EventBus {
  return new EventBus(new EventRing(capacity));
}

describe('the event sequence', () => {
  test('every event but a nudge takes the next seq; a nudge carries the last one and is not kept', () => {
    const b = bus(10);
    const seen: Array<[string, number]> = [];
    b.listen((e) => void seen.push([e.type, e.seq]));
    b.emit(nudge(1));
    b.emit(focus(1));
    b.emit(nudge(1));
    b.emit(nudge(2));
    b.emit(focus(2));
    expect(seen).toEqual([
      ['pane.output', 0],
      ['pane.focused', 1],
      ['pane.output', 1],
      ['pane.output', 1],
      ['pane.focused', 2],
    ]);
    expect(b.seq).toBe(2);
    expect(b.history.after(0, b.seq).events.map((e) => e.seq)).toEqual([1, 2]);
  });
});

describe('the event history', () => {
  test('replays what follows a seq it still holds, with no gap', () => {
    const b = bus(4);
    for (let i = 1; i <= 3; i++) b.emit(focus(i));
    expect(b.history.after(1, b.seq)).toMatchObject({ gap: undefined, events: [{ seq: 2 }, { seq: 3 }] });
    expect(b.history.after(3, b.seq)).toEqual({ gap: undefined, events: [] });
  });

  test('keeps the newest `capacity`, and reports exactly the range it no longer holds', () => {
    const b = bus(4);
    for (let i = 1; i <= 10; i++) b.emit(focus(i));
    const replay = b.history.after(2, b.seq);
    expect(replay.gap).toEqual({ from: 3, to: 6 });
    expect(replay.events.map((e) => e.seq)).toEqual([7, 8, 9, 10]);
    // The seq just before the oldest held is still a clean resume.
    expect(b.history.after(6, b.seq).gap).toBeUndefined();
  });

  test('a resize keeps the newest events', () => {
    const b = bus(8);
    for (let i = 1; i <= 8; i++) b.emit(focus(i));
    b.history.resize(3);
    expect(b.history.after(0, b.seq)).toMatchObject({ gap: { from: 1, to: 5 } });
    b.emit(focus(9));
    expect(b.history.after(0, b.seq).events.map((e) => e.seq)).toEqual([7, 8, 9]);
    b.history.resize(5);
    b.emit(focus(10));
    b.emit(focus(11));
    expect(b.history.after(0, b.seq).events.map((e) => e.seq)).toEqual([7, 8, 9, 10, 11]);
  });
});
