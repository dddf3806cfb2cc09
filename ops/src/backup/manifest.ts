import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { StreamConfig, StreamState } from '@nats-io/jetstream';
import type { Code } from '@nvcf/errors';

/** Bumped when a set's layout changes in a way an older restore would misread. */
export const FORMAT = 1;
export const KIND = 'nvcf-control-plane-backup';
export const MANIFEST = 'manifest.json';

/** A file of the set: where it is (relative to the set), its size and digest, checked before a restore writes anything. */
export interface SetFile {
  file: string;
  bytes: number;
  sha256: string;
}

export interface ConsumerEntry {
  name: string;
  /** the last stream sequence acknowledged in order: what a restored consumer resumes after */
  ackFloor: number;
  pending: number;
  ackPending: number;
}

export interface StreamEntry extends SetFile {
  name: string;
  /** the server's answer to the snapshot request: what the restore request hands back */
  config: StreamConfig;
  state: StreamState;
  messages: number;
  firstSeq: number;
  lastSeq: number;
  /** as listed right after the snapshot; the snapshot itself carries their state */
  consumers: ConsumerEntry[];
}

export interface ColumnEntry {
  name: string;
  kind: 'partition_key' | 'clustering' | 'static' | 'regular';
  type: string;
}

export interface TableEntry extends SetFile {
  name: string;
  rows: number;
  columns: ColumnEntry[];
}

export interface KeyspaceEntry {
  /** the folder in deploy/migrations; restore appends the target's keyspace suffix */
  folder: string;
  /** the keyspace it was read from */
  name: string;
  /** its migration ledger when it was read (clean: a dirty ledger is not backed up) */
  ledgerVersion: number;
  tables: TableEntry[];
}

export interface Manifest {
  kind: typeof KIND;
  format: number;
  /** the release that took it (@nvcf/ops package version) */
  version: string;
  /** the commit it was built from, when known */
  commit: string | null;
  startedAt: string;
  finishedAt: string;
  nats: { url: string; takenAt: string; streams: StreamEntry[]; absent: string[] };
  cassandra: { keyspaceSuffix: string; startedAt: string; finishedAt: string; keyspaces: KeyspaceEntry[] };
  helm: (SetFile & { release: string; namespace: string | null }) | null;
}

/** A restore (or backup) that would do the wrong thing, refused before anything changed. */
export class BackupRefused extends Error {
  override name = 'BackupRefused';
  constructor(
    readonly code: Code,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** A step that failed part way (NATS or Cassandra answered with an error, a file could not be written). */
export class BackupFailed extends Error {
  override name = 'BackupFailed';
}

export async function describeFile(dir: string, file: string): Promise<SetFile> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path.join(dir, file)) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { file, bytes, sha256: hash.digest('hex') };
}

export function writeManifest(dir: string, m: Manifest): void {
  // written last: a folder without it is a set that did not finish, and restore refuses it
  writeFileSync(path.join(dir, MANIFEST), `${JSON.stringify(m, null, 2)}\n`);
}

const incompatible = (message: string) => new BackupRefused('BACKUP_INCOMPATIBLE', message);

export function readManifest(dir: string): Manifest {
  const file = path.join(dir, MANIFEST);
  if (!existsSync(file))
    throw incompatible(`${dir} holds no ${MANIFEST}: not a backup set, or a backup that did not finish`);
  let m: Partial<Manifest>;
  try {
    m = JSON.parse(readFileSync(file, 'utf8')) as Partial<Manifest>;
  } catch (err) {
    throw new BackupRefused('BACKUP_INCOMPATIBLE', `${file} is not JSON`, { cause: err });
  }
  if (m.kind !== KIND) throw incompatible(`${file} is not a manifest of ${KIND}`);
  if (m.format !== FORMAT)
    throw incompatible(
      `${file} has format ${String(m.format)}; this release reads format ${FORMAT}: restore with the release that took it (${String(m.version)})`,
    );
  return m as Manifest;
}

/** Every file the manifest names is there, with its size and digest: a truncated copy fails here, not half way. */
export async function verifyFiles(dir: string, m: Manifest): Promise<void> {
  const files: SetFile[] = [
    ...m.nats.streams,
    ...m.cassandra.keyspaces.flatMap((k) => k.tables),
    ...(m.helm ? [m.helm] : []),
  ];
  for (const f of files) {
    if (!existsSync(path.join(dir, f.file))) throw incompatible(`${f.file} is missing from the set in ${dir}`);
    const got = await describeFile(dir, f.file);
    if (got.bytes !== f.bytes || got.sha256 !== f.sha256)
      throw incompatible(
        `${f.file} differs from the manifest (${got.bytes} bytes, sha256 ${got.sha256.slice(0, 12)}…; expected ${f.bytes}, ${f.sha256.slice(0, 12)}…)`,
      );
  }
}
