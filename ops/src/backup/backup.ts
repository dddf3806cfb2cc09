import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { allStreams } from '@nvcf/contracts';
import { backupCassandra, planCassandra, restoreCassandra, type CassandraSetOptions } from './cassandra-set.js';
import { backupHelmValues, type HelmValuesOptions } from './helm.js';
import { BackupFailed, FORMAT, KIND, readManifest, verifyFiles, writeManifest, type Manifest } from './manifest.js';
import { backupStreams, connectNats, planStreams, restoreStreams } from './nats-set.js';

export interface BackupOptions extends CassandraSetOptions {
  /** a new or empty folder */
  dir: string;
  natsUrl: string;
  /** the streams to keep (default: every stream of this release, the dead letters included) */
  streams?: string[];
  /** also keep the values of this Helm release */
  helm?: HelmValuesOptions;
  /** the release taking it, and its commit when known: written into the manifest */
  version: string;
  commit: string | null;
}

/**
 * Takes a backup set: the streams first, then Cassandra. Nothing is paused (production cannot
 * be): the stream snapshots are taken in a moment, each with its consumers' acknowledged
 * positions, and Cassandra is read after them, so every message a consumer acknowledged after
 * its snapshot is redelivered on a restored system, and its effect, if the copy already holds
 * it, is applied again; the readers are idempotent (clocks and compare-and-set decide), so the
 * two converge. docs/deploy.md#backups says what a message published during the copy means.
 */
export async function takeBackup(o: BackupOptions): Promise<Manifest> {
  if (existsSync(o.dir) && readdirSync(o.dir).length)
    throw new BackupFailed(`${o.dir} is not empty: a backup goes into a new or empty folder`);
  mkdirSync(o.dir, { recursive: true });
  const startedAt = new Date().toISOString();
  const nats = await (async () => {
    await using nc = await connectNats(o.natsUrl);
    // awaited here: returning the promise would close the connection before the snapshots ran
    return await backupStreams(nc, o.dir, o.streams ?? allStreams.map((s) => s.name), o.log);
  })();
  const cassandra = await backupCassandra(o, o.dir);
  const helm = o.helm ? await backupHelmValues(o.helm, o.dir) : null;
  if (helm) o.log(`helm: values of ${helm.release} kept (${helm.bytes} bytes)`);
  const manifest: Manifest = {
    kind: KIND,
    format: FORMAT,
    version: o.version,
    commit: o.commit,
    startedAt,
    finishedAt: new Date().toISOString(),
    // where it came from, without credentials a URL may carry
    nats: { url: o.natsUrl.replace(/\/\/[^@/,]*@/g, '//'), ...nats },
    cassandra,
    helm,
  };
  writeManifest(o.dir, manifest);
  return manifest;
}

export interface RestoreOptions extends CassandraSetOptions {
  dir: string;
  natsUrl: string;
  /** delete what the target holds instead of refusing */
  replace: boolean;
  /** restore the streams with this many replicas instead of the set's */
  streamReplicas?: number;
}

/**
 * Restores a set: checks every file against the manifest and the target against the set (read
 * only: a refusal changes nothing), then Cassandra (migrated to the set's ledger version with this
 * release's migrations, then its rows), then the streams from their snapshots. Run it with the
 * control plane stopped; afterwards `migrate up` and `streams ensure` bring it to this release.
 */
export async function restoreBackup(o: RestoreOptions): Promise<Manifest> {
  const manifest = readManifest(o.dir);
  await verifyFiles(o.dir, manifest);
  // the ledger first: a set at the wrong version is refused whatever the target holds
  const keyspacePlans = await planCassandra(o, manifest.cassandra, o.replace);
  await using nc = await connectNats(o.natsUrl);
  const streamPlans = await planStreams(nc, manifest.nats.streams, o.replace);
  await restoreCassandra(o, o.dir, keyspacePlans);
  await restoreStreams(nc, o.dir, streamPlans, o.streamReplicas, o.log);
  return manifest;
}
