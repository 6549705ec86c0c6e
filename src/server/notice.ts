/**
 * News for the next client, told once: a bad config.toml, a journal moved aside. The first client
 * to take it prints it (the CLI on stderr, an attached client in its status line); later ones get
 * nothing until the news changes.
 */
export class OneTimeNotice {
  private current: { text: string; shown: boolean } | undefined;

  /** The same text again is not news again. */
  set(text: string): void {
    if (this.current?.text !== text) this.current = { text, shown: false };
  }

  clear(): void {
    this.current = undefined;
  }

  take(): string | undefined {
    if (!this.current || this.current.shown) return undefined;
    this.current.shown = true;
    return this.current.text;
  }
}
