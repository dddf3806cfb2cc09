/** A started subgraph: its probes, and a drain that lets a request in flight finish. */
import { GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { signTenant, TENANT_HEADER } from '@nvcf/auth';
import { startSubgraph, type RunningSubgraph, type TenantContext } from '../src/index.js';

const secret = 'test-secret';
const name = 'kit-test';

describe('startSubgraph', () => {
  let reached: Promise<void>;
  let release: (value: string) => void;
  let ready: boolean;
  let sub: RunningSubgraph;

  beforeEach(async () => {
    ready = true;
    let arrived!: () => void;
    reached = new Promise((r) => (arrived = r));
    const schema = new GraphQLSchema({
      query: new GraphQLObjectType({
        name: 'Query',
        fields: {
          slow: {
            type: GraphQLString,
            resolve: () =>
              new Promise<string>((resolve) => {
                release = resolve;
                arrived();
              }),
          },
        },
      }),
    });
    sub = await startSubgraph<TenantContext>({
      name,
      schema,
      secret,
      context: (tenant) => ({ tenant }),
      ready: () => ready,
    });
  });
  afterEach(() => sub.dispose());

  const get = async (path: string) => {
    const r = await fetch(`${sub.url}${path}`);
    return { status: r.status, body: (await r.json()) as unknown };
  };
  const query = (assertion: string) =>
    fetch(sub.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [TENANT_HEADER]: assertion },
      body: JSON.stringify({ query: '{ slow }' }),
    });

  it('is ready once listening while the service agrees, starting while it does not', async () => {
    expect(await get('/health')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await get('/ready')).toEqual({ status: 200, body: { status: 'ready' } });
    ready = false;
    expect(await get('/ready')).toEqual({ status: 503, body: { status: 'starting' } });
  });

  it('drains: the request in flight gets its answer, later calls share the drain, then nothing listens', async () => {
    const answer = query(signTenant(secret, 't1', name));
    await reached;
    const drained = sub.drain(10_000);
    expect(sub.drain(10_000)).toBe(drained);
    release('done');
    const r = await answer;
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ data: { slow: 'done' } });
    await drained;
    await expect(fetch(`${sub.url}/health`)).rejects.toThrow();
  });

  it('refuses a request asserted with another secret', async () => {
    const r = await query(signTenant('other', 't1', name));
    expect(r.status).toBe(401);
  });
});
