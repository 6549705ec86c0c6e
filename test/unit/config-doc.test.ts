import * as fs from 'node:fs';
import * as path from 'node:path';
import { configSchema, parseConfig } from '../../src/server/config';

const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'config.md'), 'utf8');

describe('docs/config.md', () => {
  test('lists every key of the config schema in its table', () => {
    for (const key of Object.keys(configSchema.shape)) expect(doc).toContain(`| \`${key}\` |`);
  });

  test('its example is a valid config', () => {
    const example = /```toml\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(example).toBeDefined();
    const config = parseConfig(example!, 'docs/config.md');
    expect(config.prefix).toBe('C-b');
    expect(config.bindings.G).toEqual({ command: 'lazygit', popup: true });
    expect(config.bindings.y).toEqual({ command: 'fux capture $FUX_PANE > /tmp/pane.txt', popup: false });
    expect(config.bindings.v).toEqual({ call: 'split', input: { direction: 'v', argv: ['htop'] } });
  });

  test('a bad prefix names the file, the line and the key', () => {
    expect(() => parseConfig('notify = true\nprefix = "Ctrl+A"\n', 'c.toml')).toThrow(
      /c\.toml:2: prefix: not a key name/,
    );
  });

  test('the bindings shown as calls are valid', () => {
    const section = /### Bindings call procedures[\s\S]*?```\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(section).toBeDefined();
    const config = parseConfig(`[bindings]\n${section!}`, 'docs/config.md');
    expect(Object.keys(config.bindings)).toEqual(['v', 'C-l', 'S', 'Y']);
  });

  test('a binding to an unknown action is an error at its line', () => {
    expect(() => parseConfig('[bindings]\n"g" = "zoom-in"\n', 'c.toml')).toThrow(/c\.toml:2: bindings\.g:/);
  });
});
