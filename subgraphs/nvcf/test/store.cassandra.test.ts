import { describeCassandra, migratedClient } from '@nvcf/cassandra/test/harness';
import type { CassandraClient } from '@nvcf/cassandra';
import { createCassandraNvcfStore } from '../src/index.js';
import { nvcfStoreContract } from './store.contract.js';

describeCassandra('cassandra', () => {
  let client: CassandraClient;
  beforeAll(async () => {
    client = await migratedClient('nvcf_api');
  });
  afterAll(async () => client?.dispose());

  nvcfStoreContract('cassandra', async () => createCassandraNvcfStore(client));
});
