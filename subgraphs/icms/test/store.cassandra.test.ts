import { describeCassandra, migratedClient } from '@nvcf/cassandra/test/harness';
import type { CassandraClient } from '@nvcf/cassandra';
import { createCassandraIcmsStore } from '../src/index.js';
import { icmsStoreContract } from './store.contract.js';

describeCassandra('cassandra', () => {
  let client: CassandraClient;
  beforeAll(async () => {
    client = await migratedClient('icms_api');
  });
  afterAll(async () => client?.dispose());

  icmsStoreContract('cassandra', async () => createCassandraIcmsStore(client));
});
