import type { TRPCClient } from '@trpc/client';
import type { RemoteControlRouter } from '../../server/remote/router';
import { parseEndpointId } from '../../rpc/iroh/address';
import type { FuxClient } from '../index';

export type RemoteControlClient = TRPCClient<RemoteControlRouter>;

/**
 * The server's `remote` procedures (allow-list, id, ticket). tRPC's client is a proxy over
 * procedure paths, so `client.remote` reaches them whatever the static type says; this gives it
 * its type until the `remote` group is mounted in appRouter, after which it is `client.remote`.
 */
export function remoteControl(client: FuxClient): RemoteControlClient {
  return (client as unknown as { remote: RemoteControlClient }).remote;
}

/** Endpoint ids as typed, checked and normalised; the error names the first bad one. */
export function endpointIds(texts: readonly string[]): string[] {
  return texts.map((text) => {
    const id = parseEndpointId(text);
    if (!id) {
      throw new Error(
        `${JSON.stringify(text)} is not an endpoint id: it is 64 hex digits, as \`fux id\` prints on the machine that connects`,
      );
    }
    return id;
  });
}
