import { describeReal, startRealSystem } from '@nvcf/test';
import { operatorsSuite } from './suites/operators.suite.js';

describeReal('NATS JetStream and Cassandra', () => operatorsSuite('real', startRealSystem));
