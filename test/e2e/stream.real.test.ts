import { describeReal, startRealSystem } from '@nvcf/test';
import { streamSuite } from './suites/stream.suite.js';

describeReal('NATS JetStream and Cassandra', () => streamSuite('real', startRealSystem));
