import { createHash } from 'node:crypto';

/**
 * A short name for the server on `socket`, for the files each server keeps in a state dir that
 * several servers (the user's, a test's on a private FUX_SOCKET) may share: the journal, the hook
 * record.
 */
export function socketKey(socket: string): string {
  return createHash('sha256').update(socket).digest('hex').slice(0, 12);
}
