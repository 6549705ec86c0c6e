import { Args } from '@oclif/core';
import { FuxCommand } from '../client/command';
import { callerEnv } from '../client/launch';
import { reportOutcome, runAttach } from '../client/attach/run';
import { openRemote, remoteAttachTransport, remoteSettings } from '../client/remote';
import { Notices } from '../client/attach/notices';

export default class Connect extends FuxCommand<typeof Connect> {
  static override summary = "Attach to another machine's fux server over iroh";
  static override description =
    "Dials the server by ticket (`fux id --ticket` there) or by endpoint id (found through iroh's relays and discovery), as this machine's identity (`fux id`), which the server must allow (`fux allow <id>` there). The session is the same as a local attach. A dropped path or a short outage does not end it: the client says it is reconnecting and resumes with the current screen; after FUX_REMOTE_RETENTION_MS (default 30 s) without the server it gives up.";
  static override examples = [
    '<%= config.bin %> connect endpointac6ibzfq…',
    '<%= config.bin %> connect 8f41…f52 work',
    'FUX_IROH_RELAY=disabled <%= config.bin %> connect endpointac6ibzfq…   # a LAN without internet',
  ];
  static override args = {
    target: Args.string({ required: true, description: 'the server: a ticket, or its endpoint id' }),
    workspace: Args.string({
      description: 'the workspace on that server (default: the only one, else main)',
    }),
  };

  async run(): Promise<void> {
    const settings = remoteSettings();
    // A bad target, a refusal or no answer is an error with what to check (FuxCommand prints it, exit 1).
    const notices = new Notices();
    const remote = await openRemote(this.args.target, {
      // Stalls and redials show over the screen; "resumed" and "reconnected" clear the notice.
      onStatus: (status) =>
        notices.post(
          status.kind === 'stalled' || status.kind === 'reconnecting' ? status.message : undefined,
        ),
    });
    try {
      // Checked after the dial, so a script learns whether it may connect (and why not) without a terminal.
      if (!process.stdin.isTTY || !process.stdout.isTTY) {
        throw new Error('connected, but attaching needs a terminal on stdin and stdout');
      }
      const env = callerEnv();
      const outcome = await runAttach({
        transport: remoteAttachTransport(remote, settings.retentionMs),
        workspace: this.args.workspace ?? this.workspace,
        // The server ignores a remote peer's cwd and environment (they are this machine's).
        cwd: process.cwd(),
        env,
        input: process.stdin,
        output: process.stdout,
        notices,
      });
      reportOutcome(outcome, 'run `fux connect` again');
    } finally {
      await remote.close();
    }
  }
}
