import type { KubeClient, KubeObject } from './client.js';
import { asError } from '../reasons.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';
export interface WatchOptions {
  apiVersion: string;
  kind: string;
  /** omitted: every namespace (or a cluster-scoped kind) */
  namespace?: string;
  labelSelector?: string;
  onEvent(type: WatchEventType, obj: KubeObject): void;
  log?: (msg: string) => void;
  /** how long the server keeps one watch request open before we resume it */
  timeoutSeconds?: number;
  retryMs?: { initial: number; max: number };
}

export interface Watcher {
  /** resolves after the first list */
  readonly synced: Promise<void>;
  /** lists (the first, and one per 410 Gone) and watch requests made so far */
  readonly stats: { lists: number; watches: number; resumes: number; gone: number };
  dispose(): Promise<void>;
}

class WatchGone extends Error {
  override name = 'WatchGone';
}

/**
 * List, then watch from the list's resourceVersion; a dropped watch resumes from the last
 * resourceVersion seen (bookmarks included), and only a 410 Gone (the version was compacted)
 * costs a re-list. A re-list reports what changed meanwhile, deletions included.
 */
export function startWatch(client: KubeClient, o: WatchOptions): Watcher {
  const log = o.log ?? (() => {});
  const retry = o.retryMs ?? { initial: 200, max: 5000 };
  const stats = { lists: 0, watches: 0, resumes: 0, gone: 0 };
  const known = new Map<string, string>(); // namespace/name → resourceVersion
  const key = (obj: KubeObject) => `${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;
  let stopped = false;
  let abort: AbortController | undefined;
  let wake: (() => void) | undefined;
  let markSynced!: () => void;
  const synced = new Promise<void>((r) => (markSynced = r));

  const pause = (ms: number) =>
    new Promise<void>((r) => {
      const t = setTimeout(r, ms);
      wake = () => {
        clearTimeout(t);
        r();
      };
    });

  const relist = async (): Promise<string> => {
    const list = await client.list(o.apiVersion, o.kind, { namespace: o.namespace, labelSelector: o.labelSelector });
    stats.lists++;
    const seen = new Set<string>();
    for (const item of list.items) {
      const obj = { ...item, apiVersion: o.apiVersion, kind: o.kind } as KubeObject; // list items carry neither
      seen.add(key(obj));
      if (known.get(key(obj)) !== obj.metadata.resourceVersion) {
        o.onEvent(known.has(key(obj)) ? 'MODIFIED' : 'ADDED', obj);
        known.set(key(obj), obj.metadata.resourceVersion ?? '');
      }
    }
    for (const k of [...known.keys()].filter((k) => !seen.has(k))) {
      known.delete(k);
      const [namespace, name] = k.split('/');
      o.onEvent('DELETED', {
        apiVersion: o.apiVersion,
        kind: o.kind,
        metadata: { name, ...(namespace ? { namespace } : {}) },
      });
    }
    return list.metadata.resourceVersion ?? '';
  };

  /** One watch request; resolves with the last resourceVersion when the server ends it. */
  const watchOnce = async (path: string, from: string): Promise<string> => {
    let rv = from;
    stats.watches++;
    return new Promise<string>((resolve, reject) => {
      let ended = false;
      // the first outcome wins: aborting after an ERROR event ends the request once more
      const end = (err: unknown) => {
        if (ended) return;
        ended = true;
        if (err && !stopped) reject(asError(err));
        else resolve(rv);
        abort?.abort();
        abort = undefined;
      };
      const done = (err: unknown) =>
        end((err as { statusCode?: number } | null)?.statusCode === 410 ? new WatchGone('410 Gone') : err);
      const onEvent = (type: string, obj: KubeObject & { code?: number; message?: string }) => {
        if (ended) return;
        if (type === 'ERROR')
          return end(
            obj.code === 410
              ? new WatchGone(obj.message ?? '410 Gone')
              : new Error(`watch error: ${obj.message ?? JSON.stringify(obj)}`),
          );
        rv = obj.metadata?.resourceVersion ?? rv;
        if (type === 'BOOKMARK') return;
        if (type === 'DELETED') known.delete(key(obj));
        else known.set(key(obj), rv);
        o.onEvent(type as WatchEventType, obj);
      };
      const query = {
        resourceVersion: from,
        allowWatchBookmarks: true,
        labelSelector: o.labelSelector,
        timeoutSeconds: o.timeoutSeconds ?? 300,
      };
      client.watcher.watch(path, query, onEvent, done).then((c) => {
        if (ended || stopped) c.abort();
        else abort = c;
      }, done);
    });
  };

  const loop = async () => {
    const path = await retrying(() => client.collectionPath(o.apiVersion, o.kind, o.namespace));
    let rv = '';
    let failures = 0;
    while (!stopped) {
      try {
        if (!rv) {
          rv = await relist();
          markSynced();
        } else stats.resumes++;
        rv = await watchOnce(path, rv);
        failures = 0;
      } catch (err) {
        if (stopped) break;
        if (err instanceof WatchGone) {
          stats.gone++;
          rv = '';
          log(`watch of ${o.kind}: ${err.message}; listing again`);
          continue;
        }
        failures++;
        const ms = Math.min(retry.max, retry.initial * 2 ** (failures - 1));
        log(
          `watch of ${o.kind} failed (${(err as Error).message}); retrying in ${ms} ms from resourceVersion ${rv || '(list)'}`,
        );
        await pause(ms);
      }
    }
  };

  async function retrying<T>(fn: () => Promise<T>): Promise<T> {
    for (let n = 0; ; n++) {
      try {
        return await fn();
      } catch (err) {
        if (stopped) throw err;
        await pause(Math.min(retry.max, retry.initial * 2 ** n));
      }
    }
  }

  const running = loop().catch(() => {});
  return {
    synced,
    stats,
    async dispose() {
      stopped = true;
      abort?.abort();
      wake?.();
      await running;
    },
  };
}
