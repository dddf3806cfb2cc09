import { createMemoryNvcfStore } from '../src/index.js';
import { nvcfStoreContract } from './store.contract.js';

nvcfStoreContract('memory', async () => createMemoryNvcfStore());
