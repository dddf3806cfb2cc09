import { createMemoryBus } from '../src/index.js';
import { busContract } from './bus.contract.js';

busContract('memory', async () => createMemoryBus());
