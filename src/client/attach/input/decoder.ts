/**
 * The attach client's input decoder: raw stdin chunks (split anywhere, UTF-8 possibly split inside
 * a character) to tokens — key presses, SGR mouse reports, bracketed pastes, focus reports, and
 * `bytes` for anything else — each keeping the exact text it came from.
 *
 * A chunk that ends inside a sequence is held back. A lone ESC (or `ESC [`, `ESC O`…) is only
 * known to be a key once nothing has followed it for the escape time, as tmux's escape-time: the
 * caller arms a timer for `pendingDeadline()` and calls `flush()` when it fires. A chunk that
 * arrives after the deadline flushes what was held first, so a late timer changes nothing.
 */
import { readToken } from './sequences';
import { PASTE_END, type Token } from './tokens';
import { Utf8Chunks } from './utf8-chunks';

export interface DecoderOptions {
  /** The clock, in milliseconds (injected in tests). */
  now?: () => number;
  /** How long a held-back escape sequence may wait for the rest of it. */
  escapeTimeMs?: number;
  /** How long a bracketed paste may go without input before what came is delivered as the paste. */
  pasteIdleMs?: number;
}

export const DEFAULT_ESCAPE_TIME_MS = 20;
export const DEFAULT_PASTE_IDLE_MS = 2000;

export class InputDecoder {
  private readonly now: () => number;
  private readonly escapeTimeMs: number;
  private readonly pasteIdleMs: number;
  private readonly utf8 = new Utf8Chunks();
  /** Text held back: an incomplete sequence, or what may be the start of a paste's end marker. */
  private held = '';
  /** The bracketed paste being received. */
  private paste: { raw: string; text: string } | undefined;
  private lastInputAt = 0;

  constructor(options: DecoderOptions = {}) {
    this.now = options.now ?? Date.now;
    this.escapeTimeMs = options.escapeTimeMs ?? DEFAULT_ESCAPE_TIME_MS;
    this.pasteIdleMs = options.pasteIdleMs ?? DEFAULT_PASTE_IDLE_MS;
  }

  /** The tokens completed by this chunk (preceded by what a passed deadline flushed). */
  feed(chunk: Buffer | string): Token[] {
    const out: Token[] = [];
    const deadline = this.pendingDeadline();
    if (deadline !== undefined && this.now() >= deadline) out.push(...this.flush());
    const text = typeof chunk === 'string' ? this.utf8.end() + chunk : this.utf8.decode(chunk);
    this.lastInputAt = this.now();
    this.decode(this.held + text, false, out);
    return out;
  }

  /**
   * The text of `chunk` when it is plain typing: printable ASCII only, with nothing held back
   * before it, so it decodes to one key per byte, each sent as it came. Undefined otherwise (feed
   * it). Changes nothing: a caller that cannot use the text feeds the same chunk.
   */
  plain(chunk: Buffer): string | undefined {
    if (this.held !== '' || this.paste || this.utf8.holding || chunk.length === 0) return undefined;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (byte < 0x20 || byte > 0x7e) return undefined;
    }
    return chunk.toString('latin1');
  }

  /** When `flush()` should be called (on the injected clock), or undefined when nothing is held. */
  pendingDeadline(): number | undefined {
    if (this.paste) return this.lastInputAt + this.pasteIdleMs;
    if (this.held === '') return undefined;
    return this.lastInputAt + this.escapeTimeMs;
  }

  /**
   * Everything held back, as tokens: the deadline passed, so no more of it is coming. A character
   * whose UTF-8 bytes were split stays held: its bytes come in one write by the terminal, and the
   * next byte either completes it or shows it broken.
   */
  flush(): Token[] {
    const out: Token[] = [];
    this.decode(this.held, true, out);
    return out;
  }

  /** The input ended: everything held back, a broken character as U+FFFD. */
  end(): Token[] {
    const out: Token[] = [];
    this.decode(this.held + this.utf8.end(), true, out);
    return out;
  }

  private decode(text: string, final: boolean, out: Token[]): void {
    this.held = '';
    let i = 0;
    while (i < text.length) {
      if (this.paste) {
        i = this.takePaste(text, i, final, out);
        continue;
      }
      const step = readToken(text, i, final);
      if (!step) {
        this.held = text.slice(i);
        return;
      }
      if ('pasteStart' in step) this.paste = { raw: text.slice(i, step.end), text: '' };
      else out.push(step.token);
      i = step.end;
    }
    if (final && this.paste) this.endPaste(out);
  }

  /** Paste text from `i` through the end marker if it is here; else all of it but a possible marker start. */
  private takePaste(text: string, i: number, final: boolean, out: Token[]): number {
    const paste = this.paste!;
    const end = text.indexOf(PASTE_END, i);
    if (end >= 0) {
      paste.text += text.slice(i, end);
      paste.raw += text.slice(i, end + PASTE_END.length);
      this.endPaste(out);
      return end + PASTE_END.length;
    }
    const keep = final ? 0 : markerStartLength(text, i);
    const body = text.slice(i, text.length - keep);
    paste.text += body;
    paste.raw += body;
    this.held = text.slice(text.length - keep);
    if (final) this.endPaste(out);
    return text.length;
  }

  private endPaste(out: Token[]): void {
    const paste = this.paste!;
    out.push({ kind: 'paste', text: paste.text, raw: paste.raw });
    this.paste = undefined;
  }
}

/** How many characters at the end of `text` (from `from`) could begin the paste end marker. */
function markerStartLength(text: string, from: number): number {
  for (let n = Math.min(PASTE_END.length - 1, text.length - from); n > 0; n--) {
    if (PASTE_END.startsWith(text.slice(text.length - n))) return n;
  }
  return 0;
}
