/**
 * The one polling helper of the test suite: no test sleeps and hopes; it waits for a condition with
 * a deadline and fails naming what it waited for.
 */

/** Wait for a condition, polling; fails with `what` when it does not hold by the deadline. */
export async function until<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let delay = 5;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 50);
  }
}
