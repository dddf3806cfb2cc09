import { createMemoryStatusStore } from '../src/index.js';
import { statusStoreContract } from './store.contract.js';

statusStoreContract('memory', async () => createMemoryStatusStore());
