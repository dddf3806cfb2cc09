import { startSystem } from '@nvcf/local';
import { replicasSuite } from './suites/replicas.suite.js';

replicasSuite('embedded', (o) => startSystem(o));
