import { NvcfError, type ResumeItem } from '@nvcf/client';
import { errorText } from './errors.js';

/**
 * What a live view says about its watch. The watches resume by themselves (`@nvcf/client`):
 * the view only shows what they report, the same way on every page that follows something.
 */
export type Connection =
  | { status: 'connecting' }
  | { status: 'live' }
  | { status: 'reconnecting'; attempt: number; reason: string }
  | { status: 'ended'; reason: string };

export const connecting: Connection = { status: 'connecting' };

/** The connection after one item of a watch: only `connected` and `reconnecting` change it. */
export function connectionAfter(c: Connection, item: ResumeItem<unknown> | { type: 'lag' }): Connection {
  if (item.type === 'connected') return c.status === 'live' ? c : { status: 'live' };
  if (item.type === 'reconnecting')
    return { status: 'reconnecting', attempt: item.attempt, reason: `${item.error.code}: ${item.error.message}` };
  return c;
}

export interface WatchHandlers<T> {
  signal: AbortSignal;
  onItem(item: T): void;
  /** the watch stopped on its own: `reason` says why, null when it finished (what it followed has ended) */
  onEnd(reason: string | null): void;
  /** the token was refused: the session is over, not just this watch */
  expired(reason: string): void;
}

/**
 * Runs a live view's watch to its end. Closing the view (`signal`) ends it silently; a refused
 * token signs the page out; any other failure is an end with its reason, shown by the view.
 */
export async function runWatch<T>(items: AsyncIterable<T>, h: WatchHandlers<T>): Promise<void> {
  try {
    for await (const item of items) {
      if (h.signal.aborted) return;
      h.onItem(item);
    }
    if (!h.signal.aborted) h.onEnd(null);
  } catch (e) {
    if (h.signal.aborted) return;
    if (e instanceof NvcfError && e.code === 'UNAUTHENTICATED') return h.expired(errorText(e));
    h.onEnd(errorText(e));
  }
}
