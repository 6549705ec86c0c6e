/**
 * The attach client's link to the server: the transport, the session subscription on it, and the
 * calls keys, clicks and resizes make. A transport that can come back after a loss (`reopen`, the
 * remote one) is reopened once per loss, and its own loop decides how long to try; a transport
 * without one ends the session when it goes.
 */
import type { TRPCClient } from '@trpc/client';
import type { inferRouterInputs } from '@trpc/server';
import type { Unsubscribable } from '@trpc/server/observable';
import type { RemoteRouter } from '../../server/attach/router';
import type { AttachAction, AttachFrame, AttachHistory, PromptOptions } from '../../protocol/attach';

export type AttachClient = TRPCClient<RemoteRouter>;

type AttachInputs = inferRouterInputs<RemoteRouter>['attach'];

export interface AttachTransport {
  client: AttachClient;
  /** Calls a mutation as a notification: in order with the calls, no reply (see src/rpc). */
  notify(path: 'attach.input', input: AttachInputs['input']): void;
  close(): void;
}

export interface AttachTransportSource {
  /** The first transport. */
  open(): Promise<AttachTransport>;
  /**
   * A transport again after the last one was lost, or a rejection saying why it cannot come back
   * (the transport retries as long as it sees fit). Absent: a loss ends the session.
   */
  reopen?(): Promise<AttachTransport>;
}

export type SessionRequest = AttachInputs['session'];

export interface ConnectionEvents {
  frame(frame: AttachFrame): void;
  /** The link's state for the user ("reconnecting… (why)"); undefined once it is back. */
  linkNotice(text: string | undefined): void;
  /** The link is gone for good: why. */
  lost(message: string): void;
}

export class AttachConnection {
  private transport: AttachTransport | undefined;
  private sub: Unsubscribable | undefined;
  /** This attachment's id, from the session's first frame; '' while there is none. */
  private client = '';
  private closed = false;

  private constructor(
    private readonly source: AttachTransportSource,
    first: AttachTransport,
  ) {
    this.transport = first;
  }

  /** Opens the transport, before anything touches the terminal: a server that cannot be reached is a plain error. */
  static async open(source: AttachTransportSource): Promise<AttachConnection> {
    return new AttachConnection(source, await source.open());
  }

  /** Subscribe to the session; `request` is asked again on every reconnect (the size may have changed). */
  start(request: () => SessionRequest, events: ConnectionEvents): void {
    if (this.transport) this.subscribe(this.transport, request, events);
  }

  /** Keys for a pane (undefined: whatever the server has focused); false when there is no session to take them. */
  input(pane: number | undefined, data: string, binary: boolean): boolean {
    const transport = this.transport;
    if (!transport || !this.client) return false;
    try {
      transport.notify('attach.input', { client: this.client, pane, data, binary: binary || undefined });
      return true;
    } catch {
      // The stream closed under us: the subscription reports the loss.
      return false;
    }
  }

  /** A binding or click; undefined (nothing done) while there is no session, as a key typed then. */
  action(action: AttachAction): Promise<unknown> | undefined {
    return this.call((client, id) => client.attach.action.mutate({ client: id, action }));
  }

  /** The pane area changed; undefined while there is no session (the next one starts at the new size). */
  resize(cols: number, rows: number): Promise<unknown> | undefined {
    return this.call((client, id) => client.attach.resize.mutate({ client: id, cols, rows }));
  }

  /** The options of the prompt a blocked pane shows (the server refuses when it shows none). */
  prompt(pane: number): Promise<PromptOptions> {
    return (
      this.call((client, id) => client.attach.prompt.query({ client: id, pane })) ??
      Promise.reject(new Error('not attached'))
    );
  }

  history(pane: number): Promise<AttachHistory> {
    return (
      this.call((client, id) => client.attach.history.query({ client: id, pane, lines: 100_000 })) ??
      Promise.reject(new Error('not attached'))
    );
  }

  close(): void {
    this.closed = true;
    this.sub?.unsubscribe();
    this.transport?.close();
    this.transport = undefined;
  }

  private call<T>(run: (client: AttachClient, id: string) => Promise<T>): Promise<T> | undefined {
    if (!this.transport || !this.client) return undefined;
    return run(this.transport.client, this.client);
  }

  private subscribe(
    transport: AttachTransport,
    request: () => SessionRequest,
    events: ConnectionEvents,
  ): void {
    this.sub = transport.client.attach.session.subscribe(request(), {
      onData: (frame) => {
        if (frame.client) this.client = frame.client;
        events.frame(frame);
      },
      onError: (err) => void this.lost(err.message, request, events),
      onComplete: () => void this.lost('the server closed the session', request, events),
    });
  }

  private async lost(why: string, request: () => SessionRequest, events: ConnectionEvents): Promise<void> {
    if (this.closed) return;
    const reopen = this.source.reopen;
    if (!reopen) return events.lost(why);
    events.linkNotice(`reconnecting… (${why})`);
    this.sub?.unsubscribe();
    this.transport?.close();
    this.transport = undefined;
    this.client = '';
    let transport: AttachTransport;
    try {
      transport = await reopen.call(this.source);
    } catch (err) {
      if (!this.closed) events.lost(err instanceof Error ? err.message : String(err));
      return;
    }
    if (this.closed) return transport.close();
    this.transport = transport;
    events.linkNotice(undefined);
    this.subscribe(transport, request, events);
  }
}
