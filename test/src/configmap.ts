import { mkdtempSync, mkdirSync, writeFileSync, symlinkSync, renameSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ConfigMapDir extends AsyncDisposable {
  dir: string;
  /** where a key's file appears, as a pod sees it */
  path(key: string): string;
  /** replaces every file at once, as the kubelet does on a ConfigMap update */
  update(files: Record<string, string>): void;
}

/**
 * A directory laid out as the kubelet mounts a ConfigMap (not with subPath): each key is a symlink
 * `key -> ..data/key`, `..data` a symlink to a timestamped directory. An update writes a new
 * directory, points `..data_tmp` at it and renames that over `..data` (one atomic swap), then
 * removes the old directory: the files' own paths never change, only what `..data` points to.
 */
export function configMapDir(files: Record<string, string>): ConfigMapDir {
  const dir = mkdtempSync(join(tmpdir(), 'nvcf-configmap-'));
  let current: string | undefined;
  let n = 0;
  const update = (next: Record<string, string>) => {
    const version = `..${new Date().toISOString().replace(/[:.]/g, '_')}.${n++}`;
    mkdirSync(join(dir, version));
    for (const [key, text] of Object.entries(next)) writeFileSync(join(dir, version, key), text);
    symlinkSync(version, join(dir, '..data_tmp'));
    renameSync(join(dir, '..data_tmp'), join(dir, '..data'));
    for (const key of Object.keys(next))
      if (!existsSync(join(dir, key))) symlinkSync(join('..data', key), join(dir, key));
    if (current) rmSync(join(dir, current), { recursive: true, force: true });
    current = version;
  };
  update(files);
  return {
    dir,
    path: (key) => join(dir, key),
    update,
    [Symbol.asyncDispose]: async () => rmSync(dir, { recursive: true, force: true }),
  };
}
