/**
 * Which desktop notification tool this machine has, and its command line: `termux-notification`
 * on Termux, `notify-send` on Linux with a display, `terminal-notifier` else `osascript` on macOS
 * (herdr's two macOS paths). A machine with none of them gets no notifications and no complaint.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface Notification {
  readonly title: string;
  readonly body: string;
  /** One per pane, so a tool that groups or replaces notifications keeps one per pane. */
  readonly tag: string;
}

export interface NotifyTool {
  readonly name: string;
  argv(notification: Notification): string[];
}

type Env = Record<string, string | undefined>;

/** Whether `name` is an executable file in one of PATH's directories. */
export function onPath(name: string, env: Env): boolean {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    try {
      const file = path.join(dir, name);
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return true;
    } catch {
      // not here; the next directory
    }
  }
  return false;
}

/** An AppleScript string literal. */
function appleString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

const termuxNotification: NotifyTool = {
  name: 'termux-notification',
  argv: (n) => ['termux-notification', '--id', n.tag, '--title', n.title, '--content', n.body],
};

const notifySend: NotifyTool = {
  name: 'notify-send',
  argv: (n) => ['notify-send', '--app-name=fux', n.title, n.body],
};

const terminalNotifier: NotifyTool = {
  name: 'terminal-notifier',
  argv: (n) => [
    'terminal-notifier',
    '-title',
    'fux',
    '-subtitle',
    n.title,
    '-message',
    n.body,
    '-group',
    n.tag,
  ],
};

const osascript: NotifyTool = {
  name: 'osascript',
  argv: (n) => [
    'osascript',
    '-e',
    `display notification ${appleString(n.body)} with title "fux" subtitle ${appleString(n.title)}`,
  ],
};

function isTermux(env: Env): boolean {
  return env.TERMUX_VERSION !== undefined || (env.PREFIX ?? '').includes('/com.termux/');
}

/** The tool to use now, or none; `found` says whether a program is installed. */
export function chooseNotifyTool(
  platform: NodeJS.Platform,
  env: Env,
  found: (name: string) => boolean = (name) => onPath(name, env),
): NotifyTool | undefined {
  if (isTermux(env)) return found(termuxNotification.name) ? termuxNotification : undefined;
  if (platform === 'darwin') {
    if (found(terminalNotifier.name)) return terminalNotifier;
    return found(osascript.name) ? osascript : undefined;
  }
  if (platform === 'linux') {
    // Without a display notify-send has nowhere to show anything (a server on a headless box).
    const display = Boolean(env.DISPLAY) || Boolean(env.WAYLAND_DISPLAY);
    return display && found(notifySend.name) ? notifySend : undefined;
  }
  return undefined;
}
