// Directories the server cannot write (issue 32): what could not be created or written, where,
// and why, instead of Node's "ENOENT … mkdir" (its recursive mkdir says ENOENT for any failure) or
// an "internal server error" with the cause only in the log.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FuxHome } from '../helpers/home';
import { readOnlyDir, readOnlyDirsUnavailable, type ReadOnlyDir } from '../helpers/read-only-dir';

const unavailable = readOnlyDirsUnavailable();
if (unavailable) console.warn(`skipping the read-only directory tests: ${unavailable}`);
const suite = unavailable ? describe.skip : describe;

/** An endpoint id (a public key in hex), valid to `fux allow`. */
const PEER = '0f'.repeat(32);
const STATE_REMEDY = 'the server keeps its log there: set XDG_STATE_HOME to a directory you can write';

let home: FuxHome;
let readOnly: ReadOnlyDir | undefined;
beforeEach(() => (home = new FuxHome()));
afterEach(async () => {
  await home.close();
  readOnly?.release();
  readOnly = undefined;
});

suite('a read-only state dir', () => {
  test('that has no fux directory yet: the verb that starts the server says which one it cannot create, and why', () => {
    readOnly = readOnlyDir();
    const { dir } = readOnly;
    home.env.XDG_STATE_HOME = dir;
    const expected = `cannot create ${path.join(dir, 'fux')}: ${readOnly.reason}; ${STATE_REMEDY}`;
    const list = home.cli(['list']);
    expect(list.code).toBe(1);
    expect(list.stderr).toBe(`fux list: ${expected}\n`);
    const serve = home.cli(['serve']);
    expect(serve.code).toBe(1);
    expect(serve.stderr).toBe(`fux serve: ${expected}\n`);
  });

  test('whose fux directory is there but cannot be written: the log it cannot open is named', () => {
    readOnly = readOnlyDir((d) => fs.mkdirSync(path.join(d, 'fux')));
    const { dir } = readOnly;
    home.env.XDG_STATE_HOME = dir;
    const r = home.cli(['list']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `fux list: cannot write ${path.join(dir, 'fux', 'server.log')}: ${readOnly.reason}; ${STATE_REMEDY}\n`,
    );
  });
});

suite('a read-only config dir', () => {
  test('`fux allow` says which file it could not write and why; the server goes on', async () => {
    readOnly = readOnlyDir((d) => fs.mkdirSync(path.join(d, 'fux')));
    const { dir } = readOnly;
    home.env.XDG_CONFIG_HOME = dir;
    await home.startServer();
    const file = path.join(dir, 'fux', 'allow');
    const r = home.cli(['allow', PEER]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `fux allow: cannot write ${file}: ${readOnly.reason}; the allow-list was not changed\n`,
    );
    expect(home.cli(['allow', '--list']).stdout).toBe('');
    expect(home.cli(['list']).code).toBe(0);
  });

  test('with no fux directory in it, `fux allow` names the directory it could not create', async () => {
    readOnly = readOnlyDir();
    const { dir } = readOnly;
    home.env.XDG_CONFIG_HOME = dir;
    await home.startServer();
    const r = home.cli(['allow', PEER]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `fux allow: cannot create ${path.join(dir, 'fux')}: ${readOnly.reason}; the allow-list ${path.join(dir, 'fux', 'allow')} was not changed\n`,
    );
  });

  test('`fux id` says where it could not keep the key, and why', () => {
    readOnly = readOnlyDir((d) => fs.mkdirSync(path.join(d, 'fux')));
    const { dir } = readOnly;
    home.env.XDG_CONFIG_HOME = dir;
    const r = home.cli(['id']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `fux id: cannot write ${path.join(dir, 'fux', 'iroh.key')}: ${readOnly.reason}; the endpoint's identity (its key) is kept there\n`,
    );
  });
});
