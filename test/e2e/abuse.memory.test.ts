import { startSystem } from '@nvcf/local';
import { abuseSuite } from './suites/abuse.suite.js';

abuseSuite('embedded', (o) => startSystem(o));
