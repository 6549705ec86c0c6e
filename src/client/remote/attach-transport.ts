import type { Duplex } from 'node:stream';
import { createStreamClient } from '../../rpc/client';
import type { RemoteRouter } from '../../server/attach/router';
import type { AttachTransport } from '../attach/run';
import type { RemoteTransport } from './connect';

/**
 * What `runAttach` calls to open (and, after a loss, reopen) its transport: the first call gets
 * the stream `openRemote` opened, every later one a new stream from `reopen()` (on the live
 * connection, or the one a redial made), so each attach session starts from the current state.
 */
export function remoteAttachOpener(remote: RemoteTransport): () => Promise<AttachTransport> {
  let first: Duplex | undefined = remote.stream;
  return async () => {
    const stream = first ?? (await remote.reopen());
    first = undefined;
    const { client, close } = createStreamClient<RemoteRouter>(stream);
    return { client, close };
  };
}
