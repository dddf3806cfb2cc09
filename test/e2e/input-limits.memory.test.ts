import { startSystem } from '@nvcf/local';
import { inputLimitsSuite } from './suites/input-limits.suite.js';

inputLimitsSuite('embedded', (o) => startSystem(o));
