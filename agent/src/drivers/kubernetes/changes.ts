import { LABEL } from '@nvcf/operators';
import type { KubeObject } from './client.js';
import { abortReason } from '../reasons.js';

/**
 * Wakes the applies waiting on an instance whenever a watch sees one of its objects change.
 * A version counter per instance closes the gap between reading the cluster and waiting.
 */
export class Changes {
  private readonly versions = new Map<string, number>();
  private readonly waiters = new Map<string, Set<() => void>>();

  /** counts only instances someone waits on: a shared API server shows other clusters' too */
  seen(obj: KubeObject): void {
    const id = obj.metadata.labels?.[LABEL.instanceId];
    if (!id || !this.versions.has(id)) return;
    this.versions.set(id, this.version(id) + 1);
    for (const w of this.waiters.get(id) ?? []) w();
  }

  /** the instance's change count; from now on its changes are counted, until `forget` */
  version(instanceId: string): number {
    if (!this.versions.has(instanceId)) this.versions.set(instanceId, 0);
    return this.versions.get(instanceId)!;
  }

  /** Resolves on the next change after `since`, after `pollMs` at the latest (a watch may be down). */
  next(instanceId: string, since: number, pollMs: number, signal: AbortSignal): Promise<void> {
    if (this.version(instanceId) !== since) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const set = this.waiters.get(instanceId) ?? new Set();
      this.waiters.set(instanceId, set);
      const cleanup = () => {
        clearTimeout(timer);
        set.delete(wake);
        if (!set.size) this.waiters.delete(instanceId);
        signal.removeEventListener('abort', onAbort);
      };
      const wake = () => {
        cleanup();
        resolve();
      };
      const onAbort = () => {
        cleanup();
        reject(abortReason(signal));
      };
      const timer = setTimeout(wake, pollMs);
      set.add(wake);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  forget(instanceId: string): void {
    this.versions.delete(instanceId);
  }
}
