/**
 * What every pane's detector shares: the rule sets, loaded once when the server starts (bundled,
 * then `$XDG_CONFIG_HOME/zor/rules/`, a later set replacing an earlier one of the same id), and the
 * platform's process table.
 */
import { loadRules, platformProcessTable, type ProcessTable, type RuleSet } from '../../zor';
import type { Pane } from '../pane';
import type { AgentChange } from './agent-status';
import { PaneAgent } from './pane-agent';

export interface DetectionLog {
  info(message: string): void;
  warn(message: string): void;
}

export class AgentDetection {
  private constructor(
    readonly sets: readonly RuleSet[],
    private readonly table: ProcessTable | undefined,
  ) {}

  /** Loads the rule sets; a broken rule file is logged and skipped, the others still load. */
  static load(env: NodeJS.ProcessEnv, log: DetectionLog): AgentDetection {
    const loaded = loadRules([], env);
    for (const error of loaded.errors) log.warn(`rules: ${error.message}`);
    const sets = loaded.sets.map((entry) => entry.set);
    log.info(`rules: ${sets.map((set) => `${set.id} ${set.version}`).join(', ') || 'none loaded'}`);
    const table = platformProcessTable();
    if (table === undefined)
      log.warn(`no process table on ${process.platform}: agents are known only by OSC 7877`);
    return new AgentDetection(sets, table);
  }

  watch(pane: Pane, onChange: (change: AgentChange) => void): PaneAgent {
    return new PaneAgent({ pane, sets: this.sets, table: this.table, onChange });
  }
}
