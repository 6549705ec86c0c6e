/**
 * The key a holder keeps for its pane: the pane's id and its workspace's name (hex, so it has no
 * spaces or slashes), which is how a server that starts after a crash gives a surviving pane back
 * its place in the journal's layout.
 */
export interface PanePlace {
  readonly workspace: string;
  readonly id: number;
}

export function holderKey(place: PanePlace): string {
  return `${place.id}.${Buffer.from(place.workspace, 'utf8').toString('hex')}`;
}

/** The place a key names; undefined for a key that is not one of ours. */
export function placeOfKey(key: string): PanePlace | undefined {
  const m = /^(\d+)\.((?:[0-9a-f]{2})*)$/.exec(key);
  if (!m) return undefined;
  const id = Number(m[1]);
  return id > 0 ? { id, workspace: Buffer.from(m[2]!, 'hex').toString('utf8') } : undefined;
}
