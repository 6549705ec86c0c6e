import { isPane, type Axis, type LayoutNode, type PaneId } from './types';

/** Pane ids in tree order: first child before second, so left before right and top before bottom. */
export function paneIdsOf(node: LayoutNode): PaneId[] {
  return isPane(node) ? [node.pane] : [...paneIdsOf(node.a), ...paneIdsOf(node.b)];
}

export function containsPane(node: LayoutNode, id: PaneId): boolean {
  return isPane(node) ? node.pane === id : containsPane(node.a, id) || containsPane(node.b, id);
}

/** The tree with pane `target` replaced by a split holding `target` first and `newPane` second. */
export function splitPane(
  node: LayoutNode,
  target: PaneId,
  axis: Axis,
  newPane: PaneId,
  ratio: number,
): LayoutNode {
  if (isPane(node)) {
    return node.pane === target ? { axis, ratio, a: node, b: { pane: newPane } } : node;
  }
  return {
    ...node,
    a: splitPane(node.a, target, axis, newPane, ratio),
    b: splitPane(node.b, target, axis, newPane, ratio),
  };
}

export interface Removal {
  readonly root: LayoutNode;
  /**
   * The pane beside the removed one in tree order within the sibling subtree that takes over its
   * space: where focus goes when nothing in the focus history survives.
   */
  readonly heir: PaneId;
}

/** The tree without pane `id` (its sibling takes the parent's place); undefined if `id` is the whole tree. */
export function removePane(node: LayoutNode, id: PaneId): Removal | undefined {
  if (isPane(node)) return undefined;
  if (isPane(node.a) && node.a.pane === id) return { root: node.b, heir: paneIdsOf(node.b)[0]! };
  if (isPane(node.b) && node.b.pane === id) return { root: node.a, heir: paneIdsOf(node.a).at(-1)! };
  const inA = removePane(node.a, id);
  if (inA) return { root: { ...node, a: inA.root }, heir: inA.heir };
  const inB = removePane(node.b, id);
  if (inB) return { root: { ...node, b: inB.root }, heir: inB.heir };
  return undefined;
}
