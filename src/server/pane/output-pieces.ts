/**
 * Cut terminal output into pieces that each scroll at most `maxRows` rows, whatever the terminal
 * does with them: a piece is cut when the most rows it could scroll reaches `maxRows`. That bound
 * is one row per byte that may begin a scrolling control (LF, VT, FF, and IND and NEL as ESC
 * sequences or as the C1 controls C2 84 and C2 85 in UTF-8), one per `cols - 1` other bytes (a
 * printed cell takes at least a byte, and a row wrapped before a wide glyph holds one cell less
 * than the width), and one for the row the cursor starts on. REP (CSI Ps b) repeats a character
 * any number of times and escapes the bound; it has to be watched for separately.
 */
export function cutIntoPieces(bytes: Uint8Array, cols: number, maxRows: number): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  const perRow = Math.max(1, cols - 1);
  const length = bytes.byteLength; // read once: the getter is slow to call per byte
  let start = 0;
  let rows = 1;
  let cells = 0;
  for (let i = 0; i < length; i++) {
    const byte = bytes[i]!;
    if (byte === 0x0a || byte === 0x0b || byte === 0x0c || byte === 0x1b || byte === 0xc2) rows++;
    else if (++cells === perRow) {
      rows++;
      cells = 0;
    }
    if (rows >= maxRows && i + 1 < length) {
      pieces.push(bytes.subarray(start, i + 1));
      start = i + 1;
      rows = 1;
      cells = 0;
    }
  }
  pieces.push(bytes.subarray(start));
  return pieces;
}
