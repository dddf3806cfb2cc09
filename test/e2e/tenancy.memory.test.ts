import { startSystem } from '@nvcf/local';
import { tenancySuite } from './suites/tenancy.suite.js';
import { badInputSuite } from './suites/bad-input.suite.js';

tenancySuite('embedded', (o) => startSystem(o));
badInputSuite('embedded', (o) => startSystem(o));
