import type { Direction, PaneId, Rect } from './types';

/** What ranks one candidate against another; smaller is better in every field. */
interface Rank {
  readonly gap: number;
  /** Negated so that the widest overlap sorts first. */
  readonly negOverlap: number;
  /** Twice the distance between centres on the other axis, which keeps it a whole number. */
  readonly centreOffset: number;
  readonly treeOrder: number;
}

interface Span {
  readonly start: number;
  readonly length: number;
}

function horizontal(rect: Rect): Span {
  return { start: rect.x, length: rect.cols };
}

function vertical(rect: Rect): Span {
  return { start: rect.y, length: rect.rows };
}

/** Cells from `from`'s edge in `dir` to the near edge of `to`; negative when `to` is not wholly beyond it. */
function gapTowards(from: Rect, to: Rect, dir: Direction): number {
  switch (dir) {
    case 'left':
      return from.x - (to.x + to.cols);
    case 'right':
      return to.x - (from.x + from.cols);
    case 'up':
      return from.y - (to.y + to.rows);
    case 'down':
      return to.y - (from.y + from.rows);
  }
}

function isBetter(a: Rank, b: Rank): boolean {
  if (a.gap !== b.gap) return a.gap < b.gap;
  if (a.negOverlap !== b.negOverlap) return a.negOverlap < b.negOverlap;
  if (a.centreOffset !== b.centreOffset) return a.centreOffset < b.centreOffset;
  return a.treeOrder < b.treeOrder;
}

/**
 * The pane to move focus to from `from` in `dir`, by herdr's rules: a candidate lies wholly beyond
 * the edge being left and overlaps `from` by at least a cell on the other axis (so it faces it); the
 * nearest wins, then the one facing it most, then the one most nearly centred on it, then the first in
 * tree order. Nothing wraps around: at the edge there is no neighbour. `tiles` is in tree order.
 */
export function findNeighbour(
  from: PaneId,
  dir: Direction,
  tiles: ReadonlyMap<PaneId, Rect>,
): PaneId | undefined {
  const origin = tiles.get(from);
  if (!origin) return undefined;
  const across = dir === 'left' || dir === 'right' ? vertical : horizontal;
  const mine = across(origin);
  let best: { id: PaneId; rank: Rank } | undefined;
  let treeOrder = 0;
  for (const [id, tile] of tiles) {
    treeOrder += 1;
    if (id === from) continue;
    const gap = gapTowards(origin, tile, dir);
    const theirs = across(tile);
    const overlap =
      Math.min(mine.start + mine.length, theirs.start + theirs.length) - Math.max(mine.start, theirs.start);
    if (gap < 0 || overlap <= 0) continue;
    const rank: Rank = {
      gap,
      negOverlap: -overlap,
      centreOffset: Math.abs(2 * theirs.start + theirs.length - (2 * mine.start + mine.length)),
      treeOrder,
    };
    if (!best || isBetter(rank, best.rank)) best = { id, rank };
  }
  return best?.id;
}
