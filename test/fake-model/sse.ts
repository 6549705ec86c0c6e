import type { ServerResponse } from 'node:http';
import type { Pacing } from './replies';

/** One server-sent event: an optional `event:` name (the Gemini API sends none) and a JSON `data:` payload. */
export interface SseEvent {
  readonly event?: string;
  readonly data: unknown;
}

export function formatSse({ event, data }: SseEvent): string {
  const name = event === undefined ? '' : `event: ${event}\n`;
  return `${name}data: ${JSON.stringify(data)}\n\n`;
}

/**
 * Writes a reply's events in three parts: the opening events at once, the content events (once
 * `contentAfter` opens) spread over the pacing's duration, then (once `holdUntil` opens) the
 * closing events. Stops early
 * when the client hangs up, as an agent does when the user interrupts it.
 */
export async function streamSse(
  res: ServerResponse,
  parts: { opening: SseEvent[]; content: SseEvent[]; closing: SseEvent[] },
  pacing: Pacing,
): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  const send = (events: SseEvent[]): boolean => {
    if (res.destroyed) return false;
    for (const event of events) res.write(formatSse(event));
    return true;
  };
  if (!send(parts.opening)) return;
  if (pacing.contentAfter) await Promise.race([pacing.contentAfter.wait(), closed(res)]);
  const gapMs = parts.content.length > 0 ? (pacing.durationMs ?? 0) / parts.content.length : 0;
  for (const event of parts.content) {
    if (gapMs > 0) await delay(gapMs);
    if (!send([event])) return;
  }
  if (pacing.holdUntil) await Promise.race([pacing.holdUntil.wait(), closed(res)]);
  if (!send(parts.closing)) return;
  res.end();
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function closed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) resolve();
    else res.once('close', () => resolve());
  });
}

/** Splits text into small pieces so a paced stream visibly grows on the agent's screen. */
export function chunkText(text: string, pieces: number): string[] {
  if (text.length === 0) return [];
  const size = Math.max(1, Math.ceil(text.length / pieces));
  const chunks: string[] = [];
  for (let at = 0; at < text.length; at += size) chunks.push(text.slice(at, at + size));
  return chunks;
}
