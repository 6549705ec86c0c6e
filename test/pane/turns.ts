import type { TurnScheduler } from '../../src/server/pane/parse-scheduler';

/** Turns of the event loop, stepped by the test. */
export class Turns {
  private tasks: Array<() => void> = [];
  readonly schedule: TurnScheduler = (task) => void this.tasks.push(task);
  get waiting(): number {
    return this.tasks.length;
  }
  /** Run the tasks scheduled so far (not those they schedule). */
  step(): void {
    const tasks = this.tasks;
    this.tasks = [];
    for (const task of tasks) task();
  }
}
