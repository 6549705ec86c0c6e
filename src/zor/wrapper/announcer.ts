/**
 * Turns detector events into what the wrapper emits: OSC 7877 and the title glyph in-band (once per
 * change), event lines out-of-band (changes, heartbeats, agents, the exit), and `--debug` lines on
 * stderr.
 */
import type { DetectorEvent } from '../detector';
import { agentLine, exitLine, stateLine } from '../emit/event-line';
import type { EventSink } from '../emit/event-sink';
import { buildStateOsc } from '../emit/state-osc';
import type { TitleRewriter } from '../emit/title-rewriter';
import { flagNames } from '../agent-state';
import { formatRegion } from '../rules/region';

export interface AnnouncerOptions {
  readonly inject: (text: string) => void;
  readonly title: TitleRewriter;
  /** Whether to write OSC 7877 (`--no-osc` turns it off). */
  readonly osc: boolean;
  readonly sink: EventSink | undefined;
  readonly debug: ((line: string) => void) | undefined;
  /** The child's own current title, for event lines. */
  readonly childTitle: () => string;
  /** Wall-clock milliseconds, for event-line timestamps. */
  readonly wallClock: () => number;
}

export class Announcer {
  constructor(private readonly options: AnnouncerOptions) {}

  handle(events: readonly DetectorEvent[]): void {
    const { inject, title, osc, sink, debug, childTitle, wallClock } = this.options;
    for (const event of events) {
      switch (event.kind) {
        case 'verdict': {
          const { verdict } = event;
          const where = verdict.region === undefined ? '' : ` in ${formatRegion(verdict.region)}`;
          debug?.(`verdict ${verdict.state} (rule ${verdict.rule ?? 'none'}${where}) for ${event.agent}`);
          break;
        }
        case 'changed': {
          if (osc) inject(buildStateOsc(event));
          const titleOsc = title.stateChanged(event.state, event.agent);
          if (titleOsc !== undefined) inject(titleOsc);
          sink?.write(stateLine({ ...event, title: childTitle() }, wallClock()));
          const flags = flagNames(event.visible);
          debug?.(
            `state ${event.previous} → ${event.state}${flags.length > 0 ? ` [${flags.join(',')}]` : ''}` +
              `${event.exited ? ' (exited)' : ''} seq ${event.seq}`,
          );
          break;
        }
        case 'heartbeat':
          sink?.write(stateLine({ ...event, title: childTitle() }, wallClock()));
          break;
        case 'agent-found':
          sink?.write(agentLine(event, wallClock()));
          debug?.(`agent ${event.agent} (pid ${event.pid})`);
          break;
        case 'agent-lost':
          sink?.write(agentLine(undefined, wallClock()));
          debug?.(`agent ${event.agent} gone`);
          break;
      }
    }
  }

  childSetTitle(childTitle: string): void {
    const titleOsc = this.options.title.childSetTitle(childTitle);
    if (titleOsc !== undefined) this.options.inject(titleOsc);
  }

  /** The child exited: put the title back and say how it ended. */
  childExited(exit: { readonly code: number | null; readonly signal?: string | undefined }): void {
    const restore = this.options.title.restore();
    if (restore !== undefined) this.options.inject(restore);
    this.options.sink?.write(exitLine(exit, this.options.wallClock()));
  }
}
