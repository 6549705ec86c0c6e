import * as path from 'node:path';

/**
 * Where a server's pane holders listen: a 0700 directory beside its socket, named after it, so
 * servers on different sockets never take each other's panes.
 */
export function holderDir(serverSocket: string): string {
  return path.join(path.dirname(serverSocket), `${path.basename(serverSocket)}.panes`);
}
