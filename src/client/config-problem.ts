import type { FuxClient } from './index';

/**
 * The server's config problem (a bad config.toml), once per problem across all clients: its lines,
 * `file:line: key: problem` then what is in force instead; [] when there is none or another
 * client has shown it. Sent beside the verb's own call on the same connection, so it costs no
 * round trip of its own. A server too old to know the procedure, or one that stops meanwhile
 * (`kill-server`), has nothing to show.
 */
export async function configProblem(client: FuxClient): Promise<string[]> {
  try {
    const { problem } = await client.server.configProblem.mutate({});
    return problem === null ? [] : problem.split('\n');
  } catch {
    return [];
  }
}
