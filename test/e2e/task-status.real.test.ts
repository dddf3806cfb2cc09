import { describeReal, startRealSystem } from '@nvcf/test';
import { taskStatusSuite } from './suites/task-status.suite.js';

describeReal('NATS JetStream and Cassandra', () => {
  taskStatusSuite('real', startRealSystem);
});
