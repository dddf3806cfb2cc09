import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { createLogger } from '@nvcf/logging';

const log = createLogger('gateway');

/**
 * Calls `changed` after anything happens in the file's directory, once things have been quiet
 * for `debounceMs`. The directory, not the file: Kubernetes updates a mounted ConfigMap by
 * writing a new timestamped directory and renaming the `..data` symlink over the old one, so
 * the file's own inode never changes and a watch on it would never fire (nor survive an editor
 * that writes a new file and renames it). What changed is left to the caller's content hash.
 */
export function watchFile(file: string, changed: () => void, debounceMs = 250): { close(): void } {
  const dir = dirname(file);
  let timer: NodeJS.Timeout | undefined;
  const fire = () => {
    timer = undefined;
    changed();
  };
  let watcher: FSWatcher | undefined = watch(dir, { persistent: false }, () => {
    clearTimeout(timer);
    timer = setTimeout(fire, debounceMs);
  });
  watcher.on('error', (err) => {
    // the directory itself went away: SIGHUP still reloads
    log.log('warn', { dir, file: basename(file), err: err.message }, 'supergraph watch stopped');
    close();
  });
  const close = () => {
    clearTimeout(timer);
    watcher?.close();
    watcher = undefined;
  };
  return { close };
}

/** Runs `reload` on each `signal` (SIGHUP: the conventional "read your configuration again"). */
export function reloadOnSignal(reload: () => Promise<unknown>, signal: NodeJS.Signals = 'SIGHUP'): () => void {
  const onSignal = () => {
    log.log('info', { signal }, 'supergraph reload requested');
    reload().catch((err: unknown) => log.error('supergraph reload failed', err));
  };
  process.on(signal, onSignal);
  return () => {
    process.off(signal, onSignal);
  };
}
