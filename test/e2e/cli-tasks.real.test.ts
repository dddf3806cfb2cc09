import { describeReal, startRealSystem } from '@nvcf/test';
import { cliTasksSuite } from './suites/cli-tasks.suite.js';

describeReal('NATS JetStream and Cassandra', () => {
  cliTasksSuite('real', startRealSystem);
});
