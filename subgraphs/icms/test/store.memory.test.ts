import { createMemoryIcmsStore } from '../src/index.js';
import { icmsStoreContract } from './store.contract.js';

icmsStoreContract('memory', async () => createMemoryIcmsStore());
