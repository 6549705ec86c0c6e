/** A table as the runner prints it (GitHub markdown, so a run can be pasted into the docs). */
export interface Table {
  title?: string;
  head: string[];
  rows: string[][];
}

/** One target of DESIGN.md §9 and whether this run met it. */
export interface Verdict {
  target: string;
  measured: string;
  met: boolean;
}

/** What a benchmark hands back: how it measured, its figures, and its verdicts. */
export interface Section {
  id: string;
  title: string;
  method: string[];
  tables: Table[];
  verdicts: Verdict[];
}

export interface BenchOptions {
  /** A smoke run: smaller inputs and fewer repetitions, figures only indicative. */
  quick: boolean;
  /** Also profile the fux side (CPU profiles of the server or CLI) and print the breakdown. */
  profile: boolean;
  /** Progress for the terminal (stderr), not part of the report. */
  log(message: string): void;
}

export interface Benchmark {
  id: string;
  title: string;
  run(options: BenchOptions): Promise<Section>;
}

export function renderTable(table: Table): string {
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  const out = [line(table.head), line(table.head.map(() => '---')), ...table.rows.map(line)];
  return (table.title ? [`**${table.title}**`, '', ...out] : out).join('\n');
}

export function renderSection(section: Section): string {
  const parts = [`### ${section.id} ${section.title}`, '', ...section.method.map((m) => `- ${m}`), ''];
  for (const table of section.tables) parts.push(renderTable(table), '');
  return parts.join('\n');
}

export function renderSummary(sections: Section[]): string {
  const rows = sections.flatMap((s) =>
    s.verdicts.map((v) => [s.id, v.target, v.measured, v.met ? 'met' : '**missed**']),
  );
  return renderTable({ title: 'Summary', head: ['bench', 'target', 'measured', 'verdict'], rows });
}
