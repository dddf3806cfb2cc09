import { startSystem } from '@nvcf/local';
import { tasksSuite } from './suites/tasks.suite.js';

tasksSuite('embedded', (o) => startSystem(o));
