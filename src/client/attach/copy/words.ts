/**
 * vi's word motions over a TextGrid: a word is a run of letters, digits and `_`, or a run of other
 * non-blank characters; `w` goes to the next word's start, `e` to a word's end, `b` back to a
 * word's start. A row end separates words.
 */
import type { Point, TextGrid } from './text-grid';

export function nextWordStart(grid: TextGrid, from: Point): Point {
  let at = from;
  let inClass = grid.classAt(from);
  for (let n = grid.next(at); n; n = grid.next(at)) {
    if (n.row !== at.row) inClass = 'blank';
    at = n;
    const c = grid.classAt(at);
    if (c !== 'blank' && c !== inClass) return at;
    if (c === 'blank') inClass = 'blank';
  }
  return at;
}

export function wordEnd(grid: TextGrid, from: Point): Point {
  let at = grid.next(from);
  if (!at) return from;
  for (let n = grid.next(at); grid.classAt(at) === 'blank' && n; n = grid.next(at)) at = n;
  return extend(grid, at, (p) => grid.next(p));
}

export function prevWordStart(grid: TextGrid, from: Point): Point {
  let at = grid.prev(from);
  if (!at) return from;
  for (let p = grid.prev(at); grid.classAt(at) === 'blank' && p; p = grid.prev(at)) at = p;
  return extend(grid, at, (p) => grid.prev(p));
}

/** From `at`, as far as `step` stays in the same row and the same class. */
function extend(grid: TextGrid, at: Point, step: (p: Point) => Point | undefined): Point {
  const inClass = grid.classAt(at);
  if (inClass === 'blank') return at;
  let end = at;
  for (let n = step(end); n && n.row === end.row && grid.classAt(n) === inClass; n = step(end)) end = n;
  return end;
}
