/**
 * Region extraction: turns a ScreenView into the text each rule's region names, exactly as the doc
 * comments in region.ts define it. One RegionReader lives for one evaluation, so every region (and
 * its lowercased form for `contains`) is computed at most once however many rules read it.
 */
import { joinLines, type ScreenView } from '../screen/screen-view';
import { isHorizontalRule } from './horizontal-rule';
import { formatRegion, type Region } from './region';

export interface RegionText {
  readonly lines: readonly string[];
  /** Each line followed by `\n`. */
  readonly text: string;
  /** `text` lowercased, for case-insensitive `contains`. */
  readonly lowered: string;
}

/** What a region needs from the rule set besides the screen. */
export interface PromptMarkers {
  readonly promptMarker: string | undefined;
  readonly blockMarkers: readonly string[];
}

function isNonEmpty(line: string): boolean {
  return line.trim().length > 0;
}

function isPromptMarkerLine(line: string, marker: string): boolean {
  return line === marker || line.startsWith(marker + ' ');
}

function lastIndexWhere(lines: readonly string[], predicate: (line: string) => boolean): number {
  for (let index = lines.length - 1; index >= 0; index--) {
    if (predicate(lines[index]!)) return index;
  }
  return -1;
}

/** Index of the `n`-th line (1-based) satisfying the predicate, counting up from the bottom; -1 if fewer. */
function nthFromBottom(lines: readonly string[], n: number, predicate: (line: string) => boolean): number {
  let seen = 0;
  for (let index = lines.length - 1; index >= 0; index--) {
    if (predicate(lines[index]!) && ++seen === n) return index;
  }
  return -1;
}

function nthFromTop(lines: readonly string[], n: number, predicate: (line: string) => boolean): number {
  let seen = 0;
  for (let index = 0; index < lines.length; index++) {
    if (predicate(lines[index]!) && ++seen === n) return index;
  }
  return -1;
}

interface PromptBox {
  /** Index of the box's upper rule (the second rule counting up). */
  readonly upper: number;
  /** Index of the rule below it (the last rule). */
  readonly lower: number;
}

export class RegionReader {
  private readonly cache = new Map<string, RegionText>();
  private windowLines: readonly string[] | undefined;
  private ruleIndices: readonly number[] | undefined;

  constructor(
    private readonly view: ScreenView,
    private readonly markers: PromptMarkers,
  ) {}

  read(region: Region): RegionText {
    const key = formatRegion(region);
    let cached = this.cache.get(key);
    if (cached === undefined) {
      const lines = this.extract(region);
      const text = region.kind === 'whole' ? this.view.text() : joinLines(lines);
      cached = { lines, text, lowered: text.toLowerCase() };
      this.cache.set(key, cached);
    }
    return cached;
  }

  private whole(): readonly string[] {
    this.windowLines ??= this.view.lines();
    return this.windowLines;
  }

  private rules(): readonly number[] {
    if (this.ruleIndices === undefined) {
      const indices: number[] = [];
      this.whole().forEach((line, index) => {
        if (isHorizontalRule(line)) indices.push(index);
      });
      this.ruleIndices = indices;
    }
    return this.ruleIndices;
  }

  private promptBox(): PromptBox | undefined {
    const rules = this.rules();
    if (rules.length < 2) return undefined;
    return { upper: rules[rules.length - 2]!, lower: rules[rules.length - 1]! };
  }

  private extract(region: Region): readonly string[] {
    const lines = this.whole();
    switch (region.kind) {
      case 'title': {
        const title = this.view.title();
        return title === '' ? [] : [title];
      }
      case 'progress': {
        const progress = this.view.progress();
        return progress === undefined ? [] : [`${progress.state}:${progress.percent}`];
      }
      case 'whole':
        return lines;
      case 'bottom':
        return lines.slice(Math.max(0, lines.length - region.lines));
      case 'bottom_non_empty': {
        const start = nthFromBottom(lines, region.lines, isNonEmpty);
        return start < 0 ? lines : lines.slice(start);
      }
      case 'top_non_empty': {
        const end = nthFromTop(lines, region.lines, isNonEmpty);
        return end < 0 ? lines : lines.slice(0, end + 1);
      }
      case 'prompt_box': {
        const box = this.promptBox();
        return box === undefined ? [] : lines.slice(box.upper + 1, box.lower);
      }
      case 'above_prompt_box': {
        const box = this.promptBox();
        return box === undefined ? lines : lines.slice(0, box.upper);
      }
      case 'last_line_above_prompt_box': {
        const above = this.read({ kind: 'above_prompt_box' }).lines;
        const last = lastIndexWhere(above, isNonEmpty);
        return last < 0 ? [] : [above[last]!];
      }
      case 'after_last_rule': {
        const rules = this.rules();
        return rules.length === 0 ? [] : lines.slice(rules[rules.length - 1]! + 1);
      }
      case 'after_last_prompt_marker': {
        const marker = this.lastPromptMarkerLine();
        return marker < 0 ? [] : lines.slice(marker + 1);
      }
      case 'whole_unless_at_prompt': {
        const marker = this.lastPromptMarkerLine();
        if (marker < 0) return lines;
        const answered = lines
          .slice(marker + 1)
          .some((line) => this.markers.blockMarkers.some((prefix) => line.startsWith(prefix)));
        return answered ? lines : [];
      }
    }
  }

  private lastPromptMarkerLine(): number {
    const marker = this.markers.promptMarker;
    if (marker === undefined) return -1;
    return lastIndexWhere(this.whole(), (line) => isPromptMarkerLine(line, marker));
  }
}
