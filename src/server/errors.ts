/**
 * An error meant for the user: the router turns it into a tRPC error with this code and message, so
 * the message must say what went wrong and what to do, and never leak a stack or a server path.
 */
export class FuxError extends Error {
  constructor(
    readonly code: 'NOT_FOUND' | 'BAD_REQUEST' | 'CONFLICT' | 'PRECONDITION_FAILED',
    message: string,
  ) {
    super(message);
  }
}

export const noPane = (id: number, workspace: string): FuxError =>
  new FuxError('NOT_FOUND', `no pane ${id} in workspace ${workspace}; \`fux list\` shows the panes`);

export const noWorkspace = (name: string): FuxError =>
  new FuxError('NOT_FOUND', `no workspace named ${name}; \`fux workspace list\` shows them`);
