/**
 * A sleep until woken: `promise` settles when `wake` is called or `signal` aborts, whichever comes
 * first, and the abort listener goes with it. For loops that wait for the next thing to do.
 */
export function wakeable(signal: AbortSignal | undefined): { promise: Promise<void>; wake: () => void } {
  let wake!: () => void;
  const promise = new Promise<void>((resolve) => {
    wake = (): void => {
      signal?.removeEventListener('abort', wake);
      resolve();
    };
    signal?.addEventListener('abort', wake, { once: true });
  });
  return { promise, wake };
}
