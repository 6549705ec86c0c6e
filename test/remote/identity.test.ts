import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { KeyFileError, loadOrCreateSecretKey, readKey } from '../../src/rpc/iroh/key-file';
import { SecretKey } from '../../src/rpc/iroh/iroh';
import { serverIdentity } from '../../src/server/remote/identity';
import { localIdentity } from '../../src/client/remote/identity';

describe("a machine's endpoint identity", () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fux-key-'));
    file = path.join(dir, 'config', 'fux', 'iroh.key');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('is created on first use in a 0600 file in a 0700 directory, and is the same key ever after', () => {
    expect(readKey(file)).toBeUndefined();
    const first = loadOrCreateSecretKey(file);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(file).size).toBe(32);
    const again = loadOrCreateSecretKey(file);
    expect(again.public().toString()).toBe(first.public().toString());
  });

  test('a key another process wrote first wins over one made at the same moment', () => {
    const theirs = SecretKey.generate();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, Buffer.from(theirs.toBytes()), { mode: 0o600 });
    expect(loadOrCreateSecretKey(file).public().toString()).toBe(theirs.public().toString());
    expect(fs.readdirSync(path.dirname(file))).toEqual(['iroh.key']); // nothing left aside
  });

  test('a key file others can read is refused, with the fix', () => {
    loadOrCreateSecretKey(file);
    fs.chmodSync(file, 0o644);
    expect(() => loadOrCreateSecretKey(file)).toThrow(KeyFileError);
    expect(() => loadOrCreateSecretKey(file)).toThrow(`chmod 600 ${file}`);
  });

  test('a file that is not a key is an error, not a new identity over it', () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'hello', { mode: 0o600 });
    expect(() => loadOrCreateSecretKey(file)).toThrow('is not a key file');
    expect(fs.readFileSync(file, 'utf8')).toBe('hello');
  });

  test('the server and `fux connect` on one machine share it (one id per machine)', () => {
    const env = { XDG_CONFIG_HOME: path.join(dir, 'config'), XDG_RUNTIME_DIR: path.join(dir, 'run') };
    const client = localIdentity(env);
    const server = serverIdentity(path.join(dir, 'config', 'fux'));
    expect(server.file).toBe(client.file);
    expect(server.id).toBe(client.id);
  });
});
