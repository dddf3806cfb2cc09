import { describeReal, startRealSystem } from '@nvcf/test';
import { tasksSuite } from './suites/tasks.suite.js';

describeReal('NATS JetStream and Cassandra', () => {
  tasksSuite('real', startRealSystem);
});
