import { TERMINAL_ENV, definedEnv, fuxEnv } from '../../src/protocol/env';

const place = { socket: '/run/fux.sock', workspace: 'main', pane: 3 };

describe('the environment of a program fux starts', () => {
  test('keeps only the variables that are set', () => {
    expect(definedEnv({ A: '1', B: undefined, C: '' })).toEqual({ A: '1', C: '' });
  });

  test("is the caller's variables, then the extras, then where it runs", () => {
    expect(fuxEnv({ HOME: '/h', TERM: 'dumb', B: undefined }, place, TERMINAL_ENV)).toEqual({
      HOME: '/h',
      TERM: 'xterm-256color',
      COLORTERM: 'truecolor',
      FUX_SOCKET: '/run/fux.sock',
      FUX_WORKSPACE: 'main',
      FUX_PANE: '3',
    });
  });

  test("a caller's own FUX_SOCKET, FUX_WORKSPACE and FUX_PANE never pass through; FUX_CWD may", () => {
    const env = fuxEnv(
      { FUX_SOCKET: '/other', FUX_WORKSPACE: 'w', FUX_PANE: '9', FUX_CWD: '/src' },
      { ...place, pane: undefined },
    );
    expect(env).toEqual({
      FUX_CWD: '/src',
      FUX_SOCKET: '/run/fux.sock',
      FUX_WORKSPACE: 'main',
      FUX_PANE: '',
    });
  });
});
