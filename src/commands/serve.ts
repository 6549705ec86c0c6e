import { Flags } from '@oclif/core';
import { NoServerError } from '../client';
import { FuxCommand } from '../client/command';
import { allowedLines, endpointIds } from '../client/remote/control';
import { runServerForeground } from '../client/server-process';

export default class Serve extends FuxCommand<typeof Serve> {
  static override summary =
    'Run the server in the foreground (any verb starts one in the background when needed)';
  static override examples = ['<%= config.bin %> serve', '<%= config.bin %> serve --allow 8f41…f52'];
  static override flags = {
    allow: Flags.string({
      description:
        'let this endpoint id attach over iroh (repeatable; kept in the allow-list, see `fux allow`); with a server already running, the id is added to its list and serve exits',
      multiple: true,
    }),
  };

  async run(): Promise<void> {
    const allow = endpointIds(this.flags.allow ?? []);
    if (allow.length && (await this.allowOnRunningServer(allow))) return;
    // The server reads these at boot, adds them to its allow-list, and starts its endpoint.
    if (allow.length) process.env.FUX_SERVE_ALLOW = allow.join(',');
    const code = await runServerForeground(this.flags.socket);
    if (code !== 0) this.exit(code);
  }

  /**
   * With a server already running, `--allow` is what the user came for: the ids go on its
   * allow-list (as `fux allow` does) instead of being lost with an "already running" error.
   * False when no server answers, so this one starts.
   */
  private async allowOnRunningServer(ids: string[]): Promise<boolean> {
    let fux;
    try {
      fux = await this.fux({ autostart: false });
    } catch (err) {
      if (err instanceof NoServerError) return false;
      throw err;
    }
    const [res, info] = await Promise.all([fux.remote.allow.add.mutate({ ids }), fux.server.info.query({})]);
    this.out({ ...res, pid: info.pid }, () =>
      [
        `a fux server (pid ${info.pid}) is already running on ${info.socket}; added to its allow-list:`,
        ...allowedLines(ids, res),
      ].join('\n'),
    );
    return true;
  }
}
