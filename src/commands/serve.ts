import { FuxCommand } from '../client/command';
import { runServerForeground } from '../client/server-process';

export default class Serve extends FuxCommand<typeof Serve> {
  static override summary =
    'Run the server in the foreground (any verb starts one in the background when needed)';

  async run(): Promise<void> {
    const code = await runServerForeground(this.flags.socket);
    if (code !== 0) this.exit(code);
  }
}
