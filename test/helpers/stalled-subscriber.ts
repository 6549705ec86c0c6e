import * as net from 'node:net';

/**
 * A raw connection that subscribes to every event and then reads nothing: the kernel's buffers
 * fill, then the server's queue for it. `readRest` reads again and resolves with everything the
 * connection is sent until the server closes it.
 */
export async function stalledSubscriber(socket: string): Promise<{ readRest(): Promise<string> }> {
  const raw = net.connect(socket);
  await new Promise((r) => raw.on('connect', r));
  raw.write(
    `${JSON.stringify({ id: 1, method: 'subscription', params: { path: 'subscribe', input: {} } })}\n`,
  );
  raw.pause();
  return {
    readRest: () =>
      new Promise<string>((resolve) => {
        let text = '';
        raw.setEncoding('utf8');
        raw.on('data', (d: string) => (text += d));
        raw.on('close', () => resolve(text));
        raw.resume();
      }),
  };
}
