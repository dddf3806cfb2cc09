import type { SpecRecord } from '../src/model.js';

/** GPU specification 'spec' of deployment 'dep' (version 'ver' of function 'fn', tenant nca-a) with `instances` as its bounds. */
export const specOf = (instances: number): SpecRecord => ({
  id: 'spec',
  deploymentId: 'dep',
  versionId: 'ver',
  functionId: 'fn',
  ncaId: 'nca-a',
  gpu: 'L40S',
  instanceType: 't',
  minInstances: instances,
  maxInstances: instances,
  maxRequestConcurrency: 1,
  clusters: [],
  regions: [],
  attributes: [],
});
