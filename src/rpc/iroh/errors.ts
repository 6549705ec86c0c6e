/**
 * iroh's errors arrive as Rust `anyhow` text: a debug rendering of the error, then "Caused by:"
 * lines, then (when RUST_BACKTRACE is set, as it often is on developer machines) a stack backtrace
 * of the native code. Only the first part says anything to a person.
 */
export function irohErrorText(error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  const head = raw.split(/\n\s*Stack backtrace:/)[0]!;
  const lines = head
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && line !== 'Caused by:');
  // Rust source locations ("(…/endpoint.rs:1060:20)") mean nothing to a user.
  return lines.map((line) => line.replace(/\s*\([^()]*\.rs:\d+:\d+\)/g, '')).join(': ');
}

/** An application close: the code and reason the peer passed to `Connection.close`. */
export interface ApplicationClose {
  code: number;
  reason: string;
}

/**
 * The application close inside an error or a `Connection.closed()` text, if the peer closed the
 * connection on purpose. The bindings render it in two ways:
 *   closed by peer: not allowed: … (code 1)
 *   ConnectionLost(ApplicationClosed(ApplicationClose { error_code: 1, reason: b"not allowed: …" }))
 */
export function applicationClose(errorOrText: unknown): ApplicationClose | undefined {
  const text = errorOrText instanceof Error ? errorOrText.message : String(errorOrText);
  const debug = /ApplicationClose \{ error_code: (\d+), reason: b"((?:[^"\\]|\\.)*)" \}/.exec(text);
  if (debug) return { code: Number(debug[1]), reason: unescapeRustBytes(debug[2]!) };
  const display = /closed by peer: (?:(.*) )?\(code (\d+)\)$/m.exec(text);
  if (display) return { code: Number(display[2]), reason: display[1] ?? '' };
  const bare = /closed by peer: (\d+)$/m.exec(text);
  if (bare) return { code: Number(bare[1]), reason: '' };
  return undefined;
}

/** Rust's `b"…"` debug form escapes quotes, backslashes and non-printable bytes. */
function unescapeRustBytes(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch !== '\\') {
      bytes.push(...Buffer.from(ch));
      continue;
    }
    const next = text[++i];
    if (next === 'x') {
      bytes.push(Number.parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (next === 'n') bytes.push(0x0a);
    else if (next === 'r') bytes.push(0x0d);
    else if (next === 't') bytes.push(0x09);
    else if (next === '0') bytes.push(0);
    else if (next !== undefined) bytes.push(...Buffer.from(next));
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * Whether an error means the connection or stream is gone (lost, reset, closed, timed out) rather
 * than a fault of ours: the QUIC counterpart of ECONNRESET.
 */
export function isConnectionGone(error: unknown): boolean {
  const text = error instanceof Error ? error.message : String(error);
  return /ConnectionLost|ApplicationClosed|ConnectionClosed|TimedOut|Reset|LocallyClosed|ClosedStream|Stopped|closed by peer|timed out/.test(
    text,
  );
}

/** An iroh failure as a Node error: a readable message, and ECONNRESET when the peer is gone. */
export function nodeErrorOf(error: unknown): NodeJS.ErrnoException {
  const wrapped: NodeJS.ErrnoException = new Error(irohErrorText(error), { cause: error });
  if (isConnectionGone(error)) wrapped.code = 'ECONNRESET';
  return wrapped;
}
