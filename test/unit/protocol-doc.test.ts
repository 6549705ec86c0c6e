import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderProtocolDoc } from '../../src/server/protocol-doc';
import { appRouter } from '../../src/server/router';
import { eventTypes } from '../../src/server/events';

describe('docs/protocol.md', () => {
  const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'protocol.md'), 'utf8');

  test('is what the router renders (run `npm run docs` after changing the API)', () => {
    expect(doc).toBe(renderProtocolDoc());
  });

  test('documents every procedure and every event', () => {
    for (const p of Object.keys(appRouter._def.procedures)) expect(doc).toContain(`### \`${p}\``);
    for (const e of eventTypes) expect(doc).toContain(`### \`${e}\``);
  });

  test('shows a socat one-liner that calls list', () => {
    expect(doc).toMatch(
      /echo '\{"id":1,"method":"query","params":\{"path":"list","input":\{\}\}\}' \| socat - UNIX-CONNECT:/,
    );
  });
});
