import { startSystem } from '@nvcf/local';
import { happySuite } from './suites/happy.suite.js';

happySuite('embedded', (o) => startSystem(o));
