import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkPrivateDir } from '../../paths';
import { placeOfKey, type PanePlace } from './key';
import type { PaneFdAddon } from './native';

/** A holder's socket file: `KEY.RANDOM.sock` (start-holder.ts). */
const SOCKET_NAME = /^(.+)\.[0-9a-f]+\.sock$/;

/**
 * The holders a crashed server left running, found at the next server's start in its holder
 * directory (0700 and ours, or nothing there is used), each by the pane place its socket's name
 * carries. The journal's restore claims the ones whose panes it brings back; the rest are ended.
 */
export class Survivors {
  private readonly unclaimed = new Map<string, string>();

  private constructor(found: ReadonlyMap<string, string>) {
    for (const [place, socket] of found) this.unclaimed.set(place, socket);
  }

  static none(): Survivors {
    return new Survivors(new Map());
  }

  /** What `dir` holds; throws (with the reason) if it is not a private directory of ours. */
  static scan(dir: string): Survivors {
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return Survivors.none();
      throw err;
    }
    checkPrivateDir(dir);
    const uid = process.getuid?.();
    const found = new Map<string, string>();
    for (const name of names) {
      const place = placeOfKey(SOCKET_NAME.exec(name)?.[1] ?? '');
      const socket = path.join(dir, name);
      if (place === undefined) continue;
      const st = fs.lstatSync(socket, { throwIfNoEntry: false });
      if (st === undefined || !st.isSocket() || (uid !== undefined && st.uid !== uid)) continue;
      found.set(placeName(place), socket);
    }
    return new Survivors(found);
  }

  get size(): number {
    return this.unclaimed.size;
  }

  /** The socket of the holder keeping this pane, taken off the list (one pane, one taker). */
  claim(place: PanePlace): string | undefined {
    const key = placeName(place);
    const socket = this.unclaimed.get(key);
    this.unclaimed.delete(key);
    return socket;
  }

  /**
   * End the holders no restore claimed (their workspace did not come back, or the journal is
   * gone): each is taken and told to hang its pane up. Returns how many were ended.
   */
  endUnclaimed(addon: PaneFdAddon): number {
    let ended = 0;
    for (const socket of this.unclaimed.values()) {
      const taken = addon.take(socket);
      if (typeof taken === 'string') {
        // Nothing answers: the holder is gone and left its socket file behind.
        fs.rmSync(socket, { force: true });
        continue;
      }
      const [control, master] = taken;
      try {
        fs.writeSync(control, 'end\n');
      } catch {
        // The holder went meanwhile.
      }
      fs.closeSync(master);
      fs.closeSync(control);
      ended++;
    }
    this.unclaimed.clear();
    return ended;
  }
}

function placeName(place: PanePlace): string {
  return `${place.id}\0${place.workspace}`;
}
