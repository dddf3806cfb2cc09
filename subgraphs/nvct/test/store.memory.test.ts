import { createMemoryTaskStore } from '../src/index.js';
import { taskStoreContract } from './store.contract.js';

taskStoreContract('memory', async () => createMemoryTaskStore());
