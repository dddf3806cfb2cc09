import type { GraphQLResolveInfo } from 'graphql';
import type { StatusStream } from '@nvcf/status-stream';
import { createMemoryStatusStore } from '../src/store/index.js';
import { createLoaders, resolvers } from '../src/resolvers.js';

describe('nvca-status Instance reference', () => {
  const store = createMemoryStatusStore();
  const resolve = resolvers(store, {} as StatusStream).Instance!.__resolveReference!;
  const as = (tenant: string) => ({ tenant, loaders: createLoaders(store) });
  const ref = (id: string) => ({ __typename: 'Instance' as const, id });
  const info = {} as GraphQLResolveInfo;

  beforeAll(async () => {
    await store.record({
      instanceId: 'i-1',
      ncaId: 'nca-a',
      functionId: 'f',
      versionId: 'v',
      gpuSpecificationId: 's',
      clusterId: 'c',
      state: 'UPDATING',
      revisionId: 'r-1',
      targetRevisionId: 'r-2',
      updatedAt: '2025-01-01T00:00:00.000Z',
      clock: 1,
      seq: 1,
    });
  });
  afterAll(() => store.dispose());

  it("answers the reported state of the caller's instance", async () => {
    expect(await resolve(ref('i-1'), as('nca-a'), info)).toEqual({
      id: 'i-1',
      state: 'UPDATING',
      revisionId: 'r-1',
      targetRevisionId: 'r-2',
      updatedAt: '2025-01-01T00:00:00.000Z',
    });
  });

  it('is null for an id no agent has reported: no invented STARTING state', async () => {
    expect(await resolve(ref('never-reported'), as('nca-a'), info)).toBeNull();
  });

  it("is null for another tenant's instance", async () => {
    expect(await resolve(ref('i-1'), as('nca-b'), info)).toBeNull();
  });
});
