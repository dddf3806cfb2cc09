import { describeCassandra, migratedClient } from '@nvcf/cassandra/test/harness';
import type { CassandraClient } from '@nvcf/cassandra';
import { createCassandraTaskStore } from '../src/index.js';
import { taskStoreContract } from './store.contract.js';

describeCassandra('cassandra', () => {
  let client: CassandraClient;
  beforeAll(async () => {
    client = await migratedClient('nvct_api');
  });
  afterAll(async () => client?.dispose());

  taskStoreContract('cassandra', async () => createCassandraTaskStore(client));
});
