// Native ESM in jest (the gateway and NATS clients are ESM-first); swc strips types only.
const swc = [
  '@swc/jest',
  { jsc: { parser: { syntax: 'typescript', decorators: false }, target: 'es2022' }, module: { type: 'es6' } },
];
const base = {
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testEnvironment: 'node',
  // workspace packages resolve to their TypeScript sources (the `source` export condition); dist/ is for production
  testEnvironmentOptions: { customExportConditions: ['source', 'node', 'node-addons'] },
  setupFiles: ['<rootDir>/test/jest.setup.ts'],
};
export default {
  projects: [
    {
      ...base,
      displayName: 'unit',
      testMatch: [
        '<rootDir>/{lib,schema,client,cli,console,subgraphs,agent,webhook,gateway,ops}/**/*.test.ts',
        '<rootDir>/bench/*/test/*.test.ts',
        '<rootDir>/deploy/local/test/*.test.ts',
      ],
      testPathIgnorePatterns: ['/node_modules/'],
    },
    {
      ...base,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/deploy/helm/test/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/'],
    },
  ],
  testTimeout: 60000,
  // One worker on two cores would run in band: the ESM module graphs of ~185 files then accumulate in one
  // heap until it runs out. A worker is recycled after any file that leaves it above this.
  workerIdleMemoryLimit: '1536MB',
  // real NATS and Cassandra for the run (skipped with NVCF_TEST_BACKENDS=memory); stops only what it started
  globalSetup: '<rootDir>/test/services/jest-global-setup.ts',
  globalTeardown: '<rootDir>/test/services/jest-global-teardown.ts',
};
