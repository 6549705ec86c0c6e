import { TRPCError } from '@trpc/server';

/**
 * An error meant for the user: a tRPC error with this code and message as it is, so the message
 * must say what went wrong and what to do, and never leak a stack or a server path. Being a
 * TRPCError, it needs no middleware to reach the client (procedures have none of their own, so
 * the direct path can call them without tRPC's chain: src/rpc/lean-call.ts).
 */
export class FuxError extends TRPCError {
  declare readonly code: 'NOT_FOUND' | 'BAD_REQUEST' | 'CONFLICT' | 'PRECONDITION_FAILED';

  constructor(code: FuxError['code'], message: string) {
    super({ code, message });
  }
}

export const noPane = (id: number, workspace: string): FuxError =>
  new FuxError('NOT_FOUND', `no pane ${id} in workspace ${workspace}; \`fux list\` shows the panes`);

export const noWorkspace = (name: string): FuxError =>
  new FuxError('NOT_FOUND', `no workspace named ${name}; \`fux workspace list\` shows them`);
