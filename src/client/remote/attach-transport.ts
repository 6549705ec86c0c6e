import type { Duplex } from 'node:stream';
import { createStreamClient } from '../../rpc/client';
import type { RemoteRouter } from '../../server/attach/router';
import type { AttachTransport, AttachTransportSource } from '../attach/connection';
import type { RemoteTransport } from './connect';
import { RemoteError, RemoteGoneError, RemoteRefusedError } from './errors';

/** The wait between tries to open a stream on a connection that failed to give one. */
const RETRY_MS = 500;

/**
 * The attach client's transport over iroh. The first session gets the stream `openRemote`
 * opened; after a loss, `reopen` gets a new stream (on the live connection, or on the one the
 * transport's redial makes), so each session starts from the current state. This is the one
 * place that decides how long to keep trying: the connection's own redial (up to its retention),
 * and here a stream that failed to open on a live connection, tried again until `retentionMs`
 * after the loss. A refusal or a server gone for good ends it at once.
 */
export function remoteAttachTransport(remote: RemoteTransport, retentionMs: number): AttachTransportSource {
  const wrap = (stream: Duplex): AttachTransport => {
    const { client, notify, close } = createStreamClient<RemoteRouter>(stream);
    return { client, notify, close };
  };
  return {
    open: () => Promise.resolve(wrap(remote.stream)),
    reopen: async () => {
      const giveUpAt = Date.now() + retentionMs;
      for (;;) {
        try {
          return wrap(await remote.reopen());
        } catch (err) {
          const fatal = err instanceof RemoteGoneError || err instanceof RemoteRefusedError;
          if (fatal || !(err instanceof RemoteError) || Date.now() + RETRY_MS > giveUpAt) throw err;
        }
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    },
  };
}
