import { startSystem } from '@nvcf/local';
import { operatorsSuite } from './suites/operators.suite.js';

operatorsSuite('embedded', (o) => startSystem(o));
