import { describeReal, startRealSystem } from '@nvcf/test';
import { tenancySuite } from './suites/tenancy.suite.js';
import { badInputSuite } from './suites/bad-input.suite.js';

describeReal('NATS JetStream and Cassandra', () => {
  tenancySuite('real', startRealSystem);
  badInputSuite('real', startRealSystem);
});
