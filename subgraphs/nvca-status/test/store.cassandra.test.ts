import { describeCassandra, migratedClient } from '@nvcf/cassandra/test/harness';
import type { CassandraClient } from '@nvcf/cassandra';
import { createCassandraStatusStore } from '../src/index.js';
import { statusStoreContract } from './store.contract.js';

describeCassandra('cassandra', () => {
  let client: CassandraClient;
  beforeAll(async () => {
    client = await migratedClient('nvca_status');
  });
  afterAll(async () => client?.dispose());

  statusStoreContract('cassandra', async () => createCassandraStatusStore(client));
});
