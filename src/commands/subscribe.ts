import { Args, Flags } from '@oclif/core';
import { FuxCommand } from '../client/command';

export default class Subscribe extends FuxCommand<typeof Subscribe> {
  static override summary = 'Stream events, one JSON object per line, until interrupted';
  static override description =
    'Events: pane.opened, pane.closed, pane.focused, pane.seen, pane.title, pane.output, agent.state, ' +
    'workspace.resized, client.attached, client.detached. With no names, all of them. -w limits the stream ' +
    'to one workspace. Every event has a server-wide seq; --since SEQ first replays the held events after ' +
    'SEQ (an events.gap line first says how many are no longer held), then goes on live.';
  static override examples = [
    '<%= config.bin %> subscribe',
    '<%= config.bin %> subscribe agent.state | jq .',
    '<%= config.bin %> subscribe --since 1200',
  ];
  static override strict = false;
  static override args = { events: Args.string({ description: 'event types to receive (default: all)' }) };
  static override flags = {
    since: Flags.integer({
      description: 'resume after this seq (the last one you saw, or the one a "too slow" error names)',
      min: 0,
    }),
  };

  async run(): Promise<void> {
    const { argv } = await this.parse(Subscribe);
    const fux = await this.fux();
    // `| head -1` closes the pipe: that is the reader's way of saying it is done.
    process.stdout.on('error', (err: NodeJS.ErrnoException) => process.exit(err.code === 'EPIPE' ? 0 : 1));
    await new Promise<void>((resolve, reject) => {
      const sub = fux.subscribe.subscribe(
        { events: argv as string[] as never, workspace: this.flags.workspace, since: this.flags.since },
        {
          onData: (e) => process.stdout.write(`${JSON.stringify(e)}\n`),
          onError: (err) => reject(err),
          onComplete: () => resolve(),
        },
      );
      process.once('SIGINT', () => {
        sub.unsubscribe();
        resolve();
      });
    });
  }
}
