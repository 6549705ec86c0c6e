import { Help, type Interfaces } from '@oclif/core';

/**
 * What a topic is, where it has no command of its own to say so: oclif would describe it with
 * the summary of one of its commands (`worktree` read as `worktree diff`'s sentence).
 */
const TOPIC_SUMMARIES: Record<string, string> = {
  worktree: "The git worktrees fux made for panes: list them, show one's changes, remove one",
};

/**
 * fux's help (package.json `oclif.helpClass`), and zor's. Three changes to oclif's:
 *
 * - Topics are listed once and described as themselves (formatTopics).
 * - Command lists always carry each verb's summary. oclif drops them when only some sections are
 *   asked for, which is how it shows help after a usage error: a bare list of names.
 * - Run as `zor`, the CLI's bin is `zor` (startup.ts), so oclif would write `zor zor check`: the
 *   zor topic's own name follows the bin. zor is a tool of its own, its help reads `zor check`.
 */
export default class FuxHelp extends Help {
  /**
   * A topic that is a command too (`zor`) is listed once, under COMMANDS with its own summary
   * (its help lists the rest); any other topic says what it is, never what one of its commands does.
   */
  protected override formatTopics(topics: Interfaces.Topic[]): string {
    const commands = new Set(this.config.commands.map((c) => c.id));
    return super.formatTopics(
      topics
        .filter((t) => !commands.has(t.name.replaceAll(' ', ':')))
        .map((t) => ({ ...t, description: this.topicSummary(t.name) })),
    );
  }

  /** `fux worktree --help` opens with the topic's own sentence too. */
  protected override showTopicHelp(topic: Interfaces.Topic): Promise<void> {
    return super.showTopicHelp({ ...topic, description: this.topicSummary(topic.name) });
  }

  private topicSummary(topic: string): string {
    return TOPIC_SUMMARIES[topic.replaceAll(':', ' ')] ?? this.commandsOf(topic);
  }

  /** A topic's commands, for one without a sentence of its own: `commands: diff, list, remove`. */
  private commandsOf(topic: string): string {
    const prefix = `${topic.replaceAll(' ', ':')}:`;
    // Hidden commands stay out of it, as they do of the lists.
    const names = this.config.commands
      .filter((c) => !c.hidden && c.id.startsWith(prefix))
      .map((c) => c.id.slice(prefix.length).replaceAll(':', ' '));
    return `commands: ${names.sort().join(', ')}`;
  }

  protected override summary(c: Parameters<Help['summary']>[0]): string | undefined {
    const summary = c.summary ?? c.description;
    return summary === undefined ? undefined : this.render(summary.split('\n')[0]!);
  }

  protected override log(...args: string[]): void {
    // Help written for `fux zor …` is read as `zor …`.
    this.emit(this.config.bin === 'zor' ? args.map((text) => text.replace(/\bzor zor\b/g, 'zor')) : args);
  }

  /** Where the help text goes: oclif's stdout or stderr. */
  protected emit(lines: string[]): void {
    super.log(...lines);
  }
}
