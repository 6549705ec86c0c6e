/**
 * The config in force. Loaded at start and again whenever the file changes (the directory is
 * watched, since editors replace the file rather than write it in place); a bad file is logged
 * with its file, line and key, and the last good config (at start, the defaults) stays in force.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigError, DEFAULT_CONFIG, loadConfig, type FuxConfig } from './config';
import { OneTimeNotice } from './notice';
import { makeDirs } from '../fs-failure';

export interface ConfigLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Editors write a file in several steps (truncate, write, rename); one reload after they settle. */
const SETTLE_MS = 100;

export class ConfigStore {
  private config: FuxConfig = DEFAULT_CONFIG;
  private goodOnce = false;
  /** The bad file's problems (and what is in force instead) until a good load. */
  private readonly problem = new OneTimeNotice();
  private readonly listeners = new Set<(config: FuxConfig) => void>();
  private watcher: fs.FSWatcher | undefined;
  private settle: NodeJS.Timeout | undefined;

  constructor(
    readonly file: string,
    private readonly log: ConfigLog,
  ) {
    this.reload();
  }

  get current(): FuxConfig {
    return this.config;
  }

  /** Called with the new config after a reload that changed it. */
  onChange(listener: (config: FuxConfig) => void): void {
    this.listeners.add(listener);
  }

  /** Reads the file again; false (and a logged error) when it is bad. */
  reload(): boolean {
    let next: FuxConfig;
    try {
      next = loadConfig(this.file);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      const kept = this.goodOnce ? 'the last good config stays in force' : 'using the defaults';
      this.log.error(`config: ${error.message}\nconfig: ${kept}`);
      this.problem.set(`${error.message}\n${kept}`);
      return false;
    }
    this.goodOnce = true;
    this.problem.clear();
    if (JSON.stringify(next) === JSON.stringify(this.config)) return true;
    this.config = next;
    this.log.info(`config: loaded ${this.file}`);
    for (const listener of this.listeners) listener(next);
    return true;
  }

  /**
   * The current config problem (`file:line: key: problem` lines, then what is in force instead),
   * once: the first client to ask prints it, later ones get undefined until the file changes.
   */
  takeProblem(): string | undefined {
    return this.problem.take();
  }

  /** Reload on every change of the file from now on (its directory is created if missing). */
  watch(): void {
    const dir = path.dirname(this.file);
    const name = path.basename(this.file);
    try {
      makeDirs(dir, 0o700);
      this.watcher = fs.watch(dir, { persistent: false }, (_event, changed) => {
        if (changed !== null && changed !== name) return;
        clearTimeout(this.settle);
        this.settle = setTimeout(() => this.reload(), SETTLE_MS);
        this.settle.unref();
      });
      this.watcher.on('error', (error) => this.log.warn(`config: stopped watching ${dir}: ${error.message}`));
      // A file written between the first load and the watch starting would be missed otherwise.
      this.reload();
    } catch (error) {
      this.log.warn(
        `config: cannot watch ${dir} (${(error as Error).message}); changes need a server restart`,
      );
    }
  }

  close(): void {
    this.watcher?.close();
    clearTimeout(this.settle);
  }
}
