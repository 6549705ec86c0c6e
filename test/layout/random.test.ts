import { TabLayout, type Axis, type Direction, type Rect } from '../../src/server/layout';
import { PANE_MINIMUM } from '../../src/server/layout/geometry';

/** xorshift32: a tiny deterministic generator, so any failure replays from the same seed. */
function xorshift32(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state = (state ^ (state << 13)) >>> 0;
    state = (state ^ (state >>> 17)) >>> 0;
    state = (state ^ (state << 5)) >>> 0;
    return state / 2 ** 32;
  };
}

const STEPS = 500;
const SEED = 0x5eed;
// 16 panes in one line need 3 × 15 + 2 columns or 2 × 15 + 1 rows, which AREA has: every pane keeps its minimum.
const MAX_PANES = 16;
const AREA: Rect = { x: 0, y: 0, cols: 160, rows: 50 };
const SMALL_AREA: Rect = { x: 3, y: 1, cols: 23, rows: 9 };
const AXES: readonly Axis[] = ['row', 'column'];
const DIRECTIONS: readonly Direction[] = ['left', 'right', 'up', 'down'];

/** What is wrong with the tiles of `layout` in `area`: gaps, overlaps or cells outside it. */
function coverageProblems(layout: TabLayout, area: Rect): string[] {
  const covered = new Uint8Array(area.cols * area.rows);
  const problems: string[] = [];
  for (const [id, t] of layout.tiles(area)) {
    if (
      t.x < area.x ||
      t.y < area.y ||
      t.x + t.cols > area.x + area.cols ||
      t.y + t.rows > area.y + area.rows
    ) {
      problems.push(`P${id} ${JSON.stringify(t)} leaves the area`);
      continue;
    }
    for (let row = t.y - area.y; row < t.y - area.y + t.rows; row++) {
      for (let col = t.x - area.x; col < t.x - area.x + t.cols; col++) covered[row * area.cols + col]! += 1;
    }
  }
  const wrong = covered.filter((count) => count !== 1).length;
  if (wrong > 0) problems.push(`${wrong} cells of ${JSON.stringify(area)} covered other than once`);
  return problems;
}

/** Panes of `layout` in `area` below the minimum of content (there are none, whatever the area). */
function crushedPanes(layout: TabLayout, area: Rect): string[] {
  return [...layout.tiledContentRects(area)]
    .filter(([, c]) => c.cols < PANE_MINIMUM.cols || c.rows < PANE_MINIMUM.rows)
    .map(([id, c]) => `P${id} is below the minimum in ${JSON.stringify(area)}: ${JSON.stringify(c)}`);
}

function invariantProblems(layout: TabLayout): string[] {
  const panes = layout.panes();
  // AREA holds MAX_PANES in any arrangement; SMALL_AREA does not, and is overflowed to keep every pane.
  const problems = [
    ...coverageProblems(layout, AREA),
    ...coverageProblems(layout, layout.layoutArea(SMALL_AREA)),
  ];
  problems.push(...crushedPanes(layout, AREA), ...crushedPanes(layout, SMALL_AREA));
  if (new Set(panes).size !== panes.length) problems.push(`repeated pane ids ${panes}`);
  if (!layout.has(layout.focused)) problems.push(`focused P${layout.focused} is not in the tab`);
  const history = layout.recentlyFocused();
  if (
    history[0] !== layout.focused ||
    history.some((id) => !layout.has(id)) ||
    new Set(history).size !== history.length
  ) {
    problems.push(`history ${history} does not start with focused P${layout.focused} or holds strangers`);
  }
  if (layout.zoomed !== undefined && layout.zoomed !== layout.focused)
    problems.push(`zoomed P${layout.zoomed} is not focused`);
  if (layout.zoomed === undefined) {
    const tiles = layout.tiles(AREA);
    for (const [id, c] of layout.contentRects(AREA)) {
      const t = tiles.get(id)!;
      if (
        c.x !== t.x ||
        c.y !== t.y ||
        c.cols > t.cols ||
        c.rows > t.rows ||
        t.cols - c.cols > 1 ||
        t.rows - c.rows > 1
      ) {
        problems.push(
          `P${id} content ${JSON.stringify(c)} is not its tile ${JSON.stringify(t)} less separators`,
        );
      }
    }
  }
  return problems;
}

test(`${STEPS} random splits, closes, resizes, focus moves and zooms keep tiles covering the area exactly without overlap and every pane its minimum of content`, () => {
  const random = xorshift32(SEED);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const layout = new TabLayout(0);
  const done = { split: 0, close: 0, resize: 0, move: 0, zoom: 0 };
  let nextId = 1;
  const failures: string[] = [];
  for (let step = 0; step < STEPS && failures.length === 0; step++) {
    const panes = layout.panes();
    const roll = random();
    if (roll < 0.35 && panes.length < MAX_PANES) {
      layout.split(pick(panes), pick(AXES), nextId++, 0.02 + random() * 0.96);
      done.split += 1;
    } else if (roll < 0.6 && panes.length > 1) {
      layout.remove(pick(panes));
      done.close += 1;
    } else if (roll < 0.8) {
      if (layout.resize(pick(panes), Math.round(random() * 60) - 30, AREA)) done.resize += 1;
    } else if (roll < 0.95) {
      const target = layout.neighbour(layout.focused, pick(DIRECTIONS), AREA);
      if (target !== undefined) {
        layout.focus(target);
        done.move += 1;
      }
    } else {
      layout.toggleZoom(pick(panes));
      done.zoom += 1;
    }
    failures.push(...invariantProblems(layout).map((p) => `step ${step}, ${layout.toNotation()}: ${p}`));
  }
  expect(failures).toEqual([]);
  // The walk really exercised every operation, not just the first branch.
  for (const count of Object.values(done)) expect(count).toBeGreaterThan(10);
});
