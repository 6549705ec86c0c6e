import type { FuxClient } from '../../src/client';
import type { FuxEvent } from '../../src/server/events';

/**
 * A subscription's events, collected until stopped. `ready` resolves once the server has started
 * it (events from then on are all seen); `error` is what ended it, if anything. `onEvent`, if
 * given, is called with each event as it arrives, for a test that must answer one at once.
 */
export function collectEvents(
  client: FuxClient,
  input: Parameters<FuxClient['subscribe']['subscribe']>[0] = {},
  onEvent?: (e: FuxEvent) => void,
) {
  const events: FuxEvent[] = [];
  let error: Error | undefined;
  let started!: () => void;
  const ready = new Promise<void>((r) => (started = r));
  const sub = client.subscribe.subscribe(input, {
    onStarted: () => started(),
    onData: (e) => {
      events.push(e as FuxEvent);
      onEvent?.(e as FuxEvent);
    },
    onError: (e) => (error = e),
  });
  return { events, ready, stop: () => sub.unsubscribe(), error: () => error };
}
