import { fileURLToPath } from 'node:url';
import { createNatsBus } from '@nvcf/bus';
import { createCassandraClient, createMigrator, type Replication } from '@nvcf/cassandra';
import { createCassandraNvcfStore } from '@nvcf/subgraph-nvcf';
import { createCassandraIcmsStore } from '@nvcf/subgraph-icms';
import { createCassandraStatusStore } from '@nvcf/subgraph-nvca-status';
import { createCassandraTaskStore } from '@nvcf/subgraph-nvct';
import type { Backends } from './system.js';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations', import.meta.url));
const KEYSPACES = ['nvcf_api', 'icms_api', 'nvca_status', 'nvct_api'] as const;

export interface RealBackendOptions {
  natsUrl: string;
  contactPoints: string[];
  localDataCenter: string;
  /** isolated keyspaces (`nvcf_api<suffix>`…): test systems sharing one Cassandra */
  keyspaceSuffix?: string;
  /** drop the suffixed keyspaces on dispose (tests only) */
  dropKeyspaces?: boolean;
  /** replicas of every stream it creates (NATS_STREAM_REPLICAS): 3 on a JetStream cluster */
  streamReplicas?: number;
  /** how new keyspaces replicate (CASSANDRA_REPLICATION): RF 3 on a ring; default SimpleStrategy:1 */
  replication?: Replication;
  log?: (line: string) => void;
}

/** NATS JetStream and Cassandra behind the same ports as the embedded default; runs `migrate up` first. */
export async function realBackends(o: RealBackendOptions): Promise<Backends> {
  const suffix = o.keyspaceSuffix ?? '';
  const conn = { contactPoints: o.contactPoints, localDataCenter: o.localDataCenter };
  {
    await using migrator = await createMigrator({
      ...conn,
      dir: MIGRATIONS_DIR,
      keyspaceSuffix: suffix,
      replication: o.replication,
      log: o.log,
    });
    await migrator.up();
  }
  const client = await createCassandraClient(conn);
  const bus = await createNatsBus({ servers: o.natsUrl, name: `nvcf${suffix}`, streamReplicas: o.streamReplicas });
  const ks = (k: (typeof KEYSPACES)[number]) => `${k}${suffix}`;
  return {
    bus,
    nvcfStore: createCassandraNvcfStore(client, { keyspace: ks('nvcf_api') }),
    icmsStore: createCassandraIcmsStore(client, { keyspace: ks('icms_api') }),
    statusStore: createCassandraStatusStore(client, { keyspace: ks('nvca_status') }),
    taskStore: createCassandraTaskStore(client, { keyspace: ks('nvct_api') }),
    async dispose() {
      try {
        await bus.dispose();
        if (o.dropKeyspaces && suffix) {
          for (const k of KEYSPACES) await client.execute(`DROP KEYSPACE IF EXISTS ${ks(k)}`);
          await client.execute('DELETE FROM schema_migrations.ledger WHERE keyspace_name IN ?', [KEYSPACES.map(ks)], {
            prepare: true,
          });
        }
      } finally {
        await client.shutdown();
      }
    },
  };
}
