import { describeReal, startRealSystem } from '@nvcf/test';
import { replicasSuite } from './suites/replicas.suite.js';

describeReal('NATS JetStream and Cassandra', () => replicasSuite('real', startRealSystem));
