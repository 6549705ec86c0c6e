/**
 * Predicted local echo (mosh-style; the model is src/client/attach/predict.ts): characters shown
 * over a pane's cells before the server echoes them, and where the cursor shows meanwhile. In
 * pane coordinates.
 */
export interface Prediction {
  cells: Array<{ x: number; y: number; ch: string }>;
  cursor: { x: number; y: number };
}

/** Whether two predictions show the same thing (callers hand a fresh object for every frame). */
export function samePrediction(a: Prediction | undefined, b: Prediction | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  if (a.cursor.x !== b.cursor.x || a.cursor.y !== b.cursor.y || a.cells.length !== b.cells.length)
    return false;
  return a.cells.every((c, i) => {
    const d = b.cells[i]!;
    return c.x === d.x && c.y === d.y && c.ch === d.ch;
  });
}

/** A predicted character as it may be drawn: one printable character, else a blank. */
export function predictedChar(ch: string): string {
  const c = ch.codePointAt(0) ?? 0;
  if (c < 0x20 || c === 0x7f || (c >= 0x80 && c < 0xa0)) return ' ';
  return String.fromCodePoint(c);
}
