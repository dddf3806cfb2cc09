import { startSystem } from '@nvcf/local';
import { taskStatusSuite } from './suites/task-status.suite.js';

taskStatusSuite('embedded', (o) => startSystem(o));
