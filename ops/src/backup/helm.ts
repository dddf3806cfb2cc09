import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { BackupFailed, describeFile, type Manifest } from './manifest.js';

export interface HelmValuesOptions {
  release: string;
  namespace?: string;
  /** the helm binary (HELM_BIN; default `helm` on the PATH) */
  bin: string;
}

export const HELM_VALUES = 'helm-values.yaml';

/**
 * The values the release was installed or last upgraded with (`helm get values -o yaml`: what
 * was given, not the chart's defaults, so an upgrade with them takes the new chart's defaults).
 */
export async function backupHelmValues(o: HelmValuesOptions, dir: string): Promise<NonNullable<Manifest['helm']>> {
  const args = ['get', 'values', o.release, '-o', 'yaml', ...(o.namespace ? ['--namespace', o.namespace] : [])];
  const yaml = await new Promise<string>((resolve, reject) =>
    execFile(o.bin, args, { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      const why =
        (err as NodeJS.ErrnoException).code === 'ENOENT' ? `${o.bin} not found` : stderr.trim() || err.message;
      reject(new BackupFailed(`helm get values ${o.release} failed: ${why}`, { cause: err }));
    }),
  );
  writeFileSync(path.join(dir, HELM_VALUES), yaml);
  return { release: o.release, namespace: o.namespace ?? null, ...(await describeFile(dir, HELM_VALUES)) };
}
