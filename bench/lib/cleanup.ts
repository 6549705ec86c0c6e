/**
 * What must be undone if a run is interrupted (Ctrl-C, a failed benchmark): servers, temp homes,
 * control clients. Each resource registers itself and unregisters when it closes normally.
 */
const pending = new Set<() => Promise<void>>();

export function onCleanup(undo: () => Promise<void>): () => void {
  pending.add(undo);
  return () => pending.delete(undo);
}

/** Undo everything still registered, newest first; one failure does not stop the rest. */
export async function cleanUpAll(): Promise<void> {
  const undos = [...pending].reverse();
  pending.clear();
  for (const undo of undos) {
    try {
      await undo();
    } catch (err) {
      process.stderr.write(`bench cleanup: ${(err as Error).message}\n`);
    }
  }
}
