import { bindableProcedure } from '../../src/protocol/bindings';
import { remoteRouter } from '../../src/server/attach/router';
import { remoteControlRouter } from '../../src/server/remote/router';
import { appRouter } from '../../src/server/router';

describe('what a remote peer is served', () => {
  test('the remote router holds the attach procedures and nothing of the control API', () => {
    const paths = Object.keys(remoteRouter._def.procedures);
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) expect(p).toMatch(/^attach\./);
    for (const control of ['list', 'new', 'sendKeys', 'capture', 'server.kill', 'subscribe']) {
      expect(appRouter._def.procedures).toHaveProperty([control]);
      expect(paths).not.toContain(control);
    }
    for (const p of Object.keys(remoteControlRouter._def.procedures)) expect(paths).not.toContain(p);
  });

  test("a remote peer may read a blocked pane's prompt and answer it with a key's call", () => {
    expect(Object.keys(remoteRouter._def.procedures)).toContain('attach.prompt');
    expect(bindableProcedure.options).toContain('answer');
    expect(appRouter._def.procedures).toHaveProperty(['answer']);
  });
});
