/**
 * The stand-in server of harness.ts in a process of its own, so a test can freeze it (SIGSTOP):
 * a frozen peer answers on no path at all, which a relay in front of it cannot arrange (iroh
 * learns the server's own address and a redial goes straight there).
 *
 *   node -r ./scripts/capture-register.js test/remote/server-process.ts <allowed endpoint id>
 *
 * prints one JSON line {id, ticket} once it accepts connections, then {log} for each line it logs
 * and {stream} for each stream it serves, and runs until killed.
 */
import { TestServer } from './harness';

async function main(): Promise<void> {
  const say = (message: object): boolean => process.stdout.write(`${JSON.stringify(message)}\n`);
  const server = await TestServer.start(process.argv.slice(2), {
    log: (line) => say({ log: line }),
    stream: (peer) => say({ stream: peer }),
  });
  say({ id: server.endpoint.id, ticket: await server.ticket() });
  const stop = (): void => void server.stop().then(() => process.exit(0));
  process.on('SIGTERM', stop);
}

void main();
