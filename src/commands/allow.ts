import { Args, Flags } from '@oclif/core';
import { FuxCommand } from '../client/command';
import { allowedLines, endpointIds } from '../client/remote';

export default class Allow extends FuxCommand<typeof Allow> {
  static override summary = 'Let other machines attach over iroh, by endpoint id';
  static override description =
    "The allow-list is kept in $XDG_CONFIG_HOME/fux/allow (one id per line) and survives restarts. Allowing someone starts the server's endpoint; `fux id --ticket` prints what they dial. A peer not on the list is refused before it sees anything; removing a peer also ends its live connections.";
  static override usage = 'allow [<id>...] [--remove] [--list]';
  static override examples = [
    '<%= config.bin %> allow 8f41…f52   # the id `fux id` prints on the laptop',
    '<%= config.bin %> allow --remove 8f41…f52',
    '<%= config.bin %> allow --list',
  ];
  static override strict = false;
  static override args = { ids: Args.string({ description: 'endpoint ids (64 hex digits)' }) };
  static override flags = {
    remove: Flags.boolean({ description: 'stop allowing these ids (and close their connections)' }),
    list: Flags.boolean({ description: 'print the ids that may attach' }),
  };

  async run(): Promise<void> {
    const { argv } = await this.parse(Allow);
    const ids = endpointIds(argv as string[]);
    const remote = (await this.fux()).remote;
    if (this.flags.list || ids.length === 0) {
      if (this.flags.remove) throw new Error('--remove needs the ids to remove: `fux allow --remove <id>…`');
      const res = await remote.allow.list.query({});
      this.out(res, () => res.allowed.join('\n'));
      return;
    }
    if (this.flags.remove) {
      const res = await remote.allow.remove.mutate({ ids });
      const missing = ids.filter((id) => !res.removed.includes(id));
      this.out(res, () =>
        [
          ...res.removed.map((id) => `removed ${id}`),
          ...missing.map((id) => `${id} was not allowed`),
          ...(res.disconnected ? [`closed ${res.disconnected} live connection(s)`] : []),
        ].join('\n'),
      );
      return;
    }
    const res = await remote.allow.add.mutate({ ids });
    this.out(res, () => allowedLines(ids, res).join('\n'));
  }
}
