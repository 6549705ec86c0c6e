import { TRPCError } from '@trpc/server';
import type { Axis } from './layout';
import { splitMinimum } from './layout/geometry';

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

/**
 * A split refused because the pane has no room for two (tmux's "no space for new pane"): what it
 * measures, what the split needs, and the ways to make room.
 */
export const noSpace = (
  pane: { id: number; cols: number; rows: number },
  axis: Axis,
  workspace: string,
): FuxError => {
  const needs =
    axis === 'row'
      ? `side by side needs ${splitMinimum(axis)} columns`
      : `stacked needs ${splitMinimum(axis)} rows`;
  return new FuxError(
    'PRECONDITION_FAILED',
    `no space for a new pane: pane ${pane.id} of workspace ${workspace} is ${pane.cols}x${pane.rows}, and splitting it ${needs}; ` +
      'close a pane (`fux kill`), make the terminal larger, or open a tab (`fux tab new`)',
  );
};
