import { startSystem } from '@nvcf/local';
import { streamSuite } from './suites/stream.suite.js';

streamSuite('embedded', (o) => startSystem(o));
