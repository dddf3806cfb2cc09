import { describeReal, startRealSystem } from '@nvcf/test';
import { updatesSuite } from './suites/updates.suite.js';

describeReal('NATS JetStream and Cassandra', () => updatesSuite('real', startRealSystem));
