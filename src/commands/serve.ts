import { Flags } from '@oclif/core';
import { FuxCommand } from '../client/command';
import { endpointIds } from '../client/remote/control';
import { runServerForeground } from '../client/server-process';

export default class Serve extends FuxCommand<typeof Serve> {
  static override summary =
    'Run the server in the foreground (any verb starts one in the background when needed)';
  static override examples = ['<%= config.bin %> serve', '<%= config.bin %> serve --allow 8f41…f52'];
  static override flags = {
    allow: Flags.string({
      description:
        'let this endpoint id attach over iroh (repeatable; kept in the allow-list, see `fux allow`)',
      multiple: true,
    }),
  };

  async run(): Promise<void> {
    const allow = endpointIds(this.flags.allow ?? []);
    // The server reads these at boot, adds them to its allow-list, and starts its endpoint.
    if (allow.length) process.env.FUX_SERVE_ALLOW = allow.join(',');
    const code = await runServerForeground(this.flags.socket);
    if (code !== 0) this.exit(code);
  }
}
