import { applicationClose, irohErrorText, isConnectionGone, nodeErrorOf } from '../../src/rpc/iroh/errors';

// What the bindings throw, as captured from @number0/iroh 1.1.0 with RUST_BACKTRACE=1.
const refusedWrite = `ConnectionLost(ApplicationClosed(ApplicationClose { error_code: 1, reason: b"not allowed: aeda; on the server run \`fux allow aeda\`" }))

Stack backtrace:
   0: <anyhow::Error>::msg::<alloc::string::String>
   1: anyhow::__private::format_err`;

const dialTimeout = `ConnectError::Connecting (/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/iroh-1.0.2/src/endpoint.rs:1060:20)
Caused by:
    ConnectingError::ConnectionError (/root/.rustup/toolchains/stable-x86_64-unknown-linux-gnu/lib/rustlib/src/rust/library/core/src/task/poll.rs:258:39)
    timed out

Stack backtrace:
   0: <anyhow::Error>::msg::<alloc::string::String>`;

describe("iroh's error texts", () => {
  test('are cut to what a person can read: no backtrace, no Rust source locations', () => {
    expect(irohErrorText(new Error(dialTimeout))).toBe(
      'ConnectError::Connecting: ConnectingError::ConnectionError: timed out',
    );
    expect(irohErrorText(new Error(refusedWrite))).not.toContain('backtrace');
  });

  test("give up the peer's application close code and reason, in either of the forms they come in", () => {
    expect(applicationClose(new Error(refusedWrite))).toEqual({
      code: 1,
      reason: 'not allowed: aeda; on the server run `fux allow aeda`',
    });
    expect(applicationClose('closed by peer: the fux server stopped (code 2)')).toEqual({
      code: 2,
      reason: 'the fux server stopped',
    });
    expect(applicationClose('closed by peer: 0')).toEqual({ code: 0, reason: '' });
    expect(
      applicationClose(String.raw`ApplicationClose { error_code: 0, reason: b"a \"quoted\" \xc3\xa9" }`),
    ).toEqual({
      code: 0,
      reason: 'a "quoted" é',
    });
    expect(applicationClose('timed out')).toBeUndefined();
  });

  test('a lost connection becomes ECONNRESET, anything else keeps no code', () => {
    expect(isConnectionGone(new Error('ConnectionLost(TimedOut)'))).toBe(true);
    expect(nodeErrorOf(new Error(refusedWrite)).code).toBe('ECONNRESET');
    expect(nodeErrorOf(new Error('secret_key must be 32 bytes')).code).toBeUndefined();
  });
});
