import { FuxCommand } from '../client/command';

export default class KillServer extends FuxCommand<typeof KillServer> {
  static override summary = 'Stop the server: every pane gets SIGHUP and the socket is removed';

  async run(): Promise<void> {
    const res = await (await this.fux({ autostart: false })).server.kill.mutate({});
    this.out(res, () => '');
  }
}
