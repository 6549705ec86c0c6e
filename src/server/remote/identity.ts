import { loadOrCreateSecretKey } from '../../rpc/iroh/key-file';
import type { SecretKey } from '../../rpc/iroh/iroh';
import { identityFile } from './settings';

/** The server's endpoint key, created 0600 on first use; the same file `fux id` reads. */
export function serverIdentity(configDir: string): { key: SecretKey; id: string; file: string } {
  const file = identityFile(configDir);
  const key = loadOrCreateSecretKey(file);
  return { key, id: key.public().toString(), file };
}
