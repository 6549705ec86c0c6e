import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AllowList, AllowListError } from '../../src/server/remote/allow-list';

const id = (c: string): string => c.repeat(64);

describe('the allow-list file', () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fux-allow-'));
    file = path.join(dir, 'fux', 'allow');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('a missing file allows no one', () => {
    const list = new AllowList(file);
    expect(list.has(id('a'))).toBe(false);
    expect(list.list()).toEqual([]);
    expect(fs.existsSync(file)).toBe(false);
  });

  test('what is added is there for the next reader (a restarted server), in a 0600 file', () => {
    expect(new AllowList(file).add([id('a'), id('b'), id('a')])).toEqual([id('a'), id('b')]);
    const again = new AllowList(file);
    expect(again.list()).toEqual([id('a'), id('b')]);
    expect(again.add([id('b')])).toEqual([]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
  });

  test('removing keeps every other line, comments included', () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `# my machines\n${id('a')}  # laptop\n\n${id('b')} # phone\n`, { mode: 0o600 });
    const list = new AllowList(file);
    expect(list.remove([id('a'), id('c')])).toEqual([id('a')]);
    expect(fs.readFileSync(file, 'utf8')).toBe(`# my machines\n\n${id('b')} # phone\n`);
  });

  test('a hand edit is seen at the next check, without a restart', () => {
    const list = new AllowList(file);
    list.add([id('a')]);
    fs.writeFileSync(file, `${id('b')}\n`);
    expect(list.has(id('a'))).toBe(false);
    expect(list.has(id('b'))).toBe(true);
  });

  test('lines that are not ids allow no one and are reported with their line numbers', () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${id('a')}\nnot an id\n${id('B')}\n`, { mode: 0o600 });
    const list = new AllowList(file);
    expect(list.list()).toEqual([id('a'), id('b')]);
    expect(list.problems()).toEqual([{ line: 2, text: 'not an id' }]);
  });

  test('a file others could write is refused: it would let anyone attach', () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${id('a')}\n`);
    fs.chmodSync(file, 0o666);
    expect(() => new AllowList(file).has(id('a'))).toThrow(AllowListError);
    expect(() => new AllowList(file).has(id('a'))).toThrow(`chmod 600 ${file}`);
  });
});
