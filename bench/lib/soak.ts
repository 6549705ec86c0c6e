import type { FuxClient } from '../../src/client';
import { resident } from './memory';
import { sleep, until } from './wait';

export interface SoakOptions {
  /** Panes in all: every other one a shell loop, the rest a fake agent redrawing a spinner. */
  panes: number;
  durationMs: number;
  /** The RSS that later samples are held against is the one taken this long after the start. */
  baselineAfterMs: number;
  sampleEveryMs: number;
  cols: number;
  rows: number;
  /** Where the panes start, and the attached client's cwd. */
  cwd: string;
  log?(message: string): void;
}

export interface RssSample {
  /** ms since the panes started. */
  at: number;
  rss: number;
}

export interface SoakResult {
  samples: RssSample[];
  /** The server's RSS `baselineAfterMs` into the run, and at its end. */
  baselineRss: number;
  endRss: number;
  /** Title events received per pane, and how many titles each pane had set by the end. */
  titlesSeen: number;
  titlesSet: number;
  /** Per pane that missed one: what the subscriber saw out of order or not at all. */
  lost: string[];
  events: number;
  frames: number;
}

const WORKSPACE = 'soak';
const TITLE = /^soak-(\d+)-(\d+)$/;

/**
 * A shell loop: a line and a numbered title each second, then waits (bash's `read -t`, so the
 * wait forks nothing). The title numbers let the subscriber tell whether it missed one. It first
 * prints 1 000 lines, which fills the rows xterm keeps (750 of history) so that its buffer
 * recycles rows from the start: a pane whose history is still filling grows by design (2.4 KB a
 * row at 200 columns), which would hide a leak or pass for one.
 */
const shellScript =
  'seq -f "warm-up line %g" 1 1000; n=0; while :; do n=$((n+1)); printf "\\033]2;soak-%s-%d\\007line %d of pane %s\\n" "$1" $n $n "$1"; read -t 1 _; done';
/**
 * A fake agent: redraws a spinner line in place ten times a second, as agents' working lines
 * do, and numbers its title once a second.
 */
const agentScript =
  'n=0; while :; do n=$((n+1)); printf "\\033]2;soak-%s-%d\\007" "$1" $n; for c in "|" / - "\\\\"; do printf "\\r\\033[2K%s Working… (%ds · esc to interrupt)" "$c" $n; read -t 0.25 _; done; done';

/**
 * Forty busy panes (or as many as asked) on one server with a subscriber and an attached client,
 * for `durationMs`: samples the server's RSS and checks that the subscriber, which keeps up, saw
 * every pane's every title in order.
 */
export async function soak(client: FuxClient, serverPid: number, options: SoakOptions): Promise<SoakResult> {
  const { cols, rows, cwd } = options;
  await client.workspace.new.mutate({ name: WORKSPACE, cols, rows });
  const seen = new Map<string, number[]>();
  let events = 0;
  let frames = 0;
  let failure: unknown;
  await new Promise<void>((started, failed) => {
    client.subscribe.subscribe(
      { workspace: WORKSPACE },
      {
        onStarted: () => started(),
        onError: (err) => {
          failure = err;
          failed(err);
        },
        onData: (event) => {
          events++;
          if (event.type !== 'pane.title') return;
          const match = TITLE.exec(event.title);
          if (!match) return;
          seen.set(match[1]!, [...(seen.get(match[1]!) ?? []), Number(match[2])]);
        },
      },
    );
  });
  const attached = client.attach.session.subscribe(
    {
      workspace: WORKSPACE,
      cols,
      rows,
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: cwd, SHELL: '/bin/sh' },
    },
    {
      onData: () => frames++,
      onError: (err) => (failure = err),
    },
  );
  try {
    const names: string[] = [];
    for (let i = 0; i < options.panes; i++) {
      const name = String(i);
      const script = i % 2 === 0 ? shellScript : agentScript;
      await client.tab.new.mutate({ workspace: WORKSPACE, argv: ['bash', '-c', script, 'bash', name], cwd });
      names.push(name);
    }
    const started = Date.now();
    const samples: RssSample[] = [];
    let baselineRss = 0;
    while (Date.now() - started < options.durationMs) {
      await sleep(options.sampleEveryMs);
      if (failure !== undefined) throw failure;
      const at = Date.now() - started;
      const { rss } = resident(serverPid);
      samples.push({ at, rss });
      if (baselineRss === 0 && at >= options.baselineAfterMs) baselineRss = rss;
      options.log?.(
        `soak ${Math.round(at / 1000)} s: server RSS ${(rss / 2 ** 20).toFixed(1)} MiB, ${events} events`,
      );
    }
    // What each pane has set by now; the subscriber must catch up to it with nothing missing.
    const panes = (await client.list.query({ workspace: WORKSPACE })).workspaces.flatMap((w) => w.panes);
    const finalTitle = new Map<string, number>();
    for (const pane of panes) {
      const match = TITLE.exec(pane.title);
      if (match) finalTitle.set(match[1]!, Number(match[2]));
    }
    await until(
      () => ([...finalTitle].every(([name, n]) => (seen.get(name) ?? []).includes(n)) ? true : undefined),
      'the subscriber to see every pane’s last title',
      10_000,
    );
    const lost: string[] = [];
    for (const name of names) {
      const got = seen.get(name) ?? [];
      const last = finalTitle.get(name) ?? 0;
      const expected = Array.from({ length: last }, (_, k) => k + 1);
      const received = got.filter((n) => n <= last);
      if (last === 0 || received.join() !== expected.join()) {
        lost.push(
          `pane ${name}: set titles 1…${last}, received ${received.length} (${received.slice(0, 5).join(',')}…)`,
        );
      }
    }
    return {
      samples,
      baselineRss,
      endRss: samples[samples.length - 1]?.rss ?? 0,
      titlesSeen: [...seen.values()].reduce((a, s) => a + s.length, 0),
      titlesSet: [...finalTitle.values()].reduce((a, n) => a + n, 0),
      lost,
      events,
      frames,
    };
  } finally {
    attached.unsubscribe();
  }
}
