import { Flags } from '@oclif/core';
import { FuxCommand } from '../client/command';
import { localIdentity } from '../client/remote';

export default class Id extends FuxCommand<typeof Id> {
  static override summary = "Print this machine's endpoint id (what another machine's `fux allow` takes)";
  static override description =
    'The id is the public half of the key in $XDG_CONFIG_HOME/fux/iroh.key, created on first use; the server and `fux connect` share it. With --ticket, the running server (started if needed) brings its endpoint up and prints a ticket: the id, its direct addresses and its relay, which is what `fux connect` on another machine dials.';
  static override examples = [
    '<%= config.bin %> id',
    '<%= config.bin %> id --ticket',
    'ssh laptop fux allow $(<%= config.bin %> id)',
  ];
  static override flags = {
    ticket: Flags.boolean({ description: "print the running server's ticket (id, addresses, relay)" }),
  };

  async run(): Promise<void> {
    if (!this.flags.ticket) {
      const { id } = localIdentity();
      this.out({ id }, () => id);
      return;
    }
    const res = await (await this.fux()).remote.ticket.mutate({});
    this.out(res, () => res.ticket);
  }
}
