import { KeyFileError, loadOrCreateSecretKey } from '../../rpc/iroh/key-file';
import { FuxError } from '../errors';
import type { SecretKey } from '../../rpc/iroh/iroh';
import { identityFile } from './settings';

/**
 * The server's endpoint key, created 0600 on first use; the same file `fux id` reads. A key file
 * that cannot be read or made is the caller's to fix, so its message reaches the caller as it is.
 */
export function serverIdentity(configDir: string): { key: SecretKey; id: string; file: string } {
  const file = identityFile(configDir);
  let key: SecretKey;
  try {
    key = loadOrCreateSecretKey(file);
  } catch (error) {
    if (error instanceof KeyFileError) throw new FuxError('PRECONDITION_FAILED', error.message);
    throw error;
  }
  return { key, id: key.public().toString(), file };
}
