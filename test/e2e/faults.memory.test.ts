import { startSystem } from '@nvcf/local';
import { faultsSuite } from './suites/faults.suite.js';

faultsSuite('embedded', (o) => startSystem(o));
