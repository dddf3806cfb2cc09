// npm run test:cluster: the node-failure tests on a 3-node NATS cluster and Cassandra ring. Apart from
// `npm test` (they take the cluster's nodes down one at a time, so they run alone, in band); `.ci/run`
// runs it after `npm test`. The global setup starts the cluster (services:up -- cluster) unless it runs, and stops it
// after only when it started it.
import base from './jest.config.js';

const project = base.projects[0];
export default {
  ...project,
  displayName: 'cluster',
  testMatch: ['<rootDir>/test/cluster/*.cluster.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  testTimeout: 420_000,
  maxWorkers: 1,
  globalSetup: '<rootDir>/test/cluster/global-setup.ts',
  globalTeardown: '<rootDir>/test/services/jest-global-teardown.ts',
};
