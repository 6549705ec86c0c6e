import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { endpointIdSchema } from '../../rpc/iroh/address';
import { proc, t } from '../trpc';
import { RemoteService } from './service';

/** What the daemon adds to the context of its local connections (see daemon.ts). */
export interface RemoteContext {
  remote: RemoteService;
}

/**
 * Procedures that need the remote service. It is added to the local socket's context by the
 * daemon and is never in a remote peer's (which gets the attach router alone anyway).
 */
const remoteProc = proc.use(({ ctx, next }) => {
  const remote = 'remote' in ctx && ctx.remote instanceof RemoteService ? ctx.remote : undefined;
  if (!remote) {
    throw new TRPCError({ code: 'PRECONDITION_FAILED', message: 'remote attach is not available here' });
  }
  return next({ ctx: { remote } });
});

const endpointId = endpointIdSchema.describe('an endpoint id: 64 hex digits (`fux id` prints it)');
const ids = z.object({ ids: z.array(endpointId).min(1).max(256) });
const allowed = z.array(z.string()).describe('every endpoint id on the allow-list');

const outputs = {
  id: z.object({
    id: z.string().describe("this server's endpoint id"),
    running: z.boolean().describe('whether the endpoint is up (it starts when someone is allowed)'),
    peers: z.array(
      z.object({
        id: z.string(),
        from: z.string().describe('`ip:port` or relay URL the connection came from'),
        since: z.number().describe('ms since the epoch'),
      }),
    ),
  }),
  ticket: z.object({
    id: z.string(),
    ticket: z.string().describe('what `fux connect` takes: id, direct addresses and home relay'),
    addresses: z.array(z.string()),
    relay: z.string().nullable(),
  }),
  add: z.object({ added: z.array(z.string()).describe('ids that were not allowed before'), allowed }),
  remove: z.object({
    removed: z.array(z.string()).describe('ids that were allowed'),
    disconnected: z.number().int().describe('live connections of theirs that were closed'),
    allowed,
  }),
  list: z.object({ allowed }),
};

/** `remote`: this server's identity, its ticket, and who may attach over iroh. */
export const remoteControlRouter = t.router({
  id: remoteProc
    .meta({
      verb: 'id',
      description:
        "this server's endpoint id, whether its endpoint is up, and the peers attached (`fux id` reads the key itself)",
    })
    .input(z.object({}))
    .output(outputs.id)
    .query(({ ctx }) => ctx.remote.status()),
  ticket: remoteProc
    .meta({
      verb: 'id --ticket',
      description: 'a ticket for `fux connect` (starts the endpoint if it is not up)',
    })
    .input(z.object({}))
    .output(outputs.ticket)
    .mutation(({ ctx }) => ctx.remote.ticket()),
  allow: t.router({
    add: remoteProc
      .meta({
        verb: 'allow <id…>',
        description: 'let endpoint ids attach over iroh (persisted; starts the endpoint)',
      })
      .input(ids)
      .output(outputs.add)
      .mutation(({ ctx, input }) => ctx.remote.allow(input.ids)),
    remove: remoteProc
      .meta({
        verb: 'allow --remove <id…>',
        description: 'stop letting endpoint ids attach, and close their live connections',
      })
      .input(ids)
      .output(outputs.remove)
      .mutation(({ ctx, input }) => ctx.remote.disallow(input.ids)),
    list: remoteProc
      .meta({ verb: 'allow --list', description: 'the endpoint ids that may attach over iroh' })
      .input(z.object({}))
      .output(outputs.list)
      .query(({ ctx }) => ({ allowed: ctx.remote.allowList.list() })),
  }),
});

export type RemoteControlRouter = typeof remoteControlRouter;
