import { loadOrCreateSecretKey } from '../../rpc/iroh/key-file';
import type { SecretKey } from '../../rpc/iroh/iroh';
import { identityFile } from './settings';

type Env = Record<string, string | undefined>;

/** This machine's endpoint key, created 0600 on first use (by whichever of server and client comes first). */
export function localIdentity(env: Env = process.env): { key: SecretKey; id: string; file: string } {
  const file = identityFile(env);
  const key = loadOrCreateSecretKey(file);
  return { key, id: key.public().toString(), file };
}
