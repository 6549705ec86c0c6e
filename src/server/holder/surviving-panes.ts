import type { Logger } from '../log';
import { holderDir } from './holder-dir';
import type { PanePlace } from './key';
import { holderNative } from './native';
import { Survivors } from './survivors';

/**
 * The server's boot-time view of the panes that outlived the last server: scanned once it holds
 * the socket, claimed pane by pane by the journal's restore, the unclaimed ended. Nothing here is
 * fatal: a holder directory that is not ours is logged and left alone.
 */
export class SurvivingPanes {
  private found = Survivors.none();

  constructor(
    private readonly socket: string,
    private readonly log: Pick<Logger, 'info' | 'warn'>,
  ) {}

  scan(): void {
    if (holderNative() === undefined) return;
    const dir = holderDir(this.socket);
    try {
      this.found = Survivors.scan(dir);
    } catch (err) {
      this.log.warn(`surviving panes: not using ${dir}: ${(err as Error).message}`);
      return;
    }
    if (this.found.size > 0) this.log.info(`surviving panes: ${this.found.size} holders in ${dir}`);
  }

  claim(place: PanePlace): string | undefined {
    return this.found.claim(place);
  }

  endUnclaimed(): void {
    const native = holderNative();
    if (native === undefined || this.found.size === 0) return;
    const ended = this.found.endUnclaimed(native.addon);
    if (ended > 0) this.log.info(`surviving panes: ended ${ended} that no restored workspace had`);
  }
}
