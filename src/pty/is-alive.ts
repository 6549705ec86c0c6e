/** Whether a process exists: signal 0 checks without sending anything. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but is not ours to signal, which still means alive.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
