export { TabLayout } from './tab-layout';
export type { Axis, Direction, LayoutNode, PaneId, PaneNode, Rect, SplitNode } from './types';
