/**
 * Whether a process exists: signal 0 checks without sending anything. EPERM means it exists but is
 * not ours to signal, which still means alive. (A zombie counts as alive until its parent reaps it.)
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
