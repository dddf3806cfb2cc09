/** Internal calls: a callee whose own dependency is down answers UNAVAILABLE, a bug stays internal. */
import { GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { signTenant, rpcAudience, TENANT_HEADER } from '@nvcf/auth';
import { fail, isOutage } from '@nvcf/errors';
import { rpcClient, startSubgraph, type RunningSubgraph, type TenantContext } from '../src/index.js';

const secret = 'test-secret';
const name = 'kit-rpc-test';

class PublishFailed extends Error {
  override name = 'PublishFailed';
}

describe('internal calls', () => {
  let sub: RunningSubgraph;
  beforeAll(async () => {
    const schema = new GraphQLSchema({
      query: new GraphQLObjectType({ name: 'Query', fields: { ok: { type: GraphQLString, resolve: () => 'ok' } } }),
    });
    sub = await startSubgraph<TenantContext>({
      name,
      schema,
      secret,
      context: (tenant) => ({ tenant }),
      rpc: {
        publish: async () => {
          throw new PublishFailed('publish to Create.NVCA.c1 failed: timeout', { cause: new Error('timeout') });
        },
        bug: async () => {
          throw new TypeError("Cannot read properties of undefined (reading 'id')");
        },
        echo: async (_tenant: string, input: unknown) => input,
        down: async () => {
          throw fail('UNAVAILABLE', 'the store is unavailable; retry later');
        },
      },
    });
  });
  afterAll(() => sub.dispose());
  const call = () => rpcClient(() => sub.url, secret, name);

  it('answers a result', async () => {
    await expect(call()('t1', 'echo', { a: 1 })).resolves.toEqual({ a: 1 });
  });

  it("answers an outage of the callee's dependency as UNAVAILABLE, with what failed", async () => {
    const r = await fetch(`${sub.url}/internal/rpc/publish`, { method: 'POST', body: '{}' });
    expect(r.status).toBe(401); // unsigned: refused before the handler runs
    const err = (await call()('t1', 'publish', {}).catch((e: unknown) => e)) as Error & {
      extensions: { code: string };
    };
    expect(err.extensions.code).toBe('UNAVAILABLE');
    expect(err.message).toBe('publish: PublishFailed: publish to Create.NVCA.c1 failed: timeout; retry later');
    expect(isOutage(err)).toBe(true);
  });

  it('answers 503 for an outage, whether the handler classified it or it was an error of its dependency', async () => {
    const post = (method: string) =>
      fetch(`${sub.url}/internal/rpc/${method}`, {
        method: 'POST',
        headers: { [TENANT_HEADER]: signTenant(secret, 't1', rpcAudience(name)) },
        body: '{}',
      });
    for (const method of ['down', 'publish']) expect((await post(method)).status).toBe(503);
    expect((await post('bug')).status).toBe(500);
  });

  it('keeps a bug internal: its message is not sent to the caller', async () => {
    const err = (await call()('t1', 'bug', {}).catch((e: unknown) => e)) as Error;
    expect(err.message).toBe('internal error');
  });
});
