import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runOpsCommand } from '@nvcf/test';
import { backupHelmValues } from '../src/backup/helm.js';
import {
  BackupRefused,
  describeFile,
  FORMAT,
  KIND,
  readManifest,
  verifyFiles,
  writeManifest,
} from '../src/backup/manifest.js';
import type { Manifest } from '../src/backup/manifest.js';

describe('backup sets: the manifest, its files, the Helm values', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'backup-set-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const manifestWith = async (file: string, text: string): Promise<Manifest> => {
    writeFileSync(path.join(dir, file), text);
    const f = await describeFile(dir, file);
    return {
      kind: KIND,
      format: FORMAT,
      version: '0.1.0',
      commit: null,
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:00:01.000Z',
      nats: { url: 'nats://n:4222', takenAt: '2026-01-01T00:00:00.000Z', streams: [], absent: [] },
      cassandra: {
        keyspaceSuffix: '',
        startedAt: '2026-01-01T00:00:00.000Z',
        finishedAt: '2026-01-01T00:00:01.000Z',
        keyspaces: [
          {
            folder: 'nvcf_api',
            name: 'nvcf_api',
            ledgerVersion: 2,
            tables: [{ name: 't', rows: 1, columns: [], ...f }],
          },
        ],
      },
      helm: null,
    };
  };
  const refusal = async (p: Promise<unknown> | (() => unknown)) => {
    try {
      await (typeof p === 'function' ? p() : p);
    } catch (err) {
      if (err instanceof BackupRefused) return `${err.code}: ${err.message}`;
      throw err;
    }
    throw new Error('not refused');
  };

  it('reads back what it wrote, and refuses a folder without a manifest, another format or a changed file', async () => {
    const m = await manifestWith('t.jsonl', '{"key":{},"cells":{}}\n');
    expect(await refusal(() => readManifest(dir))).toBe(
      `BACKUP_INCOMPATIBLE: ${dir} holds no manifest.json: not a backup set, or a backup that did not finish`,
    );
    writeManifest(dir, m);
    expect(readManifest(dir)).toEqual(m);
    await verifyFiles(dir, m);

    writeFileSync(path.join(dir, 't.jsonl'), '{"key":{},"cells":{}}\n{"key":{},"cells":{}}\n');
    expect(await refusal(verifyFiles(dir, m))).toMatch(
      /^BACKUP_INCOMPATIBLE: t\.jsonl differs from the manifest \(44 bytes, sha256 \w{12}…; expected 22, \w{12}…\)$/,
    );
    rmSync(path.join(dir, 't.jsonl'));
    expect(await refusal(verifyFiles(dir, m))).toBe(`BACKUP_INCOMPATIBLE: t.jsonl is missing from the set in ${dir}`);

    writeManifest(dir, { ...m, format: FORMAT + 1 });
    expect(await refusal(() => readManifest(dir))).toBe(
      `BACKUP_INCOMPATIBLE: ${path.join(dir, 'manifest.json')} has format ${FORMAT + 1}; this release reads format ${FORMAT}: restore with the release that took it (0.1.0)`,
    );
  });

  it("keeps the Helm release's values as helm get values prints them, and names a helm that is missing", async () => {
    const helm = path.join(dir, 'helm');
    // a stand-in for helm that prints its arguments as YAML: what the set holds is what helm printed
    writeFileSync(helm, '#!/bin/sh\necho "args: [$*]"\n');
    chmodSync(helm, 0o755);
    const kept = await backupHelmValues({ release: 'nvcf', namespace: 'prod', bin: helm }, dir);
    expect(readFileSync(path.join(dir, kept.file), 'utf8')).toBe('args: [get values nvcf -o yaml --namespace prod]\n');
    expect(kept).toMatchObject({ release: 'nvcf', namespace: 'prod', file: 'helm-values.yaml', bytes: 49 });
    await expect(backupHelmValues({ release: 'nvcf', bin: path.join(dir, 'no-helm') }, dir)).rejects.toThrow(
      `helm get values nvcf failed: ${path.join(dir, 'no-helm')} not found`,
    );
  });

  it('as commands: exit 2 with the usage on bad arguments', async () => {
    const env = { NATS_URL: 'nats://127.0.0.1:1', CASSANDRA_CONTACT_POINTS: '127.0.0.1:1' };
    const backup = await runOpsCommand('backup', [], env);
    expect([backup.code, backup.stderr]).toEqual([
      2,
      'backup: name one folder to write the backup set into\nusage: backup <dir> [--helm-release R [--helm-namespace N]]\n',
    ]);
    const restore = await runOpsCommand('restore', [dir, '--stream-replicas', '7'], env);
    expect([restore.code, restore.stderr]).toEqual([
      2,
      "restore: --stream-replicas must be 1 to 5 (got '7')\nusage: restore <dir> [--replace] [--stream-replicas N]\n",
    ]);
    // refused before any connection: the folder is no set
    const empty = await runOpsCommand('restore', [dir], env);
    expect([empty.code, empty.stderr]).toEqual([
      3,
      `restore: refused (BACKUP_INCOMPATIBLE): ${dir} holds no manifest.json: not a backup set, or a backup that did not finish\n`,
    ]);
  });
});
