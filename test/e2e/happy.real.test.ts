import { describeReal, startRealSystem } from '@nvcf/test';
import { happySuite } from './suites/happy.suite.js';

describeReal('NATS JetStream and Cassandra', () => happySuite('real', startRealSystem));
