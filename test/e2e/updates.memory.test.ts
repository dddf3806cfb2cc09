import { startSystem } from '@nvcf/local';
import { updatesSuite } from './suites/updates.suite.js';

updatesSuite('embedded', (o) => startSystem(o));
