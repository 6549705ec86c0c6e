/**
 * A streaming ECMA-48 boundary tracker: after each chunk of child output it says whether the byte
 * stream sits between sequences, where zor may insert its own OSCs without corrupting anything.
 * xterm's parser does not expose its state, so the wrapper runs this small machine over the same
 * bytes. It only tracks structure (ESC sequences, CSI, OSC/DCS/SOS/PM/APC strings and UTF-8
 * characters); it interprets nothing.
 *
 * On the same pass it finds where each chunk's trailing run of plain text begins (printable ASCII,
 * CR and LF, with the parser in its ground state): bytes whose only effect on a terminal is to
 * print, return and feed lines, which lets the wrapper's parser skip most of a long run
 * (plain-run.ts).
 */

const ESC = 0x1b;
const BEL = 0x07;
const CAN = 0x18;
const SUB = 0x1a;
const BACKSLASH = 0x5c;
const CR = 0x0d;
const LF = 0x0a;
/** The lead byte of U+0080–U+00BF in UTF-8; U+0080–U+009F are the C1 controls. */
const C1_LEAD = 0xc2;

function isPlain(byte: number): boolean {
  return (byte >= 0x20 && byte <= 0x7e) || byte === CR || byte === LF;
}

enum State {
  Ground,
  /** Inside a UTF-8 character: `pendingContinuations` more bytes to come. */
  Utf8,
  Escape,
  EscapeIntermediate,
  Csi,
  /** OSC, DCS, SOS, PM or APC data, up to ST (`ESC \`), or BEL for OSC. */
  String,
  /** An ESC seen inside a string: ST if a backslash follows, else a new sequence. */
  StringEscape,
}

export class EscapeBoundary {
  private state = State.Ground;
  private pendingContinuations = 0;
  private stringIsOsc = false;
  private previousByte = 0;
  /**
   * A C1 control (U+0080–U+009F) was seen and no ESC since. This machine reads it as a character,
   * but xterm's parser may treat it as the start of a sequence or a string, so until an ESC puts
   * both in a known state no plain run may start.
   */
  private afterC1 = false;

  /** Whether the bytes fed so far end between sequences and between characters. */
  get atBoundary(): boolean {
    return this.state === State.Ground;
  }

  /**
   * Feeds a chunk and returns where its trailing plain run begins: the index from which every byte
   * is plain text read in the ground state, or the chunk's length when its last byte is not.
   */
  feed(bytes: Uint8Array): number {
    let runFrom = bytes.length;
    for (let index = 0; index < bytes.length; index++) {
      const byte = bytes[index]!;
      if (this.state === State.Ground && !this.afterC1 && isPlain(byte)) {
        // Plain text in the ground state changes nothing but the run: skip through it in one
        // loop (a flood is nearly all of this, and the wrapper reads every byte of it).
        if (runFrom === bytes.length) runFrom = index;
        while (index + 1 < bytes.length && isPlain(bytes[index + 1]!)) index++;
        this.previousByte = bytes[index]!;
        continue;
      }
      if (byte === ESC) this.afterC1 = false;
      else if (this.previousByte === C1_LEAD && byte >= 0x80 && byte <= 0x9f) this.afterC1 = true;
      // Anything else ends a plain run (a plain byte gets here only after a C1 control or inside a sequence).
      runFrom = bytes.length;
      this.step(byte);
      this.previousByte = byte;
    }
    return runFrom;
  }

  private step(byte: number): void {
    if ((byte === CAN || byte === SUB) && this.state !== State.Utf8) {
      // CAN and SUB abort any sequence in progress.
      this.state = State.Ground;
      return;
    }
    switch (this.state) {
      case State.Ground:
        return this.ground(byte);
      case State.Utf8:
        if (byte >= 0x80 && byte <= 0xbf) {
          if (--this.pendingContinuations === 0) this.state = State.Ground;
          return;
        }
        // A malformed character ends here; the byte starts whatever comes next.
        this.state = State.Ground;
        return this.step(byte);
      case State.Escape:
        return this.escape(byte);
      case State.EscapeIntermediate:
        if (byte === ESC) this.state = State.Escape;
        else if (byte >= 0x30 && byte <= 0x7e) this.state = State.Ground;
        return;
      case State.Csi:
        if (byte === ESC) this.state = State.Escape;
        else if (byte >= 0x40 && byte <= 0x7e) this.state = State.Ground;
        return;
      case State.String:
        if (byte === ESC) this.state = State.StringEscape;
        else if (byte === BEL && this.stringIsOsc) this.state = State.Ground;
        return;
      case State.StringEscape:
        if (byte === BACKSLASH) {
          this.state = State.Ground;
          return;
        }
        // ESC inside a string ends it and begins a new escape sequence.
        this.state = State.Escape;
        return this.escape(byte);
    }
  }

  private ground(byte: number): void {
    if (byte === ESC) {
      this.state = State.Escape;
    } else if (byte >= 0xc2 && byte <= 0xdf) {
      this.enterUtf8(1);
    } else if (byte >= 0xe0 && byte <= 0xef) {
      this.enterUtf8(2);
    } else if (byte >= 0xf0 && byte <= 0xf4) {
      this.enterUtf8(3);
    }
    // Everything else (text, C0 controls, stray continuation bytes) leaves us in ground.
  }

  private enterUtf8(continuations: number): void {
    this.state = State.Utf8;
    this.pendingContinuations = continuations;
  }

  private escape(byte: number): void {
    if (byte === ESC) return;
    if (byte === 0x5b /* [ */) {
      this.state = State.Csi;
    } else if (byte === 0x5d /* ] */) {
      this.state = State.String;
      this.stringIsOsc = true;
    } else if (
      byte === 0x50 /* P */ ||
      byte === 0x58 /* X */ ||
      byte === 0x5e /* ^ */ ||
      byte === 0x5f /* _ */
    ) {
      this.state = State.String;
      this.stringIsOsc = false;
    } else if (byte >= 0x20 && byte <= 0x2f) {
      this.state = State.EscapeIntermediate;
    } else if (byte >= 0x30 && byte <= 0x7e) {
      this.state = State.Ground;
    }
    // C0 controls inside an escape sequence are executed and do not end it.
  }
}
