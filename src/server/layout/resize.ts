import { clamp, placeSplit, WHOLE_AREA, type Reach } from './geometry';
import { isPane, type LayoutNode, type PaneId, type Rect } from './types';

/**
 * The tree with pane `id` grown (delta > 0) or shrunk (delta < 0) by up to |delta| cells along the
 * axis of the split directly holding it, measured in `area`; undefined when nothing would move (a
 * lone pane, a zero delta, or a split already at its limit).
 */
export function resizePane(root: LayoutNode, id: PaneId, delta: number, area: Rect): LayoutNode | undefined {
  const visit = (node: LayoutNode, rect: Rect, reach: Reach): LayoutNode | undefined => {
    if (isPane(node)) return undefined;
    const placed = placeSplit(node, rect, reach);
    const isFirst = isPane(node.a) && node.a.pane === id;
    const isSecond = isPane(node.b) && node.b.pane === id;
    if (isFirst || isSecond) {
      // Growing the second child is shrinking the first: the ratio only describes the first.
      const aCells = clamp(placed.aCells + (isFirst ? delta : -delta), placed.aMin, placed.aMax);
      if (aCells === placed.aCells) return undefined;
      // round(extent × aCells / extent) is aCells again, so this exact size is what the next layout shows.
      return { ...node, ratio: aCells / placed.extent };
    }
    const a = visit(node.a, placed.a, placed.aReach);
    if (a) return { ...node, a };
    const b = visit(node.b, placed.b, placed.bReach);
    if (b) return { ...node, b };
    return undefined;
  };
  return visit(root, area, WHOLE_AREA);
}
