/**
 * The delay to give `setTimeout` so that its callback runs no sooner than `deadline`, a time on
 * `performance.now()`'s clock (the clock of the detector's deadlines), `now` being that clock's
 * time.
 *
 * Node counts a timer from the event loop's own clock, which is whole milliseconds read when the
 * turn began. A timer set for the exact `deadline - now` ms therefore fires up to a millisecond early
 * by `performance.now()` (177 timers in 200 did, in a trial here): the step it wakes finds nothing
 * due and sets another timer for the rest, so nearly every deadline cost two wake-ups and a wasted
 * step. Rounding up and adding the millisecond the loop's clock may be behind fires once, at most
 * two milliseconds late, which no deadline of the detector (100 ms and up) notices.
 */
export function timeoutFor(deadline: number, now: number): number {
  return Math.max(0, Math.ceil(deadline - now) + 1);
}
