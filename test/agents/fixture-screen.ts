import * as fs from 'node:fs';

/** A captured fixture as a redraw needs it: its title header and its body rows. */
export function fixtureScreen(file: string): { title: string; body: string[] } {
  const lines = fs.readFileSync(file, 'utf8').replace(/\n$/, '').split('\n');
  const title =
    lines
      .find((line) => line.startsWith('# title:'))
      ?.slice('# title:'.length)
      .trim() ?? '';
  return { title, body: lines.filter((line) => !line.startsWith('# ')) };
}
