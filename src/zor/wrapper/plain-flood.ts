/**
 * Whether the child's output so far is a flood of plain text, the one case where detection can
 * wait: a run of plain text (plain-run.ts) sets no mode, title or colour, and once it has fed more
 * lines than the screen and its scrollback hold, the parser keeps only its end anyway. So while
 * such a flood goes on, a parser started now would only read what a parser started after it reads
 * too; `seq`, `cat` of a log or a build's plain output then never pays for loading detection.
 */

const LF = 0x0a;

export class PlainFlood {
  private plainOnly = true;
  private lineFeeds = 0;
  private chunks = 0;
  private chunksAtLastLook = 0;
  private quietLooks = 0;

  /** `enoughLineFeeds`: how many a flood feeds before its start is out of the parser's reach. */
  constructor(private readonly enoughLineFeeds: number) {}

  /** A chunk of output and where its trailing plain run begins (0: it is all plain text). */
  childOutput(chunk: Buffer, plainFrom: number): void {
    this.chunks++;
    if (!this.plainOnly) return;
    if (plainFrom !== 0) {
      this.plainOnly = false;
      return;
    }
    for (
      let at = chunk.indexOf(LF);
      at >= 0 && this.lineFeeds < this.enoughLineFeeds;
      at = chunk.indexOf(LF, at + 1)
    ) {
      this.lineFeeds++;
    }
  }

  /**
   * True while the output is a long plain run still coming: all plain text, enough line feeds, and
   * more of it since one of the last two looks (a flood may stall a moment while the terminal
   * reads; a child quiet for longer is looked at, as it may be waiting for its user).
   */
  goingOn(): boolean {
    this.quietLooks = this.chunks === this.chunksAtLastLook ? this.quietLooks + 1 : 0;
    this.chunksAtLastLook = this.chunks;
    return this.quietLooks < 2 && this.plainOnly && this.lineFeeds >= this.enoughLineFeeds;
  }
}
